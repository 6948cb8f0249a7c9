"""FairTranslate's score tables: tidy tables, statistics, and the paper's layouts.

The tidy tables (by_gender, by_stereotype, by_ambiguity, anova, dataset) are written twice: a
CSV (full precision, one row per cell, every prompt and system) for further work, and a
Markdown file for reading. Scores are means of sentence-level scores on a 0–100 scale, as the
paper's tables are means of per-sentence scores in percent.

Statistics (gender_tests): per metric × system × prompt, the paper's one-way ANOVA across
genders, the paired repeated-measures ANOVA over examples (every example appears in the three
gender variants), and Tukey HSD between the genders, with eta squared / partial eta squared and
Holm-adjusted p-values; each row names the test that produced its p-value. gender_means_ci:
the gender means with seeded bootstrap 95% confidence intervals. The paper's Tables 1, 2, 3, 6,
7, 8, 9 in its layouts (CSV, Markdown, LaTeX) come from :mod:`.paper_tables`.

Every table is computed on the rows the authors' ``clean_outlier`` filter keeps when it is
enabled (:mod:`.outliers`; its counts are ``clean_outlier.csv`` and every Markdown note quotes
them). Metrics are named as they are (``metric_label``: sacreBLEU, NLTK BLEU-m4, chrF,
COMET), never a bare "BLEU"; the ``metric`` column keeps the config's names. p-values in
Markdown are in scientific notation, so that tiny ones never print as 0.000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.analysis import stats
from gendermt.analysis.anova import TEST_NAME, one_way_anova
from gendermt.analysis.tables import collect_scores, flat_pivot, ordered, score_signatures
from gendermt.benchmarks.fairtranslate import AMBIGUITIES, GENDERS, STEREOTYPES, outliers
from gendermt.benchmarks.fairtranslate.paper_tables import (
    METRIC_LABELS,
    TABLES,
    metric_label,
    write_paper_tables,
)
from gendermt.data.io import write_table, write_text
from gendermt.scoring.metric_signature import metric_signature

METADATA = ["example_id", "gender", "stereotype", "ambiguity"]
#: Bumped when the tables' computation (means of sentence scores over the kept rows) changes.
SIGNATURE_VERSION = 1


def signature(metric: str, score_signature: str, postprocess: Sequence[str] | None = None,
              clean_outlier: Mapping[str, Any] | None = None) -> str:
    """A table row's signature: the gender means of ``metric``'s sentence scores (whose own
    signature, sacrebleu's or COMET's, is ``score``, with ``/`` for its ``|``), the cleaning
    of the outputs before scoring (``postprocess``) and the authors' row filter
    (``clean_outlier``: ``no``, or its threshold and systems)."""
    settings = {**outliers.DEFAULTS, **(clean_outlier or {})}
    row_filter: Any = ({"threshold": settings["threshold"], "systems": settings["systems"]}
                       if settings["enabled"] else False)
    return metric_signature("fairtranslate-means", SIGNATURE_VERSION, {
        "metric": metric, "score": score_signature or "none",
        "postprocess": list(postprocess or []), "clean_outlier": row_filter})


def signed(table: pd.DataFrame, signatures: Mapping[tuple[str, str, str], str],
           postprocess: Sequence[str] | None, clean_outlier: Mapping[str, Any] | None
           ) -> pd.DataFrame:
    """``table`` (rows per metric × system × prompt) with each row's :func:`signature` as
    a last column (the CSVs'; the Markdown leaves it out; the run's quality goes after)."""
    if "metric" not in table.columns or table.empty:
        return table
    return table.assign(signature=[
        signature(str(m), signatures.get((str(s), str(p), str(m)), ""), postprocess,
                  clean_outlier)
        for m, s, p in zip(table["metric"], table["system"], table["prompt"], strict=True)])


def _means(scores: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    return (scores.groupby(by, observed=True)["score"]
            .agg(n="count", mean="mean", sd="std").reset_index())


def labelled(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with a last column ``metric_label``, the metric's real name (added at the
    end, so that the existing columns keep their places)."""
    if "metric" not in table.columns or table.empty:
        return table
    return table.assign(metric_label=table["metric"].astype(str).map(metric_label))


def p_text(p: float) -> str:
    """A p-value for Markdown: scientific notation (tabulate would print 1e-20 as 0.000)."""
    return "" if pd.isna(p) else f"{p:.2e}"


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


