"""The report's front page: what the run shows (config files, data sources and whether each
is a project sample, systems, commit, date), then the scorecard and its legend.

Written as an HTML fragment that ``workflow/report/workflow.rst`` includes raw, and as JSON
and Markdown beside the results (``<results>/report/run.{json,md}``)."""

from __future__ import annotations

import datetime as dt
import html
from pathlib import Path

import pandas as pd

from gendermt.data.io import write_json, write_text
from gendermt.report import htmltable
from gendermt.report.mdtext import md_code, md_text

TABLE_START, TABLE_END = "<!-- gmt-table -->", "<!-- /gmt-table -->"
# The scorecard page's compact part (each benchmark's headline figures): the front page shows
# it; the full scorecard stays on its own page.
HEADLINE_START, HEADLINE_END = "<!-- gmt-headline -->", "<!-- /gmt-headline -->"


def _h(text) -> str:
    return html.escape(str(text))


def _fragment_of(page: str) -> str:
    """The part of the scorecard's page the front page shows: its headline scorecard, else
    (a page written before it had one) its table, else the whole page."""
    for start, end in ((HEADLINE_START, HEADLINE_END), (TABLE_START, TABLE_END)):
        if start in page and end in page:
            return page.split(start, 1)[1].split(end, 1)[0]
    return page


def sources_frame(summary: dict) -> pd.DataFrame:
    rows = []
    for s in summary["sources"]:
        rows.append({
            "benchmark": s["benchmark"], "config key": s["key"].split(".", 2)[2],
            "source": s.get("path") or f"{s['hub']}@{s['revision']} (Hugging Face Hub)",
            "project sample": "yes" if s["sample"] else (
                "project file" if s.get("project_file") else "no"),
            "size": s.get("size"), "files": s.get("files", 1 if "path" in s else None),
            "sha256": (s.get("sha256") or "")[:12]})
    return pd.DataFrame(rows, columns=["benchmark", "config key", "source", "project sample",
                                       "size", "files", "sha256"])


def trust_notes(summary: dict) -> list[str]:
    """One sentence per public data set whose hashes no publisher gives: taken at their first
    use (gendermt.data.locks), so that the page never implies they were checked against a
    published hash."""
    return [f"Data set {d['dataset']} ({d['repository']} at {d['commit'][:12]}): no published "
            f"sha256; its files' hashes were taken on first use ({d['hashes']}) and are "
            f"recorded in {d['lock']}, against which every later run checks them."
            for d in summary.get("datasets") or [] if d.get("hashes")]


KIND_LABELS = {"oracle": " (oracle)", "baseline": " (baseline)"}


def systems_frame(summary: dict) -> pd.DataFrame:
    """The systems table: an oracle (a reference point) or a baseline says so by its name."""
    rows = [{"system": s["system"] + KIND_LABELS.get(s.get("kind", "model"), ""),
             "backend": s["backend"], "model / file": s["model"],
             "revision": s["revision"], "benchmarks": ", ".join(s["benchmarks"])}
            for s in summary["systems"]]
    return pd.DataFrame(rows, columns=["system", "backend", "model / file", "revision",
                                       "benchmarks"])


def verdict(summary: dict) -> str:
    """Whether the figures are findings: the benchmarks' items are published data or the
    project's samples (files beside them that the project wrote are listed as such)."""
    data = [s for s in summary["sources"] if s.get("data", True)]
    samples = [s for s in data if s["sample"]]
    written = [s for s in summary["sources"] if not s.get("data", True) and s.get("project_file")]
    note = (f" {len(written)} other configured files are the project's own (mappings, "
            "lexicons, example references, ...): see the table." if written and
            len(samples) < len(data) else "")
    if not data:
        return "No data source is configured."
    if len(samples) == len(data):
        return ("Every data source is a sample the project wrote itself (resources/): these "
                "figures check the workflow end to end; they are not findings about any "
                "system.")
    if samples:
        names = sorted({s["benchmark"] for s in samples})
        return (f"{len(samples)} of {len(data)} data sources are project "
                f"samples (benchmarks: {', '.join(names)}): their figures check the "
                "workflow; they are not findings." + note)
    # Not "published data": a file outside resources/ may be a hand-cut subset of it; the
    # tables' item counts (n) say how many items each figure is over.
    return ("No benchmark's data is a project sample: the items are the configured files "
            "(whether each is the complete published set or a subset of it is not checked "
            "here: each table's item counts, n, say how many items its figures are over)."
            + note)


