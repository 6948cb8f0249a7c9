"""ConGA's tables: tag distribution (Table 3), categories (Table 5), metrics (Table 6),
annotation coverage, and every system's per-sentence log in one CSV.

Each table is a tidy CSV (one row per cell) and a Markdown file in the paper's layout.
Sums run over the sentences each system has annotations for; the English column of Table 3
counts the whole dataset. Unannotated outputs are counted in the coverage table. A run with
no annotated output has empty cells in Tables 3 and 5 (``annotated`` False in the CSV, "not
annotated" in the Markdown), never zeros, as in Table 6 and the figure.

Table 6 divides entity-level matches by *tag* counts, as the paper does (§7): an entity
tagged on several words (``we <F1> ... we're <F1>``) matches once but counts every tag, so
even a perfect translation stays below 100%. The metrics table therefore carries the
entity-denominator variant beside the configured one (``*_tags`` and ``*_entities``
columns; ``precision``/``recall``/``f1`` are the configured ``denominator``'s).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.conga import CATEGORIES
from gendermt.benchmarks.conga.evaluate import COUNT_COLUMNS, summarise
from gendermt.benchmarks.conga.metric import DENOMINATORS, precision_recall, signature, totals
from gendermt.benchmarks.conga.tags import TaggedSentence, TagScheme, parse_tagged
from gendermt.data.io import write_table, write_text
from gendermt.scoring.output_quality import (
    CLEAN_SHARE_FLOOR,
    mark,
    note,
    share_text,
    with_run_quality,
)

CATEGORY_LABELS = {"match_m": "Match M", "match_f": "Match F", "bias_a_to_m": "Bias A→M",
                   "bias_a_to_f": "Bias A→F", "error_m_to_f": "Error M→F",
                   "error_f_to_m": "Error F→M", "unmatched_source": "Unmatched EN IDs",
                   "unmatched_target": "Unmatched IT IDs"}
NOT_ANNOTATED = "not annotated"


def annotated_runs(logs: pd.DataFrame, systems: Sequence[str], prompts: Sequence[str]
                   ) -> Iterator[tuple[str, str, pd.DataFrame]]:
    """``(system, prompt, its annotated rows)`` per run, in config order."""
    for system in systems:
        for prompt in prompts:
            yield system, prompt, logs[(logs["system"] == system) & (logs["prompt"] == prompt)
                                       & (logs["status"] == "annotated")]

def run_label(system: str, prompt: str, prompts: Sequence[str]) -> str:
    return system if len(prompts) == 1 else f"{system} · {prompt}"


def run_labels(frame: pd.DataFrame, prompts: Sequence[str]) -> list[str]:
    """Each row's run label, marked "(low quality)" where the table carries the run's
    quality (gendermt.scoring.output_quality) and it is below the floor."""
    low = frame["low_quality"] if "low_quality" in frame.columns else [False] * len(frame)
    return [mark(run_label(s, p, prompts), q) for s, p, q in
            zip(frame["system"], frame["prompt"], low, strict=True)]


def _quality_note(frame: pd.DataFrame, floor: float) -> str:
    return f" {note(floor)}" if "clean_share" in frame.columns else ""


def read_logs(sentence_files: Sequence[str | Path]) -> pd.DataFrame:
    parts = [pd.read_csv(p, dtype={"item_id": str, "system": str, "prompt": str},
                         keep_default_na=False, na_values={c: [""] for c in COUNT_COLUMNS})
             for p in sentence_files]
    frame = pd.concat(parts, ignore_index=True)
    for c in COUNT_COLUMNS:
        frame[c] = frame[c].astype("Int64")
    return frame


def tag_distribution(data: pd.DataFrame, logs: pd.DataFrame, source_tags: dict,
                     systems: Sequence[str], prompts: Sequence[str]) -> pd.DataFrame:
    """Table 3: tags per gender in the English gold and in each system's annotated outputs."""
    scheme = TagScheme.source(**(source_tags or {}))
    en = {"m": 0, "f": 0, "a": 0}
    for text in data["source_tagged"]:
        counts = totals(parse_tagged(text, scheme), TaggedSentence(""))
        for g in en:
            en[g] += counts[f"source_tags_{g}"]
    rows = [{"text": "EN", "system": "", "prompt": "", "gender": g.upper(), "tags": n,
             "items": len(data)} for g, n in en.items()]
    for system, prompt, part in annotated_runs(logs, systems, prompts):
        for g in ("m", "f", "a"):
            n = int(part[f"target_tags_{g}"].sum()) if g != "a" else 0
            rows.append({"text": "IT", "system": system, "prompt": prompt,
                         "gender": g.upper(), "tags": n if len(part) else pd.NA,
                         "items": len(part), "annotated": len(part) > 0})
    table = pd.DataFrame(rows)
    table["tags"] = table["tags"].astype("Int64")
    table["annotated"] = table["annotated"].fillna(True).astype(bool)
    return table


