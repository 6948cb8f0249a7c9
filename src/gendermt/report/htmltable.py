"""Tables as self-contained HTML for the report: no CDN, no <script> element (the report
inserts its front page with innerHTML, where scripts do not run), sortable by clicking a
column's header (an inline handler on the table), numbers right-aligned."""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from gendermt.data.io import write_text

MAX_ROWS = 2000  # beyond this the page would weigh more than it tells: the CSV has them all

CSS = """
.gmt-table{border-collapse:collapse;font:13px/1.35 system-ui,-apple-system,"Segoe UI",
sans-serif;margin:.5em 0}
.gmt-table th,.gmt-table td{border:1px solid #d0d0d0;padding:3px 7px;vertical-align:top}
.gmt-table thead th{background:#f2f2f2;position:sticky;top:0;cursor:pointer;
white-space:nowrap}
.gmt-table thead th[data-dir=asc]::after{content:" \\25B2";font-size:9px}
.gmt-table thead th[data-dir=desc]::after{content:" \\25BC";font-size:9px}
.gmt-table td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.gmt-table tr.group th{background:#e4e9f2;text-align:center;cursor:default}
.gmt-wrap{overflow-x:auto;max-width:100%}
.gmt-note{font:12px system-ui,sans-serif;color:#444;margin:.3em 0}
""".replace("\n", "")

# Click a header: sort the body rows by that column (numbers as numbers, blanks last),
# again: the other way. Event delegation keeps it to one attribute per table.
SORT = (
    "var th=event.target.closest('thead th');if(!th||th.colSpan>1)return;"
    "var t=this,b=t.tBodies[0],i=th.cellIndex,d=th.dataset.dir==='asc'?'desc':'asc';"
    "t.querySelectorAll('thead th').forEach(function(h){delete h.dataset.dir});"
    "th.dataset.dir=d;var k=function(r){var c=r.cells[i];"
    "var v=c?(c.dataset.v!==undefined?c.dataset.v:c.textContent.trim()):'';"
    "var n=parseFloat(v);return v===''?null:(isNaN(n)||!/^[-+.\\d]/.test(v)?v:n)};"
    "var rows=Array.prototype.slice.call(b.rows);rows.sort(function(x,y){"
    "var p=k(x),q=k(y);if(p===null)return 1;if(q===null)return -1;"
    "var s=(typeof p===typeof q)?(p<q?-1:p>q?1:0):(typeof p==='number'?-1:1);"
    "return d==='asc'?s:-s});rows.forEach(function(r){b.appendChild(r)})"
)


def fmt_value(value) -> tuple[str, str | None]:
    """(text shown, sort key) of one cell: floats to 4 significant digits, blanks blank."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "", ""
    if isinstance(value, bool):
        return str(value), None
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e6 else f"{value:.6g}", repr(value)
    return str(value), None


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def table(frame: pd.DataFrame, *, groups: Sequence[tuple[str, int]] | None = None,
          cell_style: Callable[[int, int], str | None] | None = None,
          max_rows: int = MAX_ROWS, sortable: bool = True) -> str:
    """``frame`` as an HTML <table> fragment (with the styles it needs). ``groups``: a first
    header row of (label, span); ``cell_style(row, col)``: an inline style for a cell."""
    shown = frame.head(max_rows)
    numeric = [_is_numeric(shown[c]) for c in shown.columns]
    attrs = f' onclick="{html.escape(SORT)}"' if sortable else ""
    out = [f"<style>{CSS}</style>", '<div class="gmt-wrap">',
           f'<table class="gmt-table"{attrs}>', "<thead>"]
    if groups:
        out.append('<tr class="group">' + "".join(
            f'<th colspan="{span}">{html.escape(label)}</th>' for label, span in groups)
            + "</tr>")
    out.append("<tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in shown.columns)
               + "</tr></thead><tbody>")
    for i, row in enumerate(shown.itertuples(index=False)):
        cells = []
        for j, value in enumerate(row):
            text, key = fmt_value(value)
            cls = ' class="num"' if numeric[j] else ""
            data = f' data-v="{html.escape(key)}"' if key is not None else ""
            style = cell_style(i, j) if cell_style else None
            css = f' style="{html.escape(style)}"' if style else ""
            cells.append(f"<td{cls}{data}{css}>{html.escape(text)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    if len(frame) > max_rows:
        out.append(f'<p class="gmt-note">The first {max_rows:,} of {len(frame):,} rows; '
                   "the CSV beside this page has them all.</p>")
    return "\n".join(out)


def document(title: str, body: str, note: str = "") -> str:
    """A whole page (what the report shows in its frame for a table entry)."""
    lead = f'<p class="gmt-note">{html.escape(note)}</p>' if note else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title></head>"
            '<body style="margin:8px;font:13px system-ui,sans-serif">'
            f"<h3 style=\"margin:.2em 0\">{html.escape(title)}</h3>{lead}\n{body}\n"
            "</body></html>\n")


def read_table(path: str | Path) -> pd.DataFrame:
    # keep_default_na=False: a table's "NA" or "" label stays text; numbers still parse
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    return frame


def csv_to_html(csv: str | Path, out: str | Path, title: str) -> None:
    frame = read_table(csv)
    note = f"{len(frame):,} rows · {Path(csv).name} (full precision) beside this page."
    write_text(out, document(title, table(frame), note))


def write_tables(tables: dict[str, dict]) -> None:
    """Workflow stage: ``{csv: {"html": path, "title": str}}`` → one HTML page per table."""
    for csv, spec in tables.items():
        csv_to_html(csv, spec["html"], spec["title"])
