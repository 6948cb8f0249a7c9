"""GAMBIT's figures, drawn from the tables ``tables.py`` wrote (nothing is recomputed, so a
figure always shows its table's numbers).

- ``intra_model_{lang}``: Figures 2-3 of the paper, the model × model Pearson correlation of
  per-occupation p_f within one language (annotated heatmap; n/a where undefined).
- ``grape_overview``: what a reader looks at first: (a) overall GRAPE_m per model and language
  against parity (bars) and the real reference (diamonds), (b) the distribution of p_f over
  4-digit occupations per model and language (the extreme/balanced bands of Table 8 shaded),
  (c) GRAPE_m^parity by stereotype group (Table 3).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from gendermt.benchmarks.gambit.analyses import intra_model_matrix
from gendermt.report.plots import save
from gendermt.translation.prompts import LANGUAGE_NAMES

# The tables the figures are drawn from (``tables/<name>.csv``).
TABLES = ("grape", "grape_groups", "stereotype_groups", "intra_model_pairs")

log = logging.getLogger(__name__)


def intra_model_heatmap(pairs: pd.DataFrame, lang: str):
    """Figure 2 (fr) / 3 (el): the annotated model × model r matrix of one language."""
    matrix = intra_model_matrix(pairs, lang)
    n = len(matrix)
    fig, ax = plt.subplots(figsize=(1.6 + 0.9 * max(n, 1), 1.2 + 0.8 * max(n, 1)),
                           layout="constrained")
    if n == 0:
        ax.text(0.5, 0.5, "no run", ha="center", va="center")
        ax.set_axis_off()
        return fig
    values = matrix.to_numpy(dtype=float)
    sns.heatmap(matrix.astype(float), ax=ax, vmin=-1, vmax=1, center=0, cmap="RdBu_r",
                annot=True, fmt=".2f", square=True, linewidths=0.5,
                cbar_kws={"label": "Pearson r", "shrink": 0.8})
    for (i, j), value in np.ndenumerate(values):
        if np.isnan(value):  # seaborn leaves undefined cells blank: say so
            ax.text(j + 0.5, i + 0.5, "n/a", ha="center", va="center", fontsize=8,
                    color="grey")
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.set_title(f"Intra-model correlation of per-occupation p_f, "
                 f"{LANGUAGE_NAMES.get(lang, lang)}", fontsize=9)
    return fig


def overview(overall: pd.DataFrame, groups: pd.DataFrame, stereotype: pd.DataFrame,
             examples: Sequence[str] = ()):
    """The three-panel overview (see the module docstring). ``examples``: the reference
    files that are project-written examples (:func:`example_references`); the figure then
    says so on itself, above the panels that use them."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), layout="constrained")
    level = 4 if (overall["level"] == 4).any() else overall["level"].min()
    models = list(dict.fromkeys(overall["model"]))
    langs = list(dict.fromkeys(overall["lang"]))
    names = [LANGUAGE_NAMES.get(lang, lang) for lang in langs]
    palette = dict(zip(langs, sns.color_palette("Set2", len(langs)), strict=True))
    _grape_panel(axes[0], overall, level, models, langs, names, palette)
    _shares_panel(axes[1], groups, models, names, palette)
    _stereotype_panel(axes[2], stereotype, models, langs)
    title = "GAMBIT: gender assigned to ambiguous occupations (GRAPE)"
    if examples:
        title += ("\nEXAMPLE REFERENCE DATA (project-written, invented numbers): "
                  + ", ".join(examples) + "\nthe real-reference points in (a)"
                  + (" and panel (c)" if any("stereotype" in e for e in examples) else "")
                  + " illustrate the method; they are not findings")
        for ax in axes:
            ax.set_facecolor("#fff4e0")
    fig.suptitle(title, fontsize=10 if examples else None,
                 color="darkred" if examples else "black")
    return fig