def categories(logs: pd.DataFrame, systems: Sequence[str], prompts: Sequence[str]
               ) -> pd.DataFrame:
    """Table 5: category counts per system, with total matches and mismatches."""
    rows = []
    for system, prompt, part in annotated_runs(logs, systems, prompts):
        counts = {c: int(part[c].sum()) for c in CATEGORIES}
        counts["total_matches"] = counts["match_m"] + counts["match_f"]
        counts["total_mismatches"] = sum(counts[c] for c in (
            "bias_a_to_m", "bias_a_to_f", "error_m_to_f", "error_f_to_m"))
        rows += [{"system": system, "prompt": prompt, "category": c,
                  "count": n if len(part) else pd.NA, "annotated": len(part) > 0}
                 for c, n in counts.items()]
    table = pd.DataFrame(rows, columns=["system", "prompt", "category", "count", "annotated"])
    table["count"] = table["count"].astype("Int64")
    return table


def metrics(logs: pd.DataFrame, systems: Sequence[str], prompts: Sequence[str],
            denominator: str) -> pd.DataFrame:
    """Table 6: per gender, matches, the denominators, precision, recall and F1 (0–1)."""
    rows = []
    for system in systems:
        for prompt in prompts:
            part = logs[(logs["system"] == system) & (logs["prompt"] == prompt)]
            s = summarise(part, denominator)
            variants = {d: precision_recall(s, d) for d in DENOMINATORS}
            for g in ("m", "f"):
                rows.append({
                    "system": system, "prompt": prompt, "gender": g.upper(),
                    "match": s[f"match_{g}"], "target_total": s[f"target_{denominator}_{g}"],
                    "source_total": s[f"source_{denominator}_{g}"],
                    "precision": s[f"precision_{g}"], "recall": s[f"recall_{g}"],
                    "f1": s[f"f1_{g}"], "denominator": denominator,
                    "items_scored": s["items_scored"],
                    "items_unannotated": s["items_unannotated"],
                    **{f"{k}_{d}": variants[d][f"{k}_{g}"] for d in DENOMINATORS
                       for k in ("precision", "recall", "f1")},
                    **{f"{side}_{d}": s[f"{side}_{d}_{g}"] for d in DENOMINATORS
                       for side in ("target", "source")}})
    return pd.DataFrame(rows)


def coverage(logs: pd.DataFrame) -> pd.DataFrame:
    """Which source annotated how many outputs of each system (``unannotated`` included)."""
    kind = logs["annotation_source"].fillna("").astype(str).map(
        lambda s: s.split(":", 1)[0] if s else "unannotated")
    return (logs.assign(source=kind).groupby(["system", "prompt", "source"], sort=False)
            .size().rename("items").reset_index())


# ---------------------------------------------------------------------- Markdown layouts
def _pivot(frame: pd.DataFrame, index: str, value: str, prompts: Sequence[str],
           order: Sequence[str]) -> pd.DataFrame:
    frame = frame.assign(run=run_labels(frame, prompts))
    runs = list(dict.fromkeys(frame["run"]))
    table = frame.pivot_table(index=index, columns="run", values=value, aggfunc="first",
                              sort=False, dropna=False)
    return table.reindex(index=list(order), columns=runs)


def _cells(table: pd.DataFrame, frame: pd.DataFrame, prompts: Sequence[str]) -> pd.DataFrame:
    """Counts as text; a run with no annotated output reads "not annotated" throughout."""
    missing = {r for r, a in zip(run_labels(frame, prompts), frame["annotated"], strict=True)
               if not a}
    out = table.astype(object)
    for run in out.columns:
        out[run] = (NOT_ANNOTATED if run in missing else
                    out[run].map(lambda v: "" if pd.isna(v) else f"{int(v)}"))
    return out


def _tags_md(table: pd.DataFrame, prompts: Sequence[str],
             floor: float = CLEAN_SHARE_FLOOR) -> str:
    en = table[table["text"] == "EN"].set_index("gender")["tags"]
    italian = table[table["text"] == "IT"]
    it = _pivot(italian, "gender", "tags", prompts, ["M", "F", "A"])
    it.insert(0, "EN", en)
    it.loc["Total Tags"] = it.sum(min_count=1)
    it = _cells(it, italian, prompts) if len(italian) else it.astype(object)
    it["EN"] = it["EN"].map(lambda v: f"{int(v)}")
    it.index.name = "Gender Tags"
    return ("# Tag distribution (Table 3 layout)\n\nTags per gender in the English gold and "
            "in each system's annotated Italian outputs (\"not annotated\": the system has "
            f"no annotated output).{_quality_note(table, floor)}\n\n"
            + it.reset_index().to_markdown(index=False, disable_numparse=True) + "\n")


