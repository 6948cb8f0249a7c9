"""What the scorecard shows: each benchmark's headline figures, read from its own tables.

Every reader takes the results folder and returns the benchmark's :class:`Figure` columns
and the :class:`Cell` of each system that ran it. Values are the tables' own numbers, or a
ratio / difference of them (said in ``how``); nothing is recomputed from outputs except the
bootstrap CIs of FairTranslate's gaps (:mod:`.gap`), which the tables do not give.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.analysis.stats import BOOTSTRAP
from gendermt.errors import DatasetError

from .gap import bootstrap_gap_ci, paired_differences

# In the scorecard's column order (the issue's): benchmark key → label.
BENCHMARKS = {"fairtranslate": "FairTranslate", "neogate": "Neo-GATE", "conga": "ConGA",
              "grape": "GAMBIT/GRAPE", "gate-x-e": "GATE X-E", "gate": "GATE",
              "winomt": "WinoMT"}
# The tables each benchmark's figures come from (relative to the results folder); the
# workflow rule lists them as its inputs.
TABLES = {"fairtranslate": ["fairtranslate/tables/by_gender.csv"],
          "neogate": ["neogate/tables/zeroshot.csv"],
          "conga": ["conga/tables/categories.csv", "conga/tables/metrics.csv"],
          "gate-x-e": ["gate-x-e/tables/accuracy.csv"],
          "gate": ["gate/tables/prf.csv"],
          "winomt": ["winomt/tables/summary.csv"],
          "grape": ["gambit/tables/grape.csv"]}
# Benchmarks whose key in the workflow's config differs from their scorecard key.
CONFIG_KEYS = {"gambit": "grape"}
# The run a benchmark with several prompts is summarised by, in order of preference.
BASELINE_PROMPTS = ("baseline", "zeroshot")


@dataclass(frozen=True)
class Figure:
    benchmark: str
    key: str          # the JSON key inside the benchmark's object
    label: str        # column label
    unit: str
    better: str       # "higher", "lower", "closer to 0", "closer to 50"
    run: str          # which run (prompt) of the benchmark it summarises
    source: str       # the table it comes from, relative to the results folder
    how: str          # how the value is read from that table
    has_ci: bool = False
    # The key of the figure (same benchmark) that says how good the system's output is: a
    # gap between poor outputs is no sign of fairness, so the heatmap leaves a gap
    # uncoloured where that quality is below the scorecard's floor.
    quality: str | None = None

    @property
    def column(self) -> str:
        return f"{BENCHMARKS.get(self.benchmark, self.benchmark)} · {self.label}"


@dataclass(frozen=True)
class Cell:
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan


@dataclass
class Part:
    """One benchmark's figures, the systems that ran it, their cells and notes."""
    figures: list[Figure] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def read_csv(path: Path, columns: Sequence[str]) -> pd.DataFrame:
    if not path.is_file():
        raise DatasetError(path, "missing: run the benchmark's workflow rules first")
    frame = pd.read_csv(path, keep_default_na=True)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DatasetError(path, f"has no column(s) {', '.join(missing)}", column=missing[0])
    return frame


def pick_run(prompts: Sequence[str]) -> str:
    """The benchmark's baseline run: ``baseline`` or ``zeroshot`` if present, else the first."""
    prompts = list(dict.fromkeys(str(p) for p in prompts))
    for name in BASELINE_PROMPTS:
        if name in prompts:
            return name
    return prompts[0]


def _num(value) -> float:
    return math.nan if value is None or pd.isna(value) else float(value)


