"""Detection accuracy on a labelled set (the paper's Table 1), in its validation format."""

import csv
import json

import pandas as pd
import pytest

from gendermt.benchmarks.gambit.validation import load_validation, validate_file
from gendermt.core.errors import DatasetError

from ...chat_server import ChatServer
from ...gambit_support import write_isco

FIELDS = ["text_id", "text", "isco", "title", "description", "gender"]

# (text_id, text, isco, title, gender, lexicon gets the occupation, lexicon gets the gender)
FRENCH = [
    ("fr-01", "L'infirmière a pris le pouls du patient.", "2221", "Nursing professionals",
     "Feminine", True, True),
    ("fr-02", "Le médecin a prescrit un traitement.", "2211",
     "Generalist medical practitioners", "Masculine", True, True),
    ("fr-03", "La juge a rendu son verdict.", "2612", "Judges", "Feminine", True, True),
    ("fr-04", "Le développeur a corrigé le bogue.", "2512", "Software developers",
     "Masculine", True, True),
    ("fr-05", "La coiffeuse a coupé les cheveux de sa cliente.", "5141", "Hairdressers",
     "Feminine", True, True),
    ("fr-06", "L'électricienne a réparé le tableau.", "7411", "Building and related "
     "electricians", "Feminine", True, True),
    ("fr-07", "Le cuisinier a préparé le repas.", "5120", "Cooks", "Masculine", True, True),
    ("fr-08", "La secrétaire a classé les dossiers.", "3343", "Administrative and executive "
     "secretaries", "Feminine", True, True),
    ("fr-09", "L'architecte a présenté ses plans.", "2161", "Building architects",
     "Not Clear", True, True),
    # "chef de cuisine" is not in the lexicon: no detection, so the gender is wrong too
    ("fr-10", "Le chef de cuisine a goûté la sauce.", "3434", "Chefs", "Masculine", False,
     False),
    ("fr-11", "L'avocate a plaidé avec conviction.", "2611", "Lawyers", "Feminine", True,
     True),
    ("fr-12", "Ma peintre préférée expose demain.", "2651", "Visual artists", "Feminine",
     True, True),
    # the gender is only in a pronoun: beyond the lexicon's cues
    ("fr-13", "Notre secrétaire, elle, est toujours à l'heure.", "3343", "Administrative "
     "and executive secretaries", "Feminine", True, False),
    ("fr-14", "Le ou la juge sera désigné(e) demain.", "2612", "Judges", "Not Clear", True,
     True),
]
GREEK = [
    ("el-01", "Η νοσηλεύτρια μέτρησε την πίεση.", "2221", "Nursing professionals",
     "Feminine", True, True),
    ("el-02", "Ο γιατρός έγραψε τη συνταγή.", "2211", "Generalist medical practitioners",
     "Masculine", True, True),
    ("el-03", "Η δικηγόρος κέρδισε την υπόθεση.", "2611", "Lawyers", "Feminine", True, True),
    ("el-04", "Ο ηλεκτρολόγος άλλαξε τον πίνακα.", "7411", "Building and related "
     "electricians", "Masculine", True, True),
    ("el-05", "Η δασκάλα διάβασε ένα παραμύθι.", "2341", "Primary school teachers",
     "Feminine", True, True),
    ("el-06", "Ο προγραμματιστής έγραψε τον κώδικα.", "2512", "Software developers",
     "Masculine", True, True),
    ("el-07", "Οι οδηγοί περίμεναν στη στάση.", "8322", "Car, taxi and van drivers",
     "Not Clear", True, True),
    ("el-08", "Η μαγείρισσα ετοίμασε το φαγητό.", "5120", "Cooks", "Feminine", True, True),
    ("el-09", "Ο σεφ του εστιατορίου ήταν αυστηρός.", "3434", "Chefs", "Masculine", True,
     True),
    ("el-10", "Ο τεχνικός δικτύων ήρθε νωρίς.", "3513", "Computer network and systems "
     "technicians", "Masculine", False, False),
    ("el-11", "Γραμματέας της χρονιάς αναδείχθηκε η Μαρία.", "3343", "Administrative and "
     "executive secretaries", "Feminine", True, False),
]


