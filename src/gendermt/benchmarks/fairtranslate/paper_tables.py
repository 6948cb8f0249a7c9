"""FairTranslate's Tables 1, 2, 3, 6, 7, 8 and 9 in the paper's layouts (CSV, Markdown, LaTeX).

Rows and columns in the paper's order: genders Female, Male, Inclusive (and the "Mean" of the
three gender means in Tables 3, 8, 9); prompts Baseline, Moral, Linguistic, Moral & Ling.;
stereotypes female-, male-stereotyped, gender-balanced; ambiguity ambiguous, long unambiguous,
unambiguous (the paper's order, not the dataset card's); systems in config order, then "Mean"
(the mean over systems) where the paper has it. Means of sentence scores, in percent with two
decimals; p-values with two significant digits.

The paper's two metrics are "BLEU" (NLTK sentence BLEU, method 4: ``bleu_nltk_m4`` here,
labelled NLTK BLEU-m4; sacreBLEU ``bleu`` when that is not computed, labelled sacreBLEU) and
COMET (or, without COMET, the next configured metric, chrF in the default). Each table's
note says which metric and prompt it shows and which rows it is computed on. Table 3 shows
the first system of the config (the paper's Gemma2-2B).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from gendermt.analysis.layout import columns, p_value, percent, write_layout
from gendermt.benchmarks.fairtranslate import GENDERS, STEREOTYPES

PAPER_AMBIGUITIES = ("ambiguous", "long unambiguous", "unambiguous")  # the paper's row order
# Each metric under its real name: the paper's "BLEU" is NLTK's sentence BLEU (method 4),
# which is not sacreBLEU's.
METRIC_LABELS = {"bleu": "sacreBLEU", "bleu_nltk_m4": "NLTK BLEU-m4", "chrf": "chrF",
                 "ter": "TER", "comet": "COMET", "bertscore": "BERTScore"}
METRIC_NAMES = METRIC_LABELS  # the former name, kept for importers
CATEGORY_NAMES = {"female-stereotyped": "Female-stereotyped",
                  "male-stereotyped": "Male-stereotyped", "gender-balanced": "Gender-balanced",
                  "ambiguous": "Ambiguous", "long unambiguous": "Long Unambiguous",
                  "unambiguous": "Unambiguous"}
PROMPT_NAMES = {"baseline": "Baseline", "moral": "Moral", "linguistic": "Linguistic",
                "moral_linguistic": "Moral & Ling."}
TABLES = ("1", "2", "3", "6", "7", "8", "9")


def _name(value: str, names: dict[str, str] | None = None) -> str:
    return (names or {}).get(value, value[:1].upper() + value[1:])


def metric_label(metric: str) -> str:
    """The metric's real name (``bleu`` → sacreBLEU, ``bleu_nltk_m4`` → NLTK BLEU-m4)."""
    return METRIC_LABELS.get(metric, metric)


def _metric_name(metric: str, metrics: Sequence[str] = ()) -> str:
    return metric_label(metric)


def paper_metrics(metrics: Sequence[str]) -> list[str]:
    """The paper's BLEU and COMET, or the closest configured metrics."""
    bleu = next((m for m in ("bleu_nltk_m4", "bleu") if m in metrics), metrics[0])
    second = "comet" if "comet" in metrics else next((m for m in metrics if m != bleu), None)
    return [bleu] if second is None else [bleu, second]


def _means(scores: pd.DataFrame, by: list[str]) -> pd.Series:
    return scores.groupby(by, observed=True)["score"].mean()


def table1(scores, systems, metrics, prompt, mean_systems=None) -> pd.DataFrame:
    """Rows gender, columns system × metric, then "Mean" over ``mean_systems`` (default:
    all systems; the workflow passes those of kind ``model``)."""
    mean_systems = systems if mean_systems is None else mean_systems
    means = _means(scores, ["prompt", "gender", "system", "metric"])
    rows = []
    for gender in GENDERS:
        row = {("Gender", ""): _name(gender)}
        for metric in metrics:
            for system in systems:
                row[(system, metric)] = means.get((prompt, gender, system, metric))
        for metric in metrics:
            cells = [row[(s, metric)] for s in mean_systems
                     if pd.notna(row.get((s, metric)))]
            row[("Mean", metric)] = sum(cells) / len(cells) if cells else None
        rows.append(row)
    order = [("Gender", ""), *columns([*systems, "Mean"], metrics)]
    return _rename_metrics(pd.DataFrame(rows)[order], metrics)


