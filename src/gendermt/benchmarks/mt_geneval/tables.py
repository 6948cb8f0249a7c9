"""MT-GenEval's tables from per-segment decisions (``evaluate.evaluate_segments``) of each run.

Runs are records ``{"system", "prompt", "path", "summary"}`` (the run's per-segment
decisions and its summary JSON) and, where known, ``context_shown`` (whether the system saw
the contextual items' context sentence: ``context.context_shown``); nothing is parsed out of
paths.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.mt_geneval.metric import accuracy, signature


def accuracy_rows(items: pd.DataFrame) -> list[dict]:
    """Per target language and set: the official accuracy (counterfactual: a pair is correct only
    when both translations are), per gender on the counterfactual set, the masculine−feminine
    gap, and n (pairs or items)."""
    rows = []
    for (lang, which), part in items.groupby(["tgt_lang", "set"], sort=True):
        pairs = part.drop_duplicates("pair_id")
        row = {"lang": lang, "set": which, "accuracy": accuracy(pairs["pair_correct"].tolist()),
               "accuracy_masculine": None, "accuracy_feminine": None, "accuracy_gap": None,
               # not the scorer's: an output with no gendered word of either reference counts
               # as correct, so an untranslated or empty output scores 1.0; this share of
               # segments whose output has a word of the right gender's reference says so
               "correct_word_rate": accuracy((part["correct_words"].fillna("") != "").tolist()),
               "n": len(pairs)}
        if which == "counterfactual":
            m = accuracy(part.loc[part["gender"] == "masculine", "correct"].tolist())
            f = accuracy(part.loc[part["gender"] == "feminine", "correct"].tolist())
            row.update(accuracy_masculine=m, accuracy_feminine=f,
                       accuracy_gap=None if m is None or f is None else m - f)
            for gender in ("masculine", "feminine"):
                words = part.loc[part["gender"] == gender, "correct_words"].fillna("")
                row[f"correct_word_rate_{gender}"] = accuracy((words != "").tolist())
        rows.append(row)
    return rows


def accuracy_table(runs: list[dict]) -> pd.DataFrame:
    """One row per system × prompt × language × set."""
    rows = []
    for run in runs:
        items = pd.read_parquet(run["path"])
        for row in accuracy_rows(items):
            rows.append({"system": run["system"], "prompt": run.get("prompt", ""), **row,
                         "signature": signature()})
    columns = ["system", "prompt", "lang", "set", "accuracy", "accuracy_masculine",
               "accuracy_feminine", "accuracy_gap", "correct_word_rate",
               "correct_word_rate_masculine", "correct_word_rate_feminine", "n", "signature"]
    return pd.DataFrame(rows, columns=columns)


def paper_layout(table: pd.DataFrame, quality: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's layout: systems as rows, for each language the counterfactual feminine and
    masculine accuracies and the contextual accuracy, in percent; then, since an output with
    no gendered word counts as correct (an untranslated one scores 100), the system's output
    quality beside them: the share of outputs with a right-gender word (counterfactual set)
    and, with ``quality`` (the quality table), BLEU over all the language's segments."""
    if table.empty:
        return pd.DataFrame()
    cells = {}
    for rec in table.to_dict("records"):
        key = (rec["system"], rec["prompt"])
        cells.setdefault(key, {})
        if rec["set"] == "counterfactual":
            for g in ("feminine", "masculine"):
                value = rec[f"accuracy_{g}"]
                cells[key][(rec["lang"], f"counterfactual {g}")] = (
                    None if value is None else 100 * value)
        else:
            cells[key][(rec["lang"], "contextual")] = (
                None if rec["accuracy"] is None else 100 * rec["accuracy"])
    extra = {}
    for rec in table.to_dict("records"):
        if rec["set"] == "counterfactual" and rec.get("correct_word_rate") is not None:
            extra.setdefault((rec["system"], rec["prompt"]), {})[
                (rec["lang"], "~correct words")] = 100 * rec["correct_word_rate"]
    if quality is not None and not quality.empty:
        overall = quality[(quality["set"] == "all") & (quality["reference"] == "correct")
                          & (quality["metric"] == "bleu")]
        for rec in overall.to_dict("records"):
            if (rec["system"], rec["prompt"]) in cells:
                extra.setdefault((rec["system"], rec["prompt"]), {})[
                    (rec["lang"], "~~BLEU")] = rec["score"]
    frame = pd.DataFrame.from_dict(cells, orient="index")
    frame = frame.reindex(sorted(frame.columns), axis=1)
    if extra:
        quality_cols = pd.DataFrame.from_dict(extra, orient="index").reindex(frame.index)
        frame = frame.join(quality_cols.reindex(sorted(quality_cols.columns), axis=1))
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["system", "prompt"])
    frame.columns = [f"{lang} {what.lstrip('~')}" for lang, what in frame.columns]
    return frame.reset_index()


