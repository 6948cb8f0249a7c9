"""``gendermt score grape``: the public JSON (key names exactly), levels, references, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gendermt.cli import SCORE_COMMANDS, main

ENTRY = ["grape_m", "grape_f", "n_masculine", "n_feminine", "n_not_clear", "p_masculine",
         "p_feminine", "reference", "reference_f", "reference_code", "note"]

ASSIGNMENTS = """text_id,isco,label,title
t1,2221,Feminine,infirmière
t2,2221,Feminine,infirmière
t3,2221,Masculine,infirmier
t4,2222,Feminine,sage-femme
t5,7111,Masculine,constructeur
t6,7111,Masculine,constructeur
t7,7111,Not Clear,constructeur
t8,8111,Not Clear,mineur
"""


@pytest.fixture
def files(tmp_path):
    assignments = tmp_path / "assignments.csv"
    assignments.write_text(ASSIGNMENTS, encoding="utf-8")
    labour = tmp_path / "labour.csv"
    labour.write_text("isco,female_share,country\n222,0.9,FR\n711,0.1,FR\n8,0.0,FR\n",
                      encoding="utf-8")
    return {"assignments": assignments, "labour": labour, "dir": tmp_path}


def run_json(capsys, *args) -> dict:
    assert main(["score", "grape", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_registered():
    assert "gendermt.benchmarks.gambit.cli" in SCORE_COMMANDS


def test_subprocess_json_keys_exactly(files):
    out = subprocess.run(
        [sys.executable, "-m", "gendermt", "score", "grape", "--assignments",
         str(files["assignments"]), "--reference", "parity", "--json"],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    assert list(result) == ["overall", "groups", "signature"]
    assert list(result["overall"]) == ENTRY
    assert list(result["groups"]) == ["2221", "2222", "7111", "8111"]
    assert all(list(entry) == ENTRY for entry in result["groups"].values())
    overall = result["overall"]
    # 3 masculine, 3 feminine, 2 not clear: p = 0.5 → GRAPE 0
    assert (overall["n_masculine"], overall["n_feminine"], overall["n_not_clear"]) == (3, 3, 2)
    assert overall["grape_m"] == pytest.approx(0.0) and overall["reference_f"] == 0.5
    assert result["groups"]["2221"]["grape_f"] == pytest.approx((2 / 3 - 0.5) / 0.5)
    assert result["groups"]["8111"]["grape_m"] is None
    assert result["groups"]["8111"]["note"] == "no gendered assignment (all Not Clear)"
    assert "NaN" not in out


def test_labour_reference_level_3(files, capsys):
    result = run_json(capsys, "--assignments", files["assignments"], "--reference",
                      files["labour"], "--level", "3")
    assert list(result["groups"]) == ["222", "711", "811"]
    g222 = result["groups"]["222"]
    assert (g222["n_masculine"], g222["n_feminine"]) == (1, 3)
    assert g222["reference_f"] == 0.9 and g222["reference_code"] == "222"
    assert g222["grape_f"] == pytest.approx((0.75 - 0.9) / 0.9)
    assert g222["grape_m"] == pytest.approx((0.25 - 0.1) / 0.1)
    g711 = result["groups"]["711"]
    assert g711["grape_m"] == pytest.approx((1.0 - 0.9) / 0.9)
    # 811 → "8" with share 0: GRAPE_f divides by zero; no gendered assignment anyway
    g811 = result["groups"]["811"]
    assert g811["reference_code"] == "8" and g811["grape_f"] is None
    assert "no gendered assignment" in g811["note"] and "share of women is 0" in g811["note"]
    # overall reference: (0.9 * 4 + 0.1 * 2 + 0 * 0) / 6
    ref_f = (0.9 * 4 + 0.1 * 2) / 6
    assert result["overall"]["reference_f"] == pytest.approx(ref_f)
    assert result["overall"]["grape_f"] == pytest.approx((0.5 - ref_f) / ref_f)
    assert result["overall"]["reference"] == "real"


def test_readable_table(files, capsys):
    assert main(["score", "grape", "--assignments", str(files["assignments"]),
                 "--reference", "parity"]) == 0
    out = capsys.readouterr().out
    assert "GRAPE, reference parity, ISCO-08 level 4" in out
    assert "| overall" in out and "| 8111" in out and "n/a" in out and "nan" not in out


@pytest.mark.parametrize("assignments, labour, words", [
    ("text_id,isco\nt1,2221\n", None, "column 'label': missing column"),
    ("text_id,isco,label\nt1,2221,Feminine\nt2,2221,Female\n", None,
     "row 2, column 'label': label 'Female'"),
    ("text_id,isco,label\nt1,22211,Feminine\n", None, "row 1, column 'isco'"),
    (ASSIGNMENTS, "code,female_share\n222,0.9\n", "column 'isco': missing from the header"),
    (ASSIGNMENTS, "isco,female_share\n222,0.9\n711,1.2\n",
     "row 2, column 'female_share': 1.2 is outside [0, 1]"),
    (ASSIGNMENTS, "isco,female_share\n222,0.9\n711,\n", "row 2, column 'female_share'"),
    (ASSIGNMENTS, "isco,female_share\n222,0.9\n222,0.8\n",
     "row 2, column 'isco': code '222' appears twice (rows 1 and 2)"),
    (ASSIGNMENTS, "isco,female_share\n22a,0.9\n", "row 1, column 'isco'"),
])
def test_bad_input_exits_non_zero_naming_file_row_column(files, capsys, assignments, labour,
                                                         words):
    path = files["dir"] / "bad.csv"
    path.write_text(assignments, encoding="utf-8")
    reference = "parity"
    if labour is not None:
        reference = files["dir"] / "bad_labour.csv"
        reference.write_text(labour, encoding="utf-8")
    code = main(["score", "grape", "--assignments", str(path), "--reference", str(reference),
                 "--json"])
    err = capsys.readouterr().err
    assert code != 0
    assert words in err
    assert (str(reference) if labour is not None else str(path)) in err


def test_unknown_reference_file(files, capsys):
    assert main(["score", "grape", "--assignments", str(files["assignments"]),
                 "--reference", str(files["dir"] / "nope.csv")]) != 0
    assert "no such file" in capsys.readouterr().err


def test_level_must_be_4_or_3(files):
    with pytest.raises(SystemExit):
        main(["score", "grape", "--assignments", str(files["assignments"]),
              "--reference", "parity", "--level", "2"])


def test_overall_reference_national(files, capsys):
    base = ["--assignments", files["assignments"], "--reference", files["labour"]]
    weighted = run_json(capsys, *base)["overall"]
    assert weighted["reference_code"] is None
    national = run_json(capsys, *base, "--overall-reference", "national", "--lang", "fr")
    overall = national["overall"]
    # every gendered assignment counts: 3 m, 3 f against 49.0% women
    assert (overall["n_masculine"], overall["n_feminine"]) == (3, 3)
    assert overall["reference_f"] == 0.49 and overall["reference_code"] == "national"
    assert overall["grape_m"] == pytest.approx((0.5 - 0.51) / 0.51)
    assert "back-solved" in overall["note"]
    own = run_json(capsys, *base, "--overall-reference", "national", "--national-share", "0.4")
    assert own["overall"]["reference_f"] == 0.4
    # the groups keep their own references
    assert own["groups"] == national["groups"]
    assert main(["score", "grape", *map(str, base), "--overall-reference", "national"]) == 2
    assert "--national-share or --lang" in capsys.readouterr().err
    assert main(["score", "grape", *map(str, base), "--overall-reference", "national",
                 "--lang", "de"]) == 2
    assert "no national reference for language 'de'" in capsys.readouterr().err
