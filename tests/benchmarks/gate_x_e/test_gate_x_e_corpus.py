"""GATE X-E's corpus tables (Table 4, Figure 3's data), the f/m swap detector, and the error
types of Table 3, on hand-made cases and on the real published files."""

from __future__ import annotations

import pandas as pd
import pytest

from gendermt.benchmarks.gate_x_e.corpus import build_corpus, label_counts, lengths
from gendermt.benchmarks.gate_x_e.data import build, data_files, load_files
from gendermt.benchmarks.gate_x_e.errors import error_table, error_words, table3
from gendermt.benchmarks.gate_x_e.swapped import flag, kind_of

from ...conftest import ROOT

REAL_ROOT = ROOT.parent / "shared" / "data" / "gate-x-e"
LANGS = ["turkish", "finnish", "hungarian", "farsi"]
HAND_FOUND = {"tr-0031", "tr-0060", "tr-0186", "tr-0902", "fi-1500", "fi-1607", "hu-0408",
              "hu-0989", "fa-0131"}
real = pytest.mark.skipif(not REAL_ROOT.exists(), reason="../shared/data/gate-x-e not here")


@pytest.fixture(scope="module")
def instances():
    return load_files(data_files(REAL_ROOT, LANGS))


def test_swap_kinds():
    assert kind_of("It is hard for him.", "It is hard for her.") == "swapped"
    assert kind_of("She's got a boyfriend.", "He's got a girlfriend.") == "mixed"
    assert kind_of("She's got a girlfriend.", "He's got a boyfriend.") is None
    # a non-AGME's pronoun the same in both columns is not read
    assert kind_of("She told his wife.", "He told his wife.") is None


@real
def test_the_detector_finds_the_nine_instances_found_by_hand(instances):
    flagged = flag(instances)
    assert set(flagged["instance_id"]) == HAND_FOUND
    kinds = dict(zip(flagged["instance_id"], flagged["kind"], strict=True))
    assert kinds["tr-0060"] == kinds["tr-0902"] == "mixed"
    assert kinds["hu-0989"] == "swapped"


@real
def test_exclude_swapped_leaves_their_tuples_out(tmp_path):
    paths = data_files(REAL_ROOT, ["turkish"])
    out = {k: tmp_path / f"{k}.parquet" for k in ("items", "tuples")}
    build(paths, out["items"], out["tuples"], tmp_path / "kept.json")
    kept = pd.read_parquet(out["tuples"])
    build(paths, out["items"], out["tuples"], tmp_path / "dropped.json", exclude_swapped=True)
    dropped = pd.read_parquet(out["tuples"])
    gone = set(kept["instance_id"]) - set(dropped["instance_id"])
    assert gone == {i for i in HAND_FOUND if i.startswith("tr-")}
    assert len(kept) - len(dropped) == int(kept["instance_id"].isin(gone).sum()) > 0
    import json

    info = json.loads((tmp_path / "dropped.json").read_text())["swapped_or_mixed_fm"]
    assert info["excluded"] is True and len(info["instances"]) == 4


@real
def test_table_4_matches_the_paper_where_the_files_agree(instances):
    table = label_counts(instances).set_index("label")
    assert list(table.columns[:2]) == ["tr", "tr (paper)"]
    totals = table.loc["total instance count"]
    for lang in ("tr", "fa", "fi", "hu"):
        assert totals[lang] == totals[f"{lang} (paper)"]
    assert table.loc["1 AGME", "fi"] == 1164 == table.loc["1 AGME", "fi (paper)"]
    assert table.loc["source_gendered_noun_target_pronoun", "hu"] == 33
    # labels the paper does not print come after its own, with no paper figure
    assert pd.isna(table.loc["Positive 1", "tr (paper)"]) and table.loc["Positive 1", "tr"] > 0


@real
def test_corpus_stage_writes_table_4_the_warning_table_and_figure_3(tmp_path, instances):
    names = {"corpus": "corpus.csv", "corpus_md": "corpus.md", "swapped": "swapped.csv",
             "swapped_md": "swapped.md", "lengths_png": "lengths.png",
             "lengths_pdf": "lengths.pdf"}
    outputs = {k: str(tmp_path / v) for k, v in names.items()}
    build_corpus(data_files(REAL_ROOT, LANGS), outputs)
    assert set(pd.read_csv(outputs["swapped"])["instance_id"]) == HAND_FOUND
    md = (tmp_path / "corpus.md").read_text()
    assert "<NA>" not in md and "nan" not in md
    assert (tmp_path / "lengths.png").stat().st_size > 10_000
    means = lengths(instances).groupby("language")[["source_words", "target_words"]].mean()
    # the paper: Finnish → English has the longest sentences
    assert means.idxmax().tolist() == ["fi", "fi"]


def test_error_words_by_type():
    original = "She told her brother that she was tired."
    reference = "They told their brother that they were tired."
    # missing: one pronoun left; extraneous: a noun changed that should stay
    rewrite = "They told her sibling that they were tired."
    counts = error_words(original, reference, rewrite)
    assert counts["missing pronoun change"] == 1
    assert counts["extraneous noun change"] == 1
    # the verb agreement the reference changes is an "other" word
    assert error_words(original, reference, "They told their brother that they was tired."
                       )["missing other change"] == 1
    assert error_words(original, reference, reference) == {}
    # changed, but into the wrong form: a missing change, and a wrong form
    wrong = error_words("I helped her.", "I helped him.", "I helped his.")
    assert wrong == {"missing pronoun change": 1, "wrong pronoun form": 1}


def test_error_table_percentages_and_undefined_cells():
    scored = pd.DataFrame([
        {"tuple_id": "a", "language": "tr", "category": "Pronoun-Only",
         "requested_gender": "masculine", "original": "She runs.", "reference": "He runs.",
         "rewrite": "She runs.", "match": False},
        {"tuple_id": "b", "language": "tr", "category": "Negative",
         "requested_gender": "neutral", "original": "The man ran.", "reference": "The man ran.",
         "rewrite": "The person ran.", "match": False},
        {"tuple_id": "c", "language": "tr", "category": "Gendered-Noun",
         "requested_gender": "feminine", "original": "He ran.", "reference": "She ran.",
         "rewrite": "", "match": False},
    ])
    long = error_table(scored).set_index(["subset", "request", "error_type"])
    assert long.loc[("Pronoun-Only", "Gen", "missing pronoun change"), "percent"] == 100.0
    assert long.loc[("Negative", "Neut", "extraneous noun change"), "percent"] == 100.0
    assert pd.isna(long.loc[("Negative", "Neut", "missing noun change"), "errors"])
    assert long.loc[("Gendered-Noun", "Gen", "no rewrite"), "errors"] == 1
    wide = table3(error_table(scored)).set_index("error type")
    assert wide.loc["total errors", "Pronoun-Only Gen"] == 1
    assert wide.loc["wrong tuples", "Gendered-Noun Gen"] == 1
