"""Neo-GATE's tables: Table 6 (zero-shot), the few-shot grid behind Figures 1-3, output
extraction per run, and the dataset's annotation counts (Table 3)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.analysis.tables import flat_pivot, ordered
from gendermt.benchmarks.neogate import COUNTS, METRICS
from gendermt.benchmarks.neogate.checks import CHECKS
from gendermt.benchmarks.neogate.extract import STATUSES
from gendermt.data.io import write_table, write_text

SHORT = {"coverage": "COV", "accuracy": "ACC", "cwa": "CWA", "misgeneration": "MIS"}


def collect_runs(summary_files: Sequence[str | Path]) -> pd.DataFrame:
    """One row per system × run: its metadata, metrics, counts and extraction statuses."""
    rows = []
    for path in summary_files:
        summary = json.loads(Path(path).read_text(encoding="utf-8"))
        rows.append({
            "system": summary["system"], "paradigm": summary["paradigm"],
            "format": summary["format"], "shots": summary["shots"], "prompt": summary["prompt"],
            **{k: summary["scores"][k] for k in (*METRICS, *COUNTS)},
            # the authors' mis-generation is over every output; _clean leaves out echoes
            # of the instruction and outputs in another language (.checks)
            "misgeneration_clean": summary["scores"].get("misgeneration_clean"),
            "items": summary["items"],
            **{k: summary["extraction"][k] for k in STATUSES},
            **{k: summary.get("checks", {}).get(k) for k in CHECKS if k != "ok"},
            # the metric's name, version and scoring options (the score stage's)
            "signature": summary["signature"],
        })
    return pd.DataFrame(rows)


def _md(frame: pd.DataFrame, **kwargs) -> str:
    return frame.to_markdown(index=False, floatfmt=".2f", **kwargs)


def zeroshot_md(table: pd.DataFrame, paradigms: Sequence[str]) -> str:
    out = ["# Zero-shot results\n\nTable 6 layout: coverage (COV ↑), accuracy (ACC ↑), "
           "coverage-weighted accuracy (CWA ↑) and mis-generation (MIS ↓), percent; "
           "`unextractable` outputs are scored as empty.\n"]
    for paradigm in paradigms:
        part = table[table["paradigm"] == paradigm]
        if part.empty:
            continue
        shown = part[["system", *METRICS, "unextractable"]].rename(
            columns={**SHORT, "system": paradigm.capitalize()})
        out += [f"\n## {paradigm}\n", _md(shown)]
    return "\n".join(out) + "\n"


def fewshot_md(table: pd.DataFrame) -> str:
    out = ["# Few-shot results\n\nFigures 1-3 as numbers: rows format × shots, columns "
           "system · paradigm, percent.\n"]
    for metric in METRICS:
        out += [f"\n## {SHORT[metric]} ({metric})\n",
                _md(flat_pivot(table, ["format", "shots"], ["system", "paradigm"], metric))]
    return "\n".join(out) + "\n"


def dataset_table(provenance: dict) -> pd.DataFrame:
    keys = ["entries", "tags", "content", "function", "singular", "plural"]
    return pd.DataFrame([{"split": split, **{k: provenance[split][k] for k in keys}}
                         for split in ("test", "dev")])


def build_tables(summary_files: Sequence[str | Path], provenance_path: str | Path,
                 outputs: dict, systems: Sequence[str], paradigms: Sequence[str],
                 formats: Sequence[str]) -> None:
    """Workflow stage: every run's summary → the tables; ``outputs`` maps name → path."""
    runs = ordered(collect_runs(summary_files),
                   {"system": systems, "paradigm": paradigms, "format": formats})
    runs = runs.sort_values(["paradigm", "system", "format", "shots"], ignore_index=True)
    zero = runs[runs["shots"] == 0]
    few = runs[runs["shots"] > 0]
    write_table(zero, outputs["zeroshot"])
    write_text(outputs["zeroshot_md"], zeroshot_md(zero, paradigms))
    write_table(few, outputs["fewshot"])
    write_text(outputs["fewshot_md"], fewshot_md(few) if not few.empty
               else "# Few-shot results\n\nNo few-shot run in this configuration.\n")
    extraction = runs[["system", "prompt", "paradigm", "format", "shots", "items", *STATUSES,
                       "echo", "wrong_language"]]
    write_table(extraction, outputs["extraction"], outputs["extraction_md"], floatfmt="d")
    provenance = json.loads(Path(provenance_path).read_text(encoding="utf-8"))
    write_table(dataset_table(provenance), outputs["dataset"], outputs["dataset_md"],
                floatfmt="d")
