"""The rule-based English pronoun rewriter: unit cases, the backend, and its accuracy on
GATE X-E's real pronoun-only pairs (../shared/data/gate-x-e/*/pre_processed)."""

from __future__ import annotations

import pandas as pd
import pytest

from gendermt.benchmarks.gate_x_e.parse import parse_answer
from gendermt.benchmarks.gate_x_e.pronoun_only import load_pairs, measure
from gendermt.core.backends import check_system
from gendermt.core.errors import DatasetError, GenderMTError
from gendermt.translation.backends import BACKENDS, Request, build_backend
from gendermt.translation.rewriting.english_pronouns import (
    gendered_rewrite,
    neutral_rewrite,
    rewrite_all,
    tokenize,
)

from ..conftest import ROOT

REAL = ROOT.parent / "shared" / "data" / "gate-x-e"


@pytest.mark.parametrize("original,neutral", [
    ("She is as busy as a bee.", "They are as busy as a bee."),
    ("He runs every morning.", "They run every morning."),
    ("She always watches TV.", "They always watch TV."),
    ("He tries hard.", "They try hard."),
    ("Does she come here every week?", "Do they come here every week?"),
    ("Is he famous?", "Are they famous?"),
    ("It is she.", "It is they."),
    ("She doesn't know.", "They don't know."),
    ("She's been there.", "They've been there."),
    ("He's tired.", "They're tired."),
    ("He'll go.", "They'll go."),
    ("I saw her yesterday.", "I saw them yesterday."),
    ("Her bike is better than mine.", "Their bike is better than mine."),
    ("Don't let her go.", "Don't let them go."),
    ("The teacher compared my poem with one of his.",
     "The teacher compared my poem with one of theirs."),
    ("His car is red and the blue one is hers.", "Their car is red and the blue one is theirs."),
    ("He blamed himself.", "They blamed themselves."),
    ("She left, and has never been seen since.", "They left, and have never been seen since."),
    ("HE SAID IT.", "THEY SAID IT."),
    ("The man took off his hat.", "The man took off their hat."),
])
def test_neutral_rewrite(original, neutral):
    assert neutral_rewrite(original) == neutral


def test_tokenize_round_trips():
    text = "  She said: “he’s here”, didn't she?\t"
    assert "".join(tokenize(text)) == text


def test_gendered_rewrites_use_the_neutral_form_for_her_and_his():
    # Appendix B.2 / Table 7: his → hers when the neutral form is theirs, her when their
    original = "The teacher compared my poem with one of his."
    assert gendered_rewrite(original, neutral_rewrite(original), "feminine") == (
        "The teacher compared my poem with one of hers.")
    # her: object (→ him) vs determiner (→ his), decided by the neutral rewrite
    assert gendered_rewrite("I gave her her book.", "I gave them their book.",
                            "masculine") == "I gave him his book."
    # a (wrong) neutral rewrite is followed where it is the only evidence
    assert gendered_rewrite("I gave her her book.", "I gave their them book.",
                            "masculine") == "I gave his him book."
    with pytest.raises(ValueError):
        gendered_rewrite("She came.", "They came.", "neutral")


def test_rewrite_all_gives_three_uniform_variants():
    out = rewrite_all("She invited him to her party.")
    assert out == {"neutral": "They invited them to their party.",
                   "feminine": "She invited her to her party.",
                   "masculine": "He invited him to his party."}


def test_backend_is_registered_and_answers_in_the_parsers_format():
    assert "rule-rewriter" in BACKENDS
    backend = build_backend({"backend": "rule-rewriter"}, pd.DataFrame())
    raws = backend.translate([Request("a", "He ate his lunch alone."),
                              Request("b", "The girl appeared sick.")])
    first = parse_answer(raws[0])
    assert first.variants == {"neutral": "They ate their lunch alone.",
                              "feminine": "She ate her lunch alone.",
                              "masculine": "He ate his lunch alone."}
    assert raws[1] == "None" and parse_answer(raws[1]).none


def test_backend_settings_are_checked():
    check_system({"backend": "rule-rewriter", "language": "en", "batch_size": 8})
    with pytest.raises(GenderMTError, match="English only"):
        check_system({"backend": "rule-rewriter", "language": "fr"})
    with pytest.raises(GenderMTError, match="no setting"):
        check_system({"backend": "rule-rewriter", "model": "x"})


def test_pre_processed_loader_names_bad_rows(tmp_path):
    path = tmp_path / "X_test_fem_src_neut.tsv"
    path.write_text("Yes\tShe came.\tThey came.\nYes\tonly two\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="row 2"):
        load_pairs(path)


@pytest.mark.skipif(not REAL.exists(), reason="../shared/data/gate-x-e not here")
def test_accuracy_on_the_real_pronoun_only_pairs():
    """Table 6's layout; the paper's rule-based baseline (Sun et al. 2021) has neutral
    accuracy 94.4–96.2 %, BLEU 99.6–99.7 and WER 0.53–0.65 %."""
    table = measure(REAL, neutral_rewrite, gendered_rewrite).set_index("language")
    assert list(table.index) == ["tr", "fi", "hu", "fa"]
    assert table.loc["tr", "neutral_n"] == 627 + 627 + 52
    assert (table["neutral_accuracy"] > 97.0).all(), table
    assert (table["gendered_accuracy"] > 97.5).all(), table
    assert (table["neutral_bleu"] > 99.0).all() and (table["neutral_wer"] < 0.5).all()
