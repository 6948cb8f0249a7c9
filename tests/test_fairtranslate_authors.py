"""The ``authors`` mode pinned on the notebook's rules, with hand-made sentences: their
normaliser (normalize_text.py), tokenizer, determine_gender (its priorities), the inclusive
indicators and the pronoun counts (datasets.md §1.4–1.5)."""

import pytest

from gendermt.benchmarks.fairtranslate.authors import (
    custom_tokenizer,
    determine_gender,
    has_they,
    is_inclusive_indic,
    non_binary_standardization,
    pronouns_present,
)

NURSE = ["infirmier", "infirmière", "infirmier.ière"]
SECRETARY = ["secrétaire", "secrétaire", "secrétaire"]
CLEANER = ["homme de ménage", "femme de ménage", "agent.e de ménage"]


@pytest.mark.parametrize("text, expected", [
    ("Un/une infirmier·ière est là.", "Un.e infirmier.ère est là."),  # · first, then rules
    ("un ou une boulanger", "un.e boulanger"),
    ("Il ou elle arrive, puis il/elle part.", "Iel arrive, puis iel part."),
    ("Lea caissière", "Le.a caissière"),  # Lea → Le.a (the notebook then looks for Lea)
    ("Li est venu.", "Le.a est venu."),  # a name, rewritten as the authors' rule does
    ("Ille-et-Vilaine", "Iel-et-Vilaine"),
    ("le pharmacien.ienne", "le pharmacien.ne"),
    ("infirmier.ière", "infirmier.ère"),
    ("Cet.te infirmière", "Cet.te infirmière"),  # no rule for Cet.te
    ("le traducteur.trice", "le traducteur.trice"),  # no rule for eur.trice
    ("UNE/UN", "UNE/UN"),  # case-sensitive
    ("l'avocatE", "l'avocatE"),  # eurE-style rules only for the listed endings
    ("le chercheurE", "le chercheur.e"),
])
def test_normaliser_is_the_authors(text, expected):
    assert non_binary_standardization(text) == expected


def test_tokenizer_is_the_notebooks():
    assert custom_tokenizer("L'infirmier.ière a vu tou.te.s les client.e.s.") == [
        "L'", "infirmier.ière", "a", "vu", "tou.te", ".", "s", "les", "client.e", ".", "s",
        "."]
    # a typographic apostrophe is a sign of its own
    assert custom_tokenizer("l’infirmier") == ["l", "’", "infirmier"]


@pytest.mark.parametrize("text, forms, expected", [
    ("L'infirmière soigne le patient.", NURSE, "female"),
    ("Un infirmier soigne le patient.", NURSE, "male"),
    # masculine checked first: a doublet is masculine
    ("L'infirmière ou l'infirmier soigne.", NURSE, "male"),
    ("Iel est infirmier.ière.", NURSE, "inclusive"),
    # after the authors' normaliser, infirmier.ière is infirmier.ère: no form found
    (non_binary_standardization("Iel est infirmier.ière."), NURSE, "n/a"),
    # the masculine form must be a token: "infirmiers" (plural) is not
    ("Les infirmiers soignent.", NURSE, "n/a"),
    # epicene: the first determiner set that matches, anywhere in the text
    ("La secrétaire parle à un client.", SECRETARY, "female"),  # capitalised sets first
    ("Je vois la secrétaire avec un client.", SECRETARY, "male"),  # un/une before le/la
    ("Cette secrétaire parle.", SECRETARY, "female"),
    ("Lea secrétaire parle.", SECRETARY, "inclusive"),
    ("Ce.tte secrétaire parle à la cliente.", SECRETARY, "inclusive"),
    ("Je vois ce.tte secrétaire et la cliente.", SECRETARY, "female"),  # le/la before ce.tte
    ("Secrétaire depuis dix ans, elle parle.", SECRETARY, "n/a"),
    # multi-word forms are never one token
    ("La femme de ménage nettoie.", CLEANER, "n/a"),
])
def test_determine_gender_is_the_notebooks(text, forms, expected):
    assert determine_gender(text, forms) == expected


@pytest.mark.parametrize("text, expected", [
    ("Iel travaille.", True),
    ("Lea caissière travaille.", True),
    (non_binary_standardization("Lea caissière travaille."), False),  # Le.a is not listed
    ("Le.a caissier.ère travaille.", True),  # the ending ier.ère, as a substring
    ("Un.e électricien.ne arrive.", True),
    ("Tou.te.s les client.e.s.", False),
    ("UN.E arrive.", False),  # tokens are case-sensitive
    ("Le professeur.euse", True),  # eur.euse anywhere in the text
])
def test_inclusive_indicator_is_the_notebooks(text, expected):
    assert is_inclusive_indic(text) is expected


def test_pronouns_are_counted_wherever_they_occur():
    assert pronouns_present("Il faut qu'elle parte ; ils restent.") == ("il", "elle", "ils")
    assert pronouns_present("Iels arrivent.") == ()  # iels is not looked for
    assert pronouns_present("Avec elle.") == ("elle",)  # object pronouns count too
    assert pronouns_present("") == ()
    assert has_they("They left.") and has_they("they're here")
    assert not has_they("THEY left.") and not has_they("Their book.")
