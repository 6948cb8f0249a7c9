"""Word error rate against hand-counted cases and jiwer (an independent implementation)."""

from __future__ import annotations

import random

import pytest

from gendermt.core.errors import GenderMTError
from gendermt.scoring.wer import corpus_wer, word_edits


@pytest.mark.parametrize("hyp,ref,edits", [
    ("they are here", "they are here", 0),
    ("they is here", "they are here", 1),          # substitution
    ("they here", "they are here", 1),             # deletion
    ("they are not here", "they are here", 1),     # insertion
    ("", "they are here", 3),
    ("a b c", "", 3),
    ("They are here", "they are here", 1),         # case counts
])
def test_word_edits(hyp, ref, edits):
    assert word_edits(hyp, ref) == edits


def test_corpus_wer_sums_edits_over_reference_words():
    assert corpus_wer(["they is here", "ok"], ["they are here", "ok"]) == pytest.approx(25.0)
    with pytest.raises(GenderMTError):
        corpus_wer(["a"], ["a", "b"])
    with pytest.raises(GenderMTError, match="no words"):
        corpus_wer([""], [""])


def test_equals_jiwer_on_random_sentences():
    jiwer = pytest.importorskip(
        "jiwer", reason="needs the test extra (jiwer): pip install -e '.[test]'")
    rng = random.Random(7)
    vocab = ["she", "he", "they", "her", "their", "them", "is", "are", "a", "book", "reads"]
    refs = [" ".join(rng.choices(vocab, k=rng.randint(1, 12))) for _ in range(200)]
    hyps = [" ".join(rng.choices(vocab, k=rng.randint(0, 12))) for _ in range(200)]
    assert corpus_wer(hyps, refs) == pytest.approx(100 * jiwer.wer(refs, hyps))
