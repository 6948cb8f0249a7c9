"""Tests for the FairTranslate loader (``gendermt.benchmarks.fairtranslate.data``).

Everything runs on the project's hand-written 54-row sample (HF layout, 18 examples x
male/female/inclusive in that order), rewritten in tmp_path as Parquet, as the authors'
semicolon CSV, shuffled, truncated or broken on purpose. The Hub tests run offline against
an empty or a hand-built Hugging Face cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gendermt.benchmarks.fairtranslate import data as data_module
from gendermt.benchmarks.fairtranslate.data import build, load
from gendermt.core.errors import DatasetError, MissingResourceError

SAMPLE = Path(__file__).parents[3] / "resources/fairtranslate/data/train-00000-of-00001.parquet"
SHARD = "train-00000-of-00001.parquet"
HUB_ID = "Fannyjrd/FairTranslate_fr"
FILE_GENDERS = ("male", "female", "inclusive")  # order of the variants inside each sample example
TABLE_COLUMNS = [
    "item_id", "example_id", "row", "src_lang", "tgt_lang", "source", "reference", "gender",
    "ambiguity", "stereotype", "occupation", "ref_female", "ref_male", "ref_inclusive",
]
STEREOTYPES = ("female-stereotyped", "male-stereotyped", "gender-balanced")
AMBIGUITIES = ("ambiguous", "unambiguous", "long unambiguous")


# --------------------------------------------------------------------------- helpers
@pytest.fixture(scope="module")
def sample_raw() -> pd.DataFrame:
    """The sample as published (occupation as plain Python lists)."""
    frame = pd.read_parquet(SAMPLE)
    frame["occupation"] = frame["occupation"].map(list)
    return frame


@pytest.fixture(scope="module")
def sample_loaded():
    return load(path=SAMPLE)


@pytest.fixture
def raw(sample_raw) -> pd.DataFrame:
    out = sample_raw.copy()
    out["occupation"] = out["occupation"].map(list)  # fresh lists: mutations stay local
    return out


def write(frame: pd.DataFrame, path: Path) -> Path:
    """Write ``frame`` as Parquet (native list) or as the authors' CSV (stringified list)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".csv":
        frame = frame.copy()
        frame["occupation"] = frame["occupation"].map(
            lambda v: v if isinstance(v, str) else str(list(v)))
        frame.to_csv(path, sep=";", index=True, encoding="utf-8")
    else:
        frame.to_parquet(path, index=False)
    return path


def set_cells(frame: pd.DataFrame, column: str, rows: list[int], value) -> pd.DataFrame:
    """A copy of ``frame`` with ``value`` in ``column`` at the given 1-based rows."""
    out = frame.copy()
    values = list(out[column])
    for row in rows:
        values[row - 1] = value
    out[column] = pd.Series(values, index=out.index, dtype=object)
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_same_table(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected.reset_index(drop=True))


def assert_same_counts(got: dict, expected: dict) -> None:
    keys = ("rows", "examples", "rows_without_all_variants", "rows_per_gender", "empty_cells")
    assert {k: got[k] for k in keys} == {k: expected[k] for k in keys}


