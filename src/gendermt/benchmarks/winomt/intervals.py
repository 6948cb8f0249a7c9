"""WinoMT's headline figures with intervals and paired tests (gendermt.analysis.intervals):
per target language, accuracy, ΔG, ΔS and the readable share, over sentences.

Each resample recomputes the figures as :func:`.metric.compute` does, from summed
per-sentence counts: accuracy = correct / sentences; ΔG = F1(male) − F1(female) with
precision = correct_g / predicted_g and recall = correct_g / gold_g in percent (F1 0 where
precision or recall is undefined or both are 0); ΔS = accuracy(pro) − accuracy(anti); the
readable share = 100 − share of unknown predictions. Values are the summary's (compute on the
run's per-sentence table, rounded as the original rounds where its reader does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gendermt.analysis.intervals import Group, Spec, by_units, ratio, write_intervals
from gendermt.benchmarks.winomt import ORIGINAL_READERS
from gendermt.benchmarks.winomt.metric import compute

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import numpy as np
    import pandas as pd

UNIT = "sentence"
# the per-sentence counts, in column order
COUNTS = ("correct", "unknown", "gold_male", "predicted_male", "correct_male", "gold_female",
          "predicted_female", "correct_female", "pro", "pro_correct", "anti", "anti_correct",
          "sentences")
C = {name: i for i, name in enumerate(COUNTS)}


def counts(frame: pd.DataFrame) -> np.ndarray:
    """Per sentence (rows in the frame's order), the counts of :data:`COUNTS`."""
    import numpy as np

    gold = frame["gold"].astype(str).to_numpy()
    pred = frame["predicted"].astype(str).to_numpy()
    stereo = (frame["stereotype"].astype(str).to_numpy() if "stereotype" in frame
              else np.full(len(frame), "none"))
    correct = gold == pred
    cols = {"correct": correct, "unknown": pred == "unknown",
            "pro": stereo == "pro", "pro_correct": (stereo == "pro") & correct,
            "anti": stereo == "anti", "anti_correct": (stereo == "anti") & correct,
            "sentences": np.ones(len(frame), dtype=bool)}
    for g in ("male", "female"):
        cols[f"gold_{g}"] = gold == g
        cols[f"predicted_{g}"] = pred == g
        cols[f"correct_{g}"] = (gold == g) & (pred == g)
    return np.column_stack([cols[name] for name in COUNTS]).astype(float)


def _f1(sums: np.ndarray, g: str) -> np.ndarray:
    import numpy as np

    correct = sums[:, C[f"correct_{g}"]]
    precision = 100 * correct / sums[:, C[f"predicted_{g}"]]
    recall = 100 * correct / sums[:, C[f"gold_{g}"]]
    f1 = 2 * precision * recall / (precision + recall)
    # undefined precision or recall, or both 0: F1 0, as metric.compute has it
    return np.where(np.isnan(f1), 0.0, f1)


def delta_g(sums: np.ndarray) -> np.ndarray:
    return _f1(sums, "male") - _f1(sums, "female")


def delta_s(sums: np.ndarray) -> np.ndarray:
    return (100 * sums[:, C["pro_correct"]] / sums[:, C["pro"]]
            - 100 * sums[:, C["anti_correct"]] / sums[:, C["anti"]])


def readable(sums: np.ndarray) -> np.ndarray:
    return 100 - 100 * sums[:, C["unknown"]] / sums[:, C["sentences"]]


def specs(lang: str, with_delta_s: bool) -> list[Spec]:
    """The scorecard's WinoMT figures of one language (keys as its reader names them)."""
    out = [Spec(f"readable_{lang}", "higher", readable),
           Spec(f"acc_{lang}", "higher", ratio(C["correct"], C["sentences"]),
                proportion=(C["correct"], C["sentences"])),
           Spec(f"delta_g_{lang}", "closer to 0", delta_g)]
    if with_delta_s:
        out.append(Spec(f"delta_s_{lang}", "closer to 0", delta_s,
                        difference=(C["pro_correct"], C["pro"], C["anti_correct"],
                                    C["anti"])))
    return out


def groups(runs: Sequence[Mapping[str, str]], reader: str) -> list[Group]:
    """``runs``: records ``{system, lang, path}`` of the headline reader's per-sentence tables
    (``gender/{reader}/{system}/{lang}.parquet``) → per language, the groups of systems scored
    on the same sentences."""
    import pandas as pd

    frames = {(str(r["system"]), str(r["lang"])): pd.read_parquet(r["path"]) for r in runs}
    out = []
    for lang in dict.fromkeys(lang for _, lang in frames):
        of_lang = {run: f for run, f in frames.items() if run[1] == lang}
        for members in by_units(of_lang, "item_id"):
            first = next(iter(members.values()))
            has_s = "stereotype" in first and {"pro", "anti"} <= set(first["stereotype"])
            group = Group(UNIT, specs(lang, has_s))
            for run, frame in members.items():
                group.columns[run] = counts(frame)
                summary = compute(frame, rounded=reader in ORIGINAL_READERS)
                group.values[(f"readable_{lang}", *run)] = 100 - summary["share_unknown"]
                for key in ("acc", "delta_g", "delta_s"):
                    if key in summary:
                        group.values[(f"{key}_{lang}", *run)] = summary[key]
            out.append(group)
    return out


def build_intervals(runs: Sequence[Mapping[str, str]], outputs: Mapping[str, str | Path],
                    bootstrap: Mapping | None = None, reader: str = "corrected") -> None:
    """Workflow stage: the headline reader's per-sentence tables of every run →
    ``tables/intervals.csv`` and ``tables/pairs.csv`` (gendermt.analysis.intervals)."""
    write_intervals(groups(runs, reader), bootstrap, outputs)
