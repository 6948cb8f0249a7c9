"""Give every report entry of the rule files its labels and tables their HTML page.

In workflow/rules/*.smk: ``report("….csv", …)`` → ``table_report("….csv", …)`` (registered
for rule report_tables, which renders the table as HTML inline in the report; the CSV
itself becomes a plain output), ``report("….png"|".pdf"|".svg"|".html", …)`` →
``figure_report(…)`` (labelled), and ``report("….md", …)`` → the plain path (the table's HTML
page shows it). Idempotent, so it can be replayed over rule files edited on other branches:

    python tools/rewrite_report_entries.py [FILES...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALL = re.compile(r"(?<![\w.])report\(")
FIRST = re.compile(r'\s*(f?"[^"]*")')


def _close(text: str, start: int) -> int:
    """Index just past the parenthesis that closes the one opened at ``start - 1``."""
    depth, i, quote = 1, start, None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced report( call")


def rewrite(text: str) -> str:
    out, pos = [], 0
    for match in CALL.finditer(text):
        if match.start() < pos:
            continue
        first = FIRST.match(text, match.end())
        if not first:
            continue
        path = first.group(1).rstrip('"').lower()
        out.append(text[pos:match.start()])
        end = _close(text, match.end())
        if path.endswith(".csv"):
            out.append("table_report(")
            pos = match.end()
        elif path.endswith(".md"):
            out.append(first.group(1))
            pos = end
        elif path.endswith((".png", ".pdf", ".svg", ".html", ".jpg")):
            out.append("figure_report(")
            pos = match.end()
        else:
            out.append(match.group(0))
            pos = match.end()
    out.append(text[pos:])
    return "".join(out)


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((ROOT / "workflow" / "rules").glob("*.smk"))
    for path in files:
        if path.name == "common.smk":
            continue  # defines the helpers
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
