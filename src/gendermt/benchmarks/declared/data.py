"""A declared benchmark's data: its files → one row per segment to translate.

An item has, per gender, a source (or one source shared by both genders), a reference and/or
a gendered-word list. It gives one segment per gender (``pair_id`` shared): the source of that
gender with its own reference (``reference``) and the other gender's (``counterfactual_
reference``), and likewise the word lists (``words``, ``counterfactual_words``), which is the
shape MT-GenEval's official accuracy scores (``mt_geneval.metric``).

Files: format ``lines`` reads one text file per column (a path under the data root, ``{lang}``
the target language; one segment per line, aligned by line number, as MT-GenEval's release);
``tsv``/``csv``/``jsonl`` read a table per ``path`` whose fields the columns name.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gendermt.benchmarks.declared.spec import data_path, data_root, path_templates, per_gender
from gendermt.core.errors import DatasetError, MissingResourceError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

COLUMNS = ("source", "reference", "words")


def _columns(spec: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """``{column: {gender: file or field}}`` of the columns the file gives."""
    return {c: named for c in COLUMNS if (named := per_gender(spec, c)) is not None}


def files(spec: Mapping[str, Any], langs: Sequence[str], root: str | Path | None = None
          ) -> list[Path]:
    """The files the data stage reads for ``langs`` (its inputs), checked to exist and to
    stay inside the data root."""
    folder = data_root(spec, root)
    paths = list(dict.fromkeys(data_path(spec, folder, key, lang)
                               for lang in langs for key in path_templates(spec)))
    missing = [p for p in paths if not p.is_file()]
    if missing:
        raise MissingResourceError(
            f"{missing[0]}: {spec['name']} file not found ({len(missing)} of the {len(paths)} "
            f"files of languages {', '.join(langs)} are missing; data root {folder})")
    return paths


def _key(spec: Mapping[str, Any], column: str, gender: str) -> str:
    """The file's key of a column (``reference.female`` where it names one per gender)."""
    return column if isinstance(spec["data"][column], str) else f"{column}.{gender}"


def _without_blanks(spec: Mapping[str, Any], items: list[dict[str, Any]],
                    where: Any) -> tuple[list[dict[str, Any]], int]:
    """``items`` less those with a blank cell, and how many those were: a blank source,
    reference or word list is refused (``data.blank_cells: refuse``, the default: the file,
    row and column named) or its item skipped (``skip``). A blank reference would otherwise
    leave the item no gendered word to be wrong about, and count it correct."""
    from gendermt.data.textfiles import is_blank

    skip = spec["data"].get("blank_cells", "refuse") == "skip"
    kept = []
    for item in items:
        blank = next(((c, g) for c in COLUMNS if c in item
                      for g, text in item[c].items() if is_blank(text)), None)
        if blank is None:
            kept.append(item)
        elif not skip:
            path, column = where(item, *blank)
            raise DatasetError(path, "blank cell (every item needs its source, references "
                                     "and word lists; or set data.blank_cells: skip in the "
                                     "benchmark file to leave such items out, counted)",
                               row=item["line"], column=column)
    return kept, len(items) - len(kept)


def _lines(spec: Mapping[str, Any], folder: Path, lang: str
           ) -> tuple[list[dict[str, Any]], int]:
    from gendermt.data.textfiles import read_lines

    read: dict[Path, list[str]] = {}
    columns: dict[str, dict[str, list[str]]] = {}
    where: dict[tuple[str, str], tuple[Path, str]] = {}
    for column, named in _columns(spec).items():
        columns[column] = {}
        for gender in named:
            key = _key(spec, column, gender)
            path = data_path(spec, folder, key, lang)
            where[column, gender] = (path, f"data.{key}")
            if path not in read:
                read[path] = read_lines(path)
            columns[column][gender] = read[path]
    counts = {p: len(lines) for p, lines in read.items()}
    if len(set(counts.values())) > 1:
        listing = ", ".join(f"{p.name}: {n}" for p, n in counts.items())
        raise DatasetError(next(iter(counts)), f"the files of one language must have as many "
                                               f"lines as each other ({listing})")
    n = next(iter(counts.values()), 0)
    items = [{"line": i + 1, "id": f"{i + 1:05d}",
              **{c: {g: lines[i] for g, lines in by.items()} for c, by in columns.items()}}
             for i in range(n)]
    return _without_blanks(spec, items, lambda _, column, gender: where[column, gender])


