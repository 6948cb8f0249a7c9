"""The gENder-IT loader on the shipped sample and on malformed copies."""

import csv

import pandas as pd
import pytest

from gendermt.benchmarks.conga.data import HEADERS, load
from gendermt.core.errors import DatasetError, MissingResourceError

from ...conftest import ROOT

SAMPLE = ROOT / "resources" / "conga" / "gENder-IT-sample.tsv"


def _rows():
    with SAMPLE.open(encoding="utf-8") as fh:
        return list(csv.reader(fh, delimiter="\t"))


def _write(path, rows, delimiter="\t"):
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    return path


def test_sample_loads_with_the_published_columns():
    rows = _rows()
    assert len(rows[0]) == 16  # columns A–P
    assert rows[0][:4] == [HEADERS["id"], HEADERS["english"], HEADERS["single"],
                           HEADERS["alternatives"]]
    data, provenance = load(SAMPLE)
    assert len(data) == len(rows) - 1 == provenance["rows"]
    four = data.set_index("item_id").loc["sample-004"]
    assert pd.isna(four["ref_single"])
    assert four["n_alternatives"] == 4 and four["alternative_types"] == "MM - MF - FF - FM"
    assert four["ref_first"] == four["ref_alt_1"] and four["ref_last"] == four["ref_alt_4"]
    assert four["source"] == "The director said that the student was very talented."
    assert "<A1>" in four["source_tagged"]
    split = data.set_index("item_id").loc["split sample-007"]
    assert split["ref_first"] == split["ref_last"] == split["ref_single"] == split["reference"]


def test_csv_and_positional_columns(tmp_path):
    rows = _rows()
    data, _ = load(_write(tmp_path / "copy.csv", rows, ","))
    assert len(data) == len(rows) - 1
    renamed = [[f"col{i}" for i in range(16)], *rows[1:]]
    with pytest.raises(DatasetError, match="columns: positional"):
        load(_write(tmp_path / "renamed.tsv", renamed))
    positional, _ = load(tmp_path / "renamed.tsv", columns="positional")
    assert positional["ref_last"].tolist() == data["ref_last"].tolist()


@pytest.mark.parametrize(("edit", "message"), [
    (lambda rows: rows[3].__setitem__(1, "When I <A1 arrived"), "row 3, column 'ENGLISH'"),
    (lambda rows: rows[2].__setitem__(0, rows[1][0]), "duplicated ID 'sample-001'"),
    (lambda rows: rows[2].__setitem__(1, ""), "empty English sentence"),
    (lambda rows: rows[1].__setitem__(2, ""), "no Italian translation"),
    (lambda rows: rows[3].__setitem__(13, "two"), "is not a number"),
])
def test_malformed_rows_name_file_row_and_column(tmp_path, edit, message):
    rows = _rows()
    edit(rows)
    path = _write(tmp_path / "bad.tsv", rows)
    with pytest.raises(DatasetError) as err:
        load(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_row_numbers_count_blank_lines_and_zero_width_text_is_empty(tmp_path):
    rows = _rows()
    rows[3][1] = "When I <A1 arrived"
    rows.insert(2, [])  # a blank line after data row 1: the bad row is now line 5, row 4
    with pytest.raises(DatasetError, match="row 4, column 'ENGLISH'"):
        load(_write(tmp_path / "blank.tsv", rows))
    rows = _rows()
    rows[2][1] = "\u200b"
    with pytest.raises(DatasetError, match="row 2, column 'ENGLISH': empty English"):
        load(_write(tmp_path / "zw.tsv", rows))


def test_malformed_english_tag_names_the_sentence(tmp_path):
    rows = _rows()
    rows[5][1] = "She <Q1> was the first engineer."
    with pytest.raises(DatasetError, match="unknown gender letter 'Q'.*She <Q1> was"):
        load(_write(tmp_path / "bad.tsv", rows))


def test_missing_file_and_xlsx_without_openpyxl(tmp_path):
    with pytest.raises(MissingResourceError, match="Google Drive"):
        load(tmp_path / "gENder-IT.tsv")
    # openpyxl is not a dependency; without it an .xlsx file says what to do
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        (tmp_path / "g.xlsx").write_bytes(b"not a workbook")
        with pytest.raises(MissingResourceError, match="openpyxl"):
            load(tmp_path / "g.xlsx")


def test_a_non_utf8_byte_past_the_header_is_named(tmp_path):
    # far enough down that the header's read does not decode it
    rows = _rows()
    path = tmp_path / "latin.tsv"
    text = "\t".join(rows[0]) + "\n" + "x\ty\n" * 50_000
    path.write_bytes(text.encode() + b"caf\xe9\ty\n")
    with pytest.raises(DatasetError, match="latin.tsv: not UTF-8 text"):
        load(path)