def _categories_md(table: pd.DataFrame, prompts: Sequence[str],
                   floor: float = CLEAN_SHARE_FLOOR) -> str:
    order = ["match_m", "match_f", "total_matches", "bias_a_to_m", "bias_a_to_f",
             "error_m_to_f", "error_f_to_m", "total_mismatches", "unmatched_source",
             "unmatched_target"]
    wide = _cells(_pivot(table, "category", "count", prompts, order), table, prompts)
    wide.index = [CATEGORY_LABELS.get(c, c.replace("_", " ").title()) for c in wide.index]
    wide.index.name = "Category"
    return ("# Matches, mismatches and unmatched entities (Table 5 layout)\n\n"
            "Summed over each system's annotated sentences (\"not annotated\": the system "
            f"has no annotated output).{_quality_note(table, floor)}\n\n"
            + wide.reset_index().to_markdown(index=False, disable_numparse=True) + "\n")


def _pct(v) -> str:
    return "n/a" if pd.isna(v) else f"{100 * v:.1f}%"


def _metrics_md(table: pd.DataFrame, prompts: Sequence[str],
                floor: float = CLEAN_SHARE_FLOOR) -> str:
    other = {"tags": "entities", "entities": "tags"}
    denominator = table["denominator"].iloc[0] if len(table) else "tags"
    variant = other[denominator]
    shown = table.assign(
        Model=run_labels(table, prompts),
        Clean=(table["clean_share"].map(share_text) if "clean_share" in table.columns
               else ""),
        **{c.title(): table[c].map(_pct) for c in ("precision", "recall")},
        F1=table["f1"].map(_pct),
        **{f"{c} ({variant})": table[f"{c.lower()}_{variant}"].map(_pct)
           for c in ("Precision", "Recall", "F1")})
    out = ["# Precision, recall and F1 by gender (Table 6 layout)\n",
           f"Precision = matches / {denominator} of that gender in the Italian outputs; "
           f"recall = matches / {denominator} of that gender in the English source (§7). "
           "Matches are counted per entity but the paper divides by tags, so an entity tagged "
           "on several words lowers the score even when it is rendered right: with the "
           "paper's tag denominator a perfect translation cannot reach 100%. The "
           f"`({variant})` columns divide by {variant} instead."
           f"{_quality_note(table, floor)}\n"]
    for g, name in (("M", "Male"), ("F", "Female")):
        part = shown[shown["gender"] == g][[
            "Model", "match", "target_total", "source_total", "Precision", "Recall", "F1",
            f"target_{variant}", f"source_{variant}", f"Precision ({variant})",
            f"Recall ({variant})", f"F1 ({variant})", "items_scored",
            *(["Clean"] if "clean_share" in table.columns else [])]]
        part = part.rename(columns={"match": "Match", "target_total": f"Total {denominator} (IT)",
                                    "source_total": f"Total {denominator} (EN)",
                                    f"target_{variant}": f"Total {variant} (IT)",
                                    f"source_{variant}": f"Total {variant} (EN)",
                                    "items_scored": "Sentences scored"})
        out += [f"\n## {name}\n", part.to_markdown(index=False, disable_numparse=True)]
    return "\n".join(out) + "\n"


def build_tables(data_path: str | Path, sentence_files: Sequence[str | Path], outputs: dict,
                 systems: Sequence[str], prompts: Sequence[str], source_tags: dict | None,
                 denominator: str = "tags", checks: str | Path | None = None,
                 floor: float = CLEAN_SHARE_FLOOR, target_tags: dict | None = None,
                 annotator: str | None = None) -> None:
    """Workflow stage: every system's per-sentence log → the tables; ``checks``: the
    benchmark's output_checks.csv, whose clean share (and the low-quality mark below
    ``floor``, %) the tags, categories and metrics tables carry per run. The metrics table
    carries the metric's signature (:func:`.metric.signature`: ``denominator``, the
    tag options, the ``annotator``)."""
    data = pd.read_parquet(data_path, columns=["item_id", "source_tagged"])
    logs = read_logs(sentence_files)
    tags = with_run_quality(tag_distribution(data, logs, source_tags or {}, systems, prompts),
                            checks, floor)
    write_table(tags, outputs["tags"])
    write_text(outputs["tags_md"], _tags_md(tags, prompts, floor))
    cats = with_run_quality(categories(logs, systems, prompts), checks, floor)
    write_table(cats, outputs["categories"])
    write_text(outputs["categories_md"], _categories_md(cats, prompts, floor))
    mets = metrics(logs, systems, prompts, denominator).assign(
        signature=signature(denominator, source_tags, target_tags, annotator))
    mets = with_run_quality(mets, checks, floor)
    write_table(mets, outputs["metrics"])
    write_text(outputs["metrics_md"], _metrics_md(mets, prompts, floor))
    cov = coverage(logs)
    write_table(cov, outputs["coverage"], outputs["coverage_md"], floatfmt="d")
    write_table(logs, outputs["sentences"])