# --------------------------------------------------------------------------- 1. the sample
def test_sample_loads_as_documented(sample_loaded, sample_raw):
    data, prov = sample_loaded
    assert list(data.columns) == TABLE_COLUMNS
    assert len(data) == 54
    assert data["gender"].value_counts().to_dict() == {"male": 18, "female": 18, "inclusive": 18}
    cells = data.groupby(["stereotype", "ambiguity", "gender"]).size()
    assert len(cells) == 27 and set(cells) == {2}
    assert prov["empty_cells"] == []
    assert prov["rows"] == 54 and prov["examples"] == 18
    assert prov["rows_per_gender"] == {"female": 18, "male": 18, "inclusive": 18}
    assert prov["rows_without_all_variants"] == 0

    # ids: unique, positional, in file order; rows 1-based
    assert data["item_id"].is_unique
    assert list(data["item_id"]) == [f"fairtranslate-{i:04d}" for i in range(54)]
    assert list(data["row"]) == list(range(1, 55))
    assert set(data["src_lang"]) == {"en"} and set(data["tgt_lang"]) == {"fr"}

    # content comes from the right columns, unchanged
    assert list(data["source"]) == list(sample_raw["english"])
    assert list(data["reference"]) == list(sample_raw["french"])
    for col in ("gender", "ambiguity", "stereotype"):
        assert list(data[col]) == list(sample_raw[col])
    assert all(isinstance(v, list) and len(v) == 3 for v in data["occupation"])
    assert [list(v) for v in data["occupation"]] == list(sample_raw["occupation"])

    # each row's own-gender reference is its reference; siblings are the triple's references
    for _, row in data.iterrows():
        assert row[f"ref_{row['gender']}"] == row["reference"]
    for i in range(54):
        base = 3 * (i // 3)
        for k, gender in enumerate(FILE_GENDERS):
            assert data.at[i, f"ref_{gender}"] == sample_raw.at[base + k, "french"]
        assert data.at[i, "example_id"] == f"ex-{i // 3:04d}"

    assert prov["path"] == str(SAMPLE)
    assert prov["sha256"] == sha256(SAMPLE)


def test_empty_cells_are_reported(tmp_path, raw):
    gone = (raw["stereotype"] == "gender-balanced") & (raw["ambiguity"] == "ambiguous") & (
        raw["gender"] == "inclusive")
    assert gone.sum() == 2
    data, prov = load(path=write(raw[~gone].reset_index(drop=True), tmp_path / "x.parquet"))
    assert len(data) == 52
    assert prov["empty_cells"] == [["gender-balanced", "ambiguous", "inclusive"]]
    assert prov["rows_per_gender"] == {"female": 18, "male": 18, "inclusive": 16}
    assert prov["rows_without_all_variants"] == 4  # the male and female rows of those 2 examples


# --------------------------------------------------------------------------- 2. HF folder layout
@pytest.mark.parametrize("layout", ["data/" + SHARD, SHARD])
def test_snapshot_folder_reads_like_the_file(tmp_path, sample_loaded, layout):
    folder = tmp_path / "snapshot"
    (folder / layout).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLE, folder / layout)
    (folder / "README.md").write_text("---\nlicense: cc-by-4.0\n---\n", encoding="utf-8")
    data, prov = load(path=folder)
    assert_same_table(data, sample_loaded[0])
    assert_same_counts(prov, sample_loaded[1])
    assert prov["path"] == str(folder)
    assert prov["sha256"] == sha256(SAMPLE)  # one shard: the digest of that shard


def test_two_shards_are_read_in_order(tmp_path, raw, sample_loaded):
    folder = tmp_path / "snapshot"
    # written in reverse so that directory order is less likely to be sorted by accident
    write(raw.iloc[27:], folder / "data" / "train-00001-of-00002.parquet")
    write(raw.iloc[:27], folder / "data" / "train-00000-of-00002.parquet")
    data, prov = load(path=folder)
    assert_same_table(data, sample_loaded[0])
    assert_same_counts(prov, sample_loaded[1])


def test_folder_digest_covers_only_the_shards_read(tmp_path):
    folder = tmp_path / "snapshot"
    (folder / "data").mkdir(parents=True)
    shutil.copy(SAMPLE, folder / "data" / SHARD)
    before = load(path=folder)[1]["sha256"]
    # a Parquet file the loader does not read (another split, an earlier build output)
    shutil.copy(SAMPLE, folder / "data" / "test-00000-of-00001.parquet")
    data, prov = load(path=folder)
    assert len(data) == 54  # the extra file is not read...
    # ...and is not in the checksum: identical data, identical sha256.
    assert prov["sha256"] == before


# --------------------------------------------------------------------------- 3. authors' CSV
def test_authors_csv_gives_the_same_table(tmp_path, raw, sample_loaded):
    frame = raw.copy()
    frame["MT_french_gemma2:2b"] = "Une traduction; avec un point-virgule."  # extra column
    path = write(frame, tmp_path / "FairTranslate_with_MT.csv")
    header = path.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith(";english;french;gender;")  # index column, semicolons
    assert "['infirmier', 'infirmière', 'infirmier.ière']" in path.read_text(encoding="utf-8")
    assert "Unnamed: 0" in pd.read_csv(path, sep=";").columns

    data, prov = load(path=path)
    assert_same_table(data, sample_loaded[0])
    assert_same_counts(prov, sample_loaded[1])
    assert prov["path"] == str(path)
    assert prov["sha256"] == sha256(path) != sample_loaded[1]["sha256"]