def head_html(summary: dict) -> str:
    configs = ", ".join(f"<code>{_h(c['path'])}</code>" for c in summary["config_files"]) \
        or "(none)"
    env = summary.get("environment", {})
    return (
        f'<p style="margin:.2em 0"><b>Run <code>{_h(summary["run"])}</code></b> · '
        f'commit <code>{_h(summary["commit"])}</code> · written {_h(summary.get("date", ""))}'
        f' · Snakemake {_h(env.get("snakemake", "?"))}</p>'
        f'<p style="margin:.2em 0">Config files: {configs} · benchmarks: '
        f'{_h(", ".join(summary["benchmarks"]))} · '
        f'{len(summary["systems"])} systems</p>'
        f'<p style="margin:.2em 0;padding:4px 8px;background:#fff6d6;border-left:4px solid '
        f'#e0b000">{_h(verdict(summary))}</p>')


# Snakemake's report shows the front page in a narrow column (max-w-lg) beside the rule graph,
# vertically centred (so a long page loses its top). While the front page is shown, these
# rules widen the column, put the rule graph below it and start the page at the top; they
# match nothing elsewhere (:has(.gmt-front)).
LAYOUT = ("<style>"
          ".items-center:has(.gmt-front){align-items:flex-start;justify-content:flex-start}"
          ".h-screen:has(.gmt-front),.items-start:has(> .py-2 .gmt-front){min-width:0}"
          ".py-2:has(> .max-w-lg .gmt-front){width:100%;min-width:0}"
          ".gmt-front code::before,.gmt-front code::after{content:none}"
          ".items-start:has(> .py-2 .gmt-front){flex-direction:column}"
          ".max-w-lg:has(.gmt-front){max-width:none}"
          ".gmt-front table{margin:0;font-size:12.5px}"
          ".gmt-front th,.gmt-front td{padding:2px 6px}"
          ".gmt-front h3{margin:.8em 0 .3em}"
          "</style>")


def front_html(summary: dict, scorecard_page: str | None, legend: pd.DataFrame | None) -> str:
    parts = [LAYOUT, '<div class="gmt-front">', head_html(summary)]
    if scorecard_page is not None:
        title = ("Scorecard: headline figures" if HEADLINE_START in scorecard_page
                 else "Scorecard")
        parts += [f"<h3>{title}</h3>", _fragment_of(scorecard_page)]
    if legend is not None:
        parts += ["<details><summary><b>Legend</b>: unit, better direction, run and source "
                  "table of each column</summary>", htmltable.table(legend), "</details>"]
    parts += ["<h3>Data sources</h3>", _html_table(sources_frame(summary)),
              *(f"<p>{_h(note)}</p>" for note in trust_notes(summary)),
              "<h3>Systems</h3>", _html_table(systems_frame(summary)), "</div>"]
    return "\n".join(parts)


#: What the front page says for a table without rows (a run with no data source: an empty
#: table has nothing to show, and pandas cannot apply a function to its columns).
NONE = "none"


def _html_table(frame: pd.DataFrame) -> str:
    return htmltable.table(frame) if len(frame) else f"<p>{NONE}</p>"


def _md_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its text cells as Markdown text (:func:`md_text`)."""
    return frame.apply(lambda column: [md_text(v) if isinstance(v, str) else v
                                       for v in column])


def _md_table(frame: pd.DataFrame) -> str:
    return _md_frame(frame).to_markdown(index=False) if len(frame) else NONE


def markdown(summary: dict) -> str:
    """run.md: the run's names, paths and systems shown as text, never as Markdown (as
    front.html escapes them for HTML)."""
    lines = [f"# Run {md_code(summary['run'])}", "",
             f"- commit: {md_text(summary['commit'])}",
             f"- written: {md_text(summary.get('date', ''))}",
             "- config files: " + ", ".join(md_text(c["path"])
                                            for c in summary["config_files"]),
             f"- {md_text(verdict(summary))}", "", "## Data sources", "",
             _md_table(sources_frame(summary)), "",
             *(line for note in trust_notes(summary) for line in (md_text(note), "")),
             "## Systems", "",
             _md_table(systems_frame(summary)), ""]
    return "\n".join(lines)


def write_front_page(summary: dict, outputs: dict, scorecard_html: str | None = None,
                     legend_csv: str | None = None) -> None:
    """Workflow stage: the start-up summary (a param) + the scorecard's page and legend →
    ``outputs["json"|"md"|"html"]``; the date is the job's."""
    summary = {**summary, "date": now(), "environment": environment()}
    page = Path(scorecard_html).read_text(encoding="utf-8") if scorecard_html else None
    legend = htmltable.read_table(legend_csv) if legend_csv else None
    write_json(outputs["json"], summary)
    write_text(outputs["md"], markdown(summary))
    write_text(outputs["html"], front_html(summary, page, legend))


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


def environment() -> dict:
    import platform

    import snakemake

    return {"snakemake": getattr(snakemake, "__version__", "?"),
            "python": platform.python_version()}
