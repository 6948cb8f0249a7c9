"""Italian annotations of system outputs: where each one comes from, and checking it fits.

An output is scored only with an annotation of *that exact text*: every candidate's text
without tags must equal the output (white space collapsed), or it is not used. Sources, in
the order they are tried:

1. ``files``: annotators' files for a system's outputs, each in one of two formats:

   * ``inline`` — tagged sentences as in the paper's Table 4 (``… sposate <F2> …``): a
     ``.txt`` file with one sentence per line in item order (like ``gendermt score conga``),
     or a CSV/TSV with columns ``item_id`` and ``annotation``;
   * ``token-table`` — one row per token, as a token-level tool (INCEpTION) exports it,
     CSV/TSV with columns ``item_id``, ``start``, ``end`` (character offsets of the token in
     the output, end exclusive), ``token``, ``gender`` (``M``, ``F`` or empty) and ``entity``
     (the English entity index, empty when untagged). Untagged tokens may be listed or left
     out; an item with no row is not annotated. The offsets are checked against the output.

2. ``alternatives``: ConGA annotations of the dataset's own Italian translations, a CSV/TSV
   with ``item_id``, ``column`` (the gENder-IT column: ``C`` or ``D``–``M``) and
   ``annotation``. An output equal to an annotated translation of its item takes that
   annotation — how the reference oracles are annotated. Every row is checked against the
   dataset (its text must be that column's translation), so a stale file fails loudly.
3. ``annotator``: an LLM annotator on any chat backend (:mod:`.annotator`).

An empty output realises no gender and is annotated as such (source ``empty-output``).
Whatever is left is ``unannotated``: reported, never scored as if it had no tags.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.conga.data import ALT_LETTERS, N_ALTERNATIVES
from gendermt.benchmarks.conga.tags import TagError, TagScheme, normalise_space, parse_tagged
from gendermt.config.input_limits import STDIN
from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.data import textfiles
from gendermt.data.io import read_jsonl, write_json, write_jsonl

log = logging.getLogger(__name__)

FORMATS = ("inline", "token-table")
TOKEN_COLUMNS = ("item_id", "start", "end", "token", "gender", "entity")
# gENder-IT column letter → data-table column
COLUMN_OF_LETTER = {"C": "ref_single",
                    **{c: f"ref_alt_{i + 1}" for i, c in enumerate(ALT_LETTERS)}}
assert len(COLUMN_OF_LETTER) == N_ALTERNATIVES + 1


def _read_delimited(path: Path, required: Sequence[str]) -> pd.DataFrame:
    if not path.is_file():
        raise MissingResourceError(f"annotation file {path} does not exist")
    sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    try:
        frame = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, quotechar='"')
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
        raise DatasetError(path, f"not a readable {sep!r}-separated table: {exc}") from exc
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise DatasetError(path, f"missing from the header (found: {', '.join(frame.columns)})",
                           column=missing[0])
    return frame


def read_lines(path: str | Path, what: str = "") -> list[str]:
    """The lines of a ``.txt`` file (no final empty line); ``what`` names it in the error."""
    if str(path) != STDIN and not Path(path).is_file():
        raise MissingResourceError(f"{what}{path} does not exist")
    return textfiles.read_lines(path)


def read_inline(path: str | Path, item_ids: Sequence[str]) -> dict[str, str]:
    """``item_id → tagged Italian`` from an inline-tag file (``.txt`` lines in item order, or
    a CSV/TSV with ``item_id`` and ``annotation``)."""
    path = Path(path)
    if path.suffix.lower() == ".txt":
        lines = read_lines(path, "annotation file ")
        if len(lines) != len(item_ids):
            raise DatasetError(path, f"{len(lines)} lines for {len(item_ids)} items: a .txt "
                                     "annotation file has one tagged sentence per item, in "
                                     "item order (use a TSV with item_id for a subset)")
        return dict(zip(item_ids, lines, strict=True))
    frame = _read_delimited(path, ("item_id", "annotation"))
    dup = frame["item_id"].duplicated()
    if dup.any():
        row = int(dup.to_numpy().nonzero()[0][0]) + 1
        raise DatasetError(path, f"item {frame['item_id'].iloc[row - 1]!r} annotated twice",
                           row=row, column="item_id")
    return dict(zip(frame["item_id"], frame["annotation"], strict=True))


def read_token_table(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """``item_id → token rows`` (ints for offsets and entity), validated per row."""
    path = Path(path)
    frame = _read_delimited(path, TOKEN_COLUMNS)
    out: dict[str, list[dict[str, Any]]] = {}
    for i, rec in enumerate(frame.to_dict("records"), start=1):
        try:
            start, end = int(rec["start"]), int(rec["end"])
        except ValueError as exc:
            raise DatasetError(path, f"start/end {rec['start']!r}/{rec['end']!r} are not "
                                     "integers", row=i, column="start") from exc
        gender = rec["gender"].strip().upper()
        entity = rec["entity"].strip()
        if gender not in ("", "M", "F"):
            raise DatasetError(path, f"unknown gender {rec['gender']!r} (M, F or empty; "
                                     "ConGA puts no A in Italian)", row=i, column="gender")
        if bool(gender) != bool(entity):
            raise DatasetError(path, "gender and entity go together: both set or both empty",
                               row=i, column="entity")
        if entity and (not entity.isdigit() or int(entity) < 1):
            raise DatasetError(path, f"entity {entity!r} is not an index ≥ 1", row=i,
                               column="entity")
        out.setdefault(rec["item_id"], []).append({
            "start": start, "end": end, "token": rec["token"], "gender": gender,
            "entity": int(entity) if entity else None, "row": i})
    return out


def tokens_to_tagged(text: str, tokens: list[dict[str, Any]], where: str) -> str:
    """Insert the token table's tags into ``text``, checking every offset against it."""
    pieces, pos = [], 0
    for tok in sorted(tokens, key=lambda t: (t["end"], t["start"])):
        if text[tok["start"]:tok["end"]] != tok["token"]:
            raise GenderMTError(f"{where}, row {tok['row']}: token {tok['token']!r} is not at "
                                f"{tok['start']}–{tok['end']} of the output {text!r} (found "
                                f"{text[tok['start']:tok['end']]!r})")
        if tok["gender"]:
            pieces.append(text[pos:tok["end"]])
            pieces.append(f" <{tok['gender']}{tok['entity']}>")
            pos = tok["end"]
    pieces.append(text[pos:])
    return "".join(pieces)


