"""FairTranslate's inclusive-language figures, drawn from the tables of :mod:`.inclusive_tables`.

* ``occupation_forms``: the paper's occupation figure (§7, appendix E): for each system, a
  bar per prompt × gold gender, stacked by the form the output used (masculine blue,
  feminine pink, inclusive green), in percent of the kept rows (n above each bar).
* ``they_by_prompt``: Fig. 7: for each system, a bar per prompt stacked by the French pronoun
  that renders singular "they" (plural ils/elles/iels in reds, gendered il/elle in blues,
  iel and no pronoun, the two inclusive renderings, in greens; empty or untranslated
  outputs in grey, never in a colour of a correct rendering).
* ``they_by_ambiguity``: Figs. 11–14 in one figure: the same, with a bar per prompt ×
  ambiguity (unambiguous, long unambiguous).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from gendermt.benchmarks.fairtranslate import FORM_COLOURS, GENDERS
from gendermt.benchmarks.fairtranslate.occupations import FORMS
from gendermt.benchmarks.fairtranslate.pronouns import ECHO, NO_PRONOUN, PRONOUNS, UNTRANSLATED
from gendermt.report.plots import save

PRONOUN_COLOURS = {"ils": "#b2182b", "elles": "#d6604d", "iels": "#f4a582", "il": "#2166ac",
                   "elle": "#67a9cf", "iel": "#1a9850", NO_PRONOUN: "#a6d96a",
                   UNTRANSLATED: "#bdbdbd", ECHO: "#737373"}
PRONOUN_LABELS = {**{p: p for p in PRONOUNS}, NO_PRONOUN: "no pronoun",
                  UNTRANSLATED: "untranslated / empty", ECHO: "instruction echoed"}
THEY_AMBIGUITIES = ("unambiguous", "long unambiguous")
_SHORT = {"unambiguous": "unamb.", "long unambiguous": "long"}


def _panels(n: int, width: float):
    fig, axes = plt.subplots(n, 1, figsize=(width, 2.6 * n + 0.6), squeeze=False,
                             sharey=True)
    return fig, axes[:, 0]


def _stack(ax, x: np.ndarray, shares: pd.DataFrame, colours: dict, labels: dict, ylabel: str,
           counts: Sequence[int]) -> None:
    bottom = np.zeros(len(x))
    for key, colour in colours.items():
        values = 100 * shares[key].fillna(0).to_numpy()
        ax.bar(x, values, bottom=bottom, color=colour, width=0.8, label=labels[key],
               edgecolor="white", linewidth=0.5)
        bottom += values
    for xi, n in zip(x, counts, strict=True):
        ax.text(xi, 102, f"n={n}", ha="center", va="bottom", fontsize=6)
    ax.set_ylim(0, 115)
    ax.set_ylabel(ylabel)


def occupation_figure(table: pd.DataFrame, systems: Sequence[str], prompts: Sequence[str]):
    fig, axes = _panels(len(systems), max(6.0, 1.4 * len(prompts) * len(GENDERS) / 2))
    for ax, system in zip(axes, systems, strict=True):
        part = table[table["system"] == system].set_index(["prompt", "gender"])
        index = pd.MultiIndex.from_product([prompts, GENDERS])
        part = part.reindex(index)
        x = np.arange(len(index)) + np.repeat(np.arange(len(prompts)), len(GENDERS)) * 0.6
        shares = pd.DataFrame({f: part[f"share_{f}"].to_numpy() for f in FORMS})
        _stack(ax, x, shares, FORM_COLOURS, {f: f for f in FORMS}, "% of kept rows",
               part["kept"].fillna(0).astype(int).tolist())
        ax.set_xticks(x, [g[0].upper() for _, g in index], fontsize=7)
        for i, prompt in enumerate(prompts):
            ax.text(x[i * len(GENDERS) + 1], -22, prompt, ha="center", va="top", fontsize=8)
        ax.set_title(f"{system}: occupation form used, by gold gender (F / M / I)",
                     fontsize=9)
    axes[0].legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    fig.suptitle("FairTranslate: occupation forms in the outputs (rows with an occupation "
                 "form)", fontsize=10)
    fig.tight_layout()
    return fig


def _they_shares(part: pd.DataFrame, keys: list, key_columns: list[str]
                 ) -> tuple[pd.DataFrame, list[int]]:
    wide = part.pivot_table(index=key_columns, columns="pronoun", values="share",
                            aggfunc="first", observed=True)
    n = part.pivot_table(index=key_columns, values="they_rows", aggfunc="first",
                         observed=True)["they_rows"]
    index = pd.MultiIndex.from_tuples(keys) if len(key_columns) > 1 else pd.Index(keys)
    wide = wide.reindex(index=index, columns=list(PRONOUN_COLOURS))
    return wide.reset_index(drop=True), n.reindex(index).fillna(0).astype(int).tolist()


def they_by_prompt_figure(table: pd.DataFrame, systems: Sequence[str],
                          prompts: Sequence[str]):
    fig, axes = _panels(len(systems), max(5.0, 1.1 * len(prompts) + 2))
    overall = table[table["ambiguity"] == "all"]
    for ax, system in zip(axes, systems, strict=True):
        part = overall[overall["system"] == system]
        shares, counts = _they_shares(part, list(prompts), ["prompt"])
        x = np.arange(len(prompts))
        _stack(ax, x, shares, PRONOUN_COLOURS, PRONOUN_LABELS, "% of \"they\" rows", counts)
        ax.set_xticks(x, list(prompts), fontsize=8)
        ax.set_title(f"{system}: French rendering of singular \"they\"", fontsize=9)
    axes[0].legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    fig.suptitle("FairTranslate: singular \"they\" by prompt (Fig. 7)", fontsize=10)
    fig.tight_layout()
    return fig


def they_by_ambiguity_figure(table: pd.DataFrame, systems: Sequence[str],
                             prompts: Sequence[str]):
    fig, axes = _panels(len(systems), max(6.0, 1.2 * len(prompts) * 2 / 1.5 + 2))
    keys = [(p, a) for p in prompts for a in THEY_AMBIGUITIES]
    x = np.arange(len(keys)) + np.repeat(np.arange(len(prompts)), 2) * 0.5
    for ax, system in zip(axes, systems, strict=True):
        part = table[(table["system"] == system) & (table["ambiguity"] != "all")]
        shares, counts = _they_shares(part, keys, ["prompt", "ambiguity"])
        _stack(ax, x, shares, PRONOUN_COLOURS, PRONOUN_LABELS, "% of \"they\" rows", counts)
        ax.set_xticks(x, [_SHORT[a] for _, a in keys], fontsize=7)
        for i, prompt in enumerate(prompts):
            ax.text((x[2 * i] + x[2 * i + 1]) / 2, -22, prompt, ha="center", va="top",
                    fontsize=8)
        ax.set_title(f"{system}: singular \"they\" by ambiguity", fontsize=9)
    axes[0].legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    fig.suptitle("FairTranslate: singular \"they\" by prompt and ambiguity (Figs. 11–14)",
                 fontsize=10)
    fig.tight_layout()
    return fig


def build_inclusive_figures(occupation_csv: str | Path, they_csv: str | Path, outputs: dict,
                            systems: Sequence[str], prompts: Sequence[str]) -> None:
    """Workflow stage: the inclusive tables → figures; ``outputs`` maps
    ``<figure>_png``/``<figure>_pdf`` → path."""
    occupation = pd.read_csv(occupation_csv)
    they = pd.read_csv(they_csv)
    figures = (("occupation_forms", occupation_figure, occupation),
               ("they_by_prompt", they_by_prompt_figure, they),
               ("they_by_ambiguity", they_by_ambiguity_figure, they))
    for name, draw, table in figures:
        save(draw(table, systems, prompts), outputs[f"{name}_png"], outputs[f"{name}_pdf"])