def run_quality(scores: pd.DataFrame) -> pd.DataFrame:
    """Each run's output quality: the mean of its three gender means of sentence BLEU (chrF
    where BLEU was not scored), as the scorecard's ``bleu_all``: a test between the genders
    of a run that does not translate (BLEU ~2) finds no difference because every variant is
    missed alike, so the test tables carry it beside each p-value."""
    metric = next((m for m in ("bleu", "chrf") if m in set(scores["metric"].astype(str))),
                  None)
    if metric is None:
        return pd.DataFrame(columns=["system", "prompt", "quality", "quality_metric"])
    part = scores[scores["metric"].astype(str) == metric]
    means = part.groupby(["system", "prompt", "gender"], observed=True)["score"].mean()
    out = means.groupby(["system", "prompt"], observed=True).mean().rename("quality")
    return out.reset_index().assign(quality_metric=metric)


def with_quality(table: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """``table`` (rows per system × prompt) with its run's ``quality`` and
    ``quality_metric`` as last columns."""
    if table.empty:
        return table
    quality = run_quality(scores).astype({"system": str, "prompt": str})
    keys = table[["system", "prompt"]].astype(str)
    merged = keys.merge(quality, on=["system", "prompt"], how="left")
    return table.assign(quality=merged["quality"].to_numpy(),
                        quality_metric=merged["quality_metric"].to_numpy())


def anova(scores: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table 6: one-way ANOVA across genders; ``p_holm`` over all its rows."""
    rows = []
    for (metric, system, prompt), part in scores.groupby(["metric", "system", "prompt"],
                                                         observed=True, sort=True):
        counts = part["gender"].value_counts()
        rows.append({"metric": metric, "system": system, "prompt": prompt, "test": TEST_NAME,
                     **{f"n_{g}": int(counts.get(g, 0)) for g in GENDERS},
                     **one_way_anova(part, "score", "gender")})
    table = pd.DataFrame(rows)
    return table.assign(p_holm=stats.holm(table["p_value"])) if len(table) else table


def gender_tests(scores: pd.DataFrame) -> pd.DataFrame:
    """One-way ANOVA, repeated-measures ANOVA and Tukey HSD per metric × system × prompt.

    ``p_holm``: Holm's correction within each family, a family being all rows of one test
    (one-way ANOVAs; RM-ANOVAs; Tukey comparisons, whose p-values are already adjusted for
    the three pairs of one cell) across every metric, system and prompt.
    """
    rows = []
    for (metric, system, prompt), part in scores.groupby(["metric", "system", "prompt"],
                                                         observed=True, sort=True):
        key = {"metric": metric, "system": system, "prompt": prompt}
        one = one_way_anova(part, "score", "gender")
        rows.append({**key, "test": TEST_NAME, "comparison": " vs ".join(GENDERS),
                     "statistic": "F", "value": one["F"], "df1": one["df_between"],
                     "df2": one["df_within"], "p_value": one["p_value"],
                     "eta_squared": one["eta_squared"], "n": int(part["score"].notna().sum()),
                     "note": one["note"]})
        rm = stats.repeated_measures_anova(part, "score", "gender", "example_id", GENDERS)
        rows.append({**key, "test": stats.RM_TEST, "comparison": " vs ".join(GENDERS),
                     "statistic": "F", "value": rm["F"], "df1": rm["df_between"],
                     "df2": rm["df_within"], "p_value": rm["p_value"],
                     "eta_squared": rm["eta_squared"],
                     "partial_eta_squared": rm["partial_eta_squared"], "n": rm["n_subjects"],
                     "n_dropped": rm["n_dropped"], "note": rm["note"]})
        for pair in stats.tukey_hsd(part, "score", "gender").itertuples():
            rows.append({**key, "test": stats.TUKEY_TEST,
                         "comparison": f"{pair.group2} − {pair.group1}",
                         "statistic": "mean difference", "value": pair.meandiff,
                         "ci_low": pair.lower, "ci_high": pair.upper, "p_value": pair.p_adj,
                         "n": int(part["gender"].isin([pair.group1, pair.group2]).sum()),
                         "note": ""})
    columns = ["metric", "system", "prompt", "test", "comparison", "statistic", "value",
               "ci_low", "ci_high", "df1", "df2", "p_value", "p_holm", "eta_squared",
               "partial_eta_squared", "n", "n_dropped", "note"]
    table = pd.DataFrame(rows).reindex(columns=columns).astype(
        {"df1": "Int64", "df2": "Int64", "n_dropped": "Int64"})
    for _, index in table.groupby("test").groups.items():
        table.loc[index, "p_holm"] = stats.holm(table.loc[index, "p_value"])
    return table


def gender_means_ci(scores: pd.DataFrame, bootstrap: dict | None = None) -> pd.DataFrame:
    """Gender means with percentile bootstrap confidence intervals (seeded per cell)."""
    settings = {**stats.BOOTSTRAP, **(bootstrap or {})}
    rows = []
    for cell, (key, part) in enumerate(scores.groupby(["metric", "system", "prompt", "gender"],
                                                      observed=True, sort=True)):
        values = part["score"].to_numpy(dtype=float)
        # one seed per cell, derived from the configured one: cells are independent draws
        low, high = stats.bootstrap_mean_ci(values, settings["resamples"],
                                            settings["seed"] + cell, settings["level"])
        rows.append({**dict(zip(["metric", "system", "prompt", "gender"], key, strict=True)),
                     "n": len(values), "mean": float(values.mean()), "ci_low": low,
                     "ci_high": high, "level": settings["level"],
                     "resamples": settings["resamples"], "seed": settings["seed"] + cell})
    return pd.DataFrame(rows)


def dataset_summary(data: pd.DataFrame) -> pd.DataFrame:
    table = ordered(data, {"stereotype": STEREOTYPES, "ambiguity": AMBIGUITIES,
                           "gender": GENDERS})
    return (table.groupby(["stereotype", "ambiguity", "gender"], observed=False).size()
            .rename("rows").reset_index())


# ------------------------------------------------------------------------- Markdown layouts
def _md(frame: pd.DataFrame, floatfmt: str = ".2f", **kwargs) -> str:
    return frame.to_markdown(index=False, floatfmt=floatfmt, **kwargs)


def _named(table: pd.DataFrame) -> pd.DataFrame:
    """The metric column as its label, in the table's metric order (for Markdown)."""
    order = [metric_label(m) for m in table["metric"].cat.categories] \
        if hasattr(table["metric"], "cat") else None
    out = table.assign(metric=table["metric"].astype(str).map(metric_label))
    return ordered(out, {"metric": order}) if order else out


def _gender_md(table: pd.DataFrame, main_prompt: str, rows_note: str) -> str:
    named = _named(table)
    out = [f"# Mean score by gender\n\nTable 1 layout: prompt `{main_prompt}`, rows gender, "
           f"columns system · metric. {rows_note}\n", _md(flat_pivot(
               named[named["prompt"] == main_prompt], ["gender"], ["system", "metric"],
               "mean"))]
    for metric in table["metric"].cat.categories:
        part = named[table["metric"] == metric]
        if part.empty:
            continue
        out += [f"\n## {metric_label(metric)} (`{metric}`): by prompt and gender\n\nTable 2 "
                "layout: rows prompt, columns system · gender.\n",
                _md(flat_pivot(part, ["prompt"], ["system", "gender"], "mean"))]
    return "\n".join(out) + "\n"


def _category_md(table: pd.DataFrame, category: str, main_prompt: str, rows_note: str) -> str:
    part = _named(table)
    part = part[part["prompt"] == main_prompt]
    return (f"# Mean score by {category} and gender\n\nTables 3, 8 and 9 layout: prompt "
            f"`{main_prompt}`; \"mean\" is the mean of the three gender means. {rows_note}\n\n"
            + _md(flat_pivot(part, [category, "gender"], ["system", "metric"], "mean")) + "\n")


QUALITY_NOTE = ("Beside each p-value, the run's output quality (mean sentence {metric} over "
                "all items): a run that does not translate (the scorecard's floor: sacreBLEU 10) "
                "misses every gender alike, so its test finds no difference and says "
                "nothing about bias.")


def _quality_text(p: str, quality: float) -> str:
    return p if pd.isna(quality) or not p else f"{p} ({quality:.1f})"


def _anova_md(table: pd.DataFrame, rows_note: str) -> str:
    shown = _named(table).assign(p=table["p_value"].map(p_text))
    metric = ""
    if "quality" in table.columns:
        shown["p"] = [_quality_text(p, q) for p, q in zip(shown["p"], table["quality"],
                                                          strict=True)]
        metric = str(next(iter(table["quality_metric"].dropna()), ""))
    note = f" {QUALITY_NOTE.format(metric=metric_label(metric))}" if metric else ""
    return ("# ANOVA across genders: p-values\n\nTable 6 layout: rows prompt, columns "
            f"system · metric. Test: {TEST_NAME}. {rows_note}{note}\n\n"
            + _md(flat_pivot(shown, ["prompt"], ["system", "metric"], "p"), disable_numparse=True)
            + "\n")


def _gender_tests_md(table: pd.DataFrame, rows_note: str) -> str:
    shown = table.assign(metric=table["metric"].astype(str).map(metric_label),
                         p=table["p_value"].map(p_text), p_holm=table["p_holm"].map(p_text))
    for column in ("value", "eta_squared", "partial_eta_squared"):
        shown[column] = table[column].map(lambda v: "" if pd.isna(v) else f"{v:.3f}")
    shown["n"] = table["n"].map(lambda v: "" if pd.isna(v) else f"{int(v)}")
    columns = ["metric", "system", "prompt", "test", "comparison", "value", "p", "p_holm",
               "eta_squared", "partial_eta_squared", "n"]
    if "quality" in table.columns:
        shown["quality"] = table["quality"].map(lambda v: "" if pd.isna(v) else f"{v:.1f}")
        columns.append("quality")
        metric = str(next(iter(table["quality_metric"].dropna()), ""))
        rows_note = f"{rows_note} {QUALITY_NOTE.format(metric=metric_label(metric))}"
    # numbers are formatted here: tabulate would re-parse "1.2e-20" and print 0.000
    return ("# Gender differences: tests, effect sizes, Holm-adjusted p-values\n\n"
            "Each row names the test that produced its p-value. p_holm: Holm's correction "
            f"across all rows of the same test. {rows_note}\n\n"
            + shown[columns].to_markdown(index=False, disable_numparse=True) + "\n")


def build_tables(data_path: str | Path, score_records: Sequence[Mapping[str, Any]],
                 outputs: dict, systems: Sequence[str], prompts: Sequence[str],
                 metrics: Sequence[str], bootstrap: dict | None = None,
                 clean_outlier: dict | None = None,
                 kinds: dict[str, str] | None = None,
                 postprocess: Sequence[str] | None = None) -> None:
    """Workflow stage: every score file (records, as :func:`collect_scores` takes them: the
    rule's ``runs``) → the tables; ``outputs`` maps table name → path
    (for ``paper_table{n}``, the CSV: its .md and .tex are written beside it).
    ``clean_outlier``: the authors' row filter's settings (:mod:`.outliers`; off if None).
    ``kinds``: each system's kind (model, baseline, oracle; the paper tables' means are over
    models). ``postprocess``: the outputs' cleaning before scoring; with ``clean_outlier``
    and the scores' own signatures, in each row's ``signature`` (in the CSVs)."""
    data = pd.read_parquet(data_path)
    signatures = score_signatures(score_records)

    def csv(table: pd.DataFrame) -> pd.DataFrame:
        return signed(table, signatures, postprocess, clean_outlier)

    scores = ordered(collect_scores(score_records, data, METADATA), {
        "system": systems, "prompt": prompts, "metric": metrics, "gender": GENDERS,
        "stereotype": STEREOTYPES, "ambiguity": AMBIGUITIES})
    scores, kept = outliers.apply(scores, clean_outlier)
    rows_note = outliers.note(kept)
    if "clean_outlier" in outputs:
        write_table(kept, outputs["clean_outlier"])
        write_text(outputs["clean_outlier_md"], outliers.markdown(kept))
    main_prompt = "baseline" if "baseline" in prompts else prompts[0]

    gender = by_gender(scores)
    write_table(csv(labelled(gender)), outputs["by_gender"])
    write_text(outputs["by_gender_md"], _gender_md(gender, main_prompt, rows_note))
    for category in ("stereotype", "ambiguity"):
        table = by_category(scores, category)
        write_table(csv(labelled(table)), outputs[f"by_{category}"])
        write_text(outputs[f"by_{category}_md"],
                   _category_md(table, category, main_prompt, rows_note))
    # each run's output quality beside its tests, after the existing columns
    plain = anova(scores)
    tests = with_quality(plain, scores)
    write_table(with_quality(csv(labelled(plain)), scores), outputs["anova"])
    write_text(outputs["anova_md"], _anova_md(ordered(tests, {"system": systems,
                                                              "prompt": prompts,
                                                              "metric": metrics}), rows_note))
    summary = dataset_summary(data)
    write_table(summary, outputs["dataset"], outputs["dataset_md"], floatfmt="d")

    if "gender_tests" in outputs:
        plain = gender_tests(scores)
        table = with_quality(plain, scores)
        write_table(with_quality(csv(labelled(plain)), scores), outputs["gender_tests"])
        write_text(outputs["gender_tests_md"], _gender_tests_md(table, rows_note))
    if "gender_means_ci" in outputs:
        table = labelled(gender_means_ci(scores, bootstrap))
        write_table(csv(table), outputs["gender_means_ci"])
        write_text(outputs["gender_means_ci_md"],
                   f"# Gender means with bootstrap confidence intervals\n\n{rows_note}\n\n"
                   + table.to_markdown(index=False, floatfmt=".2f") + "\n")
    paper = {f"paper_table{n}": {ext: Path(outputs[f"paper_table{n}"]).with_suffix(f".{ext}")
                                 for ext in ("csv", "md", "tex")}
             for n in TABLES if f"paper_table{n}" in outputs}
    if paper:
        write_paper_tables(scores, tests, paper, systems, prompts, metrics, rows_note, kinds)


__all__ = ["METRIC_LABELS", "build_tables"]
