"""FairTranslate's score tables in the paper's layouts (Tables 1, 2, 3/8/9 and 6).

Every table is written twice: a tidy CSV (full precision, one row per cell, every prompt and
system) for further work, and a Markdown file in the paper's layout for reading. Scores are
means of sentence-level scores on sacrebleu's 0–100 scale, as the paper's tables are means of
per-sentence scores in percent.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gendermt.analysis.anova import TEST_NAME, one_way_anova
from gendermt.analysis.tables import collect_scores, flat_pivot, ordered
from gendermt.io import write_table, write_text

from . import AMBIGUITIES, GENDERS, STEREOTYPES

METADATA = ["gender", "stereotype", "ambiguity"]


def _means(scores: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    return (scores.groupby(by, observed=True)["score"]
            .agg(n="count", mean="mean", sd="std").reset_index())


def by_gender(scores: pd.DataFrame) -> pd.DataFrame:
    return _means(scores, ["metric", "system", "prompt", "gender"])


def by_category(scores: pd.DataFrame, category: str) -> pd.DataFrame:
    """Means per category × gender, plus the paper's "Mean" row (mean of the gender means)."""
    table = _means(scores, ["metric", "system", "prompt", category, "gender"])
    mean_row = (table.groupby(["metric", "system", "prompt", category], observed=True)
                .agg(n=("n", "sum"), mean=("mean", "mean")).reset_index().assign(gender="mean"))
    table = pd.concat([table, mean_row], ignore_index=True)
    return ordered(table, {"gender": [*GENDERS, "mean"]}).sort_values(
        ["metric", "system", "prompt", category, "gender"], ignore_index=True)


def anova(scores: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (metric, system, prompt), part in scores.groupby(["metric", "system", "prompt"],
                                                         observed=True, sort=True):
        counts = part["gender"].value_counts()
        rows.append({"metric": metric, "system": system, "prompt": prompt, "test": TEST_NAME,
                     **{f"n_{g}": int(counts.get(g, 0)) for g in GENDERS},
                     **one_way_anova(part, "score", "gender")})
    return pd.DataFrame(rows)


def dataset_summary(data: pd.DataFrame) -> pd.DataFrame:
    table = ordered(data, {"stereotype": STEREOTYPES, "ambiguity": AMBIGUITIES,
                           "gender": GENDERS})
    return (table.groupby(["stereotype", "ambiguity", "gender"], observed=False).size()
            .rename("rows").reset_index())


# ------------------------------------------------------------------------- Markdown layouts
def _md(frame: pd.DataFrame, floatfmt: str = ".2f", **kwargs) -> str:
    return frame.to_markdown(index=False, floatfmt=floatfmt, **kwargs)


def _gender_md(table: pd.DataFrame, main_prompt: str) -> str:
    out = [f"# Mean score by gender\n\nTable 1 layout: prompt `{main_prompt}`, rows gender, "
           "columns system · metric.\n", _md(flat_pivot(
               table[table["prompt"] == main_prompt], ["gender"], ["system", "metric"], "mean"))]
    for metric in table["metric"].cat.categories:
        part = table[table["metric"] == metric]
        if part.empty:
            continue
        out += [f"\n## {metric}: by prompt and gender\n\nTable 2 layout: rows prompt, columns "
                "system · gender.\n", _md(flat_pivot(part, ["prompt"], ["system", "gender"],
                                                      "mean"))]
    return "\n".join(out) + "\n"


def _category_md(table: pd.DataFrame, category: str, main_prompt: str) -> str:
    part = table[table["prompt"] == main_prompt]
    return (f"# Mean score by {category} and gender\n\nTables 3, 8 and 9 layout: prompt "
            f"`{main_prompt}`; \"mean\" is the mean of the three gender means.\n\n"
            + _md(flat_pivot(part, [category, "gender"], ["system", "metric"], "mean")) + "\n")


def _anova_md(table: pd.DataFrame) -> str:
    shown = table.assign(p=table["p_value"].map(lambda p: f"{p:.1e}"))
    return ("# ANOVA across genders: p-values\n\nTable 6 layout: rows prompt, columns "
            f"system · metric. Test: {TEST_NAME}.\n\n"
            + _md(flat_pivot(shown, ["prompt"], ["system", "metric"], "p"), disable_numparse=True)
            + "\n")


def build_tables(data_path: str | Path, score_files: Sequence[str | Path], outputs: dict,
                 systems: Sequence[str], prompts: Sequence[str], metrics: Sequence[str]) -> None:
    """Workflow stage: every score file → the tables; ``outputs`` maps table name → path."""
    data = pd.read_parquet(data_path)
    scores = ordered(collect_scores(score_files, data, METADATA), {
        "system": systems, "prompt": prompts, "metric": metrics, "gender": GENDERS,
        "stereotype": STEREOTYPES, "ambiguity": AMBIGUITIES})
    main_prompt = "baseline" if "baseline" in prompts else prompts[0]

    gender = by_gender(scores)
    write_table(gender, outputs["by_gender"])
    write_text(outputs["by_gender_md"], _gender_md(gender, main_prompt))
    for category in ("stereotype", "ambiguity"):
        table = by_category(scores, category)
        write_table(table, outputs[f"by_{category}"])
        write_text(outputs[f"by_{category}_md"], _category_md(table, category, main_prompt))
    tests = anova(scores)
    write_table(tests, outputs["anova"])
    write_text(outputs["anova_md"], _anova_md(ordered(tests, {"system": systems,
                                                              "prompt": prompts,
                                                              "metric": metrics})))
    summary = dataset_summary(data)
    write_table(summary, outputs["dataset"], outputs["dataset_md"], floatfmt="d")
