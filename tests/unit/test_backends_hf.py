"""hf-seq2seq and hf-causal on tiny random-weight models built here, with the Hub off."""

import json
import re
import time

import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.data.io import logging_to, read_jsonl, write_jsonl
from gendermt.translation.backends import Request, build_backend, system_gpus
from gendermt.translation.runner import translate_file

from .. import tiny_models

HF_EXTRA = "needs the hf extra: pip install -e '.[hf]'"
pytest.importorskip("torch", reason=HF_EXTRA)
pytest.importorskip("transformers", reason=HF_EXTRA)


@pytest.fixture(autouse=True)
def hub_off(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path_factory.getbasetemp() / "empty-hf-cache"))


@pytest.fixture(scope="session")
def seq2seq_dir(tmp_path_factory):
    return tiny_models.build_seq2seq(tmp_path_factory.mktemp("s2s"), lang_codes=("fra_Latn",))


@pytest.fixture(scope="session")
def causal_dir(tmp_path_factory):
    return tiny_models.build_causal(tmp_path_factory.mktemp("clm"))


def chat(text, system=None):
    turns = [{"role": "system", "content": system}] if system else []
    return turns + [{"role": "user", "content": f"Translate into French: {text}"}]


REQUESTS = [Request(f"i{n}", text, chat(text, "You translate.")) for n, text in enumerate([
    "the nurse said she will come tomorrow", "the doctor", "they will come",
    "the engineer said he will come tomorrow into the sentence following"])]


def test_settings_and_defaults():
    assert system_gpus({"backend": "hf-causal", "model": "x"}) == 1
    assert system_gpus({"backend": "hf-seq2seq", "model": "x", "gpus": 0}) == 0
    check_system({"backend": "hf-seq2seq", "model": "facebook/nllb-200-distilled-600M",
                  "revision": "main", "src_lang": "eng_Latn", "tgt_lang": "fra_Latn",
                  "num_beams": 4, "max_new_tokens": 64, "dtype": "bfloat16", "batch_size": 8})
    check_system({"backend": "hf-causal", "model": "m", "temperature": 0.7, "top_p": 0.9,
                  "max_new_tokens": 64, "dtype": "auto", "revision": "abc"})
    with pytest.raises(GenderMTError, match="dtype must be one of"):
        check_system({"backend": "hf-causal", "model": "m", "dtype": "int3"})
    with pytest.raises(GenderMTError, match=r"needs \['model'\]"):
        check_system({"backend": "hf-seq2seq"})
    with pytest.raises(GenderMTError, match=r"no setting\(s\) \['num_beams'\]"):
        check_system({"backend": "hf-causal", "model": "m", "num_beams": 4})


def test_missing_weights_offline_fail_at_once_naming_the_model():
    start = time.perf_counter()
    with pytest.raises(MissingResourceError) as err:
        build_backend({"backend": "hf-causal", "model": "google/gemma-2-2b-it",
                       "revision": "abc123"}, None)
    assert time.perf_counter() - start < 5
    message = str(err.value)
    assert "google/gemma-2-2b-it" in message and "abc123" in message
    assert "HF_HUB_OFFLINE" in message and "hf download" in message and "local folder" in message


def test_seq2seq_translates_on_cpu_in_float32(seq2seq_dir):
    backend = build_backend({"backend": "hf-seq2seq", "model": str(seq2seq_dir),
                             "max_new_tokens": 6}, None)
    device, dtype = backend._device_and_dtype()
    import torch

    if not torch.cuda.is_available():
        assert (device.type, dtype) == ("cpu", torch.float32)
    outputs = backend.translate(REQUESTS)
    assert len(outputs) == len(REQUESTS) and all(isinstance(o, str) for o in outputs)
    # batched and one at a time agree (padding does not leak into the outputs)
    assert [backend.translate([r])[0] for r in REQUESTS] == outputs
    assert backend.count_tokens(["the nurse"]) >= 2


