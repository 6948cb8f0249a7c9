"""Neo-GATE: the TSV loader on good and malformed files, paradigm mappings and adaptation,
and `gendermt score neogate`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gendermt.benchmarks.neogate.data import annotation_stats, load, read_tsv
from gendermt.benchmarks.neogate.paradigm import (
    MappingError,
    adapt,
    check_mapping,
    describe,
    load_mapping,
    neomorpheme_chars,
)
from gendermt.cli import main
from gendermt.core.errors import DatasetError, MissingResourceError

from ...conftest import ROOT

NEOGATE = ROOT / "resources" / "neogate"
TEST, DEV = NEOGATE / "Neo-GATE.tsv", NEOGATE / "Neo-GATE-dev.tsv"
HEADER = "#\tGATE-ID\tSOURCE\tREF-M\tREF-F\tREF-TAGGED\tANNOTATION\n"
ROW = ("1\tIT_2_variants001\tMy friend is rich.\tIl mio amico è ricco.\tLa mia amica è ricca."
       "\t<DARTS> <POSS1S> amic<ENDS> è ricc<ENDS>.\til la <DARTS> amic=2;mio mia <POSS1S> "
       "amic=1;amico amica amic<ENDS>;ricco ricca ricc<ENDS>;\n")


@pytest.fixture(scope="module")
def mappings():
    return {name: load_mapping(NEOGATE / f"{name}.json") for name in ("asterisk", "schwa")}


def write(tmp_path, text, name="Neo-GATE.tsv"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# ----------------------------------------------------------------------- mappings
def test_shipped_mappings_cover_table_8(mappings):
    assert len(mappings["asterisk"]) == len(mappings["schwa"]) == 29
    assert mappings["asterisk"]["<ENDS>"] == mappings["asterisk"]["<ENDP>"] == "*"
    assert mappings["asterisk"]["<PREPdiS>"] == "dell*"
    assert mappings["schwa"]["<ENDS>"] == "ə" and mappings["schwa"]["<ENDP>"] == "ɜ"
    assert mappings["schwa"]["<DARTP>"] == "lɜ" and mappings["schwa"]["<IART>"] == "unə"
    assert neomorpheme_chars(mappings["asterisk"]) == "*"
    assert neomorpheme_chars(mappings["schwa"]) == "əɜ"


def test_neomorpheme_chars_ignore_italian_letters_and_accents():
    assert neomorpheme_chars({"<ENDS>": "u", "<IART>": "unù"}) == ""
    assert neomorpheme_chars({"<ENDS>": "x·", "<IART>": "Ü"}) == "·Ü"


def test_paradigm_descriptions_for_prompts(mappings):
    assert describe("*", mappings["asterisk"]) == "the neomorpheme ‘*’"
    assert describe("əɜ", mappings["schwa"]) == (
        "the neomorphemes ‘ə’ (singular) and ‘ɜ’ (plural)")


@pytest.mark.parametrize("form,bad", [("l *", "' '"), ("l;", "';'"), ("l=", "'='"),
                                      ("l\t", "'\\t'")])
def test_forms_that_break_the_annotation_format_are_rejected(form, bad):
    with pytest.raises(MappingError, match="my.json: the form of <DARTS>") as err:
        check_mapping({"<ENDS>": "*", "DARTS": form}, "my.json")
    assert f"holds {bad}" in str(err.value)


def test_mapping_keys_may_omit_brackets_but_not_repeat():
    assert check_mapping({"ENDS": "*"}) == {"<ENDS>": "*"}
    with pytest.raises(MappingError, match="mapped twice"):
        check_mapping({"ENDS": "*", "<ENDS>": "ə"})
    with pytest.raises(MappingError, match="non-empty"):
        check_mapping({"ENDS": ""})


def test_a_mapping_file_that_is_missing_or_not_json(tmp_path):
    with pytest.raises(MissingResourceError):
        load_mapping(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(MappingError, match="bad.json"):
        load_mapping(bad)


def test_an_unmapped_tag_of_the_data_is_named(tmp_path, mappings):
    partial = {k: v for k, v in mappings["asterisk"].items() if k != "<POSS1S>"}
    with pytest.raises(DatasetError, match=r"row 1, column 'REF-TAGGED'.*<POSS1S>"):
        load(write(tmp_path, HEADER + ROW), {"mine": partial})


def test_adaptation_replaces_tags_and_capitalises_an_opening_form(tmp_path, mappings):
    data = load(write(tmp_path, HEADER + ROW), mappings)
    row = data.iloc[0]
    assert row["ref_asterisk"] == "L* mi* amic* è ricc*."
    assert row["ref_schwa"] == "Lə miə amicə è riccə."
    assert row["annotation_schwa"] == ("il la lə amic=2;mio mia miə amic=1;amico amica amicə;"
                                       "ricco ricca riccə;")
    assert adapt("<ENDS>", mappings["asterisk"], capitalise_initial=True) == "*"


# ----------------------------------------------------------------------- the loader
def test_the_sample_loads(mappings):
    data = load(TEST, mappings)
    assert len(data) == 12
    assert list(data["item_id"][:2]) == ["neogate-1", "neogate-2"]
    assert {"source", "ref_male", "ref_female", "ref_tagged", "annotation_tagged",
            "ref_asterisk", "annotation_schwa"} <= set(data.columns)
    dev = load(DEV, mappings, "dev")
    assert dev["number"].min() == 13 and dev["gate_id"].str.startswith("dev_").all()
    assert annotation_stats(data["annotation_tagged"]) == {
        "entries": 12, "tags": 36, "content": 18, "function": 18, "singular": 18,
        "plural": 18}


def test_the_old_id_header_and_the_first_release_split_column(tmp_path, mappings):
    old = HEADER.replace("GATE-ID", "ID")
    assert len(load(write(tmp_path, old + ROW), mappings)) == 1
    split = HEADER.replace("\n", "\tSPLIT\n") + ROW.replace("\n", "\ttest\n") + \
        ROW.replace("1\tIT", "2\tdev_IT").replace("\n", "\tdev\n")
    path = write(tmp_path, split, "all.tsv")
    assert list(read_tsv(path, "test")["#"]) == ["1"]
    assert list(read_tsv(path, "dev")["#"]) == ["2"]


@pytest.mark.parametrize("text,match", [
    ("", "empty"),
    (HEADER.replace("\tANNOTATION", ""), "column 'ANNOTATION'"),
    (HEADER + ROW.replace("\tMy friend", " My friend"), "row 1: 6 tab-separated fields"),
    (HEADER + ROW + ROW, "row 2, column '#': duplicated id 1"),
    (HEADER + ROW.replace("1\tIT", "x\tIT"), "row 1, column '#'"),
    (HEADER + ROW.replace("\tMy friend is rich.", "\t "), "row 1, column 'SOURCE': empty"),
    (HEADER + ROW.replace(";ricco ricca", ";ricco  ricca"), "row 1, column 'ANNOTATION'"),
    (HEADER + ROW.replace("amic=1", "amic=uno"), "row 1, column 'ANNOTATION'.*integer"),
    # issue 18: ids that are not ASCII numbers, the same number twice, invisible text
    (HEADER + ROW.replace("1\tIT", "\u00b2\tIT"), "row 1, column '#': the id '²' is not"),
    (HEADER + ROW + ROW.replace("1\tIT", "01\tIT"), "row 2, column '#': duplicated id 01"),
    (HEADER + ROW.replace("\tMy friend is rich.", "\t\u200b"), "row 1, column 'SOURCE': empty"),
    (HEADER + "\n" + ROW.replace("1\tIT", "x\tIT"), "row 2, column '#'"),  # blank lines count
    (b"\xff\xfe" + HEADER.encode(), "not UTF-8 text: byte 0xff on line 1"),
])
def test_malformed_files_name_file_row_and_column(tmp_path, mappings, text, match):
    path = write(tmp_path, text)
    with pytest.raises(DatasetError, match=match) as err:
        load(path, mappings)
    assert str(path) in str(err.value)


def test_a_bom_before_the_header_and_huge_fields_are_read(tmp_path, mappings):
    long = ROW.replace("My friend is rich.", "My friend is rich." + " x" * 70_000)
    frame = read_tsv(write(tmp_path, "\ufeff" + HEADER + long))
    assert list(frame["#"]) == ["1"] and len(frame["SOURCE"].iat[0]) > 131072


def test_a_missing_file_says_where_to_get_it(tmp_path, mappings):
    with pytest.raises(MissingResourceError, match="FBK-MT/Neo-GATE"):
        load(tmp_path / "Neo-GATE.tsv", mappings)


# ----------------------------------------------------------------------- the CLI
def test_cli_prints_the_issue_keys_and_the_oracle_extremes(tmp_path, mappings, capsys):
    data = load(TEST, mappings)
    keys = ["coverage", "accuracy", "cwa", "misgeneration", "n_annotations", "matched",
            "correct", "masculine", "feminine", "misgenerations", "signature",
            "clean_share", "low_quality"]  # the last two: issue 48's outputs check
    for column, expected in (("ref_schwa", (100, 100, 100, 0)), ("ref_male", (100, 0, 0, 0))):
        hyp = tmp_path / f"{column}.txt"
        hyp.write_text("\n".join(data[column]) + "\n", encoding="utf-8")
        assert main(["score", "neogate", "--data", str(TEST), "--mapping",
                     str(NEOGATE / "schwa.json"), "--hyp", str(hyp), "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert list(result) == keys
        assert [result[k] for k in keys[:4]] == list(expected)
        assert result["n_annotations"] == 36
        assert result["low_quality"] is False  # the Italian references


def test_cli_neomorphemes_option_and_tsv_export(tmp_path, capsys):
    hyp = tmp_path / "out.txt"
    lines = ["Lə nuovə insegnante è un po' distrattə."] + ["ciao"] * 11
    hyp.write_text("\n".join(lines), encoding="utf-8")  # no trailing newline: still 12 lines
    tsv = tmp_path / "eval.tsv"
    base = ["score", "neogate", "--data", str(TEST), "--mapping", str(NEOGATE / "schwa.json"),
            "--hyp", str(hyp), "--json"]
    assert main([*base, "--export-tsv", str(tsv)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["correct"] == 3 and result["misgenerations"] == 0
    rows = tsv.read_text(encoding="utf-8").splitlines()
    assert rows[0].split("\t") == ["#", "ANNOTATIONS", "MATCHED", "CORRECT", "MASCULINE",
                                   "FEMININE", "MIS-GENERATIONS"]
    assert rows[1].split("\t")[:4] == ["1", "3", "lə nuovə distrattə", "lə nuovə distrattə"]
    # unannotated ə words are mis-generations only when ə is declared
    hyp.write_text("\n".join(["tuttə"] * 12), encoding="utf-8")
    assert main([*base, "--neomorphemes", "ə"]) == 0
    assert json.loads(capsys.readouterr().out)["misgenerations"] == 12
    assert main([*base, "--neomorphemes", "ɜ"]) == 0
    assert json.loads(capsys.readouterr().out)["misgenerations"] == 0


def test_cli_rejects_a_line_count_mismatch(tmp_path, capsys):
    hyp = tmp_path / "out.txt"
    hyp.write_text("a\nb\n", encoding="utf-8")
    code = main(["score", "neogate", "--data", str(TEST), "--mapping",
                 str(NEOGATE / "asterisk.json"), "--hyp", str(hyp), "--json"])
    assert code == 2
    assert "has 2 lines but" in capsys.readouterr().err


def test_cli_runs_as_a_command(tmp_path):
    hyp = tmp_path / "out.txt"
    hyp.write_text("x\n" * 12, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "gendermt", "score", "neogate", "--data",
                           str(TEST), "--mapping", str(NEOGATE / "asterisk.json"), "--hyp",
                           str(hyp), "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["coverage"] == 0.0


def test_cli_export_tsv_quotes_a_field_holding_a_tab(tmp_path, capsys):
    import csv

    hyp = tmp_path / "out.txt"
    # a mis-generated word with a tab in it (the tokeniser splits on spaces only)
    hyp.write_text("\n".join(["tuttə\t\"belli\""] + ["ciao"] * 11), encoding="utf-8")
    tsv = tmp_path / "eval.tsv"
    assert main(["score", "neogate", "--data", str(TEST), "--mapping",
                 str(NEOGATE / "schwa.json"), "--hyp", str(hyp), "--neomorphemes", "ə",
                 "--export-tsv", str(tsv), "--json"]) == 0
    capsys.readouterr()
    with tsv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh, delimiter="\t"))
    assert all(len(row) == 7 for row in rows)
    assert rows[1][6] == "tuttə\tbelli"  # quotes are punctuation the script deletes
    assert '"tuttə\tbelli"' in tsv.read_text(encoding="utf-8")