def read_alternatives(path: str | Path, data: pd.DataFrame,
                      scheme: TagScheme) -> dict[str, list[tuple[str, str]]]:
    """``item_id → [(column letter, tagged Italian)]``, each checked against the dataset."""
    path = Path(path)
    frame = _read_delimited(path, ("item_id", "column", "annotation"))
    by_id = data.set_index("item_id")
    out: dict[str, list[tuple[str, str]]] = {}
    for i, rec in enumerate(frame.to_dict("records"), start=1):
        item, letter = rec["item_id"], rec["column"].strip().upper()
        if item not in by_id.index:
            raise DatasetError(path, f"item {item!r} is not in the dataset", row=i,
                               column="item_id")
        if letter not in COLUMN_OF_LETTER:
            raise DatasetError(path, f"column {rec['column']!r} is not a gENder-IT translation "
                                     "column (C, D–M)", row=i, column="column")
        try:
            parsed = parse_tagged(rec["annotation"], scheme, where=f"{path}, row {i}")
        except TagError as exc:
            raise DatasetError(path, str(exc).split(": ", 1)[-1], row=i,
                               column="annotation") from exc
        published = by_id.at[item, COLUMN_OF_LETTER[letter]]
        if published is None or pd.isna(published) or \
                normalise_space(parsed.text) != normalise_space(published):
            raise DatasetError(path, f"the annotation's text {parsed.text!r} is not the "
                                     f"dataset's column {letter} of item {item!r} "
                                     f"({published!r}); the annotation is stale", row=i,
                               column="annotation")
        out.setdefault(item, []).append((letter, rec["annotation"]))
    return out


def _fits(tagged: str, hypothesis: str, scheme: TagScheme, where: str) -> bool:
    return normalise_space(parse_tagged(tagged, scheme, where=where).text) == \
        normalise_space(hypothesis)


def _annotation_files(files: Sequence[dict[str, str]], ids: list[str]
                      ) -> list[tuple[str, str, dict]]:
    """``(format, path, annotations by item id)`` of each annotation file, in order."""
    loaded = []
    for spec in files:
        fmt, path = spec.get("format", "inline"), spec["path"]
        if fmt not in FORMATS:
            raise GenderMTError(f"annotation file {path}: format {fmt!r} is not one of "
                                f"{', '.join(FORMATS)}")
        table = read_inline(path, ids) if fmt == "inline" else read_token_table(path)
        loaded.append((fmt, path, table))
    return loaded


