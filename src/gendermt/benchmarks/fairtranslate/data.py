"""Read FairTranslate in its published formats and turn it into the study's data table.

Formats read (see ``docs/datasets.md`` §1 in the shared docs):

* the Hugging Face release ``Fannyjrd/FairTranslate_fr``: Parquet shards ``data/train-*.parquet``
  with columns ``english, french, gender, ambiguity, stereotype, occupation`` (a list of three
  French forms: masculine, feminine, inclusive); a single shard, a folder holding the shards,
  or the dataset id (read through the local Hugging Face cache, downloaded if the Hub is
  reachable);
* the authors' working copies: semicolon-separated CSV whose ``occupation`` is a stringified
  Python list.

The dataset has no id column: ``item_id`` is the row's position in the published file, which
is stable for a given file (record its checksum or Hub revision, as :func:`build` does). A file
that has an ``item_id`` column keeps it, and duplicates there are an error.

Every English example appears in the three gender variants; the release does not say which
rows belong together, so :func:`pair_variants` recovers the triples (see there).
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import io
import logging
import re
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from gendermt.benchmarks.fairtranslate import AMBIGUITIES, GENDERS, HUB_ID, STEREOTYPES
from gendermt.core.errors import DatasetError, MissingResourceError
from gendermt.data.io import write_json
from gendermt.data.progress import Progress
from gendermt.data.stage_tables import write_data_table
from gendermt.data.textfiles import is_blank, read_text

log = logging.getLogger(__name__)

COLUMNS = ("english", "french", "gender", "ambiguity", "stereotype", "occupation")
LABELS = {"gender": GENDERS, "ambiguity": AMBIGUITIES, "stereotype": STEREOTYPES}
# Variants of one example share occupation, stereotype and ambiguity, and differ only in
# gendered words: below this similarity two rows are not taken as variants of one example.
MIN_VARIANT_SIMILARITY = 0.5
# Rows compared with each other at most (per candidate group): larger groups are paired in
# blocks of consecutive rows, so that pairing stays linear in the file's size. The release's
# groups are far smaller (an occupation × ambiguity has tens of rows).
MAX_GROUP_ROWS = 150


# --------------------------------------------------------------------------- reading
def _shards(folder: Path) -> list[Path]:
    """The ``train`` shards of a folder in the Hub layout (``data/train-*.parquet``)."""
    return sorted(folder.glob("data/train-*.parquet")) or sorted(folder.glob("train-*.parquet"))


def read_published(path: str | Path) -> pd.DataFrame:
    """Read a local copy in one of the published formats, unvalidated."""
    path = Path(path)
    if not path.exists():
        raise MissingResourceError(
            f"FairTranslate file {path} does not exist. Point benchmarks.fairtranslate.data.path "
            f"at the dataset's Parquet file (data/train-*.parquet of {HUB_ID}) or at the "
            "authors' semicolon-separated CSV, or use data.hub to read it from the Hub.")
    if path.is_dir():
        shards = _shards(path)
        if not shards:
            raise MissingResourceError(f"{path}: no data/train-*.parquet shard in this folder")
        return pd.concat([_read_parquet(s) for s in shards], ignore_index=True)
    if path.suffix == ".parquet":
        return _read_parquet(path)
    if path.suffix in (".csv", ".tsv", ".txt"):
        text = read_text(path)  # names the file and line of a non-UTF-8 byte; drops a BOM
        header = text.split("\n", 1)[0]
        sep = ";" if ";" in header else ("\t" if "\t" in header else ",")
        try:
            frame = pd.read_csv(io.StringIO(text), sep=sep, quotechar='"', dtype=str,
                                keep_default_na=False)
        except pd.errors.EmptyDataError as exc:
            raise DatasetError(path, "the file is empty (no header row)") from exc
        except pd.errors.ParserError as exc:
            raise DatasetError(path, f"not a readable {sep!r}-separated file: {exc}") from exc
        # pandas' to_csv writes the index as an unnamed first column
        return frame.drop(columns=[c for c in frame.columns if c.startswith("Unnamed: ")])
    raise DatasetError(path, f"unknown file type {path.suffix!r} (expected .parquet or .csv)")


def _read_parquet(path: Path) -> pd.DataFrame:
    try:
        return pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several types for a damaged or foreign file
        raise DatasetError(path, f"not a readable Parquet file: {exc}") from exc


def read_hub(repo_id: str = HUB_ID, revision: str | None = None,
             cache_dir: str | None = None) -> tuple[pd.DataFrame, str]:
    """Read the release from the Hugging Face Hub or its local cache.

    Returns the frame and the resolved snapshot folder (its name is the commit hash).
    """
    try:
        from huggingface_hub import snapshot_download
    except ImportError as exc:
        raise MissingResourceError(
            "reading FairTranslate from the Hugging Face Hub needs huggingface_hub: "
            "pip install 'gendermt[hub]' (or set benchmarks.fairtranslate.data.path to a "
            "local copy of the Parquet file)") from exc
    try:
        folder = snapshot_download(repo_id, repo_type="dataset", revision=revision,
                                   cache_dir=cache_dir, allow_patterns=["data/train-*.parquet"])
    except Exception as exc:  # offline, unknown revision, gated repo: all end the same way
        raise MissingResourceError(
            f"dataset {repo_id} (revision {revision or 'main'}) could not be read from the "
            f"Hugging Face Hub nor from the local cache ({cache_dir or 'HF_HOME'}): "
            f"{type(exc).__name__}: {exc}. On a machine with network access run "
            f"`hf download {repo_id} --repo-type dataset` and copy the cache here (HF_HOME), "
            "or download data/train-00000-of-00001.parquet and set "
            "benchmarks.fairtranslate.data.path to it.") from exc
    return read_published(folder), folder


# --------------------------------------------------------------------------- validation
def _as_forms(value: object) -> list[str] | None:
    """The occupation cell as a list of three non-empty strings, or None if it is not one."""
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except Exception:  # ValueError, SyntaxError, TypeError, RecursionError...
            return None
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        return None
    if not all(isinstance(v, str) and v.strip() for v in value):
        return None
    return list(value)


def _fail_rows(path, bad: pd.Series, column: str, problem) -> None:
    """Raise for the first row flagged in ``bad``, saying how many more there are."""
    if not bad.any():
        return
    positions = np.flatnonzero(bad.to_numpy())
    more = f" ({len(positions) - 1} more rows like this)" if len(positions) > 1 else ""
    first = int(positions[0])
    raise DatasetError(path, problem(first) + more, row=first + 1, column=column)


def validate(frame: pd.DataFrame, path: str | Path) -> pd.DataFrame:
    """Check columns and labels; return a clean copy with ``occupation`` as lists.

    Rows are numbered from 1, not counting a CSV header.
    """
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise DatasetError(path, f"missing from the header (columns found: "
                                 f"{', '.join(map(str, frame.columns))})", column=missing[0])
    if frame.empty:
        raise DatasetError(path, "the file has no rows")
    out = frame.copy()
    for column in ("english", "french"):
        values = out[column]
        bad = ~values.map(lambda v: isinstance(v, str) and not is_blank(v))
        _fail_rows(path, bad, column, lambda i, c=column: f"empty or missing {c} text")
    for column, allowed in LABELS.items():
        values = out[column]
        bad = ~values.isin(allowed)
        _fail_rows(path, bad, column, lambda i, c=column, a=allowed, v=values: (
            f"unknown {c} label {v.iloc[i]!r} (expected one of {', '.join(a)})"))
    forms = out["occupation"].map(_as_forms)
    _fail_rows(path, forms.isna(), "occupation", lambda i: (
        f"expected a list of three French forms [masculine, feminine, inclusive], found "
        f"{out['occupation'].iloc[i]!r}"))
    out["occupation"] = forms
    # An exact duplicate is a data error (a file concatenated twice, a bad merge): it would
    # count an example twice and make every variant's pairing ambiguous.
    same = out[list(COLUMNS)].assign(occupation=out["occupation"].map(tuple))
    dup = same.duplicated(keep="first")
    if dup.any():
        positions = np.flatnonzero(dup.to_numpy())
        first = int(positions[0])
        original = int(np.flatnonzero(
            (same == same.iloc[first]).all(axis=1).to_numpy())[0])
        more = f" ({len(positions) - 1} more duplicated rows)" if len(positions) > 1 else ""
        raise DatasetError(path, f"an exact duplicate of row {original + 1} (every column "
                                 f"equal){more}: remove the repeated rows", row=first + 1)
    if "item_id" in out.columns:
        ids = out["item_id"].astype(str)
        dup = ids.duplicated(keep="first")
        _fail_rows(path, dup, "item_id", lambda i: (
            f"duplicated id {ids.iloc[i]!r} (first seen in row "
            f"{int(np.flatnonzero((ids == ids.iloc[i]).to_numpy())[0]) + 1})"))
    return out


# --------------------------------------------------------------------------- variants
_WORD = re.compile(r"\w+(?:[.·]\w+)*", re.UNICODE)


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, _tokens(a), _tokens(b), autojunk=False).ratio()


def _similarities(anchors: list[list[str]], rows: list[list[str]]) -> np.ndarray:
    """:func:`_similarity` of every anchor × row, on token lists made once (each row's
    index is built once, not once per pair)."""
    sim = np.empty((len(anchors), len(rows)))
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    for j, b in enumerate(rows):
        matcher.set_seq2(b)
        for i, a in enumerate(anchors):
            matcher.set_seq1(a)
            sim[i, j] = matcher.ratio()
    return sim


def pair_variants(frame: pd.DataFrame) -> pd.Series:
    """Give each row the id of its example: the rows that are its gender variants.

    Candidates share occupation forms, stereotype and ambiguity. Within such a group, rows are
    matched by an optimal assignment on text similarity (English and French together:
    ambiguous variants have the same English, unambiguous ones differ only in pronouns, and
    the French only in gendered words): female rows to male rows, then inclusive rows to the
    examples formed so far (a group of more than ``MAX_GROUP_ROWS`` rows in blocks of that
    many consecutive rows, so that the cost stays linear). A row left without a partner
    (unequal counts, or no similar enough row) starts an example of its own, so a missing
    male row does not separate its female and inclusive siblings. Sibling references of
    incomplete examples stay missing.
    """
    key = frame["occupation"].map(tuple).astype(str) + "|" + frame["stereotype"] + "|" + \
        frame["ambiguity"]
    tokens = [_tokens(f"{e} ||| {f}") for e, f in zip(frame["english"], frame["french"],
                                                       strict=True)]
    genders = frame["gender"].to_numpy()
    example = np.full(len(frame), -1, dtype="int64")  # by position
    next_id = 0
    blocks = (positions[start:start + MAX_GROUP_ROWS]
              for positions in pd.Series(np.arange(len(frame))).groupby(
                  key.to_numpy(), sort=False).agg(list)
              for start in range(0, len(positions), MAX_GROUP_ROWS))
    progress = Progress(len(frame), "pairing gender variants", unit="row")
    for block in blocks:
        anchors: list[int] = []  # one row per example of this group, compared with the rest
        for gender in ("male", "female", "inclusive"):
            rows = [i for i in block if genders[i] == gender]
            if anchors and rows:
                sim = _similarities([tokens[a] for a in anchors], [tokens[o] for o in rows])
                for r, c in zip(*linear_sum_assignment(-sim), strict=True):
                    if sim[r, c] >= MIN_VARIANT_SIMILARITY:
                        example[rows[c]] = example[anchors[r]]
            for i in rows:
                if example[i] < 0:
                    example[i] = next_id
                    next_id += 1
                    anchors.append(i)
        progress.update(len(block))
    progress.close()
    example = pd.Series(example, index=frame.index)
    # Number examples by the position of their first row, so ids follow the file.
    order = {old: new for new, old in enumerate(example.drop_duplicates())}
    return example.map(order)


# --------------------------------------------------------------------------- the data table
def to_data_table(raw: pd.DataFrame, path: str | Path) -> pd.DataFrame:
    """Validate a published frame and return the study's data table (one row per item)."""
    frame = validate(raw, path).reset_index(drop=True)
    example = pair_variants(frame)
    data = pd.DataFrame({
        "item_id": (frame["item_id"].astype(str) if "item_id" in frame.columns
                    else [f"fairtranslate-{i:04d}" for i in range(len(frame))]),
        "example_id": [f"ex-{e:04d}" for e in example],
        "row": np.arange(1, len(frame) + 1),
        "src_lang": "en",
        "tgt_lang": "fr",
        "source": frame["english"],
        "reference": frame["french"],
        "gender": frame["gender"],
        "ambiguity": frame["ambiguity"],
        "stereotype": frame["stereotype"],
        "occupation": frame["occupation"],
    })
    for gender in GENDERS:
        refs = data.loc[data["gender"] == gender].drop_duplicates("example_id")
        data[f"ref_{gender}"] = data["example_id"].map(refs.set_index("example_id")["reference"])
    return data


