"""User-given text (a run's name, config file paths, system, prompt, data set and column
names) written into the project's Markdown pages (docs/findings.md, report/run.md) as text,
never as Markdown: as front.html escapes it for HTML, so that a name such as
``x](http://evil)|<b>**`` makes no link, no emphasis, no HTML and no extra table cell."""

from __future__ import annotations

import re
from typing import Any

# Markdown's inline syntax (CommonMark with GFM tables and strikethrough): code, emphasis,
# links and images, raw HTML and autolinks, entities, table cells; each is backslash-escaped.
_SPECIAL = re.compile(r"[\\`*\[\]<>|~&]")


def _one_line(value: Any) -> str:
    return " ".join(str(value).splitlines())


def md_text(value: Any) -> str:
    """``value`` as literal Markdown text on one line (also inside a table cell)."""
    text = _SPECIAL.sub(lambda m: "\\" + m.group(), _one_line(value))
    # `_` opens or closes emphasis only beside a non-alphanumeric character: step_by_step
    # stays as it is, _x_ does not
    text = "".join("\\_" if c == "_" and not (0 < i < len(text) - 1 and text[i - 1].isalnum()
                                               and text[i + 1].isalnum()) else c
                   for i, c in enumerate(text))
    # GFM's extended autolinks (a bare http://... or www.... becomes a link)
    text = text.replace("://", "\\://")
    return re.sub(r"(?i)\bwww\.", lambda m: m.group()[:-1] + "\\.", text)


def md_code(value: Any) -> str:
    """``value`` as an inline code span on one line: fenced by one backtick more than its
    longest run of them, so that nothing in it ends the span (a code span shows its text as
    it is: no link, emphasis or HTML inside). Not for table cells (a `|` there splits it)."""
    text = _one_line(value)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_cells(line: str) -> list[str]:
    """The cells of a Markdown table row, split at its unescaped pipes."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
