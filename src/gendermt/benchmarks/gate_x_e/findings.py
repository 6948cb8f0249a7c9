"""GATE X-E's part of the findings page (docs/findings.md; gendermt.report.findings
assembles it): what its figures cannot show, on the full set and on a subset an LLM ran."""

from __future__ import annotations

from gendermt.report.findings import Part, backend_ran


def limits_text(facts: frozenset[str] | set[str]) -> str:
    """What its figures cannot show, said only of what the run has (``facts``)."""
    if "rule-rewriter" in facts:
        return (
            "The rule-based rewriter (rule-rewriter) is the project's own word-list pronoun "
            "rewriter, not the paper's rule-based baseline (Appendix B's is Sun et al. 2021), "
            "and it was developed on GATE X-E's real pronoun-only pairs, so its figure here is "
            "not a held-out estimate. It changes pronouns only (he/she/they and their forms): "
            "instances whose gendered words are nouns (brother/sister) cannot be rewritten "
            "by it, and the oracle and keep-original rows are reference points, not systems.")
    return "The oracle and keep-original rows are reference points, not systems."


#: What a run on a subset adds to its paragraph where an LLM takes part.
SUBSET_LIMITS = (
    "Gemma is asked for the all-neutral rewrite alone, one line after three "
    "demonstrations in the source language (the task of the paper's GPT-3.5 rewriter, "
    "Appendix B, which sees no source sentence and, few-shot, five demonstrations): its "
    "feminine and masculine rewrites are made from "
    "the original translation by the same pronoun rule (her/his read from its neutral "
    "answer), so its figure on gendered requests is partly the rule's, and an answer "
    "that rewrites a noun (brother → sibling) is right only for the neutral request. An "
    "answer that changes any other word is wrong: the metric is exact match. A few "
    "dozen tuples from a few instances a language say which rewriter is far ahead, not "
    "by how much.")


def part() -> Part:
    """Its part of the findings page (its contract's ``scorecard.findings``)."""
    return Part(order=40, limits=limits_text, subset_limits=SUBSET_LIMITS,
                facts={"rule-rewriter": backend_ran("rule-rewriter")})
