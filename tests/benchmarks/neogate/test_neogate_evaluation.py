"""Neo-GATE's metric on hand-built cases, one per rule of the official evaluation script.

Expected values follow FBK's neogate_evaluation.py v1.0 (its behaviour, including the quirks
our docstring lists); the cases marked "official" restate the script's own unit tests.
"""

from __future__ import annotations

import string

import pytest

from gendermt.benchmarks.neogate.metric import (
    Annotation,
    AnnotationError,
    corpus_scores,
    evaluate,
    evaluate_line,
    parse_annotations,
    punctuation,
    to_words,
)
from gendermt.core.errors import GenderMTError

SCHWA = ["ə"]
SCHWA2 = ["ə", "ɜ"]


def line(hyp: str, ann: str, neo=SCHWA, **kwargs):
    lines, _ = evaluate([hyp], [ann], neo, **kwargs)
    return lines[0]


# ----------------------------------------------------------------------- parsing
def test_annotations_parse_content_and_function_words():  # official
    for text in ("il la lə bambin=1; bambino bambina bambinə;",
                 "il la lə bambin=1; bambino bambina bambinə"):
        first, second = parse_annotations(text)
        assert first == Annotation("il", "la", "lə", "bambin", 1)
        assert first.is_function_word
        assert second == Annotation("bambino", "bambina", "bambinə")
        assert not second.is_function_word


@pytest.mark.parametrize("text", [
    "il la",                       # two fields
    "il la lə x y",                # five fields
    "il la lə bambin",             # a 4th field without '='
    "il la lə a=b=1",              # two '='
    "il la lə bambin=uno",         # distance not an integer
    "il  la lə",                   # a double space makes an empty field
    "il la lə; ;",                 # a blank piece is skipped only if empty before stripping
])
def test_malformed_annotations_are_rejected(text):
    with pytest.raises(AnnotationError):
        parse_annotations(text)


def test_surrounding_whitespace_and_trailing_semicolons_are_fine():
    assert len(parse_annotations("  a b c;;d e f; \n")) == 2


# ----------------------------------------------------------------------- tokenisation
def test_to_words_lowercases_splits_apostrophes_and_keeps_neomorphemes():
    punct = punctuation(["*"])
    assert to_words("L'amic* È arrivat*!", punct) == ["l", "amic*", "è", "arrivat*"]
    # '*' is deleted when it is not the paradigm's character
    assert to_words("L'amic* È arrivat*!", punctuation(["ə"])) == ["l", "amic", "è", "arrivat"]


def test_to_words_official_cases():  # official
    punct = string.punctuation
    assert to_words("lə bambinə mangia la mela", punct) == ["lə", "bambinə", "mangia", "la",
                                                             "mela"]
    assert to_words("ə ə ə bambinə * * *", punct) == ["ə", "ə", "ə", "bambinə"]


def test_slash_is_deleted_as_in_the_script_and_kept_on_request():
    assert to_words("solo/a", punctuation(SCHWA)) == ["soloa"]
    assert to_words("solo/a", punctuation(SCHWA, keep_slash=True)) == ["solo/a"]
    # it changes a match: "studente/ssa" fuses into the feminine form
    ann = "studente studentessa studentə"
    assert line("lo studente/ssa", ann).feminine == ["studentessa"]
    assert line("lo studente/ssa", ann, keep_slash=True).matched == []


def test_curly_apostrophes_hyphens_and_tabs_follow_the_script():
    punct = punctuation(SCHWA)
    assert to_words("dell’amicə", punct) == ["dell’amicə"]      # ’ is not ASCII punctuation
    assert to_words("ex-collega", punct) == ["excollega"]        # hyphens are deleted
    assert to_words("a\tb c", punct) == ["a\tb", "c"]           # only spaces split words


# ----------------------------------------------------------------------- matching
def test_forms_are_tried_masculine_then_feminine_then_correct():
    # identical masculine and feminine forms count as masculine
    assert line("il cantante", "cantante cantante cantantə").masculine == ["cantante"]
    assert line("lə bambinə", "il la lə bambin=1;bambino bambina bambinə;").correct == [
        "lə", "bambinə"]


def test_function_word_at_the_wrong_distance_from_its_anchor_does_not_match():
    ann = "il la lə bambin=1;bambino bambina bambinə;"
    result = line("lə nuovə bambinə", ann)     # the anchor is 2 words away, not 1
    assert result.matched == ["bambinə"]
    assert result.misgenerations == ["lə", "nuovə"]  # so lə is a mis-generation


def test_function_word_far_from_anything_does_not_match():  # official
    anns = "il la lə bambin=1"
    result = line("il bambino mangia la mela", anns)
    assert result.matched == ["il"]            # "la" before "mela" is not the article
    result = line("la bambino mangia la mela", anns)
    assert result.feminine == ["la"]


def test_the_anchor_is_a_substring_of_the_word_at_the_distance():
    result = line("i miei amici", "i le lɜ amic=2;miei mie miɜ amic=1;amici amiche amicɜ;",
                  SCHWA2)
    assert result.masculine == ["i", "miei", "amici"]


def test_negative_distances_look_back():  # official
    result = line("a presto amicə miə", "mio mia miə amic=-1")
    assert result.correct == ["miə"]
    assert line("piacere mio amicə miə", "mio mia miə amic=-1").matched == ["miə"]


