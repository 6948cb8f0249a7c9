"""A local model folder's identity (issue 32, "What stops or misleads a user today" item 4):
the hash of its files, so that a changed chat template, tokenizer or weights at the same path
is never answered from the request cache; memoised, so that a folder is read once."""

import json

import pytest

from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.backends import build_backend, model_folder
from gendermt.translation.runner import translate_file

from .. import tiny_models

HF_EXTRA = "needs the hf extra: pip install -e '.[hf]'"
pytest.importorskip("torch", reason=HF_EXTRA)


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


def template_file(folder):
    """Where the folder's chat template lives (transformers writes chat_template.jinja, or
    older ones tokenizer_config.json)."""
    jinja = folder / "chat_template.jinja"
    return jinja if jinja.exists() else folder / "tokenizer_config.json"


def test_a_changed_chat_template_is_not_served_from_the_cache(tmp_path, sample_data):
    model = tiny_models.build_causal(tmp_path / "model")
    data = tmp_path / "data.parquet"
    rows = sample_data.drop_duplicates("source").head(3)
    rows.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": [{"role": "user", "content": r.source}]}
                         for r in rows.itertuples()))
    settings = {"backend": "hf-causal", "model": str(model), "max_new_tokens": 3}
    out, meta = tmp_path / "t" / "baseline.jsonl", tmp_path / "t" / "baseline.meta.json"

    def run():
        out.unlink(missing_ok=True)
        translate_file(inputs, data, "m", settings, out, meta, cache_dir=tmp_path / "cache",
                       threads=1)
        return json.loads(meta.read_text())

    assert run()["requests_sent"] == 3
    assert run()["requests_sent"] == 0  # the same folder: from the cache
    (model / "README.md").write_text("notes")  # documentation changes no output
    assert run()["requests_sent"] == 0
    template = template_file(model)
    template.write_text(template.read_text().replace("assistant", "bot"))
    info = run()
    assert info["requests_sent"] == 3 and info["cached_items"] == 0
    assert info["backend"]["folder_sha256"]
    assert len(read_jsonl(out)) == 3


def test_the_folder_hash_is_memoised_and_follows_every_file(tmp_path, monkeypatch):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"w" * 1000)
    (folder / "tokenizer.json").write_text("{}")
    first = model_folder.folder_sha256(folder)
    read = []
    original = model_folder._sha256_file
    monkeypatch.setattr(model_folder, "_sha256_file", lambda p: read.append(p) or original(p))
    assert model_folder.folder_sha256(folder) == first and read == []  # memoised
    (folder / "tokenizer.json").write_text('{"a": 1}')
    assert model_folder.folder_sha256(folder) != first
    assert read == [str((folder / "tokenizer.json").resolve())]
    (folder / ".hidden").write_text("x")
    (folder / "LICENSE").write_text("x")
    assert model_folder.folder_sha256(folder) == model_folder.folder_sha256(folder)


def test_a_converted_gguf_folder_is_its_recorded_sha256(tmp_path):
    from gendermt.translation.backends.gguf import COMPLETE

    folder = tmp_path / "converted"
    folder.mkdir()
    (folder / COMPLETE).write_text(json.dumps({"gguf": "x.gguf", "sha256": "ab" * 32}))
    (folder / "model.safetensors").write_bytes(b"w")
    assert model_folder.folder_sha256(folder) == "gguf-" + "ab" * 32


def test_a_folder_systems_identity_holds_its_hash(tmp_path):
    model = tiny_models.build_causal(tmp_path / "model")
    backend = build_backend({"backend": "hf-causal", "model": str(model)}, None)
    assert backend.identity()["folder_sha256"] == model_folder.folder_sha256(model)