def _grape_panel(ax, overall: pd.DataFrame, level: int, models: list[str], langs: list[str],
                 names: list[str], palette: dict) -> None:
    """(a): GRAPE_m at ``level`` per model, a bar per language against parity and a point
    against the real (labour) reference where there is one."""
    width = 0.8 / max(len(langs), 1)
    has_real = False
    part = overall[overall["level"] == level]
    for k, lang in enumerate(langs):
        x = np.arange(len(models)) - 0.4 + width * (k + 0.5)
        for ref, kind in (("parity", "bar"), ("real", "point")):
            rows = part[(part["lang"] == lang) & (part["reference"] == ref)].set_index("model")
            y = rows["grape_m"].reindex(models).to_numpy(dtype=float)
            if kind == "bar":
                ax.bar(x, np.nan_to_num(y), width, color=palette[lang],
                       label=f"{names[k]}: GRAPE_m vs parity")
                for xi in x[np.isnan(y)]:  # undefined (see grape.csv's note), not zero
                    ax.text(xi, 0, "n/a", ha="center", va="bottom", fontsize=7, color="grey")
            else:
                if np.isfinite(y).any():
                    ax.scatter(x, y, marker="D", color="black", s=18, zorder=3,
                               label="GRAPE_m vs real (labour) reference"
                               if not has_real else None)
                    has_real = True
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(models)), models, rotation=30, ha="right")
    ax.set_ylabel("GRAPE_m (overall)")
    low, high = ax.get_ylim()  # bars stick to 0: pad by hand so that "n/a" stays inside
    span = (high - low) or 1.0
    ax.set_ylim(low - 0.05 * span, high + 0.1 * span)
    ax.set_title(f"(a) GRAPE_m, ISCO level {level}", fontsize=9)
    ax.legend(fontsize=7)


def _shares_panel(ax, groups: pd.DataFrame, models: list[str], names: list[str],
                  palette: dict) -> None:
    """(b): each 4-digit occupation's share of feminine forms, per model and language."""
    shares = groups[(groups["level"] == 4) & (groups["reference"] == "parity")
                    ].dropna(subset=["p_feminine"])
    ax.axhspan(0, 0.2, color="tab:blue", alpha=0.08)
    ax.axhspan(0.8, 1, color="tab:red", alpha=0.08)
    ax.axhspan(0.3, 0.7, color="grey", alpha=0.08)
    if shares.empty:
        ax.text(0.5, 0.5, "no gendered assignment", ha="center", transform=ax.transAxes)
    else:
        shares = shares.assign(language=shares["lang"].map(lambda c: LANGUAGE_NAMES.get(c, c)))
        # seaborn jitters with numpy's global generator: seeded, so the figure is reproducible
        state = np.random.get_state()
        np.random.seed(0)
        try:
            sns.stripplot(data=shares, x="model", y="p_feminine", hue="language", order=models,
                          hue_order=names, palette=dict(zip(names, palette.values(), strict=True)),
                          dodge=True, size=3, alpha=0.6, ax=ax, jitter=0.25)
        finally:
            np.random.set_state(state)
        ax.legend(fontsize=7, title=None)
    ax.axhline(0.5, color="black", linestyle=":", linewidth=0.8)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xticks(range(len(models)), models, rotation=30, ha="right")
    ax.set_xlabel("")
    ax.set_ylabel("p_f per 4-digit occupation")
    ax.set_title("(b) per-occupation share of feminine forms\n"
                 "(bands: extreme < 0.2, > 0.8; balanced 0.3–0.7)", fontsize=9)


