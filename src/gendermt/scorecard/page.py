"""The scorecard as HTML for the report: one column group per benchmark, the values with their
intervals in the cells, n in the headers. Nothing is tinted by where it falls in its column
(a min–max stretch makes 98.95 against 99.74 look like red against green): the one mark is the
figure's lead group (◆ and a light green), which a paired test on the same items decides.
Oracles and other reference points sit apart below the systems, labelled, never marked; a cell
below its quality floor is hatched grey and says "(low quality)". Sortable by header.

The page holds the full scorecard and, between :data:`HEADLINE_START` and
:data:`HEADLINE_END`, a compact one (each benchmark's headline figures, its contract's
``Scorecard.headline``) that the report's front page shows."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence

import pandas as pd

from gendermt.report import htmltable
from gendermt.report.frontpage import HEADLINE_END, HEADLINE_START, TABLE_END, TABLE_START
from gendermt.scorecard.build import Scorecard
from gendermt.scorecard.figures import LABELS, Figure
from gendermt.scorecard.write import LEAD, floors_text, fmt_cell, shown_cell, system_label

#: The most columns (the system's included) of one headline table; more headline figures
#: than fit go to a further table below it.
MAX_HEADLINE_COLUMNS = 16
#: Headline figure columns per table so that it fits a 1400 px wide window without sideways
#: scrolling: about 95 px a column beside the system names, in the ~1,130 px that Snakemake's
#: report leaves beside its menu.
HEADLINE_FIGURES_PER_TABLE = 9

LEGEND = (f"{LEAD} lead group: the leader and every system a paired test on the same items "
          "cannot separate from it (shaded green as well); unmarked: not in the lead group, "
          "or not tested. No other colour: values are not shaded by where they fall in "
          "their column.")
NOTE = ("Blank: the system did not run the benchmark; – : it ran, but the figure is undefined "
        "there. value [low, high]: the figure and its confidence interval where one is "
        "computed (method, unit, resamples and level: each benchmark's tables/intervals.csv); "
        "n: the items (sentences, pairs, instances) a figure rests on. "
        "(oracle): a reference point (e.g. the references themselves, or deliberately the "
        "wrong gender), listed apart below the systems, never a contender for the lead and "
        "never marked. (baseline): a reference system such as the untranslated source. "
        "(low quality), hatched grey: the system's output on that benchmark is below a "
        "quality floor ({floors}); such a cell is never marked, since figures of outputs "
        "that are not translations say nothing good or bad about a system. prompt: the run "
        "each system's figures of the benchmark come from. Click a header to sort.")

CSS = (".gmt-score .gmt-table{font-size:12.5px}"
       ".gmt-score .gmt-table thead th{white-space:normal;overflow:visible;"
       "overflow-wrap:break-word;vertical-align:bottom}"
       ".gmt-score .gmt-table thead tr:last-child th{min-width:4.5em;max-width:9em}"
       ".gmt-score .gmt-table td{white-space:nowrap;text-align:right;"
       "font-variant-numeric:tabular-nums}"
       ".gmt-score .gmt-table td:first-child{text-align:left}"
       ".gmt-score .gmt-table td.gmt-text{text-align:left;white-space:normal}"
       ".gmt-score .gmt-ci{font-size:10.5px;color:#555}"
       ".gmt-score .gmt-n{font-weight:normal;font-size:10.5px;color:#555}"
       ".gmt-score td.gmt-lead{background:#dcefdc;font-weight:600}"
       ".gmt-score td.gmt-low{background:repeating-linear-gradient(135deg,#ececec 0 4px,"
       "#fafafa 4px 8px);color:#666}"
       ".gmt-score td.gmt-low .gmt-lq{font-size:10.5px}"
       ".gmt-score tbody.gmt-oracles td{color:#555;background:#f7f7f7}"
       ".gmt-score tbody.gmt-oracles tr.gmt-band td{background:#eef0f4;font-style:italic;"
       "text-align:left;white-space:normal;border-top:2px solid #888}"
       ".gmt-score .gmt-headline-table{max-width:100%}")


def _h(text: object) -> str:
    return html.escape(str(text))


def split_systems(card: Scorecard, systems: Sequence[str] | None = None
                  ) -> tuple[list[str], list[str]]:
    """(contenders, reference points): the systems in order, oracles apart."""
    systems = card.systems if systems is None else list(systems)
    return ([s for s in systems if card.kind(s) != "oracle"],
            [s for s in systems if card.kind(s) == "oracle"])


def state(card: Scorecard, system: str, fig: Figure) -> str | None:
    """How a cell is shown: ``oracle`` (a reference point: never marked), ``low`` (below a
    quality floor: hatched, never marked), ``lead`` (in the lead group: ◆ and shaded),
    else None (plain)."""
    cell = card.cell(system, fig)
    if cell is None or math.isnan(cell.value):
        return None
    if card.kind(system) == "oracle":
        return "oracle"
    if card.below_floor(system, fig):
        return "low"
    return "lead" if cell.lead is True else None


def n_text(card: Scorecard, fig: Figure, systems: Sequence[str] | None = None) -> str:
    """The figure's n over the systems' cells: ``n = 3,888``, or a range where they differ;
    "" where no cell says."""
    def over(names: Sequence[str]) -> list[int]:
        return sorted({c.n for s in names
                       if (c := card.cell(s, fig)) is not None and c.n is not None})

    # the contenders' n, else (a figure only oracles ran) every system's
    ns = over(card.systems if systems is None else systems) or over(card.systems)
    if not ns:
        return ""
    return f"n = {ns[0]:,}" if len(ns) == 1 else f"n = {ns[0]:,}–{ns[-1]:,}"


def frame_and_styles(card: Scorecard) -> tuple[pd.DataFrame, list[list[str | None]]]:
    """The full scorecard as text (systems in display order: contenders, then oracles; names
    labelled ``(oracle)``/``(baseline)``) and each cell's shading: ``gmt-lead`` (the lead
    group's), else None (a low-quality cell is hatched, never shaded)."""
    layout = card.layout()
    contenders, oracles = split_systems(card)
    rows, styles = [], []
    for system in contenders + oracles:
        rows.append([system_label(card, system),
                     *[shown_cell(card, system, b, f) for b, f in layout]])
        styles.append([None, *("gmt-lead" if f is not None and state(card, system, f) == "lead"
                               else None for _, f in layout)])
    frame = pd.DataFrame(rows, columns=["system", *[header(b, f) for b, f in layout]])
    return frame, styles