# --------------------------------------------------------------------------- 4. variant pairing
def _check_true_triples(data: pd.DataFrame, original_position: np.ndarray,
                        sample_raw: pd.DataFrame) -> None:
    """Each example_id is one male, female and inclusive row of one original example."""
    true_example = original_position // 3
    groups = data.assign(true=true_example).groupby("example_id")
    assert groups.ngroups == 18
    for _, group in groups:
        assert sorted(group["gender"]) == ["female", "inclusive", "male"]
        assert group["true"].nunique() == 1
    for i, pos in enumerate(original_position):
        base = 3 * (pos // 3)
        assert data.at[i, "gender"] == FILE_GENDERS[pos % 3]
        for k, gender in enumerate(FILE_GENDERS):
            assert data.at[i, f"ref_{gender}"] == sample_raw.at[base + k, "french"]
    # example ids are numbered by their first row in the file
    first_seen = list(dict.fromkeys(data["example_id"]))
    assert first_seen == [f"ex-{i:04d}" for i in range(18)]


def test_pairing_recovers_triples_of_shuffled_rows(tmp_path, raw, sample_raw):
    perm = np.random.default_rng(20250423).permutation(len(raw))
    data, prov = load(path=write(raw.iloc[perm].reset_index(drop=True), tmp_path / "s.parquet"))
    assert prov["rows_without_all_variants"] == 0 and prov["examples"] == 18
    assert list(data["item_id"]) == [f"fairtranslate-{i:04d}" for i in range(54)]
    _check_true_triples(data, perm, sample_raw)


def test_pairing_by_text_when_all_rows_share_occupation_and_labels(tmp_path, raw, sample_raw):
    # One candidate group of 18 male rows: only text similarity can tell the examples apart.
    frame = raw.copy()
    frame["stereotype"] = "gender-balanced"
    frame["ambiguity"] = "ambiguous"
    frame["occupation"] = [["avocat", "avocate", "avocat.e"] for _ in range(len(frame))]
    perm = np.random.default_rng(7).permutation(len(frame))
    data, prov = load(path=write(frame.iloc[perm].reset_index(drop=True), tmp_path / "s.csv"))
    assert prov["rows_without_all_variants"] == 0
    _check_true_triples(data, perm, sample_raw)


def test_missing_female_row_leaves_siblings_unpaired(tmp_path, raw, sample_raw):
    frame = raw.drop(index=4).reset_index(drop=True)  # female row of example 1
    data, prov = load(path=write(frame, tmp_path / "x.parquet"))
    assert len(data) == 53
    assert prov["rows_without_all_variants"] == 2
    assert prov["examples"] == 18
    male, inclusive = data.iloc[3], data.iloc[4]
    assert (male["gender"], inclusive["gender"]) == ("male", "inclusive")
    assert male["example_id"] == inclusive["example_id"]
    assert pd.isna(male["ref_female"]) and pd.isna(inclusive["ref_female"])
    assert male["ref_inclusive"] == inclusive["reference"] == sample_raw.at[5, "french"]
    assert inclusive["ref_male"] == male["reference"]
    assert data["ref_female"].isna().sum() == 2
    assert data.drop(index=[3, 4])[["ref_female", "ref_male", "ref_inclusive"]].notna().all().all()


def test_dissimilar_rows_are_not_paired(tmp_path, raw):
    # Examples 0 (nurse) and 1 (librarian) share occupation and labels; drop the male row of
    # example 0 and the female row of example 1. The nurse's female row is then the only
    # female candidate for the librarian's male row, but the texts are unrelated.
    frame = raw.copy()
    frame["occupation"] = [raw.at[0, "occupation"] if i < 6 else v
                           for i, v in enumerate(raw["occupation"])]
    frame = frame.drop(index=[0, 4]).reset_index(drop=True)
    data, prov = load(path=write(frame, tmp_path / "x.parquet"))
    nurse_female, librarian_male = data.iloc[0], data.iloc[2]
    assert nurse_female["gender"] == "female" and librarian_male["gender"] == "male"
    assert "infirmière" in nurse_female["reference"]
    assert "bibliothécaire" in librarian_male["reference"]
    assert nurse_female["example_id"] != librarian_male["example_id"]
    assert pd.isna(librarian_male["ref_female"])
    assert pd.isna(nurse_female["ref_male"])
    assert data.iloc[3]["example_id"] == librarian_male["example_id"]  # librarian inclusive
    assert prov["rows_without_all_variants"] == 4


def test_missing_male_row_keeps_female_and_inclusive_together(tmp_path, raw, sample_raw):
    frame = raw.drop(index=3).reset_index(drop=True)  # male row of example 1
    data, prov = load(path=write(frame, tmp_path / "x.parquet"))
    assert prov["rows_without_all_variants"] == 2
    female, inclusive = data.iloc[3], data.iloc[4]
    assert (female["gender"], inclusive["gender"]) == ("female", "inclusive")
    assert pd.isna(female["ref_male"]) and pd.isna(inclusive["ref_male"])
    # Without the male row, the female and inclusive variants still form one example and
    # keep each other's reference.
    assert female["example_id"] == inclusive["example_id"]
    assert female["ref_inclusive"] == sample_raw.at[5, "french"]
    assert inclusive["ref_female"] == sample_raw.at[4, "french"]
    assert prov["examples"] == 18


def test_similarities_equal_the_pairwise_similarity():
    texts = ["Le médecin est là ||| The doctor is here", "La médecin est là", "Iel est là", ""]
    tokens = [data_module._tokens(t) for t in texts]
    expected = [[data_module._similarity(a, b) for b in texts] for a in texts[:2]]
    assert data_module._similarities(tokens[:2], tokens).tolist() == expected


def test_pairing_is_bounded_to_blocks_of_consecutive_rows(tmp_path, raw, sample_raw,
                                                          monkeypatch):
    # One candidate group of 54 rows in file order; blocks of 6 rows keep each triple
    # together and compare 6 rows at most with each other.
    frame = raw.copy()
    frame["stereotype"] = "gender-balanced"
    frame["ambiguity"] = "ambiguous"
    frame["occupation"] = [["avocat", "avocate", "avocat.e"] for _ in range(len(frame))]
    calls = []
    original = data_module._similarities
    monkeypatch.setattr(data_module, "_similarities", lambda a, b: calls.append(len(a) * len(b))
                        or original(a, b))
    monkeypatch.setattr(data_module, "MAX_GROUP_ROWS", 6)
    data, prov = load(path=write(frame, tmp_path / "s.parquet"))
    assert prov["rows_without_all_variants"] == 0
    _check_true_triples(data, np.arange(len(frame)), sample_raw)
    assert sum(calls) == 9 * (2 * 2 + 2 * 2)  # 9 blocks: 2 male × 2 female, 2 × 2 inclusive


def test_non_utf8_csv_is_named_and_a_bom_is_read(tmp_path, raw, sample_loaded):
    path = write(raw, tmp_path / "authors.csv")
    data = path.read_bytes()
    path.write_bytes(b"\xef\xbb\xbf" + data)
    assert_same_table(load(path=path)[0], sample_loaded[0])
    path.write_bytes(data.replace("infirmière".encode(), "infirmière".encode("latin-1"), 1))
    with pytest.raises(DatasetError, match=r"authors.csv: not UTF-8 text: byte 0xe8 on line"):
        load(path=path)


# --------------------------------------------------------------------------- 5. malformed files
def _add_ids(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out.insert(0, "item_id", [f"ft-{i + 1}" for i in range(len(out))])
    return out


# id, mutation, expected row (1-based, None = no row), column (None = none), message fragments
MALFORMED = [
    ("missing-column", lambda f: f.drop(columns=["stereotype"]), None, "stereotype",
     ["missing from the header"]),
    ("gender-Male", lambda f: set_cells(f, "gender", [5], "Male"), 5, "gender",
     ["'Male'", "unknown gender label"]),
    ("gender-3-bad-rows", lambda f: set_cells(f, "gender", [5, 9, 20], "Male"), 5, "gender",
     ["'Male'", "2 more rows"]),
    ("ambiguity-hyphen", lambda f: set_cells(f, "ambiguity", [7], "long-unambiguous"), 7,
     "ambiguity", ["'long-unambiguous'"]),
    ("stereotype-unknown", lambda f: set_cells(f, "stereotype", [12], "neutral"), 12,
     "stereotype", ["'neutral'"]),
    ("occupation-2-forms", lambda f: set_cells(f, "occupation", [8], ["avocat", "avocate"]), 8,
     "occupation", ["three French forms"]),
    ("occupation-empty-form", lambda f: set_cells(f, "occupation", [30], ["a", "", "c"]), 30,
     "occupation", ["three French forms"]),
    ("english-empty", lambda f: set_cells(f, "english", [3], ""), 3, "english", ["empty"]),
    ("english-blank-last-row", lambda f: set_cells(f, "english", [54], "   "), 54, "english",
     ["empty"]),
    ("french-empty", lambda f: set_cells(f, "french", [2], ""), 2, "french", ["empty"]),
    ("item_id-duplicate", lambda f: set_cells(_add_ids(f), "item_id", [10], "ft-3"), 10,
     "item_id", ["'ft-3'", "first seen in row 3"]),
    ("header-only", lambda f: f.iloc[:0], None, None, ["no rows"]),
    # issue 18
    ("exact-duplicate-row", lambda f: pd.concat([f, f.iloc[[2, 2]]], ignore_index=True), 55,
     None, ["an exact duplicate of row 3", "1 more duplicated rows"]),
    ("english-zero-width", lambda f: set_cells(f, "english", [4], "\u200b\u200d"), 4,
     "english", ["empty"]),
]


def _expect_dataset_error(path: Path, row: int | None, column: str | None,
                          fragments: list[str]) -> DatasetError:
    with pytest.raises(DatasetError) as info:
        load(path=path)
    err, message = info.value, str(info.value)
    assert message.startswith(str(path))
    assert err.row == row and err.column == column
    if row is not None:
        assert f", row {row}," in message or f", row {row}:" in message
    else:
        assert ", row " not in message
    if column is not None:
        assert f"column '{column}'" in message
    for fragment in fragments:
        assert fragment in message, message
    return err


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
@pytest.mark.parametrize(("mutate", "row", "column", "fragments"),
                         [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_malformed_file_is_named(tmp_path, raw, suffix, mutate, row, column, fragments):
    path = write(mutate(raw), tmp_path / f"broken{suffix}")
    err = _expect_dataset_error(path, row, column, fragments)
    assert isinstance(err, ValueError)
    if column == "stereotype" and row is None:
        # the message lists the columns it did find
        assert "english, french, gender, ambiguity, occupation" in str(err)


def test_a_valid_item_id_column_is_kept(tmp_path, raw):
    data, _ = load(path=write(_add_ids(raw), tmp_path / "ids.csv"))
    assert list(data["item_id"]) == [f"ft-{i + 1}" for i in range(54)]


@pytest.mark.parametrize("cell", [
    "[infirmier, infirmière, infirmier.ière]",  # unquoted names: not a literal
    "['infirmier', 'infirmière', 'infirmier.ière'",  # cut short
    "infirmier",
    "",
])
def test_unparsable_occupation_string_in_csv(tmp_path, raw, cell):
    path = write(set_cells(raw, "occupation", [6], cell), tmp_path / "broken.csv")
    _expect_dataset_error(path, 6, "occupation", ["three French forms", repr(cell)])


def test_occupation_literal_of_unhashable_keys_in_csv(tmp_path, raw):
    path = write(set_cells(raw, "occupation", [6], "{['infirmier']: 1}"), tmp_path / "b.csv")
    # ast.literal_eval raises TypeError here (unhashable key): still a DatasetError.
    _expect_dataset_error(path, 6, "occupation", ["three French forms"])


def test_null_values_in_parquet(tmp_path, raw):
    path = write(set_cells(raw, "english", [2], None), tmp_path / "null.parquet")
    _expect_dataset_error(path, 2, "english", ["empty or missing"])
    path = write(set_cells(raw, "occupation", [11], ["a", None, "c"]), tmp_path / "null2.parquet")
    _expect_dataset_error(path, 11, "occupation", ["three French forms"])


def test_zero_byte_csv(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    # pandas' EmptyDataError becomes a DatasetError that names the file.
    _expect_dataset_error(path, None, None, [])


def test_unknown_file_type(tmp_path):
    path = tmp_path / "FairTranslate.xlsx"
    path.write_bytes(b"PK\x03\x04")
    _expect_dataset_error(path, None, None, ["'.xlsx'"])


# --------------------------------------------------------------------------- 6. missing input
def test_nonexistent_path(tmp_path):
    missing = tmp_path / "nowhere" / SHARD
    with pytest.raises(MissingResourceError) as info:
        load(path=missing)
    message = str(info.value)
    assert str(missing) in message and "does not exist" in message
    assert "benchmarks.fairtranslate.data.path" in message and "data.hub" in message
    assert isinstance(info.value, FileNotFoundError)


def test_folder_without_shards(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "other.parquet").write_bytes(SAMPLE.read_bytes())
    with pytest.raises(MissingResourceError, match="no data/train-"):
        load(path=tmp_path)


def test_load_needs_exactly_one_source():
    with pytest.raises(ValueError, match="exactly one"):
        load()
    with pytest.raises(ValueError, match="exactly one"):
        load(path=SAMPLE, hub=HUB_ID)


# --------------------------------------------------------------------------- 7-8. Hub, offline
@pytest.fixture
def hf_offline(monkeypatch):
    """Offline mode for huggingface_hub, which reads HF_HUB_OFFLINE once at import."""
    hf_constants = pytest.importorskip(
        "huggingface_hub.constants", reason="needs the hub extra: pip install -e '.[hub]'")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hf_constants, "HF_HUB_OFFLINE", True)
    assert hf_constants.is_offline_mode()


def test_hub_offline_with_empty_cache(tmp_path, hf_offline):
    cache = tmp_path / "hf-cache"
    cache.mkdir()
    start = time.monotonic()
    with pytest.raises(MissingResourceError) as info:
        load(hub=HUB_ID, cache_dir=str(cache))
    assert time.monotonic() - start < 5
    message = str(info.value)
    assert HUB_ID in message and "revision main" in message
    assert str(cache) in message
    assert f"hf download {HUB_ID} --repo-type dataset" in message
    assert "benchmarks.fairtranslate.data.path" in message
    assert "HF_HUB_OFFLINE" in message  # it failed for being offline, not on a network call
    assert not any(cache.rglob("*.parquet"))


def _fake_hub_cache(root: Path, commit: str, *, with_newline: bool = False) -> Path:
    """A Hugging Face cache holding the sample as ``data/train-00000-of-00001.parquet``.

    Layout as hf_hub_download writes it: blobs named by content hash, snapshot entries as
    relative symlinks into blobs, refs/<branch> holding the commit hash.
    """
    repo = root / ("datasets--" + HUB_ID.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit + ("\n" if with_newline else ""))
    blob = repo / "blobs" / sha256(SAMPLE)
    blob.parent.mkdir()
    shutil.copy(SAMPLE, blob)
    entry = repo / "snapshots" / commit / "data" / SHARD
    entry.parent.mkdir(parents=True)
    try:
        entry.symlink_to(os.path.relpath(blob, entry.parent))
    except OSError:  # no symlinks on this file system
        shutil.copy(SAMPLE, entry)
    return repo / "snapshots" / commit


COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_hub_offline_from_local_cache(tmp_path, hf_offline, sample_loaded):
    cache = tmp_path / "hf-cache"
    snapshot = _fake_hub_cache(cache, COMMIT)
    start = time.monotonic()
    data, prov = load(hub=HUB_ID, cache_dir=str(cache))
    assert time.monotonic() - start < 5
    assert_same_table(data, sample_loaded[0])
    assert_same_counts(prov, sample_loaded[1])
    assert prov["hub"] == HUB_ID and prov["revision"] == "main" and prov["commit"] == COMMIT
    assert prov["sha256"] == sha256(SAMPLE)
    assert "path" not in prov
    assert snapshot.is_dir()


def test_hub_offline_pinned_commit(tmp_path, hf_offline):
    cache = tmp_path / "hf-cache"
    _fake_hub_cache(cache, COMMIT)
    data, prov = load(hub=HUB_ID, revision=COMMIT, cache_dir=str(cache))
    assert len(data) == 54
    assert prov["revision"] == COMMIT and prov["commit"] == COMMIT


def test_hub_offline_unknown_revision(tmp_path, hf_offline):
    cache = tmp_path / "hf-cache"
    _fake_hub_cache(cache, COMMIT)
    with pytest.raises(MissingResourceError) as info:
        load(hub=HUB_ID, revision="v2.0", cache_dir=str(cache))
    assert HUB_ID in str(info.value) and "revision v2.0" in str(info.value)


# --------------------------------------------------------------------------- 9. build stage
def test_build_writes_table_and_provenance(tmp_path, sample_loaded):
    out = tmp_path / "results" / "fairtranslate"
    build(out / "data.parquet", out / "data.json", path=str(SAMPLE))
    assert sorted(p.name for p in out.iterdir()) == ["data.json", "data.parquet"]
    assert json.loads((out / "data.json").read_text(encoding="utf-8")) == sample_loaded[1]
    written = pd.read_parquet(out / "data.parquet")
    written["occupation"] = written["occupation"].map(list)
    assert_same_table(written, sample_loaded[0])


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_build_leaves_nothing_on_a_malformed_file(tmp_path, raw, suffix):
    source = write(set_cells(raw, "gender", [5], "Male"), tmp_path / "in" / f"broken{suffix}")
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(DatasetError, match="row 5"):
        build(out / "data.parquet", out / "data.json", path=str(source))
    assert list(out.iterdir()) == []