def test_seq2seq_forces_the_target_language(seq2seq_dir):
    backend = build_backend({"backend": "hf-seq2seq", "model": str(seq2seq_dir),
                             "tgt_lang": "fra_Latn", "max_new_tokens": 4}, None)
    outputs = backend.translate(REQUESTS[:2])
    assert all(o.startswith("fra_Latn") for o in outputs), outputs
    wrong = build_backend({"backend": "hf-seq2seq", "model": str(seq2seq_dir),
                           "tgt_lang": "deu_Latn"}, None)
    with pytest.raises(GenderMTError, match="no language code 'deu_Latn'"):
        wrong.translate(REQUESTS[:1])


def test_causal_batches_with_left_padding_and_stops_at_end_of_turn(causal_dir):
    backend = build_backend({"backend": "hf-causal", "model": str(causal_dir),
                             "max_new_tokens": 8, "temperature": 0}, None)
    outputs = backend.translate(REQUESTS)
    assert backend.tokenizer.padding_side == "left"
    assert backend.tokenizer.convert_tokens_to_ids("<|end|>") in backend.stop_ids
    assert backend.tokenizer.eos_token_id in backend.stop_ids
    # greedy, so batched generation gives what one-at-a-time gives
    assert [backend.translate([r])[0] for r in REQUESTS] == outputs
    rendered = backend.render(REQUESTS[0])
    assert rendered.startswith("<s><|system|>You translate.<|end|><|user|>")
    assert rendered.endswith("<|assistant|>")


def test_generation_stops_at_the_end_of_the_turn(tmp_path):
    model = tiny_models.build_causal(tmp_path / "ends", ends_turn_at_once=True)
    backend = build_backend({"backend": "hf-causal", "model": str(model),
                             "max_new_tokens": 20}, None)
    end = backend.tokenizer.convert_tokens_to_ids("<|end|>")
    assert end == 0 and end != backend.tokenizer.eos_token_id
    generated = []
    generate = backend.model.generate

    def spy(**kwargs):
        out = generate(**kwargs)
        generated.append(out.shape[1] - kwargs["input_ids"].shape[1])
        return out

    backend.model.generate = spy
    assert backend.translate(REQUESTS) == [""] * len(REQUESTS)
    assert generated == [1]  # <|end|>, then nothing: not 20 tokens


def test_causal_sampling_is_seeded(causal_dir):
    settings = {"backend": "hf-causal", "model": str(causal_dir), "max_new_tokens": 8,
                "temperature": 1.5, "top_p": 0.95, "seed": 3}
    first = build_backend(settings, None).translate(REQUESTS)
    assert build_backend(settings, None).translate(REQUESTS) == first


def test_translate_file_with_a_real_backend(tmp_path, causal_dir, sample_data):
    data = tmp_path / "data.parquet"
    sample_data.head(12).to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": chat(r.source)} for r in sample_data.head(12).itertuples()))
    out, meta = tmp_path / "t" / "baseline.jsonl", tmp_path / "t" / "baseline.meta.json"
    settings = {"backend": "hf-causal", "model": str(causal_dir), "max_new_tokens": 6,
                "batch_size": 5}
    with logging_to(tmp_path / "job.log"):
        translate_file(inputs, data, "tiny", settings, out, meta, ["first_line"],
                       cache_dir=tmp_path / "cache")
    log = (tmp_path / "job.log").read_text()
    assert re.search(r"throughput tiny: \d+ requests sent in [\d.]+ s: [\d.]+ items/s, "
                     r"[\d.]+ tokens/s", log), log
    assert "translate tiny: 12/12 items (100%)" in log  # the progress line, with its rate
    records = read_jsonl(out)
    assert [r["item_id"] for r in records] == list(sample_data.head(12)["item_id"])
    info = json.loads(meta.read_text())
    # rows with the same source are the same request, sent once
    assert info["requests_sent"] == sample_data.head(12)["source"].nunique() < 12
    assert info["items_per_second"] > 0
    assert info["output_tokens"] > 0 and info["tokens_per_second"] > 0
    assert info["backend"]["model"] == str(causal_dir)
    assert info["resolved"]["device"] in ("cpu", "cuda") and info["resolved"]["dtype"]