def _records(path: Path, fmt: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, fields) of every record of a table (blank lines skipped)."""
    from gendermt.data.textfiles import read_delimited, read_text

    if fmt == "jsonl":
        found = []
        for line, text in enumerate(read_text(path).split("\n"), 1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                raise DatasetError(path, f"not a JSON object: {exc.msg}", row=line) from None
            if not isinstance(record, dict):
                raise DatasetError(path, "not a JSON object", row=line)
            found.append((line, record))
        return found
    rows = read_delimited(path, "\t" if fmt == "tsv" else ",",
                          quoting=csv.QUOTE_NONE if fmt == "tsv" else csv.QUOTE_MINIMAL)
    if not rows:
        raise DatasetError(path, "empty (a header line naming the fields comes first)")
    header = rows[0][1]
    found = []
    for line, fields in rows[1:]:
        if not fields:
            continue
        if len(fields) != len(header):
            raise DatasetError(path, f"{len(fields)} fields where the header has "
                                     f"{len(header)}", row=line)
        found.append((line, dict(zip(header, fields, strict=True))))
    return found


def _table(spec: Mapping[str, Any], folder: Path, langs: Sequence[str]
           ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, int]]:
    data = spec["data"]
    wanted = {f"data.{c}" + ("" if isinstance(data[c], str) else f".{g}"): field
              for c, named in _columns(spec).items() for g, field in named.items()}
    for key in ("id", "language"):
        if key in data:
            wanted[f"data.{key}"] = data[key]
    by_lang: dict[str, list[dict[str, Any]]] = {lang: [] for lang in langs}
    path_of = {lang: data_path(spec, folder, "path", lang) for lang in langs}
    for path in dict.fromkeys(path_of.values()):
        records = _records(path, data["format"])
        fields = set().union(*(r.keys() for _, r in records)) if records else set()
        for key, field in wanted.items():
            if field not in fields:
                raise DatasetError(path, f"no field {field!r} ({key}; it has: "
                                         f"{', '.join(sorted(fields)) or 'none'})")
        for line, record in records:
            lang = str(record[data["language"]]) if "language" in data else \
                next(lg for lg in langs if path_of[lg] == path)
            if lang not in by_lang:
                continue  # a language the run does not ask for
            missing = [f for f in wanted.values() if record.get(f) is None]
            if missing:
                raise DatasetError(path, "no value", row=line, column=missing[0])
            item = {"line": line, "id": str(record[data["id"]]) if "id" in data
                    else f"{line:05d}"}
            for column, named in _columns(spec).items():
                item[column] = {g: str(record[f]) for g, f in named.items()}
            item["path"] = path
            by_lang[lang].append(item)
    return _tables_without_blanks(spec, by_lang)


def _tables_without_blanks(spec: Mapping[str, Any], by_lang: dict[str, list[dict[str, Any]]]
                           ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, int]]:
    """:func:`_without_blanks` of each language's items (a cell named by file and field)."""
    skipped = {}
    for lang, items in by_lang.items():
        by_lang[lang], skipped[lang] = _without_blanks(
            spec, items, lambda item, column, gender: (item["path"],
                                                       _columns(spec)[column][gender]))
    return by_lang, skipped


def segments(spec: Mapping[str, Any], langs: Sequence[str], root: str | Path | None = None
             ) -> pd.DataFrame:
    """One row per item × gender: ``item_id``, ``pair_id``, ``gender``, ``line``, ``source``,
    ``reference`` and ``counterfactual_reference``, ``words`` and ``counterfactual_words``
    (empty when the file gives none), ``src_lang``, ``tgt_lang``. ``attrs["skipped_blank"]``:
    per language, the items left out for a blank cell (``data.blank_cells: skip``)."""
    import pandas as pd

    folder = data_root(spec, root)
    genders = list(spec["genders"])
    if spec["data"]["format"] == "lines":
        read = {lang: _lines(spec, folder, lang) for lang in langs}
        items = {lang: found for lang, (found, _) in read.items()}
        skipped = {lang: n for lang, (_, n) in read.items()}
    else:
        items, skipped = _table(spec, folder, langs)
    rows = []
    for lang in langs:
        seen: set[str] = set()
        for item in items[lang]:
            pair = f"{lang}-{item['id']}"
            if pair in seen:
                raise DatasetError(spec["data"].get("path", "data"), f"item id {item['id']!r} "
                                   f"twice in language {lang}", row=item["line"])
            seen.add(pair)
            for gender in genders:
                other = genders[1 - genders.index(gender)]
                row = {"item_id": f"{pair}-{gender}", "pair_id": pair, "gender": gender,
                       "line": item["line"], "source": item["source"][gender]}
                for column, counter in (("reference", "counterfactual_reference"),
                                        ("words", "counterfactual_words")):
                    given = item.get(column)
                    row[column] = given[gender] if given else ""
                    row[counter] = given[other] if given else ""
                rows.append({**row, "src_lang": spec["source_language"], "tgt_lang": lang})
    columns = ["item_id", "pair_id", "gender", "line", "source", "reference",
               "counterfactual_reference", "words", "counterfactual_words", "src_lang",
               "tgt_lang"]
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs["skipped_blank"] = {lang: int(skipped.get(lang, 0)) for lang in langs}
    return frame


#: What the data stage reads of a benchmark file (its params: editing the prompt or the
#: metrics of the file reruns no data job, nor the translations after it).
DATA_KEYS = ("name", "file", "source_language", "languages", "genders", "data")


def data_view(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: spec[k] for k in DATA_KEYS}


def build(spec: Mapping[str, Any], langs: Sequence[str], root: str | Path | None,
          items_out: str | Path, provenance_out: str | Path) -> None:
    """Workflow stage: the benchmark's files → ``data.parquet`` (:func:`segments`) +
    ``data.json`` (the benchmark file and the files read, with size and sha256; counts)."""
    from gendermt.data.io import write_json
    from gendermt.data.sources import sha256_file
    from gendermt.data.stage_tables import write_data_table

    paths = files(spec, langs, root)
    items = segments(spec, langs, root)
    write_data_table(spec["name"], items_out, items)
    spec_file = Path(spec["file"])
    write_json(provenance_out, {
        "benchmark": spec["name"],
        "benchmark_file": {"path": str(spec_file), "sha256": sha256_file(spec_file)},
        "root": str(data_root(spec, root)), "languages": list(langs),
        "genders": list(spec["genders"]),
        "files": [{"path": str(p), "size": p.stat().st_size, "sha256": sha256_file(p)}
                  for p in paths],
        "segments": int(len(items)),
        # items left out for a blank cell (data.blank_cells: skip), per language
        "skipped_blank": items.attrs["skipped_blank"],
        "items": {lang: int(n) for lang, n in
                  items.groupby("tgt_lang", sort=True)["pair_id"].nunique().items()},
    })
