"""GATE X-E's corpus as published: Table 4 (instances per label and language), Figure 3
(sentence lengths in the source language and in English) and the warning table of instances
whose f and m columns are swapped or mixed (``swapped.py``).

Everything is read from the published files (``data.load_instances``), before the tuples are
made: the counts are the corpus's, not the test's.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from gendermt.benchmarks.gate_x_e import swapped
from gendermt.benchmarks.gate_x_e.data import load_files
from gendermt.data.io import write_table, write_text

log = logging.getLogger(__name__)

# The paper's Table 4, rows in its order; columns tr, fa, fi, hu as printed.
PAPER_LABELS = ["target_only_gendered_noun", "target_only_gendered_pronoun",
                "target_only_gendered_noun+pronoun", "source+target_gendered_noun",
                "source+target_gendered_noun+pronoun", "source_gendered_noun_target_pronoun",
                "0 AGMEs", "1 AGME", "2 AGMEs", "3 AGMEs", "Mixed", "name", "non-AGME-name"]
PAPER_TABLE4 = {
    "total instance count": (1429, 1259, 1832, 1308),
    "target_only_gendered_noun": (142, 118, 159, 95),
    "target_only_gendered_pronoun": (1074, 906, 1096, 914),
    "target_only_gendered_noun+pronoun": (114, 49, 105, 115),
    "source+target_gendered_noun": (239, 244, 379, 75),
    "source+target_gendered_noun+pronoun": (328, 292, 361, 422),
    # printed "source_gendered_pronoun_target_noun"; the files' label is this one (hu: 33)
    "source_gendered_noun_target_pronoun": (3, 0, 0, 33),
    "0 AGMEs": (300, 264, 502, 264),
    "1 AGME": (900, 869, 1164, 848),
    "2 AGMEs": (225, 124, 161, 192),
    "3 AGMEs": (4, 2, 5, 4),
    "Mixed": (271, 263, 237, 262),
    "name": (328, 175, 408, 159),
    "non-AGME-name": (32, 5, 136, 16),
}
PAPER_COLUMNS = ("tr", "fa", "fi", "hu")
LANGUAGE_LABELS = {"tr": "tr > en", "hu": "hu > en", "fi": "fi > en", "fa": "fa > en"}


def label_counts(instances: pd.DataFrame, paper: bool = True) -> pd.DataFrame:
    """Table 4: instances per label (rows) and language (columns), the paper's labels first
    in its order, then the other labels the files hold (group codes such as ``Positive 1``);
    with ``paper``, a ``<lang> (paper)`` column beside each language where the paper has one
    (empty where it printed no such row). Counts are of instances carrying the label as
    published (normalised spelling), not of the instances the loader reclassifies."""
    languages = list(dict.fromkeys(instances["language"]))
    labels = instances.assign(label=instances["labels"].str.split(";")).explode("label")
    labels = labels[labels["label"].fillna("") != ""]
    counts = labels.groupby(["label", "language"]).size().unstack(fill_value=0)
    extra = sorted(set(counts.index) - set(PAPER_LABELS))
    rows = []
    for label in ["total instance count", *PAPER_LABELS, *extra]:
        row: dict[str, object] = {"label": label}
        for lang in languages:
            if label == "total instance count":
                row[lang] = int((instances["language"] == lang).sum())
            else:
                row[lang] = int(counts.at[label, lang]) if (
                    label in counts.index and lang in counts.columns) else 0
            if paper and lang in PAPER_COLUMNS:
                published = PAPER_TABLE4.get(label)
                row[f"{lang} (paper)"] = (published[PAPER_COLUMNS.index(lang)]
                                          if published else None)
        rows.append(row)
    frame = pd.DataFrame(rows)
    for column in frame.columns[1:]:
        frame[column] = frame[column].astype("Int64")
    return frame


def lengths(instances: pd.DataFrame) -> pd.DataFrame:
    """Figure 3's data: per instance, the source sentence's length and its English
    translation's (the neutral one, else the feminine, else the masculine), in
    whitespace-separated words."""
    english = instances["neutral"].where(instances["neutral"] != "", instances["female"])
    english = english.where(english != "", instances["male"])
    return pd.DataFrame({
        "instance_id": instances["instance_id"], "language": instances["language"],
        "source_words": instances["source"].str.split().str.len(),
        "target_words": english.str.split().str.len(),
    })


def length_figure(frame: pd.DataFrame):
    """Figure 3: boxplots of sentence lengths, source (left) and English (right), one box per
    language pair, with n per pair in the legend."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    languages = list(dict.fromkeys(frame["language"]))
    sizes = frame["language"].value_counts()
    names = {lang: f"{LANGUAGE_LABELS.get(lang, lang + ' > en')} (n={int(sizes[lang])})"
             for lang in languages}
    data = frame.assign(pair=frame["language"].map(names))
    palette = dict(zip(names.values(), sns.color_palette("Set2", len(names)), strict=True))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True, layout="constrained")
    for ax, column, title in ((axes[0], "source_words", "source language"),
                              (axes[1], "target_words", "target (English)")):
        sns.boxplot(data=data, x="pair", y=column, hue="pair", order=list(names.values()),
                    hue_order=list(names.values()), palette=palette, ax=ax, legend=ax is axes[1],
                    fliersize=2)
        ax.set_xlabel("")
        ax.set_ylabel("sentence length (words)")
        ax.set_xticks(range(len(names)), [LANGUAGE_LABELS.get(lang, lang) for lang in languages])
        ax.set_title(title, fontsize=10)
    legend = axes[1].get_legend()
    if legend is not None:
        legend.set_title(None)
    fig.suptitle("GATE X-E: sentence lengths (Figure 3)")
    return fig


