"""The scorecard's files: CSV (wide, full precision) with its legend, Markdown and LaTeX
with the header note (units, better direction, runs, sources), and JSON."""

from __future__ import annotations

import math
from pathlib import Path

from gendermt.analysis.layout import _escape
from gendermt.data.io import significant, write_json, write_table, write_text
from gendermt.scorecard.build import Scorecard, to_records
from gendermt.scorecard.figures import LABELS, Figure

UNDEFINED = "–"  # the system ran the benchmark but the figure is undefined (e.g. 0/0)
#: The mark of a cell in its figure's lead group (Cell.lead): the leader and every system a
#: paired test on the same items cannot separate from it.
LEAD = "◆"
#: How a system's kind is said beside its name (a model's: nothing).
KIND_LABELS = {"oracle": " (oracle)", "baseline": " (baseline)"}


def system_label(card: Scorecard, system: str) -> str:
    """The system's name as every table shows it: oracles and baselines say so."""
    return system + KIND_LABELS.get(card.kind(system), "")


def display_systems(card: Scorecard) -> list[str]:
    """The systems in the card's order, the oracles (reference points) last, apart."""
    return ([s for s in card.systems if card.kind(s) != "oracle"]
            + [s for s in card.systems if card.kind(s) == "oracle"])


def fmt_cell(card: Scorecard, system: str, fig: Figure, latex: bool = False) -> str:
    """A cell as text: the value, its interval where it has one, ◆ where it is in the lead
    group (never an oracle's or a low-quality cell's), ``(low quality)`` below a floor."""
    cell = card.cell(system, fig)
    if cell is None:
        return ""
    if math.isnan(cell.value):
        return "--" if latex else UNDEFINED
    text = f"{cell.value:.2f}"
    if not math.isnan(cell.ci_low) and not math.isnan(cell.ci_high):
        text += f" [{cell.ci_low:.2f}, {cell.ci_high:.2f}]"
    low = card.below_floor(system, fig)
    if cell.lead is True and not low and card.kind(system) != "oracle":
        text += " (lead)" if latex else f" {LEAD}"  # LaTeX's default fonts lack ◆
    if low:
        text += " (low quality)" if not latex else " (low q.)"
    return text


def column_label(fig: Figure | None) -> str:
    """A shown column's label (its benchmark's prompt column: ``prompt``)."""
    return "prompt" if fig is None else fig.label


def shown_cell(card: Scorecard, system: str, bench: str, fig: Figure | None,
               latex: bool = False) -> str:
    return card.prompt_text(system, bench) if fig is None else fmt_cell(card, system, fig,
                                                                         latex)


def floors_text(card: Scorecard) -> str:
    """The floors, benchmark by benchmark (the same ones once)."""
    by_text: dict[str, list[str]] = {}
    for bench in card.benchmarks:
        quality = {k for f in card.figures if f.benchmark == bench for k in f.quality_keys}
        floors = card.floors_of(bench)
        shown = [f"{k} {v:g}" for k, v in floors.items()
                 if any(q == k or q.startswith(f"{k}_") for q in quality)]
        if shown:
            by_text.setdefault(", ".join(shown), []).append(LABELS.get(bench, bench))
    return "; ".join(f"{', '.join(names)}: {text}" for text, names in by_text.items())


def header_note(card: Scorecard) -> list[str]:
    lines = ["Each column is one benchmark's headline figure, read from that benchmark's own "
             "table. Blank: the system did not run the benchmark; "
             f"{UNDEFINED}: it ran, but the figure is undefined there (e.g. no annotated "
             "output). [low, high]: the figure's confidence interval where one is computed "
             "(resampled from the benchmark's per-item outputs: its tables/intervals.csv; each "
             "figure's method below). "
             f"{LEAD}: in the figure's lead group, the leader and every system a paired test "
             "on the same items cannot separate from it. (oracle): a reference point, listed "
             "last, never in a lead group. (baseline): a reference system."]
    for fig in card.figures:
        run = f"; run: {fig.run}" if fig.run else ""
        source = f"; from {fig.source}" if fig.source else ""
        interval = f"; interval: {fig.interval}" if fig.interval else ""
        lines.append(f"{fig.column}: {fig.unit}; better: {fig.better}{run}{source} "
                     f"({fig.how}){interval}")
    floors = floors_text(card)
    if floors:
        lines.append("Quality floors (scorecard.quality_floors): " + floors + ". A figure of "
                     "a system whose output quality on that benchmark is below a floor "
                     "(BLEU over all items; clean_share: % of outputs that neither echo the "
                     "prompt nor are in another language; WinoMT's readable: % of entities "
                     "whose gender can be read) is marked (low quality) and never coloured "
                     "as good or bad: figures of outputs that are not translations say "
                     "nothing about fairness.")
    if any(card.prompted(b) for b in card.benchmarks):
        lines.append("prompt: the run (prompt) each system's figures of that benchmark come "
                     "from, its headline prompt (scorecard.headline_prompts; default: the "
                     "first of the benchmark's prompts it ran).")
    return lines + card.notes


def markdown(card: Scorecard) -> str:
    layout = card.layout()
    # The system column keeps the plain name (gendermt.report.findings reads the marks by it); a
    # last column says which rows are oracles or baselines, where there are any.
    kinds = any(card.kind(s) != "model" for s in card.systems)
    head = ["system", *[f.column if f is not None else f"{LABELS.get(b, b)} · prompt"
                        for b, f in layout], *(["kind"] if kinds else [])]
    rows = [[s, *[shown_cell(card, s, b, f) for b, f in layout],
             *([KIND_LABELS.get(card.kind(s), "").strip(" ()") or "model"] if kinds else [])]
            for s in display_systems(card)]
    table = ["| " + " | ".join(head) + " |", "|" + "|".join(
        ["---"] + ["--:"] * (len(head) - 1 - kinds) + [":--"] * kinds) + "|"] \
        + ["| " + " | ".join(r) + " |" for r in rows]
    note = "\n".join(f"- {line}" for line in header_note(card))
    return f"# Scorecard: every benchmark's headline figure per system\n\n{note}\n\n" \
        + "\n".join(table) + "\n"


def latex(card: Scorecard) -> str:
    groups: list[tuple[str, int]] = []
    layout = card.layout()
    for bench, _ in layout:
        name = LABELS.get(bench, bench)
        if groups and groups[-1][0] == name:
            groups[-1] = (name, groups[-1][1] + 1)
        else:
            groups.append((name, 1))
    lines = [*(f"% {line}" for line in header_note(card)),
             "\\begin{tabular}{l" + "".join("l" if f is None else "r" for _, f in layout)
             + "}", "\\toprule"]
    head, rules, start = [""], [], 2
    for name, span in groups:
        head.append(f"\\multicolumn{{{span}}}{{c}}{{{_escape(name)}}}")
        rules.append(f"\\cmidrule(lr){{{start}-{start + span - 1}}}")
        start += span
    lines += [" & ".join(head) + " \\\\", " ".join(rules),
              " & ".join(["System", *(_escape(column_label(f)) for _, f in layout)])
              + " \\\\",
              "\\midrule"]
    for system in display_systems(card):
        cells = [_escape(shown_cell(card, system, b, f, True)) for b, f in layout]
        lines.append(" & ".join([_escape(system_label(card, system)), *cells]) + " \\\\")
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
