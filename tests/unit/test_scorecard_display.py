"""The scorecard's display cannot flatter (issue 48): no min–max tint, only the lead group's
mark (◆ and a shade, exactly on lead cells); oracles in a band of their own, labelled
"(oracle)" and never marked; low-quality cells hatched, "(low quality)", never marked;
intervals and n shown; the front page's headline scorecard at most 16 columns a table."""

import math
import re

from gendermt.scorecard.build import Scorecard
from gendermt.scorecard.figures import Cell, Figure
from gendermt.scorecard.page import (
    MAX_HEADLINE_COLUMNS,
    frame_and_styles,
    headline_figures,
    headline_html,
    headline_layouts,
    page,
    scorecard_table,
)
from gendermt.scorecard.write import LEAD, markdown


def _fig(bench, key, label, quality=None, better="higher"):
    return Figure(bench, key, label, "%", better, "baseline", f"{bench}/tables/x.csv", "test",
                  quality=quality)


def _card() -> Scorecard:
    """WinoMT (3 languages × acc, ΔS, readable) and MT-GenEval (gap, contextual, BLEU):
    leader `a`, `b` tied with it on acc_fr, `loops` below WinoMT's readable floor (and
    marked lead by a careless test: the display must still not mark it), an oracle that
    the test also marked lead, a baseline."""
    figures = []
    for lang in ("es", "fr", "it"):
        figures += [_fig("winomt", f"readable_{lang}", f"readable genders ({lang})"),
                    _fig("winomt", f"acc_{lang}", f"accuracy ({lang})", f"readable_{lang}"),
                    _fig("winomt", f"delta_s_{lang}", f"ΔS ({lang})", f"readable_{lang}",
                         "closer to 0")]
    for lang in ("es", "fr", "it"):
        figures += [_fig("mt-geneval", f"gap_{lang}", f"counterfactual gap ({lang})",
                         "bleu_all", "closer to 0"),
                    _fig("mt-geneval", f"contextual_{lang}", f"contextual accuracy ({lang})",
                         "bleu_all")]
    figures.append(_fig("mt-geneval", "bleu_all", "BLEU (all)"))
    systems = ["a", "b", "loops", "ref", "copy-source"]
    cells = {}
    for fig in figures:
        for i, system in enumerate(systems):
            value = 50.0 + i
            lead = system in ("a", "ref", "loops") or (system == "b" and fig.key == "acc_fr")
            if fig.key.startswith("readable_"):
                value, lead = (60.0 if system == "loops" else 95.0), None
            if fig.key == "bleu_all":
                value, lead = (2.0 if system == "copy-source" else 30.0), None
            cells[(system, fig.benchmark, fig.key)] = Cell(value, value - 1.5, value + 1.5,
                                                           n=3888, lead=lead)
    return Scorecard(benchmarks=["winomt", "mt-geneval"], figures=figures, systems=systems,
                     ran={"winomt": set(systems), "mt-geneval": set(systems)}, cells=cells,
                     benchmark_floors={"winomt": {"readable": 75.0},
                                       "mt-geneval": {"bleu_all": 10.0}},
                     kinds={"ref": "oracle", "copy-source": "baseline"})


def _cells(html: str, system_label: str) -> list[str]:
    """The <td> elements of a system's row (the first: its name)."""
    row = re.search(r"<tr><td>" + re.escape(system_label) + r"</td>(.*?)</tr>", html, re.S)
    assert row, system_label
    return re.findall(r"<td[^>]*>.*?</td>", row.group(1), re.S)


def test_no_oracle_and_no_low_quality_cell_is_ever_marked():
    card = _card()
    for html in (scorecard_table(card), headline_html(card)):
        for cell in _cells(html, "ref (oracle)"):
            assert "gmt-lead" not in cell and LEAD not in cell and "style=" not in cell
        # loops: below WinoMT's readable floor: hatched, "(low quality)", never the lead
        winomt = [c for c in _cells(html, "loops") if "(low quality)" in c]
        assert winomt and all("gmt-low" in c and "gmt-lead" not in c and LEAD not in c
                              for c in winomt)
        # no inline colour anywhere: the only shading is the lead class
        assert "hsl(" not in html and 'style="background' not in html
    frame, styles = frame_and_styles(card)
    # rows: the contenders, then the oracle, labelled
    assert list(frame["system"]) == ["a", "b", "loops", "copy-source (baseline)",
                                     "ref (oracle)"]
    names = ["a", "b", "loops", "copy-source", "ref"]
    for i, system in enumerate(names):
        for j, (_, fig) in enumerate(card.layout(), start=1):
            cell = card.cell(system, fig)
            lead = (cell.lead is True and card.kind(system) != "oracle"
                    and not card.below_floor(system, fig))
            assert (styles[i][j] == "gmt-lead") == lead == (LEAD in frame.iloc[i, j]), \
                (system, fig.key)
            assert styles[i][j] in (None, "gmt-lead")