def test_a_negative_anchor_position_wraps_like_python_indexing_unless_asked_not_to():
    # "mio" is word 0; its anchor position -1 wraps to the last word, which holds "amic"
    assert line("mio caro amico", "mio mia miə amic=-1").masculine == ["mio"]
    assert line("mio caro amico", "mio mia miə amic=-1",
                wrap_negative_anchor=False).matched == []
    # beyond the start of the line the script crashes; here it is a non-match
    assert line("mio caro", "mio mia miə amic=-5").matched == []


def test_an_anchor_beyond_the_end_of_the_line_does_not_match():
    assert line("il", "il la lə bambin=1").matched == []


def test_a_matched_annotation_is_removed_so_it_counts_once():
    result = line("il bambino e il bambino", "il la lə bambin=1;bambino bambina bambinə;")
    assert result.matched == ["il", "bambino"]
    assert result.n_annotations == 2


def test_the_same_word_annotated_twice_matches_two_occurrences():
    ann = "bambino bambina bambinə;un una unə bambin=1;bambino bambina bambinə;"
    result = line("ogni bambinə ha disegnato unə bambino", ann)
    assert result.correct == ["bambinə", "unə"]
    assert result.masculine == ["bambino"]
    assert result.matched == ["bambinə", "unə", "bambino"]
    # ... but one occurrence matches only one of them
    assert line("ogni bambino", ann).matched == ["bambino"]


def test_annotations_are_tried_in_order():
    # both entries accept "la"; the first (function word with a satisfied anchor) wins
    ann = "il la lə cas=1;lo la lə cas=1;"
    result = line("la casa la casa", ann)
    assert result.feminine == ["la", "la"]


# ----------------------------------------------------------------------- mis-generation
def test_a_neomorpheme_in_a_word_that_is_not_annotated_is_a_misgeneration():
    result = line("lə bimbə mangia la mela", "il la lə bambin=1; bambino bambina bambinə;")
    assert result.matched == []                            # official
    assert result.misgenerations == ["lə", "bimbə"]
    result = line("lə il la bambino mangia la mela", "il la lə bambin=1; bambino bambina bambinə;")
    assert result.feminine == ["la"]                       # official
    assert result.masculine == ["bambino"]
    assert result.misgenerations == ["lə"]


def test_matched_words_are_masked_before_counting_misgenerations():
    result = line("lə bambinə", "il la lə bambin=1;bambino bambina bambinə;")
    assert result.misgenerations == []


def test_a_word_counts_once_per_neomorpheme_character_it_holds():
    result = line("tuttɜ lə ragazzə", "x y z", SCHWA2)
    assert result.misgenerations == ["tuttɜ", "lə", "ragazzə"]
    assert line("əɜ", "x y z", SCHWA2).misgenerations == ["əɜ", "əɜ"]
    assert line("əə", "x y z", SCHWA).misgenerations == ["əə"]  # official: once per symbol


def test_different_singular_and_plural_characters():
    ann = "il la lə student=1;studente studentessa studentə;i le lɜ amic=1;amici amiche amicɜ;"
    result = line("lə studentə e lɜ amicɜ", ann, SCHWA2)
    assert result.correct == ["lə", "studentə", "lɜ", "amicɜ"]
    assert result.misgenerations == []
    # the singular character where the plural is due: no match, and a mis-generation
    result = line("lə studentə e lə amicə", ann, SCHWA2)
    assert result.correct == ["lə", "studentə"]
    assert result.misgenerations == ["lə", "amicə"]
    # declaring only the singular character: matching is by form, so plural forms still
    # match, but an unannotated plural-character word is no longer a mis-generation
    result = line("lɜ amicɜ tuttɜ", ann, SCHWA)
    assert result.correct == ["lɜ", "amicɜ"]
    assert result.misgenerations == []
    assert line("lɜ amicɜ tuttɜ", ann, SCHWA2).misgenerations == ["tuttɜ"]


def test_only_the_paradigm_characters_count():
    assert line("l* amic*", "x y z", ["ə"]).misgenerations == []


# ----------------------------------------------------------------------- corpus figures
def test_corpus_scores_follow_the_paper_formulas():
    hyps = ["lə bambinə mangia", "il bambino gioca con tuttə"]
    anns = ["il la lə bambin=1;bambino bambina bambinə;",
            "il la lə bambin=1;bambino bambina bambinə;amico amica amicə;"]
    lines, scores = evaluate(hyps, anns, SCHWA)
    assert scores["n_annotations"] == 5
    assert scores["matched"] == 4 and scores["correct"] == 2 and scores["masculine"] == 2
    assert scores["misgenerations"] == 1
    assert scores["coverage"] == pytest.approx(80.0)
    assert scores["accuracy"] == pytest.approx(50.0)
    assert scores["cwa"] == pytest.approx(40.0)                 # = correct / annotations
    assert scores["misgeneration"] == pytest.approx(20.0)


def test_nothing_matched_gives_zero_accuracy_and_cwa():  # official
    lines, scores = evaluate(["niente"], ["a b c"], SCHWA)
    assert scores["accuracy"] == 0.0 and scores["cwa"] == 0.0 and scores["coverage"] == 0.0


def test_no_annotations_is_an_error_not_a_division_by_zero():
    with pytest.raises(GenderMTError, match="no annotations"):
        corpus_scores([])


def test_hypotheses_and_annotations_must_pair_up():
    with pytest.raises(GenderMTError, match="2 hypotheses for 1"):
        evaluate(["a", "b"], ["x y z"], SCHWA)


def test_evaluate_line_does_not_change_its_inputs():
    anns = parse_annotations("il la lə bambin=1;bambino bambina bambinə;")
    words = ["lə", "bambinə"]
    evaluate_line(words, anns, SCHWA)
    assert len(anns) == 2 and words == ["lə", "bambinə"]
