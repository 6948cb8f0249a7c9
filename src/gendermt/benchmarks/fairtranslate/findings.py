"""FairTranslate's part of the findings page (docs/findings.md; gendermt.report.findings
assembles it): its table, claims and runs only, no text of its own."""

from __future__ import annotations

from gendermt.report.findings import Part


def part() -> Part:
    """Its part of the findings page (its contract's ``scorecard.findings``)."""
    return Part(order=10)