def _markdown(frame: pd.DataFrame, title: str, note: str = "") -> str:
    shown = frame.astype(object).where(frame.notna(), "-")
    body = shown.to_markdown(index=False) if not frame.empty else "(none)"
    return f"# {title}\n\n" + (f"{note}\n\n" if note else "") + body + "\n"


def build_corpus(paths: Sequence[str | Path], outputs: Mapping[str, str],
                 exclude_swapped: bool = False) -> None:
    """Workflow stage: the published files → ``tables/corpus`` (Table 4), ``tables/swapped``
    (instances whose f and m columns are swapped or mixed, and whether the config excludes
    them) and ``figures/lengths`` (Figure 3)."""
    from gendermt.report.plots import save

    instances = load_files(paths)
    table4 = label_counts(instances)
    write_table(table4, outputs["corpus"])
    write_text(outputs["corpus_md"], _markdown(
        table4, "GATE X-E statistics (Table 4)",
        "Instances per language carrying each label as published (spelling normalised); "
        "'(paper)': the paper's Table 4; '-': the paper has no such row. The paper prints "
        "source_gendered_noun_target_pronoun as source_gendered_pronoun_target_noun. Labels "
        "after non-AGME-name are in the files but not in the paper's table."))
    flagged = swapped.flag(instances).assign(excluded=exclude_swapped)
    write_table(flagged, outputs["swapped"])
    write_text(outputs["swapped_md"], _markdown(
        flagged.drop(columns=["language", "row"]),
        "GATE X-E instances whose female and male translations are swapped or mixed",
        f"{len(flagged)} instance(s). reversed: differing words whose female-column form is "
        "masculine and male-column form feminine (f/m); right: the other way. "
        + ("The config excludes them (exclude_swapped: true): they make no test tuple."
           if exclude_swapped else "Kept, as published (exclude_swapped: false): their "
           "tuples ask for the wrong gender.")))
    if len(flagged):
        log.warning("GATE X-E: %d instance(s) with swapped or mixed f/m columns: %s",
                    len(flagged), ", ".join(flagged["instance_id"]))
    save(length_figure(lengths(instances)), outputs["lengths_png"], outputs["lengths_pdf"])
