"""The offline GAMBIT detector: lexicon forms and agreement cues, French and Greek."""

import json

import pandas as pd
import pytest

from gendermt.benchmarks.gambit.evaluate import COLUMNS, score_run
from gendermt.benchmarks.gambit.lexicon import DEFAULT_DIR, detect_text, load_lexicon
from gendermt.core.errors import DatasetError
from gendermt.data.io import write_jsonl

from ...gambit_support import write_data

M, F, NC = "Masculine", "Feminine", "Not Clear"


@pytest.fixture(scope="module")
def fr():
    return load_lexicon(DEFAULT_DIR / "fr.tsv", "fr")


@pytest.fixture(scope="module")
def el():
    return load_lexicon(DEFAULT_DIR / "el.tsv", "el")


def label(lexicon, code, text):
    rows, _ = detect_text(lexicon, text, [code])
    assert len(rows) <= 1
    return rows[0]["label"] if rows else None


FRENCH = [
    ("2221", "L'infirmière est arrivée.", F),            # elision, feminine form
    ("2221", "L’infirmier a parlé au patient.", M),      # curly apostrophe
    ("2211", "L'équipe attendait le médecin.", M),       # epicene + article
    ("2211", "La médecin a examiné le patient.", F),
    ("2211", "Une médecin expérimentée a été nommée.", F),
    ("2211", "L'médecin arrive.", NC),                   # elided article: no gender; "arrive"
    ("3343", "L'secrétaire est arrivée à l'heure.", F),  # a participle after a copula
    ("3343", "L'secrétaire, arrivée tôt, attendait.", NC),  # punctuation ends the phrase
    ("2612", "La juge a décidé.", F),
    ("2612", "Le juge fédéral a décidé.", M),
    ("2612", "Les juges ont décidé.", NC),               # plural article: no gender
    ("2612", "Le/la juge a décidé.", NC),                # doublets
    ("2612", "Le ou la juge a décidé.", NC),
    ("2612", "Il le juge sévèrement.", None),            # the verb juger
    ("2612", "Elle ne la juge pas.", None),
    ("2612", "Qui juge ce dossier ?", None),
    ("2612", "Il a vu le juge hier.", M),                # "le" after a verb: the noun
    ("3153", "Elle pilote l'avion.", None),
    ("3153", "La pilote est arrivée.", F),
    ("2221", "Un infirmier ou une infirmière viendra.", NC),
    ("2221", "Un·e infirmier·ère viendra.", NC),         # inclusive forms
    ("2611", "L'avocat(e) a plaidé.", NC),
    ("2222", "Les sages-femmes travaillent.", F),        # plural, hyphenated
    ("2222", "La sage femme travaille.", F),
    ("8111", "Les mineurs sont remontés.", M),
    ("2330", "La professeur est partie.", F),            # masculine form used as epicene
    ("2330", "La professeure est partie.", F),
    ("1120", "La directrice générale a signé.", F),      # multiword titles
    ("1120", "Le directeur général a signé.", M),
    ("2635", "Une assistante sociale est venue.", F),
    ("2635", "Les assistants sociaux sont venus.", M),
    ("5151", "La gouvernante a vérifié les chambres.", F),
    ("2211", "LE MEDECIN EST LA.", M),                   # capitals without accents
    ("2221", "Les INFIRMIERES sont là.", F),
    ("2211", "Cette médecin et ce patient.", F),
    ("2211", "Le médecin a vu la patiente, puis la médecin est partie.", NC),  # disagree
    ("2211", "La médecin est arrivée. Médecin reconnue, elle a parlé.", F),  # one cue enough
]

