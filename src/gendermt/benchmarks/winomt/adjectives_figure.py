"""The adjective experiment's figure (figures/adjectives.png): the change of accuracy with
the adjectives and its paired interval, per language and system, one panel per reader."""

from __future__ import annotations

from pathlib import Path


def build_adjectives_figure(csv: str | Path, png: str | Path, pdf: str | Path) -> None:
    """Workflow stage: the change of accuracy (with − without the adjective) and its paired
    interval, per language (x) and system (colour), one panel per reader."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from gendermt.report.plots import save

    table = pd.read_csv(csv)
    readers = list(dict.fromkeys(table["reader"]))
    systems = list(dict.fromkeys(table["system"]))
    langs = list(dict.fromkeys(table["lang"]))
    fig, axes = plt.subplots(1, len(readers), figsize=(4.5 * len(readers), 3.6), sharey=True,
                             squeeze=False)
    width = 0.8 / max(len(systems), 1)
    for ax, reader in zip(axes[0], readers, strict=True):
        part = table[table["reader"] == reader]
        for k, system in enumerate(systems):
            rows = part[part["system"] == system].set_index("lang").reindex(langs)
            x = [i + (k - (len(systems) - 1) / 2) * width for i in range(len(langs))]
            err = [(rows["change"] - rows["ci_low"]).to_numpy(),
                   (rows["ci_high"] - rows["change"]).to_numpy()]
            ax.bar(x, rows["change"], width, yerr=err, capsize=2, label=system)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks(range(len(langs)), langs)
        ax.set_title(f"{reader} reader")
        ax.set_xlabel("target language")
    axes[0][0].set_ylabel("accuracy change (points),\nwith − without the adjective")
    axes[0][-1].legend(title="system", fontsize=8)
    fig.tight_layout()
    save(fig, png, pdf)