def _css(kind: str | None) -> str | None:
    return {"lead": "gmt-lead", "low": "gmt-low"}.get(kind or "")


def header(bench: str, fig: Figure | None) -> str:
    """A column's header: its label, which names the language or paradigm where the
    benchmark has several (``ΔS (fr)``); the benchmark is the group header above it."""
    return "prompt" if fig is None else fig.label


def _cell_html(card: Scorecard, system: str, bench: str, fig: Figure | None) -> str:
    if fig is None:
        return f'<td class="gmt-text">{_h(card.prompt_text(system, bench))}</td>'
    cell = card.cell(system, fig)
    if cell is None:
        return '<td data-v=""></td>'
    kind = state(card, system, fig)
    if math.isnan(cell.value):
        return f'<td data-v="">{_h(fmt_cell(card, system, fig))}</td>'
    parts = [f"{cell.value:.2f}"]
    if kind == "lead":
        parts.append(f" {LEAD}")
    if not math.isnan(cell.ci_low) and not math.isnan(cell.ci_high):
        parts.append(f'<br><span class="gmt-ci">[{cell.ci_low:.2f}, {cell.ci_high:.2f}]'
                     "</span>")
    if kind == "low":
        failed = ", ".join(card.failed_floors(system, fig))
        parts.append(f'<br><span class="gmt-lq" title="below the floor of {_h(failed)}">'
                     "(low quality)</span>")
    title = [f"n = {cell.n:,}"] if cell.n is not None else []
    if kind == "lead":
        title.append("lead group")
    cls = f' class="{_css(kind)}"' if _css(kind) else ""
    tip = f' title="{_h("; ".join(title))}"' if title else ""
    return f'<td{cls} data-v="{float(cell.value)!r}"{tip}>{"".join(parts)}</td>'


def _header_html(card: Scorecard, bench: str, fig: Figure | None,
                 systems: Sequence[str]) -> str:
    if fig is None:
        return "<th>prompt</th>"
    n = n_text(card, fig, systems)
    tip = f"{fig.unit}; better: {fig.better}" + (f"; {n}" if n else "")
    extra = f'<br><span class="gmt-n">{_h(n)}</span>' if n else ""
    return f'<th title="{_h(tip)}">{_h(fig.label)}{extra}</th>'


def table_html(card: Scorecard, layout: Sequence[tuple[str, Figure | None]],
               css_class: str = "") -> str:
    """One table over ``layout``'s columns: the contenders, then the oracles in a band of
    their own (a second body, which sorting leaves in place)."""
    contenders, oracles = split_systems(card)
    ran = {b for b, _ in layout}
    contenders = [s for s in contenders if any(s in card.ran.get(b, set()) for b in ran)]
    oracles = [s for s in oracles if any(s in card.ran.get(b, set()) for b in ran)]
    groups: list[tuple[str, int]] = [("", 1)]
    for bench, _ in layout:
        name = LABELS.get(bench, bench)
        if groups[-1][0] == name:
            groups[-1] = (name, groups[-1][1] + 1)
        else:
            groups.append((name, 1))
    out = [f'<div class="gmt-wrap"><table class="gmt-table {css_class}" '
           f'onclick="{_h(htmltable.SORT)}"><thead><tr class="group">'
           + "".join(f'<th colspan="{span}">{_h(name)}</th>' for name, span in groups)
           + "</tr><tr><th>system</th>"
           + "".join(_header_html(card, b, f, contenders) for b, f in layout)
           + "</tr></thead><tbody>"]
    for system in contenders:
        out.append(f"<tr><td>{_h(system_label(card, system))}</td>"
                   + "".join(_cell_html(card, system, b, f) for b, f in layout) + "</tr>")
    out.append("</tbody>")
    if oracles:
        out.append(f'<tbody class="gmt-oracles"><tr class="gmt-band"><td colspan='
                   f'"{len(layout) + 1}">Reference points (oracles): not systems under test; '
                   "never in a lead group, never marked</td></tr>")
        for system in oracles:
            out.append(f"<tr><td>{_h(system_label(card, system))}</td>"
                       + "".join(_cell_html(card, system, b, f) for b, f in layout) + "</tr>")
        out.append("</tbody>")
    out.append("</table></div>")
    return "".join(out)


