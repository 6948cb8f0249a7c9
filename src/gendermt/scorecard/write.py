"""The scorecard's files: CSV (wide, full precision) with its legend, Markdown and LaTeX
with the header note (units, better direction, runs, sources), and JSON."""

from __future__ import annotations

import math
from pathlib import Path

from gendermt.analysis.layout import _escape
from gendermt.io import significant, write_json, write_table, write_text

from .build import Scorecard, to_records
from .figures import BENCHMARKS, Figure

UNDEFINED = "–"  # the system ran the benchmark but the figure is undefined (e.g. 0/0)


def fmt_cell(card: Scorecard, system: str, fig: Figure, latex: bool = False) -> str:
    cell = card.cell(system, fig)
    if cell is None:
        return ""
    if math.isnan(cell.value):
        return "--" if latex else UNDEFINED
    text = f"{cell.value:.2f}"
    if fig.has_ci and not math.isnan(cell.ci_low):
        text += f" [{cell.ci_low:.2f}, {cell.ci_high:.2f}]"
    if card.below_floor(system, fig):
        text += " (low quality)" if not latex else " (low q.)"
    return text


def header_note(card: Scorecard) -> list[str]:
    lines = ["Each column is one benchmark's headline figure, read from that benchmark's own "
             "table (nothing is recomputed). Blank: the system did not run the benchmark; "
             f"{UNDEFINED}: it ran, but the figure is undefined there (e.g. no annotated "
             "output). Gaps show [low, high] bootstrap confidence intervals."]
    for fig in card.figures:
        run = f"; run: {fig.run}" if fig.run else ""
        source = f"; from {fig.source}" if fig.source else ""
        lines.append(f"{fig.column}: {fig.unit}; better: {fig.better}{run}{source} "
                     f"({fig.how})")
    if card.floors:
        lines.append("Quality floors: " + ", ".join(f"{k} {v:g}" for k, v in card.floors.items())
                     + "; a figure of a system below its benchmark's floor is marked (low "
                       "quality) and left uncoloured in the heatmap: gaps between poor "
                       "outputs say nothing about fairness.")
    return lines + card.notes


def markdown(card: Scorecard) -> str:
    head = ["system", *[f.column for f in card.figures]]
    rows = [[s, *[fmt_cell(card, s, f) for f in card.figures]] for s in card.systems]
    table = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["--:"] * (len(head) - 1))
             + "|"] + ["| " + " | ".join(r) + " |" for r in rows]
    note = "\n".join(f"- {line}" for line in header_note(card))
    return f"# Scorecard: every benchmark's headline figure per system\n\n{note}\n\n" \
        + "\n".join(table) + "\n"


def latex(card: Scorecard) -> str:
    groups: list[tuple[str, int]] = []
    for fig in card.figures:
        name = BENCHMARKS.get(fig.benchmark, fig.benchmark)
        if groups and groups[-1][0] == name:
            groups[-1] = (name, groups[-1][1] + 1)
        else:
            groups.append((name, 1))
    lines = [*(f"% {line}" for line in header_note(card)),
             "\\begin{tabular}{l" + "r" * len(card.figures) + "}", "\\toprule"]
    head, rules, start = [""], [], 2
    for name, span in groups:
        head.append(f"\\multicolumn{{{span}}}{{c}}{{{_escape(name)}}}")
        rules.append(f"\\cmidrule(lr){{{start}-{start + span - 1}}}")
        start += span
    lines += [" & ".join(head) + " \\\\", " ".join(rules),
              " & ".join(["System", *(_escape(f.label) for f in card.figures)]) + " \\\\",
              "\\midrule"]
    for system in card.systems:
        lines.append(" & ".join([_escape(system), *(_escape(fmt_cell(card, system, f, True))
                                                    for f in card.figures)]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def write_scorecard(card: Scorecard, csv: str | Path, legend: str | Path, md: str | Path,
                    tex: str | Path, json_path: str | Path | None = None) -> None:
    write_table(card.wide(), csv)
    write_table(card.legend(), legend)
    write_text(md, markdown(card))
    write_text(tex, latex(card))
    if json_path is not None:
        write_json(json_path, significant(to_records(card)))
