"""A fixed, stratified, seeded subset of a benchmark's items (a study's ``subset`` setting).

A benchmark block's ``subset: {size, seed, by, unit}`` makes its data stage keep ``size``
units of ``data.parquet`` (``size: all`` keeps every item), so that every system of that run
is scored on the same items: a CPU run of a slow LLM on a sample of a public test set, which a
GPU user sets to ``all``.

- ``unit`` (default ``item_id``): a column whose equal values are kept or dropped together
  (MT-GenEval's ``pair_id``: both genders of a counterfactual pair, so its gap is paired).
- ``by``: the columns that stratify: ``size`` units are shared among the strata in
  proportion to their sizes (largest remainder; ties by the strata's order), each stratum's
  own units drawn without replacement by a seeded generator, then kept in the data's order.
- ``seed``: the generator's seed (numpy's PCG64 through ``numpy.random.default_rng``).

A benchmark whose data stage writes a second table keyed by its items (GATE X-E's
``tuples.parquet``: each test tuple names the request it scores, ``item_id``) has that table
*follow* the subset: its rows of the kept items are kept, the others dropped, so that no
tuple is left without its request and every kept request keeps all its tuples.

The same data, size, seed and key give the same items on every machine; the data stage
records them in ``data.json`` (``subset``: the setting, the count kept, the count of the full
set, each stratum's counts), which the tables and the findings page name.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gendermt.core.errors import GenderMTError
from gendermt.data.io import write_json

#: The column of a subset's data that gives each item's row in the full set.
ROW = "full_set_row"


def allocate(sizes: Sequence[int], size: int) -> list[int]:
    """``size`` shared among strata of ``sizes`` in proportion (largest remainder), never more
    than a stratum holds."""
    total = sum(sizes)
    if size >= total:
        return list(sizes)
    exact = [size * n / total for n in sizes]
    counts = [int(x) for x in exact]
    order = sorted(range(len(sizes)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[: size - sum(counts)]:
        counts[i] += 1
    return counts


def choose(data: Any, size: int | str, seed: int, by: Sequence[str] = (),
           unit: str = "item_id") -> tuple[Any, dict]:
    """``data``'s rows of the chosen units (in ``data``'s order) and what was chosen."""
    import numpy as np

    missing = [c for c in [*by, unit] if c not in data.columns]
    if missing:
        raise GenderMTError(f"subset: no column {', '.join(map(repr, missing))} in the data "
                            f"(columns: {', '.join(map(str, data.columns))})")
    units = data.drop_duplicates(unit)[[unit, *by]].reset_index(drop=True)
    n_units = len(units)
    wanted = n_units if size == "all" else int(size)
    # (no key: one stratum, the whole set)
    groups = list(units.groupby(list(by), sort=True, dropna=False)) if by else [((), units)]
    counts = allocate([len(g) for _, g in groups], wanted)
    rng = np.random.default_rng(seed)
    kept: set = set()
    strata = []
    for (key, group), count in zip(groups, counts, strict=True):
        picks = rng.choice(len(group), size=count, replace=False) if count else []
        kept.update(group[unit].iloc[sorted(picks)].tolist())
        key = key if isinstance(key, tuple) else (key,)
        strata.append({**{c: _plain(v) for c, v in zip(by, key, strict=True)},
                       "units": int(len(group)), "kept": int(count)})
    # each kept row's place in the full set (0-based): a stored system's file of the full
    # set (one output per line, in item order) is read at these lines
    chosen = data.assign(**{ROW: range(len(data))})
    chosen = chosen[chosen[unit].isin(kept)].reset_index(drop=True)
    record = {"size": size, "seed": seed, "by": list(by), "unit": unit,
              "units": len(kept), "of_units": n_units,
              "items": len(chosen), "of_items": len(data), "strata": strata}
    return chosen, record


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def describe(record: Mapping[str, Any]) -> str:
    """A subset in words, for tables and pages: "40 of 3,888 items (seed 32, stratified by
    gold, stereotype)"; "" for none or the whole set."""
    if not record or record.get("items") == record.get("of_items"):
        return ""
    what = "items" if record.get("unit", "item_id") == "item_id" else f"{record['unit']}s"
    count, of = (record["units"], record["of_units"])
    by = f", stratified by {', '.join(record['by'])}" if record.get("by") else ""
    extra = (f"; {record['items']:,} of {record['of_items']:,} items"
             if what != "items" else "")
    for name, rows in (record.get("follow") or {}).items():
        extra += f"; {rows['rows']:,} of {rows['of_rows']:,} {name}"
    return f"{count:,} of {of:,} {what}{extra} (seed {record['seed']}{by})"


def follow(table: Any, chosen: Any, key: str = "item_id") -> Any:
    """``table``'s rows whose ``key`` is one of the ``chosen`` items' (in ``table``'s order):
    a second table of the data stage (GATE X-E's tuples) kept with the subset."""
    if key not in table.columns or key not in chosen.columns:
        raise GenderMTError(f"subset: a following table needs the column {key!r} in it and "
                            "in the data")
    return table[table[key].isin(set(chosen[key]))].reset_index(drop=True)


def _replace(frame: Any, path: str | Path) -> None:
    tmp = Path(f"{path}.subset.tmp")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def apply(data_path: str | Path, provenance_path: str | Path,
          subset: Mapping[str, Any] | None,
          followers: Mapping[str, str | Path] | None = None) -> dict | None:
    """Workflow step of a data stage: keep the subset of ``data.parquet`` (rewritten in
    place, atomically) and record it in ``data.json``; nothing for no subset.
    ``followers`` (name → parquet file keyed by ``item_id``, e.g. ``{"tuples":
    ".../tuples.parquet"}``) are cut to the kept items too, their counts recorded under
    ``follow``."""
    if not subset:
        return None
    import pandas as pd

    data = pd.read_parquet(data_path)
    chosen, record = choose(data, subset.get("size", "all"), int(subset.get("seed", 0)),
                            list(subset.get("by", [])), str(subset.get("unit", "item_id")))
    kept = {}
    for name, path in (followers or {}).items():
        table = pd.read_parquet(path)
        strays = set(table["item_id"]) - set(data["item_id"]) if "item_id" in table else ()
        if strays:  # a table of other data: cutting it would hide that
            raise GenderMTError(f"subset: {path} names {len(strays)} item(s) that "
                                f"{data_path} lacks, e.g. {sorted(strays)[:3]}")
        kept[name] = (follow(table, chosen), len(table))
    # the followers first: a data.parquet already cut means the stage finished
    for name, (table, _) in kept.items():
        _replace(table, followers[name])
    if kept:
        record["follow"] = {name: {"rows": len(t), "of_rows": n} for name, (t, n) in kept.items()}
    _replace(chosen, data_path)
    provenance = Path(provenance_path)
    found = json.loads(provenance.read_text(encoding="utf-8"))
    found["subset"] = record
    write_json(provenance, found)
    return record