def quality_table(runs: list[dict]) -> pd.DataFrame:
    """BLEU/chrF of every run per language, set and gender, against the correct-gender and the
    counterfactual references (from each run's summary), with sacrebleu's signature."""
    rows = []
    for run in runs:
        summary = json.loads(Path(run["summary"]).read_text(encoding="utf-8"))
        rows += [{"system": run["system"], "prompt": run.get("prompt", ""), **row}
                 for row in summary["quality"]]
    columns = ["system", "prompt", "lang", "set", "gender", "metric", "reference", "score", "n",
               "signature"]
    return pd.DataFrame(rows, columns=columns)


def summary_table(accuracy: pd.DataFrame, quality: pd.DataFrame,
                  runs: Sequence[Mapping] = ()) -> pd.DataFrame:
    """One row per system × prompt × language: the headline figures (the scorecard's source):
    counterfactual accuracy, per gender and their gap, contextual accuracy, the share of
    outputs with a right-gender word, and BLEU/chrF over all the language's segments against
    the right references; ``context_shown`` (from ``runs``): whether the system saw the
    contextual items' context sentence (False: it translated the sentence alone, so its
    contextual accuracy measures what it guesses; empty where unknown or no contextual set)."""
    shown = {(r["system"], r.get("prompt", "")): r.get("context_shown") for r in runs}
    rows = {}
    for rec in accuracy.to_dict("records"):
        row = rows.setdefault((rec["system"], rec["prompt"], rec["lang"]), {})
        if rec["set"] == "counterfactual":
            row.update(counterfactual_accuracy=rec["accuracy"],
                       accuracy_masculine=rec["accuracy_masculine"],
                       accuracy_feminine=rec["accuracy_feminine"],
                       accuracy_gap=rec["accuracy_gap"], counterfactual_n=rec["n"],
                       correct_word_rate=rec["correct_word_rate"])
        else:
            row.update(contextual_accuracy=rec["accuracy"], contextual_n=rec["n"],
                       contextual_correct_word_rate=rec["correct_word_rate"])
    overall = quality[(quality["set"] == "all") & (quality["reference"] == "correct")]
    for rec in overall.to_dict("records"):
        key = (rec["system"], rec["prompt"], rec["lang"])
        if key in rows:
            rows[key][rec["metric"]] = rec["score"]
    frame = pd.DataFrame([{"system": s, "prompt": p, "lang": lang, **row,
                           "context_shown": shown.get((s, p))}
                          for (s, p, lang), row in rows.items()])
    columns = ["system", "prompt", "lang", "counterfactual_accuracy", "accuracy_masculine",
               "accuracy_feminine", "accuracy_gap", "contextual_accuracy", "counterfactual_n",
               "contextual_n", *sorted(set(quality["metric"])),
               # beside accuracy, which counts an output with no gendered word as correct
               "correct_word_rate", "contextual_correct_word_rate", "context_shown"]
    frame = frame.reindex(columns=columns)
    # a set without contextual items has no context to show
    frame["context_shown"] = [None if pd.isna(acc) or shown is None else bool(shown)
                              for acc, shown in zip(frame["contextual_accuracy"],
                                                    frame["context_shown"], strict=True)]
    return frame


def build_tables(runs: Sequence[Mapping], outputs: Mapping[str, str]) -> None:
    """Workflow stage: every run's decisions and summary → ``tables/accuracy``, ``paper``,
    ``quality`` and ``summary`` (``.csv``, ``.md``)."""
    from gendermt.data.io import write_table

    runs = [dict(r) for r in runs]
    accuracy_long = accuracy_table(runs)
    quality = quality_table(runs)
    write_table(accuracy_long, outputs["accuracy"], outputs["accuracy_md"], floatfmt=".3f",
                md_without=["signature"])
    write_table(paper_layout(accuracy_long, quality), outputs["paper"], outputs["paper_md"],
                floatfmt=".1f")
    write_table(quality, outputs["quality"], outputs["quality_md"])
    write_table(summary_table(accuracy_long, quality, runs), outputs["summary"],
                outputs["summary_md"], floatfmt=".3f")
