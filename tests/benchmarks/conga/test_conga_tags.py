"""The tagged-sentence parser and the entity categories on the paper's Table 4, and the
errors malformed tags give."""

import pytest

from gendermt.benchmarks.conga import CATEGORIES
from gendermt.benchmarks.conga.metric import compare, score_sentence
from gendermt.benchmarks.conga.tags import TagError, TagScheme, parse_tagged

from ...conga_table4 import EXAMPLES, EXPECTED

IT = TagScheme.target()


def test_table4_english_words_indices_and_text():
    s = parse_tagged(EXAMPLES[526]["en"])
    assert [(t.word, t.gender, t.entity) for t in s.tags] == [
        ("Malloy", "A", 1), ("They", "A", 2), ("Brendan", "M", 3), ("him", "M", 3),
        ("they", "A", 2)]
    assert s.text == ("Lindsay Malloy: They told Brendan that honesty would “set him free,” "
                      "but they were completely convinced of his guilt at that point.")
    assert s.entities() == {1: ("A",), 2: ("A",), 3: ("M",)}
    # a tag attaches to the word before it, even when a clitic follows without a space
    you = parse_tagged(EXAMPLES[125]["en"])
    assert [t.word for t in you.tags] == ["you", "you"]
    assert you.text == "And he said, “No, you’re still dry, you’re just being nice.”"
    assert [t.word for t in parse_tagged(EXAMPLES[110]["en"]).tags] == ["we", "we’re"]


def test_table4_italian_words_and_untagged_words_stay_untagged():
    tower = parse_tagged(EXAMPLES[526]["tower"], IT)
    assert [(t.word, t.gender, t.entity) for t in tower.tags] == [
        ("liberato", "M", 3), ("convinti", "M", 2)]
    assert "“liberato”," in tower.text
    s = parse_tagged(EXAMPLES[110]["tower"], IT)
    assert [t.word for t in s.tags] == ["reattive"]  # sensibili, irragionevoli: no tag
    assert s.text[s.tags[0].start:s.tags[0].end] == "reattive"
    # one entity realised with both genders (Table 2)
    assert parse_tagged(EXAMPLES[125]["tower"], IT).entities() == {1: ("F", "M")}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_table4_categories(key):
    number, system = key
    _, counts = score_sentence(parse_tagged(EXAMPLES[number]["en"]),
                               parse_tagged(EXAMPLES[number][system], IT))
    expected = {c: EXPECTED[key].get(c, 0) for c in CATEGORIES}
    assert {c: counts[c] for c in CATEGORIES} == expected


def test_table4_entity_rows_of_sentence_164():
    rows = compare(parse_tagged(EXAMPLES[164]["en"]), parse_tagged(EXAMPLES[164]["tower"], IT))
    assert [(r["entity"], r["source_gender"], r["target_gender"], r["category"])
            for r in rows] == [(1, "A", "", "unmatched_source"), (2, "F", "F", "match_f"),
                               (2, "F", "M", "error_f_to_m")]


def test_unmatched_target_and_tag_counts():
    _, counts = score_sentence(parse_tagged("I <A1> saw him <M2>."),
                               parse_tagged("Ho visto la <F3> ragazza <F3>.", IT))
    assert counts["unmatched_source"] == 2 and counts["unmatched_target"] == 1
    assert counts["target_tags_f"] == 2 and counts["target_entities_f"] == 1
    assert counts["source_tags_a"] == 1 and counts["source_tags_m"] == 1


@pytest.mark.parametrize(("sentence", "scheme", "message"), [
    ("we <F1 are overreacting", TagScheme.source(), "unclosed tag '<F1 are"),
    ("we <F1", TagScheme.source(), "unclosed tag"),
    ("we F1> are overreacting", TagScheme.source(), "unclosed tag"),
    ("we <X1> are overreacting", TagScheme.source(), "unknown gender letter 'X'"),
    ("siamo stanche <A1>", IT, "unknown gender letter 'A'"),
    ("we <F1> said that they <M1> left", TagScheme.source(), "index mismatch: entity 1"),
    ("we <F> are overreacting", TagScheme.source(), "has no entity index"),
    ("<F1> we are", TagScheme.source(), "follows no word"),
    ("we <F1x> are", TagScheme.source(), "malformed tag"),
])
def test_malformed_tags_name_the_sentence(sentence, scheme, message):
    with pytest.raises(TagError) as err:
        parse_tagged(sentence, scheme, where="gold.txt line 7")
    text = str(err.value)
    assert message in text
    assert text.startswith("gold.txt line 7: ")
    assert repr(sentence) in text


def test_italian_may_realise_one_entity_twice_but_english_may_not():
    assert parse_tagged("asciutta <F1>, bravo <M1>", IT).entities() == {1: ("F", "M")}
    with pytest.raises(TagError, match="index mismatch"):
        parse_tagged("you <A1> and you <M1>")


def test_configurable_scheme_and_unindexed_tags():
    scheme = TagScheme.source(open="[", close="]", require_index=False)
    s = parse_tagged("the nurse [A] told me [A1]", scheme)
    assert [(t.word, t.entity) for t in s.tags] == [("nurse", None), ("me", 1)]
    rows, counts = score_sentence(s, parse_tagged("l'infermiera [F]", TagScheme.target(
        open="[", close="]", require_index=False)))
    # unindexed tags cannot be aligned: unmatched on both sides, one per tag
    assert counts["unmatched_source"] == 2 and counts["unmatched_target"] == 1


def test_render_round_trip():
    for example in EXAMPLES.values():
        s = parse_tagged(example["mbart"], IT)
        assert parse_tagged(s.render(), IT) == s
