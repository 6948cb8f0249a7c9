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

from gendermt.benchmarks.declared.spec import data_root, per_gender
from gendermt.config.errors import DatasetError, MissingResourceError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

COLUMNS = ("source", "reference", "words")


def _columns(spec: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """``{column: {gender: file or field}}`` of the columns the file gives."""
    return {c: named for c in COLUMNS if (named := per_gender(spec, c)) is not None}


def files(spec: Mapping[str, Any], langs: Sequence[str], root: str | Path | None = None
          ) -> list[Path]:
    """The files the data stage reads for ``langs`` (its inputs), checked to exist."""
    folder = data_root(spec, root)
    data = spec["data"]
    if data["format"] == "lines":
        names = [n for named in _columns(spec).values() for n in named.values()]
        paths = [folder / n.format(lang=lang) for lang in langs for n in dict.fromkeys(names)]
    else:
        paths = [folder / data["path"].format(lang=lang) for lang in langs]
    paths = list(dict.fromkeys(paths))
    missing = [p for p in paths if not p.is_file()]
    if missing:
        raise MissingResourceError(
            f"{missing[0]}: {spec['name']} file not found ({len(missing)} of the {len(paths)} "
            f"files of languages {', '.join(langs)} are missing; data root {folder})")
    return paths


def _lines(spec: Mapping[str, Any], folder: Path, lang: str) -> list[dict[str, dict[str, str]]]:
    from gendermt.data.textfiles import read_lines

    read: dict[Path, list[str]] = {}
    columns = {}
    for column, named in _columns(spec).items():
        columns[column] = {}
        for gender, name in named.items():
            path = folder / name.format(lang=lang)
            if path not in read:
                read[path] = read_lines(path)
            columns[column][gender] = read[path]
    counts = {p: len(lines) for p, lines in read.items()}
    if len(set(counts.values())) > 1:
        listing = ", ".join(f"{p.name}: {n}" for p, n in counts.items())
        raise DatasetError(next(iter(counts)), f"the files of one language must have as many "
                                               f"lines as each other ({listing})")
    n = next(iter(counts.values()), 0)
    return [{"line": i + 1, "id": f"{i + 1:05d}",
             **{c: {g: lines[i] for g, lines in by.items()} for c, by in columns.items()}}
            for i in range(n)]


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
           ) -> dict[str, list[dict[str, Any]]]:
    data = spec["data"]
    wanted = {f"data.{c}" + ("" if isinstance(data[c], str) else f".{g}"): field
              for c, named in _columns(spec).items() for g, field in named.items()}
    for key in ("id", "language"):
        if key in data:
            wanted[f"data.{key}"] = data[key]
    by_lang: dict[str, list[dict[str, Any]]] = {lang: [] for lang in langs}
    for path in dict.fromkeys(folder / data["path"].format(lang=lang) for lang in langs):
        records = _records(path, data["format"])
        fields = set().union(*(r.keys() for _, r in records)) if records else set()
        for key, field in wanted.items():
            if field not in fields:
                raise DatasetError(path, f"no field {field!r} ({key}; it has: "
                                         f"{', '.join(sorted(fields)) or 'none'})")
        for line, record in records:
            lang = str(record[data["language"]]) if "language" in data else \
                next(lg for lg in langs if folder / data["path"].format(lang=lg) == path)
            if lang not in by_lang:
                continue  # a language the run does not ask for
            missing = [f for f in wanted.values() if record.get(f) is None]
            if missing:
                raise DatasetError(path, "no value", row=line, column=missing[0])
            item = {"line": line, "id": str(record[data["id"]]) if "id" in data
                    else f"{line:05d}"}
            for column, named in _columns(spec).items():
                item[column] = {g: str(record[f]) for g, f in named.items()}
            by_lang[lang].append(item)
    return by_lang


def segments(spec: Mapping[str, Any], langs: Sequence[str], root: str | Path | None = None
             ) -> pd.DataFrame:
    """One row per item × gender: ``item_id``, ``pair_id``, ``gender``, ``line``, ``source``,
    ``reference`` and ``counterfactual_reference``, ``words`` and ``counterfactual_words``
    (empty when the file gives none), ``src_lang``, ``tgt_lang``."""
    import pandas as pd

    folder = data_root(spec, root)
    genders = list(spec["genders"])
    items = ({lang: _lines(spec, folder, lang) for lang in langs}
             if spec["data"]["format"] == "lines" else _table(spec, folder, langs))
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
    return pd.DataFrame(rows, columns=columns)


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
        "items": {lang: int(n) for lang, n in
                  items.groupby("tgt_lang", sort=True)["pair_id"].nunique().items()},
    })