def _stereotype_panel(ax, stereotype: pd.DataFrame, models: list[str],
                      langs: list[str]) -> None:
    """(c): GRAPE_m^parity by stereotype group, a slot per model × language."""
    names_g = list(dict.fromkeys(stereotype["group"])) if not stereotype.empty else []
    colors = dict(zip(models, sns.color_palette("tab10", len(models)), strict=True))
    markers = dict(zip(langs, "osD^v<>", strict=False))
    series = [(m, lang) for m in models for lang in langs]
    # each model × language gets its own slot within a group (dodged), so equal values do
    # not hide one another (GRAPE^parity is often exactly 1 for several systems)
    step = 0.8 / max(len(series), 1)
    drawn = False
    for n, (model, lang) in enumerate(series):
        rows = stereotype[(stereotype["model"] == model) & (stereotype["lang"] == lang)]
        y = rows.set_index("group")["grape_m"].reindex(names_g).to_numpy(dtype=float)
        if np.isnan(y).all():
            continue
        drawn = True
        x = np.arange(len(names_g)) - 0.4 + step * (n + 0.5)
        ax.plot(x, y, marker=markers[lang], color=colors[model], linestyle="none",
                markersize=4, label=f"{model}, {LANGUAGE_NAMES.get(lang, lang)}")
        ax.vlines(x, 0, y, color=colors[model], linewidth=0.8, alpha=0.6)
    for boundary in np.arange(len(names_g) - 1) + 0.5:
        ax.axvline(boundary, color="grey", linewidth=0.5, alpha=0.5)
    if drawn:
        ax.legend(fontsize=6, ncol=max(1, len(langs)), loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    else:
        ax.text(0.5, 0.5, "no stereotype ratings or no rated occupation", ha="center",
                transform=ax.transAxes)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(names_g)), names_g)
    ax.set_xlim(-0.5, max(len(names_g), 1) - 0.5)
    ax.set_ylabel("GRAPE_m^parity")
    ax.set_title("(c) by stereotype group (Table 3)", fontsize=9)


def example_references(paths: Sequence[str | Path]) -> list[str]:
    """The reference files (labour, stereotype CSVs) that say they are examples: a
    ``source`` cell containing "example" (the project's own files say "project-written
    example, not EU-LFS"). Returns their file names."""
    found = []
    for path in paths:
        try:
            frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        except (OSError, ValueError):
            continue
        if "source" in frame and frame["source"].str.contains("example", case=False).any():
            found.append(Path(path).name)
    return found


def draw_figures(tables: Mapping[str, pd.DataFrame], outdir: str | Path,
                 examples: Sequence[str] = ()) -> dict[str, Path]:
    """The figures from the frames of :data:`TABLES` (as ``tables.py`` writes them): returns
    name → path. One heatmap per language of ``grape``."""
    outdir = Path(outdir)
    out: dict[str, Path] = {}
    for lang in dict.fromkeys(tables["grape"]["lang"]):
        fig = intra_model_heatmap(tables["intra_model_pairs"], lang)
        png, pdf = outdir / f"intra_model_{lang}.png", outdir / f"intra_model_{lang}.pdf"
        save(fig, png, pdf)
        out |= {f"intra_model_{lang}_png": png, f"intra_model_{lang}_pdf": pdf}
    fig = overview(tables["grape"], tables["grape_groups"], tables["stereotype_groups"],
                   examples)
    png, pdf = outdir / "grape_overview.png", outdir / "grape_overview.pdf"
    save(fig, png, pdf)
    out |= {"grape_overview_png": png, "grape_overview_pdf": pdf}
    log.info("GAMBIT figures: %d files in %s", len(out), outdir)
    return out


def read_tables(folder: str | Path) -> dict[str, pd.DataFrame]:
    """The CSVs of :data:`TABLES` in ``folder``; names stay text, empty cells are NaN."""
    text = {c: str for c in ("model", "system", "lang", "model_a", "model_b", "group", "code")}
    return {name: pd.read_csv(Path(folder) / f"{name}.csv", dtype=text, keep_default_na=False,
                              na_values=[""]) for name in TABLES}


def build_figures(tables: str | Path, outdir: str | Path,
                  references: Sequence[str | Path] = ()) -> dict[str, Path]:
    """Workflow stage: the tables folder (``build_tables``' output) → ``intra_model_{lang}``
    (Figures 2-3) and ``grape_overview``, PNG and PDF, in ``outdir``; ``references``: the
    labour and stereotype files the tables used (examples among them are named on the
    overview)."""
    return draw_figures(read_tables(tables), outdir, example_references(references))
