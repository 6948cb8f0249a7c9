"""A table in a paper's layout, written as CSV, Markdown and LaTeX from one description.

A layout is a frame with leading label columns (e.g. ``Gender``) and value columns whose labels
are ``(group, sub)`` pairs (e.g. ``("Gemma2-2B", "BLEU")``), already in the paper's order.
The CSV and Markdown flatten the pairs as ``group · sub``; the LaTeX has a two-row header with
``\\multicolumn`` groups (booktabs). Values are formatted once, by ``fmt``, for all three.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from gendermt.data.io import csv_text, write_text


def percent(value: float) -> str:
    """Means in percent with two decimals (the scores are already on a 0–100 scale)."""
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else f"{value:.2f}"


def p_value(value: float) -> str:
    """A p-value as the paper prints them: two significant digits, scientific below 0.001."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if value == 0:
        return "0"
    return f"{value:.1e}" if value < 1e-3 else f"{value:.3f}"


def _latex_p(text: str) -> str:
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"${mantissa}\\times 10^{{{int(exponent)}}}$"
    return text


def _escape(text: str) -> str:
    for char, repl in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"),
                       ("#", r"\#"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(char, repl)
    return text


def flat_columns(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out.columns = [" · ".join(str(p) for p in c if str(p)) if isinstance(c, tuple) else str(c)
                   for c in frame.columns]
    return out


def to_latex(frame: pd.DataFrame, labels: int, caption: str, fmt_p: bool = False) -> str:
    """booktabs tabular: the first ``labels`` columns are row labels, the rest ``(group, sub)``."""
    cols = list(frame.columns)
    values = cols[labels:]
    groups: list[tuple[str, int]] = []
    for col in values:
        group = str(col[0]) if isinstance(col, tuple) else str(col)
        if groups and groups[-1][0] == group:
            groups[-1] = (group, groups[-1][1] + 1)
        else:
            groups.append((group, 1))
    two_rows = any(isinstance(c, tuple) and len(c) > 1 and str(c[1]) for c in values)
    lines = [f"% {caption}", "\\begin{tabular}{" + "l" * labels + "r" * len(values) + "}",
             "\\toprule"]
    if two_rows:
        head, rules, start = [""] * labels, [], labels + 1
        for group, span in groups:
            head.append(f"\\multicolumn{{{span}}}{{c}}{{{_escape(group)}}}" if span > 1
                        else _escape(group))
            if span > 1:
                rules.append(f"\\cmidrule(lr){{{start}-{start + span - 1}}}")
            start += span
        lines.append(" & ".join(head) + " \\\\")
        lines += rules
        sub = [_escape(str(c[0] if isinstance(c, tuple) else c)) for c in cols[:labels]] + [
            _escape(str(c[1]) if isinstance(c, tuple) else "") for c in values]
        lines.append(" & ".join(sub) + " \\\\")
    else:
        lines.append(" & ".join(_escape(str(c[0] if isinstance(c, tuple) else c))
                                for c in cols) + " \\\\")
    lines.append("\\midrule")
    previous = [None] * labels
    for row in frame.itertuples(index=False):
        cells = []
        for i, value in enumerate(row):
            text = str(value)
            if i < labels:
                # repeated group labels are left blank, as in the paper
                cells.append("" if text == previous[i] and i < labels - 1 else _escape(text))
            else:
                cells.append(_latex_p(text) if fmt_p else _escape(text))
        previous = [str(v) for v in row[:labels]]
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def write_layout(frame: pd.DataFrame, labels: int, paths: dict[str, str | Path], title: str,
                 note: str = "", fmt: Callable[[float], str] = percent) -> None:
    """Write ``frame`` (``labels`` label columns, then values) to ``paths["csv"|"md"|"tex"]``."""
    shown = frame.copy()
    for col in shown.columns[labels:]:
        shown[col] = shown[col].map(fmt)
    flat = flat_columns(shown)
    write_text(paths["csv"], csv_text(flat))
    write_text(paths["md"], f"# {title}\n\n{note}\n\n" + flat.to_markdown(
        index=False, disable_numparse=True) + "\n")
    write_text(paths["tex"], to_latex(shown, labels, f"{title}. {note}".strip(),
                                      fmt_p=fmt is p_value))


def columns(groups: Sequence[str], subs: Sequence[str]) -> list[tuple[str, str]]:
    return [(g, s) for g in groups for s in subs]