def table_by_prompt(scores, systems, metric, prompts) -> pd.DataFrame:
    """Tables 2 and 7: rows prompt, columns system × gender, one metric."""
    means = _means(scores, ["prompt", "system", "gender", "metric"])
    rows = [{("Prompting", ""): _name(p, PROMPT_NAMES),
             **{(s, _name(g)): means.get((p, s, g, metric)) for s in systems for g in GENDERS}}
            for p in prompts]
    return pd.DataFrame(rows)[[("Prompting", ""), *columns(systems, [_name(g) for g in GENDERS])]]


def _category_rows(scores, category, levels, systems, metrics, prompt, with_mean=True,
                   mean_systems=None):
    """Rows (category, gender incl. Mean) → {(system, metric): mean}; the "Mean" column
    over ``mean_systems`` (default: all)."""
    mean_systems = systems if mean_systems is None else mean_systems
    means = _means(scores[scores["prompt"] == prompt], [category, "gender", "system", "metric"])
    rows = []
    for level in levels:
        gender_rows = []
        for gender in GENDERS:
            row = {(category.capitalize(), ""): _name(level, CATEGORY_NAMES),
                   ("Gender", ""): _name(gender)}
            for system in systems:
                for metric in metrics:
                    row[(system, metric)] = means.get((level, gender, system, metric))
            gender_rows.append(row)
        mean_row = {(category.capitalize(), ""): _name(level, CATEGORY_NAMES),
                    ("Gender", ""): "Mean"}
        for system in systems:
            for metric in metrics:
                cells = [r[(system, metric)] for r in gender_rows]
                mean_row[(system, metric)] = (sum(cells) / len(cells)
                                              if all(pd.notna(c) for c in cells) else None)
        rows += [*gender_rows, mean_row]
    for row in rows:
        if with_mean:
            for metric in metrics:
                cells = [row[(s, metric)] for s in mean_systems
                         if pd.notna(row.get((s, metric)))]
                row[("Mean", metric)] = sum(cells) / len(cells) if cells else None
    return rows


def table3(scores, system, metrics, prompt) -> pd.DataFrame:
    rows = []
    for category, levels in (("stereotype", STEREOTYPES), ("ambiguity", PAPER_AMBIGUITIES)):
        for row in _category_rows(scores, category, levels, [system], metrics, prompt, False):
            rows.append({("Variable", ""): category.capitalize(),
                         ("Category", ""): row[(category.capitalize(), "")],
                         ("Gender", ""): row[("Gender", "")],
                         **{k: v for k, v in row.items() if k[1]}})
    order = [("Variable", ""), ("Category", ""), ("Gender", ""), *columns([system], metrics)]
    return _rename_metrics(pd.DataFrame(rows)[order], metrics)


def table_by_category(scores, category, levels, systems, metrics, prompt,
                      mean_systems=None) -> pd.DataFrame:
    """Tables 8 and 9: rows category × gender (+ Mean), columns system × metric + Mean."""
    rows = _category_rows(scores, category, levels, systems, metrics, prompt,
                          mean_systems=mean_systems)
    order = [(category.capitalize(), ""), ("Gender", ""),
             *columns([*systems, "Mean"], metrics)]
    return _rename_metrics(pd.DataFrame(rows)[order], metrics)


def table6(anova: pd.DataFrame, systems, metrics, prompts) -> pd.DataFrame:
    p = anova.set_index(["prompt", "system", "metric"])["p_value"]
    rows = [{("Prompting", ""): _name(pr, PROMPT_NAMES),
             **{(s, m): p.get((pr, s, m)) for s in systems for m in metrics}} for pr in prompts]
    return _rename_metrics(pd.DataFrame(rows)[[("Prompting", ""),
                                               *columns(systems, metrics)]], metrics)


