"""GATE's part of the findings page (docs/findings.md; gendermt.report.findings assembles
it): what its figures cannot show."""

from __future__ import annotations

from gendermt.report.findings import Part


def limits_text(facts: frozenset[str] | set[str]) -> str:
    """What its figures cannot show, said only of what the run has (``facts``)."""
    real = "real" in facts
    parts = [
        "No system that runs offline rewrites Spanish, French or Italian gender: the rows "
        "are the metric's reference points on the "
        + ("real data" if real else "project's sample") + " (the references themselves "
        "and the input left unchanged), not findings about any rewriter."
        if "reference-only" in facts else "",
        "Gemma 3 270M, prompted few-shot as on the other benchmarks (three demonstrations "
        "of a gender swap, then the request), was tried on a handful of GATE's Spanish "
        "requests and gave back the translation unchanged or shortened, never the "
        "rewrite: what the unchanged-input row already shows, so it does not run GATE "
        "here." if real and "reference-only" in facts else ""]
    return " ".join(p for p in parts if p)


def part() -> Part:
    """Its part of the findings page (its contract's ``scorecard.findings``)."""
    return Part(order=50, limits=limits_text)