GREEK = [
    ("2211", "Η γιατρός εξέτασε τον ασθενή.", F),
    ("2211", "Ο γιατρός του είπε την αλήθεια.", M),      # possessive του after: no cue
    ("2211", "Η ΓΙΑΤΡΟΣ ΗΡΘΕ.", F),                      # capitals, final sigma, no accents
    ("2211", "η γιατρος ηρθε.", F),                      # no accents
    ("2211", "Οι γιατροί ήρθαν.", NC),                   # plural article
    ("2211", "Ο/η γιατρός θα έρθει.", NC),               # doublet
    ("2211", "Ο ή η γιατρός θα έρθει.", NC),
    ("2211", "Η έμπειρη γιατρός μίλησε.", F),            # article + adjective
    ("2211", "Μίλησε με τη γιατρό.", F),                 # accusative
    ("2211", "Το γραφείο του γιατρού.", M),              # genitive
    ("2211", "Γιατρός από την Αθήνα.", NC),              # no cue
    ("2221", "Η νοσηλεύτρια ήρθε.", F),
    ("2221", "Ο νοσηλευτής ήρθε.", M),
    ("2221", "Οι νοσηλεύτριες ήρθαν.", F),
    ("2221", "Ο νοσηλευτής ή η νοσηλεύτρια θα έρθει.", NC),
    ("2211", "Ο ασθενής ή ο γιατρός θα έρθει.", M),      # ή (or) is not η (the)
    ("2612", "Της δικαστή η απόφαση.", F),
    ("1120", "Η γενική διευθύντρια μίλησε.", F),
    ("1120", "Ο γενικός διευθυντής μίλησε.", M),
    ("2635", "Η κοινωνική λειτουργός μίλησε.", F),
    ("2635", "Ο κοινωνικός λειτουργός μίλησε.", M),
    ("5151", "Η επόπτρια καθαριότητας ήρθε.", F),
    ("5120", "Η μαγείρισσα μαγείρεψε.", F),
    ("2341", "Ο δάσκαλος μπήκε στην τάξη.", M),
    ("2341", "Η δασκάλα μπήκε στην τάξη.", F),
    ("8322", "Ένας οδηγός περίμενε.", M),
    ("8322", "Μια οδηγός περίμενε.", F),
]


@pytest.mark.parametrize(("code", "text", "expected"), FRENCH)
def test_french(fr, code, text, expected):
    assert label(fr, code, text) == expected


@pytest.mark.parametrize(("code", "text", "expected"), GREEK)
def test_greek(el, code, text, expected):
    assert label(el, code, text) == expected


# The sample's 20 unit groups (GAMBIT-SPEC.md): code, fr m, fr f, el m, el f.
SAMPLE = [("2221", "infirmier", "infirmière", "νοσηλευτής", "νοσηλεύτρια"),
          ("2222", "maïeuticien", "sage-femme", "μαιευτής", "μαία"),
          ("2211", "médecin", "médecin", "γιατρός", "γιατρός"),
          ("2612", "juge", "juge", "δικαστής", "δικαστής"),
          ("7111", "constructeur", "constructrice", "οικοδόμος", "οικοδόμος"),
          ("8111", "mineur", "mineuse", "ανθρακωρύχος", "ανθρακωρύχος"),
          ("2330", "professeur", "professeure", "καθηγητής", "καθηγήτρια"),
          ("2651", "peintre", "peintre", "ζωγράφος", "ζωγράφος"),
          ("5151", "gouvernant", "gouvernante", "επόπτης καθαριότητας",
           "επόπτρια καθαριότητας"),
          ("3343", "secrétaire", "secrétaire", "γραμματέας", "γραμματέας"),
          ("2512", "développeur", "développeuse", "προγραμματιστής", "προγραμματίστρια"),
          ("1120", "directeur général", "directrice générale", "γενικός διευθυντής",
           "γενική διευθύντρια"),
          ("2341", "instituteur", "institutrice", "δάσκαλος", "δασκάλα"),
          ("5141", "coiffeur", "coiffeuse", "κομμωτής", "κομμώτρια"),
          ("7411", "électricien", "électricienne", "ηλεκτρολόγος", "ηλεκτρολόγος"),
          ("2611", "avocat", "avocate", "δικηγόρος", "δικηγόρος"),
          ("5120", "cuisinier", "cuisinière", "μάγειρας", "μαγείρισσα"),
          ("8322", "chauffeur", "chauffeuse", "οδηγός", "οδηγός"),
          ("2635", "assistant social", "assistante sociale", "κοινωνικός λειτουργός",
           "κοινωνική λειτουργός"),
          ("5311", "puériculteur", "puéricultrice", "βρεφοκόμος", "βρεφοκόμος")]


