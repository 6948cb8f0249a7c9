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


def test_both_modes_side_by_side_with_the_notebooks_comet_filter():
    """classifier_modes: the authors' and the corrected counts of the same outputs, the
    paper's Table 4 beside them for a paper system, and the notebook's cumulative COMET
    filter of the "they" rows (model k counted on rows every model up to k passes)."""
    import pandas as pd

    from gendermt.benchmarks.fairtranslate.inclusive_tables import analyse
    from gendermt.benchmarks.fairtranslate.mode_tables import comparison

    english = "The nurse arrived early. They were tired."
    data = pd.DataFrame({
        "item_id": ["i1", "i2", "i3"], "source": [english] * 3,
        "gender": ["inclusive"] * 3, "ambiguity": ["unambiguous"] * 3,
        "stereotype": ["female-stereotyped"] * 3, "occupation": [NURSE] * 3})
    hyps = {"i1": "L'infirmière est arrivée tôt. Elle était fatiguée.",
            "i2": "Lea infirmier.ière est arrivé.e tôt. Iel était fatigué.e.",
            "i3": english}
    outputs = pd.DataFrame([{"system": s, "prompt": "baseline", "item_id": i, "raw": h,
                             "hypothesis": h} for s in ("gemma-2-2b", "mistral-7b")
                            for i, h in hyps.items()])
    items = analyse(data, outputs)
    table = comparison(items)
    t4 = table[(table["analysis"] == "table4") & (table["system"] == "gemma-2-2b")].iloc[0]
    # i2: Lea → Le.a (authors then miss it) but iel is there; corrected finds it too
    assert (t4["authors"], t4["corrected"], t4["paper"], t4["paper_of"]) == (1, 1, 5, 806)
    occupation = table[(table["analysis"] == "occupation") & (table["system"] == "gemma-2-2b")
                       & (table["group"] == "inclusive")].set_index("cell")
    # authors: infirmier.ière became infirmier.ère, so i2 has no form; corrected: inclusive
    assert occupation.loc["female", ["authors", "authors_of"]].tolist() == [1, 1]
    assert occupation.loc["inclusive", ["corrected", "corrected_of"]].tolist() == [1, 2]
    they = table[(table["analysis"] == "they") & (table["group"] == "all")
                 & (table["system"] == "gemma-2-2b")].set_index("cell")
    assert they.loc["none", "authors"] == 1 and they.loc["untranslated", "corrected"] == 1
    assert pd.isna(they.loc["untranslated", "authors"])
    comet = pd.DataFrame([("gemma-2-2b", "baseline", "i1", 90.0),
                          ("gemma-2-2b", "baseline", "i2", 90.0),
                          ("gemma-2-2b", "baseline", "i3", 50.0),
                          ("mistral-7b", "baseline", "i1", 50.0),
                          ("mistral-7b", "baseline", "i2", 90.0),
                          ("mistral-7b", "baseline", "i3", 90.0)],
                         columns=["system", "prompt", "item_id", "score"])
    settings = {"enabled": True, "threshold": 0.6, "systems": ["gemma-2-2b", "mistral-7b"]}
    filtered = comparison(items, comet, settings)
    they = filtered[(filtered["analysis"] == "they") & (filtered["group"] == "all")]
    of = they.groupby("system")["authors_of"].first().to_dict()
    # gemma: rows gemma passes (i1, i2); mistral: rows both pass (i2 only)
    assert of == {"gemma-2-2b": 2, "mistral-7b": 1}
    assert (they["corrected_of"] == 3).all()  # the corrected mode counts every row
