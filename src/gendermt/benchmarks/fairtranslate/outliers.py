"""The authors' row filter ``clean_outlier`` (datasets.md §1.3; notebook
``Analysis_translation_performance.ipynb``).

The authors drop, per prompting strategy, every row where *any* of their four models has a
COMET score of 0.6 or less ("the model did not listen to the instructions and spoke in
addition to the translation"), then compute every score table on the rows left: all systems
are compared on the same rows, and the rows differ from prompt to prompt. Here the threshold
(on COMET's 0–1 scale; scores are stored ×100) and the systems whose COMET decides are
settings (``benchmarks.fairtranslate.clean_outlier``); a row without a COMET score for one of
those systems is dropped, as the authors' comparison with NaN drops it. The kept and dropped
counts are a table of their own and are quoted in the notes of every table that uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gendermt.core.errors import GenderMTError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

DEFAULTS = {"enabled": False, "threshold": 0.6, "systems": None}
METRIC = "comet"


def settings_of(spec: dict[str, Any] | None, systems: Sequence[str]) -> dict[str, Any]:
    """The filter's settings with defaults filled in (``systems``: every configured one)."""
    out = {**DEFAULTS, **(spec or {})}
    out["systems"] = list(out["systems"] or systems)
    unknown = [s for s in out["systems"] if s not in systems]
    if unknown:
        raise GenderMTError(f"clean_outlier.systems names {', '.join(unknown)}, which "
                            "FairTranslate does not run")
    return out


def apply(scores: pd.DataFrame, settings: dict[str, Any] | None
          ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(scores on the kept rows, counts)``; ``scores`` is the long frame of
    :func:`gendermt.analysis.tables.collect_scores` (with ``gender``). Counts: one row per
    prompt × gender (and ``all``): ``rows``, ``kept``, ``dropped``."""
    import pandas as pd

    settings = {**DEFAULTS, **(settings or {})}
    items = scores[["prompt", "item_id", "gender"]].drop_duplicates()
    if settings["enabled"]:
        comet = scores[(scores["metric"] == METRIC)
                       & scores["system"].isin(settings["systems"])]
        if comet.empty:
            raise GenderMTError("clean_outlier is enabled but there are no COMET scores: add "
                                "`comet` to the metrics, or set clean_outlier.enabled: false")
        passed = comet.assign(ok=comet["score"] > 100 * float(settings["threshold"]))
        ok = passed.groupby(["prompt", "item_id"], observed=True).agg(
            ok=("ok", "all"), n=("system", "nunique"))
        # every filtering system must have passed (a missing score is a failure)
        ok = ok[ok["ok"] & (ok["n"] == len(settings["systems"]))].reset_index()
        keep = items.merge(ok[["prompt", "item_id"]], on=["prompt", "item_id"], how="left",
                           indicator=True)["_merge"].eq("both").to_numpy()
    else:
        keep = [True] * len(items)
    items = items.assign(kept=keep)
    kept = scores.merge(items.loc[items["kept"], ["prompt", "item_id"]],
                        on=["prompt", "item_id"], how="inner")
    kept = kept.astype({c: scores[c].dtype for c in ("prompt", "system", "metric", "gender")
                        if c in scores.columns})
    counts = []
    for prompt, part in items.groupby("prompt", observed=True, sort=True):
        groups = [("all", part), *part.groupby("gender", observed=True, sort=True)]
        for gender, group in groups:
            n, k = len(group), int(group["kept"].sum())
            counts.append({"prompt": prompt, "gender": gender, "rows": n, "kept": k,
                           "dropped": n - k, "enabled": bool(settings["enabled"]),
                           "metric": METRIC, "threshold": float(settings["threshold"]),
                           "systems": ", ".join(settings.get("systems") or [])})
    return kept, pd.DataFrame(counts)


def note(counts: pd.DataFrame) -> str:
    """One sentence for the notes of the tables computed on the kept rows."""
    overall = counts[counts["gender"] == "all"]
    if overall.empty:
        return "No rows."
    if not bool(overall["enabled"].iloc[0]):
        rows = int(overall["rows"].iloc[0])
        return (f"Rows: all {rows} per prompt (the authors' clean_outlier filter is off; "
                "it needs COMET).")
    first = overall.iloc[0]
    per_prompt = "; ".join(f"{r.prompt} {r.kept} of {r.rows} ({r.dropped} dropped)"
                           for r in overall.itertuples())
    return (f"Rows: the authors' clean_outlier filter keeps a row when COMET > "
            f"{first['threshold']:g} for every one of {first['systems']}: {per_prompt}.")


def markdown(counts: pd.DataFrame) -> str:
    return ("# Rows kept by the clean_outlier filter\n\n" + note(counts) + "\n\n"
            + counts[["prompt", "gender", "rows", "kept", "dropped"]].to_markdown(index=False)
            + "\n")
