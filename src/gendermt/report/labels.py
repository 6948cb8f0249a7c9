"""Labels of the report's entries: benchmark, what the entry is, and the paper's table or
figure it is laid out as (the figures are the run's own, on the run's data) — so that the
report lists "Table 6 · ANOVA", not file paths, and its search finds "ANOVA" or "GRAPE".
Keyed by the path below the results folder; an entry not listed (here or in its benchmark's
contract) is named after its file (``by_gender`` → "By gender")."""

from __future__ import annotations

import re

from gendermt.core import registry

# path below results/<run>/ (without extension) → (name, the paper's table / figure): the
# scorecard's, then each benchmark's (its contract's `labels`)
NAMES: dict[str, tuple[str, str]] = {
    "scorecard/scorecard": ("Scorecard", ""),
    "scorecard/legend": ("Scorecard legend", ""),
    "scorecard/scorecard.png": ("Scorecard heatmap", ""),
    **{key: value for b in registry.benchmarks() for key, value in b.labels.items()},
}
PATTERNS: list[tuple[str, tuple[str, str]]] = [
    pattern for b in registry.benchmarks() for pattern in b.label_patterns]


def _key(path: str) -> str:
    """``results[/<run>]/neogate/tables/zeroshot.csv`` → ``neogate/tables/zeroshot``."""
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", str(path).replace("\\", "/"))
    parts = stem.split("/")
    for i, part in enumerate(parts):
        if part in ("tables", "figures", "scorecard"):
            return "/".join(parts[i - 1 if part != "scorecard" else i:])
    return stem


def name_of(path: str) -> tuple[str, str]:
    """(name, paper reference) of an entry."""
    key = _key(path)
    ext = str(path).rsplit(".", 1)[-1]
    if f"{key}.{ext}" in NAMES:  # a figure named like its table
        return NAMES[f"{key}.{ext}"]
    if key in NAMES:
        return NAMES[key]
    for pattern, (name, paper) in PATTERNS:
        match = re.fullmatch(pattern, key)
        if match:
            return name.format(*match.groups()), paper
    return key.rsplit("/", 1)[-1].replace("_", " ").capitalize(), ""


def title_of(path: str) -> str:
    """"Table 6 · ANOVA p-values": the paper's table or figure first, where there is one."""
    name, paper = name_of(path)
    return f"{paper} · {name}" if paper else name


def labels_for(path: str, category: str) -> dict[str, str]:
    """``labels`` of a report entry. The report sorts a subcategory's entries by the first
    label and shows one column per label; the benchmark (constant within a category) comes
    second, where the report would otherwise make a two-valued label a toggle."""
    return {"result": title_of(path), "benchmark": category}