# ------------------------------------------------------------------ FairTranslate
def fairtranslate(results: Path, bootstrap: dict | None = None,
                  score_records: Sequence[Mapping[str, Any]] | None = None) -> Part:
    """Male−inclusive and male−female gaps of each metric (BLEU, COMET when scored) in the
    baseline run: differences of by_gender.csv's means, with paired bootstrap CIs."""
    source = "fairtranslate/tables/by_gender.csv"
    table = read_csv(results / source, ["metric", "system", "prompt", "gender", "mean"])
    run = pick_run(table["prompt"])
    table = table[table["prompt"].astype(str) == run]
    settings = {**BOOTSTRAP, **(bootstrap or {})}
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    per_item = _fairtranslate_items(results, score_records)
    if per_item is None:
        part.notes.append("FairTranslate: no per-item scores (fairtranslate/scores/, data."
                          "parquet) in the results folder, so the gaps have no CIs.")
    metrics = [m for m in ("bleu", "comet") if m in set(table["metric"])]
    # Quality beside the gaps: the mean over all items (the three gender means, equal
    # counts) of each metric the table has.
    for metric in [m for m in ("bleu", "chrf") if m in set(table["metric"])]:
        name = {"bleu": "BLEU", "chrf": "chrF"}[metric]
        fig = Figure("fairtranslate", f"{metric}_all", f"{name} (all)",
                     f"{name} points (sentence-level, 0–100)", "higher", run, source,
                     f"mean of the male, female and inclusive means of {metric} in "
                     f"by_gender.csv: the output's quality, beside the gaps")
        part.figures.append(fig)
        for system, rows in table[table["metric"] == metric].groupby("system", sort=False):
            means = rows.set_index("gender")["mean"]
            part.cells[(str(system), fig.key)] = Cell(float(means.mean()))
    for metric in metrics:
        name = metric.upper()
        for other in ("inclusive", "female"):
            fig = Figure(
                "fairtranslate", f"{metric}_male_minus_{other}", f"{name} male−{other}",
                f"{name} points (sentence-level, 0–100)" if metric == "bleu"
                else "COMET points (as in by_gender.csv)", "closer to 0", run, source,
                f"mean({metric}, male) − mean({metric}, {other}) of by_gender.csv; "
                f"{int(settings['level'] * 100)}% CI: percentile bootstrap over examples of "
                f"the per-example difference (paired by example_id; "
                f"{settings['resamples']} resamples, seed {settings['seed']})", has_ci=True,
                quality="bleu_all" if "bleu" in set(table["metric"]) else None)
            part.figures.append(fig)
            for system, rows in table[table["metric"] == metric].groupby("system", sort=False):
                means = rows.set_index("gender")["mean"]
                if "male" not in means or other not in means:
                    continue
                low = high = math.nan
                if per_item is not None:
                    sub = per_item[(per_item["system"] == system) & (per_item["prompt"] == run)
                                   & (per_item["metric"] == metric)]
                    low, high = bootstrap_gap_ci(paired_differences(sub, "male", other),
                                                 settings["resamples"], settings["seed"],
                                                 settings["level"])
                part.cells[(str(system), fig.key)] = Cell(
                    float(means["male"] - means[other]), low, high)
    return part


def _fairtranslate_items(results: Path,
                         score_records: Sequence[Mapping[str, Any]] | None = None
                         ) -> pd.DataFrame | None:
    """Per-item scores with example_id and gender: the given score files (records, as
    :func:`gendermt.analysis.tables.collect_scores` takes them: the rule's), else every one
    under fairtranslate/scores/ (the command line, which reads a finished results folder:
    ``{system}/{prompt}.parquet`` by the workflow's layout, ``comet.parquet``)."""
    data_path = results / "fairtranslate" / "data.parquet"
    scores_dir = results / "fairtranslate" / "scores"
    records = (list(score_records) if score_records is not None
               else [{"path": p} if p.parent == scores_dir else
                     {"system": p.parent.name, "prompt": p.name.split(".", 1)[0], "path": p}
                     for p in sorted(scores_dir.glob("**/*.parquet"))])
    if not data_path.is_file() or not records:
        return None
    from gendermt.analysis.tables import collect_scores

    data = pd.read_parquet(data_path)
    scores = collect_scores(records, data, ["example_id", "gender"])
    return scores.astype({"system": str, "prompt": str})


# ------------------------------------------------------------------ Neo-GATE
def neogate(results: Path) -> Part:
    """Coverage-weighted accuracy and mis-generation of the zero-shot runs, per paradigm."""
    source = "neogate/tables/zeroshot.csv"
    table = read_csv(results / source, ["system", "paradigm", "prompt", "cwa", "misgeneration"])
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    for paradigm, rows in table.groupby("paradigm", sort=False):
        run = str(rows["prompt"].iloc[0])
        for key, label, better in (("cwa", "CWA", "higher"),
                                   ("misgeneration", "mis-generation", "lower")):
            fig = Figure("neogate", f"{key}_{paradigm}", f"{label} ({paradigm})", "%", better,
                         run, source, f"column {key}, paradigm {paradigm}")
            part.figures.append(fig)
            for row in rows.itertuples():
                part.cells[(str(row.system), fig.key)] = Cell(_num(getattr(row, key)))
    return part


# ------------------------------------------------------------------ ConGA
def conga(results: Path) -> Part:
    """A→M share of the ambiguous entities rendered with a gender, and F1 per gender."""
    cat_source, met_source = "conga/tables/categories.csv", "conga/tables/metrics.csv"
    cats = read_csv(results / cat_source, ["system", "prompt", "category", "count"])
    mets = read_csv(results / met_source, ["system", "prompt", "gender", "f1"])
    run = pick_run(cats["prompt"])
    cats = cats[cats["prompt"].astype(str) == run]
    mets = mets[mets["prompt"].astype(str) == run]
    part = Part(systems=list(dict.fromkeys(cats["system"].astype(str))))
    share = Figure("conga", "a_to_m_share", "A→M share", "% of ambiguous entities rendered "
                   "with a gender", "closer to 50", run, cat_source,
                   "100 × bias_a_to_m / (bias_a_to_m + bias_a_to_f); 50 = no default gender, "
                   "above 50 = masculine default")
    part.figures.append(share)
    for system, rows in cats.groupby("system", sort=False):
        counts = rows.set_index("category")["count"]
        to_m, to_f = _num(counts.get("bias_a_to_m")), _num(counts.get("bias_a_to_f"))
        total = to_m + to_f
        part.cells[(str(system), share.key)] = Cell(100 * to_m / total if total > 0
                                                    else math.nan)
    for gender, label in (("M", "masculine"), ("F", "feminine")):
        fig = Figure("conga", f"f1_{gender.lower()}", f"F1 {gender}", "0–1", "higher", run,
                     met_source, f"column f1, gender {gender} ({label} entities)")
        part.figures.append(fig)
        for row in mets[mets["gender"] == gender].itertuples():
            part.cells[(str(row.system), fig.key)] = Cell(_num(row.f1))
    return part


