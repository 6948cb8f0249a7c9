"""Answers of a monolingual neutral rewriter (the paper's GPT-3.5 Turbo setting, Appendix B):
the all-neutral rewrite of the original translation, from which the gendered rewrites are
made by rule (Appendix B.2: unambiguous pronouns mapped to the requested gender, her/his
disambiguated by the form the neutral rewrite chose).

Templates with ``answer: neutral`` (``src/gendermt/benchmarks/gate_x_e/prompts/rewrite.yaml``:
``gpt35_zero_shot``, ``gpt35_few_shot``) are read this way. An answer is "None" (nothing to rewrite:
every rewrite is the original, as for the step-by-step rewriter), a labelled ``Neutral: …`` line
(the last one wins, so a system that answers in the three-variant format is read too), or the
rewritten text itself (its last non-empty line, a leading "Rewrite:" and quotes removed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pandas as pd

from gendermt.benchmarks.gate_x_e.parse import parse_answer
from gendermt.core.errors import GenderMTError
from gendermt.translation.rewriting.english_pronouns import gendered_rewrite

_PREFIX = re.compile(r"^\s*(?:rewrite|rewritten(?: text)?|answer|output)\s*[:：]\s*", re.I)
_QUOTES = "\"'“”‘’`"


def neutral_of(raw: str) -> str | None:
    """The neutral rewrite an answer gives; None for "None" (keep the original); "" for an
    empty answer."""
    answer = parse_answer(raw or "")
    if answer.none:
        return None
    if "neutral" in answer.variants:
        return answer.variants["neutral"]
    lines = [line.strip() for line in (raw or "").splitlines() if line.strip()]
    if not lines:
        return ""
    text = _PREFIX.sub("", lines[-1]).strip()
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1].strip()
    return None if text.rstrip(".").lower() == "none" else text


def rewrite_for(original: str, neutral: str | None, gender: str) -> str:
    """The rewrite of ``gender`` from the original and the neutral answer."""
    if neutral is None:
        return original
    if gender == "neutral" or not neutral:
        return neutral
    return gendered_rewrite(original, neutral, gender)


def rewrites_from_neutral_answers(tuples: pd.DataFrame, raws: Mapping[str, str]
                                  ) -> pd.DataFrame:
    """Each tuple with the rewrite of its requested gender from its request's neutral answer,
    and how the answer was read (``answer``: none, complete, or empty)."""
    missing = sorted(set(tuples["item_id"]) - set(raws))
    if missing:
        raise GenderMTError(f"no output for {len(missing)} request(s), e.g. {missing[:3]}")
    neutrals = {item: neutral_of(raw) for item, raw in raws.items()}
    out = tuples.copy()
    out["rewrite"] = [rewrite_for(t.original, neutrals[t.item_id], t.requested_gender)
                      for t in tuples.itertuples(index=False)]
    out["answer"] = ["none" if neutrals[i] is None else ("empty" if not neutrals[i]
                                                         else "complete")
                     for i in tuples["item_id"]]
    return out