def _key_pattern(pattern: str) -> re.Pattern[str]:
    """A contract's key pattern (``acc_{lang}``) → a regular expression over figure keys:
    a placeholder stands for one word without underscores (a language, a paradigm)."""
    parts = re.split(r"\{[a-z_]+\}", pattern)
    return re.compile("[A-Za-z0-9-]+".join(re.escape(p) for p in parts))


def headline_figures(card: Scorecard) -> list[tuple[str, Figure]]:
    """Each benchmark's headline figures (its contract's ``Scorecard.headline`` key
    patterns, in their order; none declared or none found: its first figure that is not a
    quality figure), benchmark by benchmark."""
    from gendermt.core import registry

    wanted = {b.scorecard.key: b.scorecard.headline for b in registry.benchmarks()
              if b.scorecard}
    out: list[tuple[str, Figure]] = []
    for bench in card.benchmarks:
        figs = [f for f in card.figures if f.benchmark == bench]
        chosen = [f for p in wanted.get(bench, ()) for f in figs
                  if _key_pattern(p).fullmatch(f.key)]
        if not chosen:
            quality = {k for f in figs for k in f.quality_keys}
            chosen = [f for f in figs if f.key not in quality][:1] or figs[:1]
        out += [(bench, f) for f in dict.fromkeys(chosen)]
    return out


def headline_layouts(card: Scorecard, per_table: int = HEADLINE_FIGURES_PER_TABLE
                     ) -> list[list[tuple[str, Figure]]]:
    """The headline figures cut into tables of at most ``per_table`` figure columns (and
    never more than :data:`MAX_HEADLINE_COLUMNS` with the system's), a benchmark's figures
    kept together where they fit in one table."""
    per_table = min(per_table, MAX_HEADLINE_COLUMNS - 1)
    tables: list[list[tuple[str, Figure]]] = []
    for bench in card.benchmarks:
        figs = [(b, f) for b, f in headline_figures(card) if b == bench]
        while figs:
            if not tables or len(tables[-1]) + min(len(figs), per_table) > per_table:
                tables.append([])
            room = per_table - len(tables[-1])
            tables[-1] += figs[:room]
            figs = figs[room:]
    return tables


def headline_html(card: Scorecard) -> str:
    """The compact scorecard (each benchmark's headline figures, intervals, n, lead marks),
    with its legend, between the headline markers."""
    tables = [table_html(card, layout, "gmt-headline-table")
              for layout in headline_layouts(card)]
    legend = (f'<p class="gmt-note">{_h(LEGEND)} (oracle): a reference point, listed apart '
              "and never marked. (low quality), hatched: below the benchmark's quality floor "
              f"({_h(floors_text(card) or 'none')}), never marked. value [low, high]: the "
              "figure and its confidence interval; n: items it rests on. Every figure, each "
              "system's prompt and the floors: the full scorecard (All benchmarks · "
              "Scorecard).</p>")
    return (f"{HEADLINE_START}\n<style>{htmltable.CSS}{CSS}</style>\n"
            f'<div class="gmt-score">{"".join(tables)}</div>\n{legend}\n{HEADLINE_END}')


def scorecard_table(card: Scorecard) -> str:
    note = NOTE.format(floors=floors_text(card) or "none")
    return (f"{TABLE_START}\n<style>{htmltable.CSS}{CSS}</style>\n"
            f'<div class="gmt-score">{table_html(card, card.layout())}</div>\n'
            f'<p class="gmt-note">{_h(LEGEND)}</p>\n'
            f'<p class="gmt-note">{_h(note)}</p>\n{TABLE_END}')


def page(card: Scorecard) -> str:
    body = ("<h4 style=\"margin:.6em 0 .2em\">Headline figures</h4>\n" + headline_html(card)
            + "\n<h4 style=\"margin:.9em 0 .2em\">Every figure</h4>\n" + scorecard_table(card))
    return htmltable.document("Scorecard: every benchmark's headline figures per system", body)
