"""The HTML report of the default run (issue 24): every table inline as HTML, every entry
labelled (uniquely, so the report lists "Table 6 · …" and never merges two entries), and a
front page that leads with the run summary and the scorecard."""

import base64
import json
import re

import pytest

from ..workflow_support import RUN_TIMEOUT, explain, snakemake


@pytest.fixture(scope="module")
def report(default_run):
    default_run.require_success()
    proc = snakemake(default_run.workdir, "--report", "results/default/report.html",
                     timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, explain(proc)
    html = default_run.path("results/default/report.html").read_text(encoding="utf-8")

    def var(name):
        return json.loads(re.search(rf"var {name} = (\{{.*?\}});\n", html).group(1))
    front = json.loads(re.search(r'var workflow_desc = (".*?");\n', html).group(1))
    return var("results"), var("categories"), front


def test_every_table_is_inline_html(report):
    results, categories, _ = report
    kinds = {path.rsplit(".", 1)[1] for path in results}
    assert kinds == {"html", "png"}, kinds  # no CSV or Markdown download links
    tables = [p for p in results if "/tables/" in p]
    assert len(tables) >= 40
    for path in tables:
        entry = results[path]
        assert entry["mime_type"] == "text/html", path
        page = base64.b64decode(entry["data_uri"].split("base64,", 1)[1]).decode("utf-8")
        assert '<table class="gmt-table"' in page and "<script" not in page, path
    zeroshot = next(p for p in tables if p.endswith("neogate/tables/zeroshot.html"))
    page = base64.b64decode(results[zeroshot]["data_uri"].split("base64,", 1)[1]).decode()
    assert "oracle-asterisk" in page and "<th>cwa</th>" in page


def test_every_entry_is_labelled_and_no_two_alike(report):
    results, categories, _ = report
    for cat, subcats in categories.items():
        for sub, paths in subcats.items():
            labels = [tuple(results[p]["labels"].items()) for p in paths]
            assert all(labels), (cat, sub)
            assert len(set(labels)) == len(labels), (cat, sub, labels)
    table6 = next(p for p in results if p.endswith("paper_table6.html"))
    assert results[table6]["labels"] == {"result": "Table 6 · ANOVA p-values",
                                         "benchmark": "FairTranslate"}
    assert sorted(categories, key=str.casefold)[0] == "All benchmarks"
    assert "results/default/scorecard/scorecard.html" in categories["All benchmarks"][
        "Scorecard"]


def test_front_page_leads_with_the_run_summary_and_the_scorecard(report):
    _, _, front = report
    at = 0
    for marker in ["Run <code>default</code>", "commit <code>",
                   "Config files: <code>config/config.yaml",
                   "Every data source is a sample the project wrote itself",
                   "<h3>Scorecard: headline figures</h3>", "oracle-male (oracle)",
                   "<b>Legend</b>", "<h3>Data sources</h3>", "<th>project sample</th>",
                   "<td>yes</td>", "<h3>Systems</h3>", "<td>gambit-mixed</td>"]:
        found = front.find(marker, at)
        assert found >= 0, f"{marker!r} not after position {at}"
        at = found
    scorecard = front[front.index("<h3>Scorecard: headline figures</h3>"):
                      front.index("<h3>Data sources</h3>")]
    # no colour ramp: a shade only marks a lead group (issue 48)
    assert "hsl(" not in scorecard
    assert scorecard.count("<tr>") >= 14 + 1  # one row per system, and the header
    # every benchmark's headline figures, intervals under their values
    assert "GAMBIT/GRAPE" in scorecard
    assert '32.78<br><span class="gmt-ci">[26.73, 39.27]</span>' in scorecard
    assert "<script" not in front