def test_the_lead_mark_is_exactly_on_the_lead_cells():
    card = _card()
    html = scorecard_table(card)
    expected = {}
    for system in ("a", "b", "copy-source"):
        for fig in card.figures:
            cell = card.cell(system, fig)
            expected[(system, fig.key)] = (cell.lead is True
                                           and not card.below_floor(system, fig))
    labels = {"a": "a", "b": "b", "copy-source": "copy-source (baseline)"}
    layout = card.layout()
    for system, label in labels.items():
        cells = _cells(html, label)
        assert len(cells) == len(layout)
        for (_, fig), cell in zip(layout, cells, strict=True):
            marked = LEAD in cell
            assert marked == ("gmt-lead" in cell) == expected[(system, fig.key)], \
                (system, fig.key)
    # b is in the lead group of acc_fr only; copy-source's MT-GenEval cells are low quality
    assert sum(LEAD in c for c in _cells(html, "b")) == 1
    assert all("(low quality)" in c for c, (b, f) in zip(_cells(html, "copy-source (baseline)"),
                                                        layout, strict=True)
               if b == "mt-geneval" and f.key != "bleu_all")
    # the legend says what the mark means
    assert "lead group: the leader and every system a paired test on the same items " \
           "cannot separate from it" in html


def test_oracles_sit_apart_and_are_labelled_everywhere(tmp_path):
    card = _card()
    for html in (scorecard_table(card), headline_html(card)):
        body = html.split('<tbody class="gmt-oracles">')
        assert len(body) >= 2
        # the oracle's row is in the band, after every contender's
        assert all("<td>ref (oracle)</td>" in part.split("</tbody>")[0] for part in body[1:])
        assert "<td>ref (oracle)</td>" not in body[0]
        assert "<td>copy-source (baseline)</td>" in body[0]
    # the Markdown (which gendermt.report.findings reads by plain system name): oracles last, a
    # kind column says which rows are oracles and baselines
    md = markdown(card)
    rows = [line for line in md.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0].endswith("| kind |")
    assert rows[-1].startswith("| ref |") and rows[-1].endswith("| oracle |")
    assert any(r.startswith("| copy-source |") and r.endswith("| baseline |") for r in rows)
    assert "◆" in md and "◆" not in rows[-1] and "[48.50, 51.50]" in md
    from gendermt.report.findings import low_quality

    path = tmp_path / "scorecard.md"
    path.write_text(md, encoding="utf-8")
    marked = low_quality(path)
    assert ("copy-source", "MT-GenEval · counterfactual gap (es)") in marked
    assert ("loops", "WinoMT · accuracy (es)") in marked and not any(
        s == "ref" for s, _ in marked)


def test_intervals_and_n_are_shown():
    card = _card()
    html = scorecard_table(card)
    assert '50.00 ◆<br><span class="gmt-ci">[48.50, 51.50]</span>' in html
    assert '<span class="gmt-n">n = 3,888</span>' in html
    assert 'title="n = 3,888; lead group"' in html


def test_the_headline_keeps_to_16_columns_and_each_benchmarks_headline():
    card = _card()
    keys = [f.key for _, f in headline_figures(card)]
    # the contracts' headline patterns: WinoMT's accuracy and ΔS, MT-GenEval's contextual
    # accuracy and gap (not the readable share, not BLEU)
    assert keys == ["acc_es", "acc_fr", "acc_it", "delta_s_es", "delta_s_fr", "delta_s_it",
                    "contextual_es", "contextual_fr", "contextual_it", "gap_es", "gap_fr",
                    "gap_it"]
    for per_table in (1, 5, 11, 40):
        tables = headline_layouts(card, per_table)
        assert [f.key for t in tables for _, f in t] == keys
        assert all(1 + len(t) <= MAX_HEADLINE_COLUMNS for t in tables)
    html = headline_html(card)
    for table in re.findall(r"<table.*?</table>", html, re.S):
        header = re.search(r"<thead>.*?</tr><tr>(.*?)</tr></thead>", table, re.S).group(1)
        assert header.count("<th") <= MAX_HEADLINE_COLUMNS
        row = re.search(r"<tbody><tr>(.*?)</tr>", table, re.S).group(1)
        assert row.count("<td") <= MAX_HEADLINE_COLUMNS


def test_the_page_holds_the_headline_then_the_full_scorecard_and_the_front_page_the_headline():
    from gendermt.report.frontpage import HEADLINE_START, _fragment_of

    card = _card()
    html = page(card)
    assert html.index(HEADLINE_START) < html.index("<!-- gmt-table -->")
    fragment = _fragment_of(html)
    assert "readable genders (es)" not in fragment and "contextual accuracy (fr)" in fragment
    # a page written before the headline existed: its table
    old = html.replace(HEADLINE_START, "").replace("<!-- /gmt-headline -->", "")
    assert "readable genders (es)" in _fragment_of(old)


def test_an_undefined_or_untested_cell_is_plain():
    card = _card()
    fig = next(f for f in card.figures if f.key == "acc_es")
    card.cells[("a", "winomt", "acc_es")] = Cell(math.nan)
    card.cells[("b", "winomt", "acc_es")] = Cell(40.0)  # no interval, not tested
    html = scorecard_table(card)
    j = card.layout().index(("winomt", fig))
    assert _cells(html, "a")[j] == '<td data-v="">–</td>'
    assert _cells(html, "b")[j] == '<td data-v="40.0">40.00</td>'