# ------------------------------------------------------------------ GATE X-E and GATE
def gate_x_e(results: Path) -> Part:
    """Exact-match rewriting accuracy over every Overall cell of Table 2 (all languages)."""
    source = "gate-x-e/tables/accuracy.csv"
    table = read_csv(results / source, ["system", "prompt", "subtype", "requested", "n",
                                        "correct"])
    run = pick_run(table["prompt"])
    # the relaxed column re-counts the Negative instances under a looser rule
    rows = table[(table["prompt"].astype(str) == run) & (table["subtype"] == "Overall")
                 & (table["requested"] != "Neut (relaxed)")]
    fig = Figure("gate-x-e", "accuracy", "rewriting accuracy", "%", "higher", run, source,
                 "100 × Σ correct / Σ n over the Overall rows of every language, original and "
                 "requested gender (the relaxed Negative → Neut row left out)")
    part = Part([fig], list(dict.fromkeys(table["system"].astype(str))))
    for system, sub in rows.groupby("system", sort=False):
        n = sub["n"].sum()
        part.cells[(str(system), fig.key)] = Cell(100 * sub["correct"].sum() / n if n
                                                  else math.nan)
    return part


def gate(results: Path) -> Part:
    """Exact-match rewriting accuracy (matches / rows) over the overall rows of prf.csv."""
    source = "gate/tables/prf.csv"
    table = read_csv(results / source, ["system", "prompt", "category", "count", "matches"])
    run = pick_run(table["prompt"])
    rows = table[(table["prompt"].astype(str) == run) & (table["category"] == "overall")]
    fig = Figure("gate", "accuracy", "rewriting accuracy", "%", "higher", run, source,
                 "100 × Σ matches / Σ count over the overall rows of every language and "
                 "direction")
    part = Part([fig], list(dict.fromkeys(table["system"].astype(str))))
    for system, sub in rows.groupby("system", sort=False):
        n = sub["count"].sum()
        part.cells[(str(system), fig.key)] = Cell(100 * sub["matches"].sum() / n if n
                                                  else math.nan)
    return part


# ------------------------------------------------------------------ WinoMT
def winomt(results: Path) -> Part:
    """Accuracy, ΔG and ΔS per target language, as summary.csv has them."""
    source = "winomt/tables/summary.csv"
    table = read_csv(results / source, ["system", "lang", "acc", "delta_g", "delta_s"])
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    for lang, rows in table.groupby("lang", sort=False):
        for key, label, unit, better in (
                ("acc", "accuracy", "%", "higher"),
                ("delta_g", "ΔG", "F1 points (male − female)", "closer to 0"),
                ("delta_s", "ΔS", "accuracy points (pro − anti)", "closer to 0")):
            fig = Figure("winomt", f"{key}_{lang}", f"{label} ({lang})", unit, better,
                         str(lang), source, f"column {key}, lang {lang}")
            part.figures.append(fig)
            for row in rows.itertuples():
                part.cells[(str(row.system), fig.key)] = Cell(_num(getattr(row, key)))
    return part


def grape(results: Path) -> Part:
    """GRAPE_m against parity over all of GAMBIT at ISCO 4-digit level, per target language
    (the paper's Table 2, left half): 0 = parity, 1 = masculine forms twice as often."""
    source = "gambit/tables/grape.csv"
    table = read_csv(results / source, ["system", "lang", "level", "reference", "grape_m"])
    table = table[(table["reference"] == "parity") & (table["level"].astype(str) == "4")]
    part = Part(systems=list(dict.fromkeys(table["system"].astype(str))))
    for lang, rows in table.groupby("lang", sort=False):
        fig = Figure("grape", f"grape_m_parity_{lang}", f"GRAPE_m^parity ({lang})",
                     "relative excess of masculine forms over parity", "closer to 0",
                     str(lang), source, f"column grape_m, reference parity, level 4, lang {lang}")
        part.figures.append(fig)
        for row in rows.itertuples():
            part.cells[(str(row.system), fig.key)] = Cell(_num(row.grape_m))
    return part


READERS: dict[str, Callable[[Path], Part]] = {
    "fairtranslate": fairtranslate, "neogate": neogate, "conga": conga, "grape": grape,
    "gate-x-e": gate_x_e, "gate": gate, "winomt": winomt}


def available(results: Path) -> list[str]:
    """Benchmarks whose tables are in the results folder."""
    return [b for b in BENCHMARKS if all((results / t).is_file() for t in TABLES[b])]
