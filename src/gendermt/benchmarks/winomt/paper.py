"""The paper's tables beside the readers, with intervals (tables/paper.csv): per system and
target language, the figures Stanovsky et al. (ACL 2019) published (Table 2's commercial
systems, the academic systems' table) and each reader's re-scoring of the same published
outputs, every reader's figure with its bootstrap interval over sentences (the headline
figures' procedure, gendermt.benchmarks.winomt.intervals, run once per reader), its n, and
the file it was read from with the commit it was taken at."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.core.errors import DatasetError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

METRICS = ("acc", "delta_g", "delta_s")
#: Where a published figure is in the paper when its CSV has no ``where`` column (the
#: commercial systems' file, stanovsky2019_table2.csv).
DEFAULT_WHERE = "Table 2"
COLUMNS = ["system", "lang", "reader", "metric", "value", "ci_low", "ci_high", "n", "paper",
           "where", "checked", "source", "commit"]


def read_published(path: str | Path) -> pd.DataFrame:
    """One CSV of the paper's figures (system, lang, acc, delta_g, delta_s[, where,
    checked]), as it is, its columns checked."""
    import pandas as pd

    frame = pd.read_csv(path, dtype={"system": str, "lang": str})
    missing = {"system", "lang", *METRICS} - set(frame)
    if missing:
        raise DatasetError(path, f"no column(s) {', '.join(sorted(missing))}")
    return frame


def published_figures(paths: Sequence[str | Path]) -> pd.DataFrame:
    """The paper's figures of every CSV (system, lang, acc, delta_g, delta_s[, where,
    checked]), long: one row per system, language and metric."""
    import pandas as pd

    frames = []
    for path in paths:
        frame = read_published(path)
        if "where" not in frame:
            frame["where"] = DEFAULT_WHERE
        if "checked" not in frame:
            frame["checked"] = ""
        frames.append(frame.melt(id_vars=["system", "lang", "where", "checked"],
                                 value_vars=list(METRICS), var_name="metric",
                                 value_name="paper"))
    out = (pd.concat(frames, ignore_index=True) if frames else
           pd.DataFrame(columns=["system", "lang", "where", "checked", "metric", "paper"]))
    doubled = out.duplicated(["system", "lang", "metric"])
    if doubled.any():
        row = out[doubled].iloc[0]
        raise DatasetError(paths[0], f"{row['system']}/{row['lang']} is published twice "
                           "across the paper's CSVs")
    return out


def reader_intervals(runs: Sequence[Mapping[str, str]], bootstrap: Mapping | None = None
                     ) -> pd.DataFrame:
    """``runs``: ``{system, lang, reader, path}`` of every per-sentence table → per run and
    reader, acc, ΔG and ΔS with their intervals (as the summary reports the value: rounded
    for the authors' readers), long."""
    import pandas as pd

    from gendermt.analysis.intervals import interval_frames
    from gendermt.analysis.resample import Settings
    from gendermt.benchmarks.winomt.intervals import groups

    settings = Settings.of(bootstrap)
    frames = []
    for reader in dict.fromkeys(r["reader"] for r in runs):
        mine = [r for r in runs if r["reader"] == reader]
        intervals, _ = interval_frames(groups(mine, reader), settings)
        metric = intervals["figure"].str.rsplit("_", n=1).str[0]
        intervals = intervals.assign(metric=metric, reader=reader,
                                     lang=intervals["prompt"])
        frames.append(intervals[intervals["metric"].isin(METRICS)])
    out = pd.concat(frames, ignore_index=True)
    return out[["system", "lang", "reader", "metric", "value", "ci_low", "ci_high", "n"]]


def paper_table(runs: Sequence[Mapping[str, str]], published: Sequence[str | Path],
                sources: Mapping[str, Mapping[str, str]], bootstrap: Mapping | None = None,
                systems: Sequence[str] = (), langs: Sequence[str] = ()) -> pd.DataFrame:
    """Each reader's figures with intervals beside the paper's (``sources``: ``system/lang``
    → ``{path, commit}`` of the file read; a system run here, not read, has none), in config
    order (``systems``, ``langs``)."""
    table = reader_intervals(runs, bootstrap).merge(
        published_figures(published), on=["system", "lang", "metric"], how="left")
    table["source"] = [sources.get(f"{s}/{lang}", {}).get("path", "")
                       for s, lang in zip(table["system"], table["lang"], strict=True)]
    table["commit"] = [sources.get(f"{s}/{lang}", {}).get("commit", "")
                       for s, lang in zip(table["system"], table["lang"], strict=True)]
    rank = {"system": {s: i for i, s in enumerate(systems)},
            "lang": {s: i for i, s in enumerate(langs)},
            "reader": {r: i for i, r in enumerate(dict.fromkeys(r["reader"] for r in runs))},
            "metric": {m: i for i, m in enumerate(METRICS)}}
    keys = [f"_{k}" for k in ("lang", "system", "reader", "metric")]
    table = table.assign(**{f"_{k}": table[k].map(v) for k, v in rank.items()})
    table = table.sort_values(keys).drop(columns=keys)
    return table[COLUMNS].fillna({"where": "", "checked": ""}).reset_index(drop=True)


def build_paper_table(runs: Sequence[Mapping[str, str]], published: Sequence[str | Path],
                      sources: Mapping[str, Mapping[str, str]], csv: str | Path,
                      md: str | Path, bootstrap: Mapping | None = None,
                      systems: Sequence[str] = (), langs: Sequence[str] = ()) -> None:
    """Workflow stage: every reader's per-sentence tables + the paper's CSVs →
    ``tables/paper.{csv,md}``."""
    from gendermt.data.io import write_table

    write_table(paper_table(runs, published, sources, bootstrap, systems, langs), csv, md,
                floatfmt=".2f")