def _annotate_from_files(rec: dict[str, Any], loaded: list[tuple[str, str, dict]],
                         scheme: TagScheme) -> None:
    """Annotate ``rec`` from the first file whose annotation of its item fits its output;
    each file whose annotation does not fit says why in its ``notes``."""
    item_id, hyp = rec["item_id"], rec["hypothesis"]
    for fmt, path, table in loaded:
        if item_id not in table:
            continue
        where = f"{path}, item {item_id}"
        if fmt == "token-table":
            try:
                tagged = tokens_to_tagged(hyp, table[item_id], str(path))
            except GenderMTError as exc:
                rec["notes"].append(f"{fmt} {path}: {exc}")
                continue
        else:
            tagged = table[item_id]
        if _fits(tagged, hyp, scheme, where):
            rec.update(status="annotated", annotation=tagged,
                       annotation_source=f"{fmt}:{path}")
            return
        rec["notes"].append(f"{fmt} {path}: annotated text differs from the output")


def resolve(items: pd.DataFrame, files: Sequence[dict[str, str]], alternatives: str | None,
            data: pd.DataFrame, scheme: TagScheme) -> list[dict[str, Any]]:
    """Annotation records for ``items`` (``item_id``, ``hypothesis``) from files and
    alternatives; the LLM annotator fills the rest later (:func:`annotate_file`)."""
    ids = list(items["item_id"])
    loaded = _annotation_files(files, ids)
    alts = read_alternatives(alternatives, data, scheme) if alternatives else {}
    records = []
    for item_id, hyp in zip(ids, items["hypothesis"], strict=True):
        rec = {"item_id": item_id, "hypothesis": hyp, "status": "unannotated",
               "annotation": None, "annotation_source": None, "notes": []}
        _annotate_from_files(rec, loaded, scheme)
        if rec["status"] == "unannotated":
            for letter, tagged in alts.get(item_id, []):
                if _fits(tagged, hyp, scheme, f"{alternatives}, item {item_id}"):
                    rec.update(status="annotated", annotation=tagged,
                               annotation_source=f"alternative:{letter}")
                    break
        if rec["status"] == "unannotated" and not normalise_space(hyp):
            rec.update(status="annotated", annotation="", annotation_source="empty-output")
        records.append(rec)
    return records


def annotate_file(translations: str | Path, data_path: str | Path, output: str | Path,
                  summary: str | Path, *, files: Sequence[dict[str, str]] = (),
                  alternatives: str | None = None, annotator: dict[str, Any] | None = None,
                  target_tags: dict[str, Any] | None = None,
                  cache_dir: str | Path | None = None) -> None:
    """Workflow stage: a system's outputs → their annotations (JSONL) and a coverage summary.

    ``annotator``: ``{system, settings, template}`` (template as loaded by
    :func:`.annotator.load_template`), or None for no LLM annotator; its requests go through
    the request cache in ``cache_dir`` (None: no cache)."""
    data = pd.read_parquet(data_path)
    outputs = pd.DataFrame(read_jsonl(translations))
    if outputs.empty:
        raise GenderMTError(f"{translations} has no outputs")
    outputs["hypothesis"] = outputs["hypothesis"].fillna("").astype(str)
    scheme = TagScheme.target(**(target_tags or {}))
    records = resolve(outputs[["item_id", "hypothesis"]], files, alternatives, data, scheme)
    sent = cached = 0
    if annotator is not None:
        from gendermt.benchmarks.conga.annotator import annotate_with_llm

        todo = [r for r in records if r["status"] == "unannotated"]
        english = data.set_index("item_id")["source_tagged"]
        sent, cached = annotate_with_llm(todo, english, annotator, data, scheme, cache_dir)
    counts: dict[str, int] = {}
    for rec in records:
        key = rec["annotation_source"] or "unannotated"
        kind = key.split(":", 1)[0]
        counts[kind] = counts.get(kind, 0) + 1
    unannotated = sum(r["status"] == "unannotated" for r in records)
    if unannotated:
        log.warning("%s: %d of %d outputs have no annotation; they are reported as "
                    "unannotated and left out of the scores", translations, unannotated,
                    len(records))
    write_jsonl(output, records)
    write_json(summary, {"items": len(records), "annotated": len(records) - unannotated,
                         "unannotated": unannotated, "by_source": counts,
                         "files": [dict(f) for f in files], "alternatives": alternatives,
                         "annotator": None if annotator is None else {
                             "system": annotator["system"],
                             "template": {k: annotator["template"][k]
                                          for k in ("name", "version", "sha256")},
                             "requests_sent": sent, "requests_cached": cached}})
