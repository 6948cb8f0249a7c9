"""Workflow stage: one system's answers to one run → Neo-GATE scores, per item and overall."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.benchmarks.neogate.checks import CHECKS, check_output, instruction_of
from gendermt.benchmarks.neogate.extract import STATUSES, extract
from gendermt.benchmarks.neogate.metric import OPTION_DEFAULTS, LineResult, evaluate, signature
from gendermt.core.errors import GenderMTError
from gendermt.data.io import csv_text, read_jsonl, write_json, write_parquet, write_text

log = logging.getLogger(__name__)

# The official script's --export_tsv columns, after our item id, Neo-GATE id and extraction.
TSV_COLUMNS = ["item_id", "#", "EXTRACTION", "ANNOTATIONS", "MATCHED", "CORRECT", "MASCULINE",
               "FEMININE", "MIS-GENERATIONS"]


def per_item_frame(data: pd.DataFrame, extracted: list[tuple[str, str]],
                   lines: list[LineResult]) -> pd.DataFrame:
    frame = pd.DataFrame({
        "item_id": data["item_id"], "number": data["number"],
        "extraction": [status for _, status in extracted],
        "hypothesis": [text for text, _ in extracted],
        "n_annotations": [line.n_annotations for line in lines],
    })
    for key in ("matched", "correct", "masculine", "feminine", "misgenerations"):
        frame[key] = [len(getattr(line, key)) for line in lines]
        frame[f"{key}_words"] = [" ".join(getattr(line, key)) for line in lines]
    return frame


def inspection_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The per-item TSV: the official export's columns (words joined by spaces)."""
    return pd.DataFrame({
        "item_id": frame["item_id"], "#": frame["number"], "EXTRACTION": frame["extraction"],
        "ANNOTATIONS": frame["n_annotations"], "MATCHED": frame["matched_words"],
        "CORRECT": frame["correct_words"], "MASCULINE": frame["masculine_words"],
        "FEMININE": frame["feminine_words"], "MIS-GENERATIONS": frame["misgenerations_words"],
    })[TSV_COLUMNS]


def score_run(translations: str | Path, data_path: str | Path, run: Mapping[str, Any],
              template: Mapping[str, Any], options: Mapping[str, Any], system: str,
              scores_out: str | Path, summary_out: str | Path, tsv_out: str | Path,
              inputs: str | Path | None = None) -> None:
    """Extract each answer's translation, evaluate it, write per-item and corpus scores.
    With ``inputs`` (the run's requests), outputs that echo the instruction are told apart
    (:mod:`.checks`); outputs in another language are found either way."""
    paradigm = run["paradigm"]
    data = pd.read_parquet(data_path, columns=["item_id", "number", f"annotation_{paradigm}"])
    records = {r["item_id"]: r for r in read_jsonl(translations)}
    missing = [i for i in data["item_id"] if i not in records]
    if missing:
        raise GenderMTError(f"{translations}: no output for {len(missing)} items "
                            f"(first: {missing[0]})")
    chosen = {**OPTION_DEFAULTS, **options}
    extracted = [extract(records[i]["raw"], template.get("extract_after"),
                         bool(chosen["accept_plain"])) for i in data["item_id"]]
    lines, scores = evaluate(
        [text for text, _ in extracted], list(data[f"annotation_{paradigm}"]),
        list(run["neomorphemes"]), keep_slash=bool(chosen["keep_slash"]),
        wrap_negative_anchor=bool(chosen["wrap_negative_anchor"]))
    frame = per_item_frame(data, extracted, lines)
    prompts = ({r["item_id"]: instruction_of(r.get("messages", []), r.get("source", ""))
                for r in read_jsonl(inputs)} if inputs else {})
    frame["check"] = [check_output(text, prompts.get(i, "")) if status != "unextractable"
                      else "ok" for i, (text, status) in zip(data["item_id"], extracted,
                                                            strict=True)]
    checks = {c: int((frame["check"] == c).sum()) for c in CHECKS}
    if checks["echo"] or checks["wrong_language"]:
        log.warning("%s %s: %d outputs echo the instruction, %d are not Italian (kept out "
                    "of misgeneration_clean)", system, run["name"], checks["echo"],
                    checks["wrong_language"])
    clean = [line for line, check in zip(lines, frame["check"], strict=True) if check == "ok"]
    n_all = scores["n_annotations"]
    scores = {**scores, "misgeneration_clean": (
        sum(len(line.misgenerations) for line in clean) / n_all * 100 if n_all else 0.0)}
    extraction = {s: int((frame["extraction"] == s).sum()) for s in STATUSES}
    if extraction["unextractable"]:
        log.warning("%s %s: %d of %d outputs unextractable (scored as empty)", system,
                    run["name"], extraction["unextractable"], len(frame))
    write_parquet(scores_out, frame)
    write_text(tsv_out, csv_text(inspection_table(frame), sep="\t"))
    write_json(summary_out, {
        "system": system, "prompt": run["name"], "format": run["format"],
        "shots": run["shots"], "paradigm": paradigm, "neomorphemes": run["neomorphemes"],
        "template_version": template["version"], "template_sha256": template["sha256"],
        "options": dict(options), "signature": signature(options),
        "items": len(frame), "extraction": extraction,
        "checks": checks, "scores": scores,
    })
