"""One multilingual NMT system (hf-seq2seq) translates into every language of a study: each
request's target language is asked of the model as its family wants (a forced first token
for NLLB-200, M2M-100 and mBART-50, a tag before the source for MADLAD-400 and OPUS-MT),
read from its tokenizer; a language the model does not know is a clear error, before
anything is generated. Tiny random NLLB and M2M-100 models are built here, offline, with
their own tokenizer classes."""

import pandas as pd
import pytest

from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError
from gendermt.translation.backends import Request, build_backend

from .. import tiny_models

HF_EXTRA = "needs the hf extra: pip install -e '.[hf]'"
pytest.importorskip("torch", reason=HF_EXTRA)
pytest.importorskip("transformers", reason=HF_EXTRA)


@pytest.fixture(autouse=True)
def hub_off(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def nllb_dir(tmp_path_factory):
    return tiny_models.build_nllb(tmp_path_factory.mktemp("nllb") / "m")


@pytest.fixture(scope="module")
def m2m_dir(tmp_path_factory):
    pytest.importorskip("sentencepiece", reason=HF_EXTRA)
    return tiny_models.build_m2m100(tmp_path_factory.mktemp("m2m") / "m")


REQUESTS = [Request("a", "the nurse said she will come", [], "en", "fr"),
            Request("b", "the doctor", [], "en", "de"),
            Request("c", "they will come tomorrow", [], "en", "fr"),
            Request("d", "the engineer", [], "en", "it")]


def spy_generate(backend):
    calls = []
    generate = backend.model.generate

    def spy(**kwargs):
        calls.append({"forced": kwargs.get("forced_bos_token_id"),
                      "rows": kwargs["input_ids"].shape[0],
                      "first": kwargs["input_ids"][:, 0].tolist(),
                      "ids": kwargs["input_ids"].tolist()})
        return generate(**kwargs)

    backend.model.generate = spy
    return calls


@pytest.mark.parametrize("build, codes", [
    ("nllb", {"fr": "fra_Latn", "de": "deu_Latn", "it": "ita_Latn", "en": "eng_Latn"}),
    ("m2m100", {"fr": "__fr__", "de": "__de__", "it": "__it__", "en": "__en__"})])
def test_each_request_is_translated_into_its_own_language(build, codes, nllb_dir, m2m_dir):
    model = {"nllb": nllb_dir, "m2m100": m2m_dir}[build]
    backend = build_backend({"backend": "hf-seq2seq", "model": str(model),
                             "max_new_tokens": 5}, None)
    calls = spy_generate(backend)
    outputs = backend.translate(REQUESTS)
    tok = backend.tokenizer
    assert backend.family == build
    ids = {lang: tok.convert_tokens_to_ids(code) for lang, code in codes.items()}
    # one generate call per target language, its code forced as the first token
    assert sorted((c["forced"], c["rows"]) for c in calls) == sorted(
        [(ids["fr"], 2), (ids["de"], 1), (ids["it"], 1)])
    # the source is marked English, as the model's tokenizer does it
    assert all(first == ids["en"] for c in calls for first in c["first"])
    assert len(outputs) == 4 and backend.finish_reasons and backend.generated_tokens > 0
    # order kept: each request alone gives what the mixed batch gave
    assert [backend.translate([r])[0] for r in REQUESTS] == outputs


def test_a_language_the_model_does_not_know_is_a_clear_error(nllb_dir, m2m_dir):
    for model in (nllb_dir, m2m_dir):
        backend = build_backend({"backend": "hf-seq2seq", "model": str(model)}, None)
        with pytest.raises(GenderMTError, match=r"has no language code for the target "
                                                r"language 'xx' \(its codes: .*\); map it "
                                                r"in the system's `lang_codes`"):
            backend.translate([Request("a", "the nurse", [], "en", "xx")])
    # known from the data, before anything is generated
    data = pd.DataFrame({"item_id": ["a", "b"], "src_lang": ["en", "en"],
                         "tgt_lang": ["fr", "tlh"]})
    backend = build_backend({"backend": "hf-seq2seq", "model": str(nllb_dir)}, data)
    with pytest.raises(GenderMTError, match="target language 'tlh'"):
        backend.load()


def test_lang_codes_map_the_datas_codes_to_the_models(nllb_dir):
    backend = build_backend({"backend": "hf-seq2seq", "model": str(nllb_dir),
                             "lang_codes": {"fr": "fra_Latn", "xx": "oci_Latn"},
                             "max_new_tokens": 3}, None)
    calls = spy_generate(backend)
    backend.translate([Request("a", "the nurse", [], "en", "xx")])
    assert calls[0]["forced"] == backend.tokenizer.convert_tokens_to_ids("oci_Latn")
    with pytest.raises(GenderMTError, match="lang_codes must map"):
        check_system({"backend": "hf-seq2seq", "model": "m", "lang_codes": ["fr"]})


def test_a_fixed_pair_and_a_one_pair_model_are_as_before(nllb_dir, tmp_path):
    fixed = build_backend({"backend": "hf-seq2seq", "model": str(nllb_dir),
                           "tgt_lang": "deu_Latn", "max_new_tokens": 3}, None)
    calls = spy_generate(fixed)
    fixed.translate(REQUESTS)
    deu = fixed.tokenizer.convert_tokens_to_ids("deu_Latn")
    assert [(c["forced"], c["rows"]) for c in calls] == [(deu, 4)]
    marian = tiny_models.build_seq2seq(tmp_path / "marian")
    one = build_backend({"backend": "hf-seq2seq", "model": str(marian),
                         "max_new_tokens": 3}, None)
    calls = spy_generate(one)
    one.translate(REQUESTS)
    assert one.family is None and [(c["forced"], c["rows"]) for c in calls] == [(None, 4)]


def test_a_tag_before_the_source_for_madlad_style_models(tmp_path):
    model = tiny_models.build_seq2seq(tmp_path / "madlad", lang_codes=("<2fr>", "<2de>"))
    backend = build_backend({"backend": "hf-seq2seq", "model": str(model),
                             "max_new_tokens": 3}, None)
    calls = spy_generate(backend)
    backend.translate(REQUESTS[:2])
    tok = backend.tokenizer
    assert backend.family == "madlad"
    tags = sorted(c["ids"][0][0] for c in calls)
    assert tags == sorted(tok.convert_tokens_to_ids(["<2fr>", "<2de>"]))
    assert all(c["forced"] is None for c in calls)


def test_an_unknown_target_language_is_refused_before_the_weights_load(nllb_dir, monkeypatch):
    """Issue 51 item 9: the data's languages are checked on the tokenizer; the weights'
    loader is never called, and the message names the system, the language and the codes."""
    data = pd.DataFrame({"item_id": ["a", "b"], "src_lang": ["en", "en"],
                         "tgt_lang": ["fr", "tlh"]})
    backend = build_backend({"backend": "hf-seq2seq", "model": str(nllb_dir)}, data)
    backend.system_name = "my-nllb"

    class NoWeights:
        @staticmethod
        def from_pretrained(*args, **kwargs):
            raise AssertionError("the weights were loaded")

    monkeypatch.setattr(backend, "_model_class", lambda: NoWeights)
    with pytest.raises(GenderMTError, match=r"^system my-nllb: .*target language 'tlh' "
                                            r"\(its codes: [a-z]{3}_[A-Z][a-z]{3}, "):
        backend.load()


def test_the_job_names_its_system_to_the_backend(nllb_dir, tmp_path):
    from gendermt.translation.runner import translate_records

    data = pd.DataFrame({"item_id": ["a"], "src_lang": ["en"], "tgt_lang": ["tlh"]})
    backend = build_backend({"backend": "hf-seq2seq", "model": str(nllb_dir)}, data)
    records = [{"item_id": "a", "source": "x", "messages": [], "src_lang": "en",
                "tgt_lang": "tlh", "prompt": "p"}]
    with pytest.raises(GenderMTError, match=r"^system nmt-x: .*'tlh'"):
        translate_records(records, backend, "nmt-x", tmp_path / "o.jsonl", tmp_path / "m.json")
