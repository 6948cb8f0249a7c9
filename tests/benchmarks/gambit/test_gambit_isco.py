"""Tests for the ISCO-08 hierarchy loader (``gendermt.benchmarks.gambit.isco``): the shipped
excerpt, the real ``ISCO-08-EN.csv`` in ../shared/data/isco08 (skipped when absent), and
files broken on purpose."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from gendermt.benchmarks.gambit.data import load
from gendermt.benchmarks.gambit.isco import (
    HEADER,
    ancestor,
    build,
    description_of,
    load_isco,
)
from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError

ROOT = Path(__file__).resolve().parents[3]
EXCERPT = ROOT / "resources" / "gambit" / "isco08-excerpt.csv"
SAMPLE = ROOT / "resources" / "gambit" / "sample" / "gambit-sample.jsonl"
REAL = ROOT.parent / "shared" / "data" / "isco08" / "ISCO-08-EN.csv"
needs_real = pytest.mark.skipif(not REAL.exists(), reason="../shared/data/isco08 not here")
COLUMNS = ["code", "level", "title", "definition", "tasks", "included", "excluded", "notes"]


@pytest.fixture(scope="module")
def excerpt() -> pd.DataFrame:
    return load_isco(EXCERPT)


@pytest.fixture(scope="module")
def sample_codes() -> list[str]:
    return sorted(load({"path": str(SAMPLE)})["isco"].unique())


# --------------------------------------------------------------------------- the excerpt
def test_excerpt_holds_the_sample_groups_and_their_ancestors(excerpt, sample_codes):
    assert list(excerpt.columns) == COLUMNS
    assert excerpt["level"].value_counts().sort_index().to_dict() == {1: 6, 2: 12, 3: 18, 4: 20}
    assert sorted(excerpt.loc[excerpt["level"] == 4, "code"]) == sample_codes
    codes = set(excerpt["code"])
    for code in sample_codes:
        assert all(ancestor(code, level) in codes for level in (1, 2, 3))
    assert excerpt["code"].tolist() == sorted(excerpt["code"])
    assert excerpt["level"].dtype.kind == "i"


def test_excerpt_layout_is_the_published_one():
    raw = EXCERPT.read_bytes()
    assert raw.startswith(";".join(HEADER).encode() + b"\r\n")
    assert b'"Nurse\nSpecialist nurse"' in raw  # LF inside a quoted field, CRLF between rows


def test_multi_line_fields_come_out_with_lf(excerpt):
    included = excerpt.set_index("code").loc["2221", "included"]
    assert included == "Nurse\nSpecialist nurse"
    assert not excerpt.map(lambda v: isinstance(v, str) and "\r" in v).any().any()


def test_description_and_ancestor(excerpt):
    assert description_of(excerpt, "2221") == (
        "Nursing Professionals. Plan and give nursing care to the sick, injured and disabled, "
        "and promote health.")
    with pytest.raises(GenderMTError, match="not in the hierarchy"):
        description_of(excerpt, "9999")
    assert ancestor("2221", 3) == "222" and ancestor("0110", 1) == "0"
    assert ancestor("2221", 4) == "2221"
    with pytest.raises(GenderMTError):
        ancestor("222", 4)
    with pytest.raises(GenderMTError):
        ancestor("22a1", 2)


def test_description_without_definition(tmp_path):
    path = _write(tmp_path, [["1", "1", "Managers", ""], ["2", "11", "Chiefs", ""],
                             ["3", "111", "Legislators and Senior Officials", ""],
                             ["4", "1111", "Legislators", ""]])
    assert description_of(load_isco(path), "1111") == "Legislators"


def test_build_writes_parquet(tmp_path):
    build(EXCERPT, tmp_path / "isco.parquet")
    frame = pd.read_parquet(tmp_path / "isco.parquet")
    assert len(frame) == 56 and frame["code"].map(type).eq(str).all()


# --------------------------------------------------------------------------- the real file
@needs_real
def test_real_file_loads():
    real = load_isco(REAL)
    assert len(real) == 619
    assert real["level"].value_counts().sort_index().to_dict() == {1: 10, 2: 43, 3: 130, 4: 436}
    assert {"0", "01", "011", "0110"} <= set(real["code"])
    assert description_of(real, "2221").startswith("Nursing Professionals. Nursing professionals")
    assert not real.map(lambda v: isinstance(v, str) and "\r" in v).any().any()
    assert real["included"].str.contains("\n").any()


@needs_real
def test_every_sample_and_excerpt_code_is_in_the_real_file(excerpt, sample_codes):
    real = load_isco(REAL).set_index("code")
    assert set(sample_codes) <= set(real.index)
    for row in excerpt.itertuples():
        assert row.code in real.index
        assert real.loc[row.code, "title"] == row.title  # codes and titles are ISCO-08's
        assert real.loc[row.code, "level"] == row.level
        assert real.loc[row.code, "definition"] != row.definition  # ours are paraphrases


# --------------------------------------------------------------------------- broken files
GOOD = [["1", "2", "Professionals", "People who know things."],
        ["2", "22", "Health Professionals", "Health."],
        ["3", "222", "Nursing and Midwifery Professionals", "Nursing."],
        ["4", "2221", "Nursing Professionals", "Care."],
        ["4", "2222", "Midwifery Professionals", "Births."]]


def _write(tmp_path: Path, rows: list[list[str]], header: tuple[str, ...] = HEADER,
           newline: str = "\r\n") -> Path:
    lines = [";".join(header)]
    for row in rows:
        row = row + [""] * (len(header) - len(row))
        lines.append(";".join(f'"{v}"' if (";" in v or "\n" in v) else v for v in row))
    path = tmp_path / "isco.csv"
    path.write_bytes((newline.join(lines) + newline).encode("utf-8"))
    return path


def test_lf_only_file_and_bom_and_crlf_inside_fields(tmp_path):
    rows = [r[:] for r in GOOD]
    rows[3] = rows[3] + ["", "Nurse\r\nSpecialist nurse"]
    path = _write(tmp_path, rows, newline="\n")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    frame = load_isco(path)
    assert len(frame) == 5
    assert frame.set_index("code").loc["2221", "included"] == "Nurse\nSpecialist nurse"


@pytest.mark.parametrize(("index", "row", "column", "message"), [
    (3, ["5", "2221", "Nursing Professionals", ""], "Level", "level '5'"),
    (3, ["4", "222", "Nursing Professionals", ""], "ISCO 08 Code", "has 3 digits but level 4"),
    (3, ["4", "22x1", "Nursing Professionals", ""], "ISCO 08 Code", "not a string of digits"),
    (3, ["4", "2231", "Nursing Professionals", ""], "ISCO 08 Code", "no parent group 223"),
    (4, ["4", "2221", "Midwifery Professionals", ""], "ISCO 08 Code", "appears twice"),
    (3, ["4", "2221", "", ""], "Title EN", "empty title"),
])
def test_bad_rows_are_named(tmp_path, index, row, column, message):
    rows = [r[:] for r in GOOD]
    rows[index] = row
    path = _write(tmp_path, rows)
    with pytest.raises(DatasetError, match=message) as err:
        load_isco(path)
    assert err.value.row == index + 1 and err.value.column == column
    assert str(path) in str(err.value)


def test_missing_column(tmp_path):
    path = _write(tmp_path, [r[:] for r in GOOD], header=HEADER[:-1])
    with pytest.raises(DatasetError, match="missing from the header") as err:
        load_isco(path)
    assert err.value.column == "Notes"


def test_a_level_missing(tmp_path):
    path = _write(tmp_path, [r[:] for r in GOOD[:3]])
    with pytest.raises(DatasetError, match="no group of level 4"):
        load_isco(path)


def test_field_count_and_empty_files(tmp_path):
    path = _write(tmp_path, [r[:] for r in GOOD])
    path.write_bytes(path.read_bytes() + b"4;2229;Extra;too;many;;;;;;\r\n")
    with pytest.raises(DatasetError, match="fields, the header has 8") as err:
        load_isco(path)
    assert err.value.row == 6
    path.write_bytes(b"")
    with pytest.raises(DatasetError, match="empty"):
        load_isco(path)
    path.write_bytes((";".join(HEADER) + "\r\n").encode())
    with pytest.raises(DatasetError, match="no rows"):
        load_isco(path)
    with pytest.raises(MissingResourceError):
        load_isco(tmp_path / "nope.csv")
