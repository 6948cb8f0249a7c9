"""User-given text cannot inject Markdown into the project's pages (issue 51 item 11): a run,
config file, system, prompt or data set name such as ``x](http://evil)|<b>**`` is shown as
text in docs/findings.md and report/run.md: no link, no emphasis, no HTML, no extra table
cell (as front.html escapes it for HTML)."""

from __future__ import annotations

import html
import json
import re

import pytest

from gendermt.report.findings import copy_differences, copy_of, figures_of, page
from gendermt.report.frontpage import markdown

from .test_findings import CARD, expected_figures, write_run

EVIL = "x](http://evil)|<b>**"
EVIL_CODE = "a`b`` <i>c</i> _d_"


def rendered(text: str) -> str:
    markdown_it = pytest.importorskip("markdown_it")
    return markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text)


def assert_inert(text: str, plain: str, names: list[str]) -> None:
    """The page with the names renders with the same links, emphasis and HTML elements as
    the same page with plain names (none comes from the names); each table row has as many
    cells as its header; each name is shown as it is."""
    out, want = rendered(text), rendered(plain)
    for tag in ("<a ", "<b>", "<i>", "<em>", "<strong>", "<s>", "<img", "<code>", "<h"):
        assert out.count(tag) == want.count(tag), tag
    for table in re.findall(r"<table>.*?</table>", out, re.S):
        head = len(re.findall(r"<th[ >]", table.split("</thead>")[0]))
        for row in re.findall(r"<tr>(.*?)</tr>", table.split("</thead>")[-1], re.S):
            assert len(re.findall(r"<td[ >]", row)) == head, row
    for name in names:
        assert html.escape(name, quote=False) in out


def findings_page(tmp_path, name: str, code: str) -> tuple[str, list]:
    card = json.loads(json.dumps(CARD))
    card[0]["system"] = name
    card[1]["winomt"]["run"] = name
    results = write_run(tmp_path / code.replace("`", "").replace("/", "") / "public", card)
    summary = json.loads((results / "report" / "run.json").read_text())
    summary["run"] = code
    summary["config_files"] = [{"path": name}, {"path": code}]
    summary["systems"][0]["system"] = name
    summary["datasets"][0].update(dataset=name, repository=name, licence=code)
    (results / "report" / "run.json").write_text(json.dumps(summary))
    return page(results, f"gendermt findings --results {name}"), card


def test_findings_shows_user_names_as_text(tmp_path):
    text, card = findings_page(tmp_path, EVIL, EVIL_CODE)
    plain, _ = findings_page(tmp_path, "plain", "code")
    assert_inert(text, plain, [EVIL, EVIL_CODE])
    # the page's own checks still read it: its figures and its copy
    assert figures_of(text) == expected_figures(card)
    assert copy_differences(text, copy_of(text, "c")) == []


def run_md(name: str, code: str) -> str:
    return markdown({
        "run": code, "commit": name, "date": "2026-12-06",
        "config_files": [{"path": name}, {"path": code}],
        "sources": [{"benchmark": name, "key": f"benchmarks.{name}.data", "path": name,
                     "sample": False, "size": 1, "sha256": "0" * 64}],
        "systems": [{"system": name, "backend": "stored", "model": code,
                     "revision": name, "benchmarks": [name], "kind": "model"}]})


def test_run_md_shows_user_names_as_text():
    assert_inert(run_md(EVIL, EVIL_CODE), run_md("plain", "code"), [EVIL, EVIL_CODE])
