"""The report's front page (issue 48): the compact headline scorecard, not the full one, and
oracles and baselines labelled in its systems table."""

from gendermt.report.frontpage import (
    HEADLINE_END,
    HEADLINE_START,
    TABLE_END,
    TABLE_START,
    front_html,
    markdown,
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
    from gendermt.workflow.run_record import _systems_used

    config = {"benchmarks": {"winomt": {"systems": ["mt", "ref", "copy"]}},
              "systems": {"mt": {"backend": "stored", "path": "x"},
                          "ref": {"backend": "stored", "path": "y", "kind": "oracle"},
                          "copy": {"backend": "copy-source"}}}
    kinds = {s["system"]: s["kind"] for s in _systems_used(config)}
    assert kinds == {"mt": "model", "ref": "oracle", "copy": "baseline"}


def test_the_front_page_says_which_data_sets_hashes_were_taken_on_first_use():
    lock = "results/r/datasets.lock.json"
    source = {"benchmark": "neogate", "key": "benchmarks.neogate.data.test", "size": 1,
              "path": "data-cache/neogate/x/Neo-GATE.tsv", "sample": False, "sha256": "ab"}
    system = {"system": "mt", "backend": "stored", "model": "m", "revision": "",
              "benchmarks": ["neogate"], "kind": "model"}
    summary = {**_summary([system]), "sources": [source], "datasets": [
        {"dataset": "neogate", "repository": "FBK-MT/Neo-GATE",
         "commit": "be2f9358af268fad015e34d6ad5a07c47aac1858", "files": [],
         "hashes": "trust on first use", "lock": lock},
        {"dataset": "winomt", "repository": "gabrielStanovsky/mt_gender", "commit": "5" * 40,
         "files": []}]}
    for page in (front_html(summary, None, None), markdown(summary)):
        assert "Data set neogate (FBK-MT/Neo-GATE at be2f9358af26)" in page
        assert "taken on first use (trust on first use)" in page and lock in page
        assert "mt_gender" not in page  # its manifest's hashes: nothing to say
    assert "first use" not in front_html(_summary([]), None, None)


def test_a_run_without_data_sources_or_systems_says_none():
    """An empty table (no data source, no system) is written as "none" in run.md and
    front.html: pandas 3 cannot apply a function to the columns of a frame without rows,
    which stopped the front page of the declared page's example."""
    system = {"system": "mt", "backend": "stored", "model": "m", "revision": "",
              "benchmarks": ["winomt"], "kind": "model"}
    for systems in ([], [system]):
        text = markdown(_summary(systems))
        sources = text.split("## Data sources", 1)[1].split("##", 1)[0]
        assert sources.strip() == "none"
        html = front_html(_summary(systems), None, None)
        assert "<h3>Data sources</h3>\n<p>none</p>" in html
    assert "## Systems\n\nnone\n" in markdown(_summary([]))
    assert "<td>mt</td>" in front_html(_summary([system]), None, None)