def write_validation(path, rows):
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(FIELDS)
        for tid, text, code, title, gender, *_ in rows:
            writer.writerow([tid, text, code, title, f"{title} (ISCO-08 {code}).", gender])
    return path


@pytest.mark.parametrize(("lang", "rows"), [("fr", FRENCH), ("el", GREEK)])
def test_lexicon_accuracy_as_in_table_1(tmp_path, lang, rows):
    path = write_validation(tmp_path / f"{lang}.csv", rows)
    out = tmp_path / "validation" / "lexicon" / f"{lang}.csv"
    summary = validate_file(path, None, lang, {"kind": "lexicon", "name": "lexicon"}, out,
                            out.with_suffix(".json"))
    results = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert results["occupation_correct"].tolist() == [str(r[5]) for r in rows]
    assert results["gender_correct"].tolist() == [str(r[6]) for r in rows]
    n = len(rows)
    occupation = 100 * sum(r[5] for r in rows) / n
    gender = 100 * sum(r[6] for r in rows) / n
    overall = 100 * sum(r[5] and r[6] for r in rows) / n
    assert {k: summary[k] for k in ("lang", "detector", "n", "occupation_accuracy",
                                    "gender_accuracy", "overall_accuracy")} == {
        "lang": lang, "detector": "lexicon", "n": n,
        "occupation_accuracy": round(occupation, 2), "gender_accuracy": round(gender, 2),
        "overall_accuracy": round(overall, 2)}
    assert summary["n_no_detection"] == sum(not r[5] for r in rows)
    assert json.loads(out.with_suffix(".json").read_text()) == summary


def test_judge_validation_counts_no_detection_as_wrong(tmp_path):
    rows = [("fr-01", "L'infirmière a pris le pouls du patient.", "2221",
             "Nursing professionals", "Feminine"),
            ("fr-02", "Le médecin a prescrit un traitement.", "2211",
             "Generalist medical practitioners", "Masculine")]
    path = write_validation(tmp_path / "fr.csv", rows)
    nurse = ("Nursing professionals provide treatment, support and care services for people "
             "who are in need of nursing care due to illness, injury or ageing.")

    def responder(body):
        users = [m["content"] for m in body["messages"] if m["role"] == "user"]
        if "infirmière a pris" not in users[0]:
            return '{"occupations": []}'  # the judge misses the doctor
        if len(users) == 1:
            return json.dumps({"occupations": [{"title": "infirmière", "occurrence":
                                                "infirmière", "description": nurse}]})
        return '{"labels": [{"occurrence": "infirmière", "gender": "Feminine"}]}'

    with ChatServer(responder=responder) as server:
        systems = {"judge": {"backend": "openai-compatible", "base_url": server.url,
                             "model": "scripted", "max_retries": 0}}
        out = tmp_path / "out.csv"
        summary = validate_file(path, write_isco(tmp_path / "isco.parquet"), "fr",
                                {"kind": "llm-judge", "name": "judge", "system": "judge"},
                                out, out.with_suffix(".json"), tmp_path / "cache", systems)
    assert (summary["occupation_accuracy"], summary["gender_accuracy"],
            summary["overall_accuracy"]) == (50.0, 50.0, 50.0)


def test_bad_validation_files_name_row_and_column(tmp_path):
    path = write_validation(tmp_path / "v.csv", [FRENCH[0], FRENCH[1]])
    text = path.read_text(encoding="utf-8").replace("Masculine", "male")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError, match=r"row 2, column 'gender'"):
        load_validation(path)
    path.write_text("text_id,text\nx,y\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="missing column"):
        load_validation(path)
