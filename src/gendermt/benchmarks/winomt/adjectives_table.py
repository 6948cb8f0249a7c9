"""The adjective experiment's table (tables/adjectives.csv): every system × language ×
reader's accuracy without and with the adjectives on the same items, the change and its
paired interval (from each scoring job's summary, gendermt.benchmarks.winomt.adjectives),
beside the paper's figures where they are transcribed. Apart from the scoring module, so that
the table's environment needs no reader."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.core.errors import DatasetError

if TYPE_CHECKING:
    import pandas as pd

FIGURES = ("n", "acc_plain", "acc_adj", "change", "ci_low", "ci_high")
COLUMNS = ["system", "lang", "reader", *FIGURES, "acc_plain_published",
           "acc_adj_published", "change_published", "where_published", "checked_published",
           "source", "commit"]


def adjectives_table(summaries: Sequence[str | Path], published: str | Path | None,
                     systems: Sequence[str], langs: Sequence[str]) -> pd.DataFrame:
    """One row per system × language × reader, in config order, with the paper's figures
    beside (``published``: system, lang, acc_original, acc_adj, change, where, checked)."""
    import pandas as pd

    rows = [row for p in summaries for row in json.loads(Path(p).read_text(encoding="utf-8"))]
    frame = pd.DataFrame(rows)
    if published:
        paper = pd.read_csv(published, dtype={"system": str, "lang": str})
        missing = {"system", "lang", "acc_original", "acc_adj", "change", "where",
                   "checked"} - set(paper)
        if missing:
            raise DatasetError(published, f"no column(s) {', '.join(sorted(missing))}")
        paper = paper.rename(columns={"acc_original": "acc_plain_published",
                                      "acc_adj": "acc_adj_published",
                                      "change": "change_published",
                                      "where": "where_published",
                                      "checked": "checked_published"})
        frame = frame.merge(paper, on=["system", "lang"], how="left")
    order = {"system": list(systems), "lang": list(langs)}
    readers = list(dict.fromkeys(frame["reader"]))
    frame = frame.assign(
        _s=frame["system"].map({s: i for i, s in enumerate(order["system"])}),
        _l=frame["lang"].map({s: i for i, s in enumerate(order["lang"])}),
        _r=frame["reader"].map({s: i for i, s in enumerate(readers)}))
    frame = frame.sort_values(["_r", "_l", "_s"]).drop(columns=["_s", "_l", "_r"])
    for col in COLUMNS:
        if col not in frame:
            frame[col] = float("nan")
    return frame[COLUMNS].reset_index(drop=True)


def build_adjectives_table(summaries: Sequence[str | Path], published: str | Path | None,
                           csv: str | Path, md: str | Path, systems: Sequence[str],
                           langs: Sequence[str]) -> None:
    """Workflow stage: every (system, language)'s adjective summary → tables/adjectives."""
    from gendermt.data.io import write_table

    write_table(adjectives_table(summaries, published, systems, langs), csv, md,
                floatfmt=".1f")
