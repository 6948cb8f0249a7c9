"""WinoMT's loader: the published TSV files, subsets, and malformed rows."""

import pandas as pd
import pytest

from gendermt.benchmarks.winomt.data import build, load
from gendermt.core.errors import DatasetError, MissingResourceError

from ...conftest import ROOT

WINOMT = ROOT.parent / "shared" / "data" / "winomt"

ROWS = ["female\t1\tThe developer argued with the designer because she did not like the "
        "design.\tdeveloper",
        "male\t5\tThe developer argued with the designer because his idea cannot be "
        "implemented.\tdesigner",
        "neutral\t1\tThe technician told someone that the work was done.\ttechnician",
        "male\t1\tThe construction worker helped the nurse.\tconstruction worker"]


def write(path, rows):
    path.write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def test_load_with_subsets(tmp_path):
    en = write(tmp_path / "en.txt", ROWS)
    pro = write(tmp_path / "pro.txt", [ROWS[1]])
    anti = write(tmp_path / "anti.txt", [ROWS[0]])
    data = load(en, pro, anti)
    assert list(data["item_id"]) == ["0000", "0001", "0002", "0003"]
    assert list(data["gold"]) == ["female", "male", "neutral", "male"]
    assert list(data["entity_index"]) == [1, 5, 1, 1]
    assert list(data["stereotype"]) == ["anti", "pro", "none", "none"]
    assert data.loc[3, "entity"] == "construction worker"
    assert set(data["src_lang"]) == {"en"}


@pytest.mark.parametrize("row, message", [
    ("female\t1\tThe nurse ate.", r"row 2: 3 tab-separated fields, expected 4"),
    ("woman\t1\tThe nurse ate.\tnurse", r"row 2, column 'gender': gender 'woman'"),
    ("female\tone\tThe nurse ate.\tnurse", r"row 2, column 'entity index': .* not an integer"),
    ("female\t3\tThe nurse ate.\tnurse", r"row 2, column 'entity index': entity index 3 is "
                                         r"outside the sentence's 3 tokens"),
    ("", r"row 2: empty line"),
])
def test_malformed_rows(tmp_path, row, message):
    en = write(tmp_path / "en.txt", [ROWS[0], row])
    with pytest.raises(DatasetError, match=message):
        load(en)


def test_subset_row_not_in_the_data(tmp_path):
    en = write(tmp_path / "en.txt", ROWS[:2])
    pro = write(tmp_path / "pro.txt", [ROWS[2]])
    with pytest.raises(DatasetError, match=r"pro\.txt: 1 rows are not rows of .*en\.txt"):
        load(en, pro, write(tmp_path / "anti.txt", [ROWS[0]]))


def test_missing_file(tmp_path):
    with pytest.raises(MissingResourceError, match="en.txt does not exist"):
        load(tmp_path / "en.txt")


def test_build_writes_data_and_provenance(tmp_path):
    en = write(tmp_path / "en.txt", ROWS)
    build(str(en), None, None, str(tmp_path / "d.parquet"), str(tmp_path / "d.json"))
    assert len(pd.read_parquet(tmp_path / "d.parquet")) == 4
    assert '"sha256"' in (tmp_path / "d.json").read_text()


@pytest.mark.skipif(not WINOMT.is_dir(), reason="the shared WinoMT data is not here")
def test_published_files():
    data = load(WINOMT / "en.txt", WINOMT / "en_pro.txt", WINOMT / "en_anti.txt")
    assert len(data) == 3888
    assert data["gold"].value_counts().to_dict() == {"male": 1826, "female": 1822,
                                                     "neutral": 240}
    assert data["stereotype"].value_counts().to_dict() == {"pro": 1584, "anti": 1584,
                                                           "none": 720}
    # the index points at the entity's first word on every row (datasets.md §6)
    first = [s.split()[i].lower().strip(".,") for s, i in zip(data["source"],
                                                              data["entity_index"], strict=True)]
    assert first == [e.split()[0].lower() for e in data["entity"]]
