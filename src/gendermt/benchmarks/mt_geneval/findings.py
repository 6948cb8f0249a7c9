"""MT-GenEval's part of the findings page (docs/findings.md; gendermt.report.findings
assembles it): what its figures cannot show, and its figures the page's check leaves to an
LLM on a small subset."""

from __future__ import annotations

from gendermt.report.findings import Part, backend_ran


def limits_text(facts: frozenset[str] | set[str]) -> str:
    """What its figures cannot show, said only of what the run has (``facts``)."""
    real = "real" in facts
    without_context = ("Apertium and the reference points" if "apertium" in facts
                       else "the other systems")
    parts = [
        "Accuracy counts an output with none of the gendered words of either reference as "
        "correct (the official rule), so a system that drops or garbles the gendered word "
        "is not penalised: read it beside BLEU (and chrF, in mt-geneval/tables/quality.csv).",
        "The counterfactual accuracy is the authors' official figure: a pair counts only "
        "when both its masculine and its feminine translations are correct, so it sits "
        "below both genders' own accuracies; the gap beside it says which gender fails.",
        "Only a system that reads the prompt (an LLM) is shown a contextual item's context "
        f"sentence; {without_context} translate the sentence without its context (the "
        "summary table's context_shown), so their contextual accuracy measures what they "
        "guess, not how they use the context.",
        "Apertium's French and Italian go through Spanish." if "apertium" in facts else "",
        "The references are one " + ("human " if real else "") + "translation each: BLEU "
        "and chrF under-rate valid alternatives."]
    return " ".join(p for p in parts if p)


#: Figures of an LLM on a subset too small for any tolerance to mean anything: the
#: per-language figures of config/study/public-gemma.yaml rest on 5 contextual items and 2
#: counterfactual pairs a language, where one changed output moves them by 20 to 50 points.
#: The check only requires them to be figures (or – where the page has –); its BLEU over all
#: its items is checked within gendermt.report.findings.LLM_TOLERANCE.
LLM_UNCHECKED = ("counterfactual gap", "counterfactual correct words", "contextual accuracy",
                 "contextual correct words")


def part() -> Part:
    """Its part of the findings page (its contract's ``scorecard.findings``)."""
    return Part(order=30, limits=limits_text, facts={"apertium": backend_ran("apertium")},
                llm_unchecked=LLM_UNCHECKED)