def _rename_metrics(frame: pd.DataFrame, metrics: Sequence[str]) -> pd.DataFrame:
    frame.columns = [(g, _metric_name(s, metrics)) if s in metrics else (g, s)
                     for g, s in frame.columns]
    return frame


def write_paper_tables(scores: pd.DataFrame, anova: pd.DataFrame, outputs: dict,
                       systems: Sequence[str], prompts: Sequence[str],
                       metrics: Sequence[str], rows_note: str = "",
                       kinds: dict[str, str] | None = None) -> None:
    """``outputs`` maps ``paper_table{n}`` to ``{"csv", "md", "tex"}`` paths; ``rows_note``
    (the rows the scores are computed on) ends every table's note. ``kinds`` (system →
    model/baseline/oracle): the "Mean" column averages the models only, as the paper's does
    (it has no oracles); without it, every system."""
    shown = paper_metrics(metrics)
    prompt = "baseline" if "baseline" in prompts else prompts[0]
    names = " and ".join(f"{_metric_name(m, shown)} (`{m}`)" for m in shown)
    kinds = kinds or {}
    models = [s for s in systems if kinds.get(s, "model") == "model"]
    # a model that did not run the prompt (the base LLM on its few-shot prompt) has no cells
    # to average: the note names it rather than listing it among the averaged
    ran = set(scores.loc[scores["prompt"] == prompt, "system"])
    mean_systems = [s for s in models if s in ran]
    absent = [s for s in models if s not in ran]
    left_out = [s for s in systems if s not in models]
    over = (f"of the systems of kind model ({', '.join(mean_systems) or 'none: empty'}; "
            f"baselines and oracles left out: {', '.join(left_out)})" if left_out
            else "of the systems")
    if absent:
        over += f"; not run on `{prompt}`, so not in the Mean: {', '.join(absent)}"
    common = (f"Means of sentence scores in percent; prompt `{prompt}`; metrics {names}. "
              f"Mean: the mean of the three gender means (rows) or {over} (column).")
    tail = f" {rows_note}" if rows_note else ""
    first = systems[0]
    layouts = {
        "1": (table1(scores, systems, shown, prompt, mean_systems), 1,
              "Table 1: scores by gender and system", common),
        "2": (table_by_prompt(scores, systems, shown[0], prompts), 1,
              f"Table 2: {_metric_name(shown[0], shown)} by prompting and gender",
              f"Means of sentence {_metric_name(shown[0])} (`{shown[0]}`) in percent."),
        "3": (table3(scores, first, shown, prompt), 3,
              f"Table 3: {first} by stereotype / ambiguity and gender", common),
        "6": (table6(anova, systems, shown, prompts), 1,
              "Table 6: one-way ANOVA p-values across genders",
              "F test that the gender means are equal, per system, prompt and metric "
              "(statsmodels OLS + anova_lm); uncorrected, as in the paper; see gender_tests "
              "for the paired test and Holm-adjusted p-values."),
        "7": (table_by_prompt(scores, systems, shown[-1], prompts), 1,
              f"Table 7: {_metric_name(shown[-1], shown)} by prompting and gender",
              f"Means of sentence {_metric_name(shown[-1])} (`{shown[-1]}`) in percent."),
        "8": (table_by_category(scores, "stereotype", STEREOTYPES, systems, shown, prompt,
                                mean_systems), 2,
              "Table 8: scores by stereotype and gender", common),
        "9": (table_by_category(scores, "ambiguity", PAPER_AMBIGUITIES, systems, shown,
                                prompt, mean_systems), 2,
              "Table 9: scores by ambiguity and gender", common),
    }
    for number, (frame, labels, title, note) in layouts.items():
        write_layout(frame, labels, outputs[f"paper_table{number}"], title, note + tail,
                     fmt=p_value if number == "6" else percent)