@pytest.mark.parametrize("row", SAMPLE, ids=lambda r: r[0])
def test_the_samples_occupations_are_covered(fr, el, row):
    code, fr_m, fr_f, el_m, el_f = row
    for lexicon, masc, fem, (m_art, f_art) in ((fr, fr_m, fr_f, ("le", "la")),
                                               (el, el_m, el_f, ("ο", "η"))):
        assert label(lexicon, code, masc) == (NC if masc == fem else M)
        assert label(lexicon, code, fem) == (NC if masc == fem else F)
        assert label(lexicon, code, f"{m_art} {masc}") == M
        assert label(lexicon, code, f"{f_art} {fem}") == F


def test_lexicons_cover_60_unit_groups(fr, el):
    assert len(fr.codes) >= 60 and len(el.codes) >= 60


def test_candidates_other_occupations_and_not_found(fr):
    text = "La juge a interrogé le médecin."
    rows, other = detect_text(fr, text, ["2612"])
    assert [(r["isco"], r["label"]) for r in rows] == [("2612", F)] and other == 1
    rows, other = detect_text(fr, text, None)  # every lexicon occupation
    assert {(r["isco"], r["label"]) for r in rows} == {("2612", F), ("2211", M)}
    assert detect_text(fr, "Il fait beau.", ["2612"]) == ([], 0)
    # one form, two codes: "enseignant" is a secondary (2330) and a primary (2341) teacher
    assert label(fr, "2341", "L'enseignante sourit.") == F
    assert label(fr, "2330", "L'enseignante sourit.") == F


def test_bad_lexicon_files_name_the_row(tmp_path):
    bad = tmp_path / "xx.tsv"
    bad.write_text("isco\tmasculine\tfeminine\n2221\tinfirmier\tinfirmière\n22\tx\ty\n",
                   encoding="utf-8")
    (tmp_path / "xx-cues.yaml").write_text("determiners: {masculine: [le]}\n",
                                           encoding="utf-8")
    with pytest.raises(DatasetError, match=r"row 2, column 'isco'"):
        load_lexicon(bad)
    bad.write_text("isco\tmasc\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="missing column"):
        load_lexicon(bad)


def test_detect_file_with_the_lexicon(tmp_path):
    rows = [("g-1", "The nurse arrived.", "2221"), ("g-2", "The judge spoke.", "2612"),
            ("g-3", "The doctor left.", "2211"), ("g-4", "The cook smiled.", "5120"),
            ("g-5", "The driver waited.", "8322")]
    data = write_data(tmp_path / "data.parquet", rows)
    hyps = {"g-1": "L'infirmière est arrivée.", "g-2": "Le juge a parlé à l'avocate.",
            "g-3": "Le docteur est parti.",  # another title of 2211
            "g-4": "Quelqu'un a souri.",     # no occupation: no row
            "g-5": "L'chauffeur attendait."}
    translations = tmp_path / "t.jsonl"
    write_jsonl(translations, ({"item_id": k, "raw": v, "hypothesis": v}
                               for k, v in hyps.items()))
    out = tmp_path / "assignments" / "lexicon" / "sys" / "fr.csv"
    summary = score_run(translations, data, None, "fr", {"kind": "lexicon",
                                                           "name": "lexicon"},
                          out, out.with_suffix(".json"))
    frame = pd.read_csv(out, dtype={"isco": str})
    assert list(frame.columns) == COLUMNS
    assert frame[["text_id", "isco", "label"]].values.tolist() == [
        ["g-1", "2221", F], ["g-2", "2612", M], ["g-3", "2211", M], ["g-5", "8322", M]]
    assert frame["similarity"].isna().all() and (frame["match_score"] == 100).all()
    assert summary == json.loads(out.with_suffix(".json").read_text())
    assert summary["n_texts"] == 5 and summary["n_texts_with_assignment"] == 4
    assert summary["labels"] == {"Masculine": 3, "Feminine": 1, "Not Clear": 0}
    assert summary["dropped"] == {"fuzzy": 0, "embedding": 0, "not_candidate": 1,
                                  "unparsable": 0}  # l'avocate in g-2
