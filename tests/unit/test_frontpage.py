"""The report's front page (issue 48): the compact headline scorecard, not the full one, and
oracles and baselines labelled in its systems table."""

from gendermt.report.frontpage import (
    HEADLINE_END,
    HEADLINE_START,
    TABLE_END,
    TABLE_START,
    front_html,
)


def _summary(systems):
    return {"run": "r", "commit": "c", "config_files": [], "benchmarks": ["winomt"],
            "sources": [], "systems": systems}


def test_the_front_page_shows_the_headline_and_labels_kinds():
    systems = [{"system": "mt", "backend": "stored", "model": "m", "revision": "",
                "benchmarks": ["winomt"], "kind": "model"},
               {"system": "ref", "backend": "reference", "model": "", "revision": "",
                "benchmarks": ["winomt"], "kind": "oracle"},
               {"system": "copy", "backend": "copy-source", "model": "", "revision": "",
                "benchmarks": ["winomt"], "kind": "baseline"},
               {"system": "old", "backend": "stored", "model": "", "revision": "",
                "benchmarks": ["winomt"]}]  # a run.json written before kinds
    page = (f"<html>{HEADLINE_START}<table>HEADLINE</table>{HEADLINE_END}"
            f"{TABLE_START}<table>FULL</table>{TABLE_END}</html>")
    html = front_html(_summary(systems), page, None)
    assert "HEADLINE" in html and "FULL" not in html
    assert "Scorecard: headline figures" in html
    assert "<td>ref (oracle)</td>" in html and "<td>copy (baseline)</td>" in html
    assert "<td>mt</td>" in html and "<td>old</td>" in html
    # a scorecard page without a headline: its table, as before
    html = front_html(_summary(systems), f"{TABLE_START}<table>FULL</table>{TABLE_END}", None)
    assert "FULL" in html


def test_the_run_summary_says_each_systems_kind():
    from gendermt.config.run_record import _systems_used

    config = {"benchmarks": {"winomt": {"systems": ["mt", "ref", "copy"]}},
              "systems": {"mt": {"backend": "stored", "path": "x"},
                          "ref": {"backend": "stored", "path": "y", "kind": "oracle"},
                          "copy": {"backend": "copy-source"}}}
    kinds = {s["system"]: s["kind"] for s in _systems_used(config)}
    assert kinds == {"mt": "model", "ref": "oracle", "copy": "baseline"}