def _sha256(path: Path) -> str:
    """Checksum of exactly the files that were read (a folder: its train shards, in order)."""
    digest = hashlib.sha256()
    for file in (_shards(path) if path.is_dir() else [path]):
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in (_shards(path) if path.is_dir() else [path]))


def load(path: str | Path | None = None, *, hub: str | None = None,
         revision: str | None = None, cache_dir: str | None = None
         ) -> tuple[pd.DataFrame, dict]:
    """The study's data table and its provenance, from a local file or from the Hub."""
    if (path is None) == (hub is None):
        raise ValueError("give exactly one of path= or hub=")
    if path is not None:
        raw, origin = read_published(path), Path(path)
        provenance = {"path": str(path), "size": _size(origin), "sha256": _sha256(origin)}
    else:
        raw, folder = read_hub(hub, revision, cache_dir)
        origin = Path(folder)
        provenance = {"hub": hub, "revision": revision or "main", "commit": origin.name,
                      "size": _size(origin), "sha256": _sha256(origin)}
    data = to_data_table(raw, origin)
    unpaired = int(data[[f"ref_{g}" for g in GENDERS]].isna().any(axis=1).sum())
    if unpaired:
        log.warning("%d of %d rows could not be paired with all their gender variants; "
                    "their missing sibling references stay empty", unpaired, len(data))
    cells = data.groupby(["stereotype", "ambiguity", "gender"]).size()
    provenance.update({
        "rows": len(data), "examples": int(data["example_id"].nunique()),
        "rows_without_all_variants": unpaired,
        "rows_per_gender": {g: int((data["gender"] == g).sum()) for g in GENDERS},
        "empty_cells": [list(c) for c in pd.MultiIndex.from_product(
            [STEREOTYPES, AMBIGUITIES, GENDERS]) if c not in cells.index],
    })
    return data, provenance


def build(output: str | Path, provenance_path: str | Path, *, path: str | None = None,
          hub: str | None = None, revision: str | None = None,
          cache_dir: str | None = None) -> None:
    """Workflow stage: published dataset → ``data.parquet`` and its provenance JSON."""
    data, provenance = load(path, hub=hub, revision=revision, cache_dir=cache_dir)
    log.info("FairTranslate: %d rows, %d examples", provenance["rows"], provenance["examples"])
    write_data_table("fairtranslate", output, data)
    write_json(provenance_path, provenance)
