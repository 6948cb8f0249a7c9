"""Outputs that are not translations into the target language, for every benchmark: the
prompt's instruction echoed back, or an answer in another language (mostly the English
source, copied or half-translated).

A weak LLM does both, and every benchmark's metric is fooled by them: an echoed instruction
has no gendered word, so MT-GenEval counts it as correct and FairTranslate files it under "no
pronoun"; a copied English source has no grammatical gender to be wrong about. So each
output is checked against its request (:func:`check_output`), the checks are counted per run
(:func:`check_counts`, ``<benchmark>/tables/output_checks.csv``) and the scorecard marks the
figures of a run whose clean share is below its floor like low quality.

The rule is Neo-GATE's (:mod:`gendermt.benchmarks.neogate.checks`, which now calls this
module): an output whose word trigrams are mostly found in the prompt's instruction (what
the run's prompts have in common) is an echo; one with at least two frequent function words
of another language (the source's, or English) and more of them than of the target
language's is in the wrong language. A target language without a word list here gets the
echo check only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.data.io import read_jsonl, write_table

CHECKS = ("ok", "echo", "wrong_language")
#: An output whose word trigrams are at least this share found in its prompt's instruction
#: (the prompt without the sentence to translate) is an echo.
ECHO_SHARE = 0.5
_WORD = re.compile(r"\w+", re.UNICODE)
# Frequent function words per language, chosen without homographs of the English list
# (and the English list without homographs of the others'), so that a count is a vote.
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({
        "the", "and", "of", "is", "are", "to", "with", "for", "that", "this", "was", "were",
        "be", "been", "have", "has", "it", "they", "them", "their", "he", "she", "his", "her",
        "who", "which", "what", "an"}),
    "it": frozenset({
        "il", "lo", "la", "le", "gli", "di", "del", "della", "dei", "delle", "che", "è", "e",
        "un", "una", "uno", "per", "non", "con", "sono", "ha", "hanno", "nel", "nella", "alla",
        "al", "questo", "questa", "suo", "sua"}),
    "fr": frozenset({
        "le", "la", "les", "de", "des", "du", "et", "est", "un", "une", "que", "qui", "pour",
        "dans", "sur", "pas", "avec", "elle", "il", "ils", "elles", "au", "aux", "ce", "cette",
        "sa", "ses", "sont", "été", "leur"}),
    "es": frozenset({
        "el", "la", "los", "las", "de", "del", "y", "es", "un", "una", "que", "por", "para",
        "con", "su", "sus", "ella", "él", "ellos", "al", "lo", "se", "está", "fue", "les",
        "muy", "pero", "como", "este", "esta"}),
    "de": frozenset({
        "der", "die", "das", "und", "ist", "ein", "eine", "einen", "dem", "den", "des", "zu",
        "mit", "für", "nicht", "sie", "er", "sich", "auf", "von", "dass", "wurde", "sind",
        "auch", "nach", "bei", "aus", "seine", "ihre", "im"}),
}


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _trigrams(tokens: Sequence[str]) -> set[tuple[str, ...]]:
    return set(zip(tokens, tokens[1:], tokens[2:], strict=False))  # the shorter ends it


def _base(lang: str | None) -> str:
    return str(lang or "").lower().replace("_", "-").split("-")[0]


def check_output(hypothesis: str, instruction: str = "", tgt_lang: str | None = None,
                 src_lang: str | None = "en") -> str:
    """``echo``, ``wrong_language`` or ``ok`` for one output; ``instruction``: the text of the
    prompt it answered, without the source sentence (empty: no echo check); ``tgt_lang`` /
    ``src_lang``: ISO 639-1 codes (a target without a word list: no language check)."""
    return _check(hypothesis, _trigrams(words(instruction)) if instruction else None,
                  tgt_lang, src_lang)


def _check(hypothesis: str, instruction_grams: set[tuple[str, ...]] | None,
           tgt_lang: str | None, src_lang: str | None) -> str:
    """:func:`check_output` with the instruction's trigrams (None: no instruction), which a
    run's outputs share: computed once a run, not once an output."""
    tokens = words(hypothesis)
    grams = _trigrams(tokens)
    if grams and instruction_grams is not None and \
            len(grams & instruction_grams) / len(grams) >= ECHO_SHARE:
        return "echo"
    target = FUNCTION_WORDS.get(_base(tgt_lang))
    if target is None:
        return "ok"
    own = sum(w in target for w in tokens)
    for other in dict.fromkeys((_base(src_lang), "en")):
        if other == _base(tgt_lang) or other not in FUNCTION_WORDS:
            continue
        count = sum(w in FUNCTION_WORDS[other] for w in tokens)
        if count >= 2 and count > own:
            return "wrong_language"
    return "ok"


def instruction_of(messages: Sequence[Mapping[str, Any]], source: str) -> str:
    """The prompt's text without the sentence to translate (an output that repeats the source
    is a wrong-language output, not an echo of the instruction)."""
    text = "\n".join(str(m.get("content", "")) for m in messages)
    return text.replace(source, " ") if source else text


def template_text(prompts: Sequence[str]) -> str:
    """What the prompts of a run have in common: the word trigrams found in at least half of
    them (the instruction and any demonstrations), as text. Item-specific words (the
    sentence, the translation to rewrite, a requested gender) drop out, so that a rewriting
    benchmark's output, which repeats its item's translation, is not an echo."""
    if len(prompts) <= 1:
        return "\n".join(prompts)
    counts: Counter[tuple[str, ...]] = Counter()
    for prompt in prompts:
        counts.update(_trigrams(words(prompt)))
    return "\n".join(" ".join(g) for g, n in counts.items() if 2 * n >= len(prompts))


Requests = tuple[dict[str, Any], set[tuple[str, ...]] | None]


def _requests(inputs: str | Path | None) -> Requests:
    """A run's requests by item id, and the trigrams of their common instruction
    (:func:`template_text`; None: no instruction)."""
    requests = {r["item_id"]: r for r in read_jsonl(inputs)} if inputs else {}
    instruction = template_text([
        instruction_of(r.get("messages", []) or [], str(r.get("source", "") or ""))
        for r in requests.values()])
    return requests, (_trigrams(words(instruction)) if instruction else None)


def _checks(translations: str | Path, prepared: Requests) -> list[tuple[str, str]]:
    """(item id, check) of every output of one run, in file order (see :func:`item_checks`)."""
    requests, instruction_grams = prepared
    checks = []
    for i, record in enumerate(read_jsonl(translations)):
        request = requests.get(record.get("item_id"), {})
        checks.append((str(record.get("item_id", i)), _check(
            str(record.get("hypothesis", record.get("raw", "")) or ""), instruction_grams,
            request.get("tgt_lang"), request.get("src_lang", "en"))))
    return checks


def _counts(checks: Sequence[tuple[str, str]]) -> dict[str, int]:
    counts = dict.fromkeys(CHECKS, 0)
    for _, check in checks:
        counts[check] += 1
    return counts


def item_checks(translations: str | Path, inputs: str | Path | None = None) -> dict[str, str]:
    """Item id → its check (``ok``, ``echo``, ``wrong_language``) for one run's outputs
    (``hypothesis`` of each translation record), each against the instruction common to the
    run's requests in ``inputs`` (:func:`template_text`) and its own request's languages
    (same ``item_id``)."""
    return dict(_checks(translations, _requests(inputs)))


def check_run(translations: str | Path, inputs: str | Path | None = None) -> dict[str, int]:
    """The count of each check over one run's outputs (:func:`item_checks`)."""
    return _counts(_checks(translations, _requests(inputs)))


def check_counts(runs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per run (``{system, prompt, path, inputs}``: its translation file and its
    requests): items, the count of each check, and ``clean_share`` (``ok`` / items)."""
    rows = []
    prepared: dict[Any, Requests] = {}  # the runs of one prompt share their requests file
    for run in runs:
        inputs = run.get("inputs")
        if inputs not in prepared:
            prepared[inputs] = _requests(inputs)
        counts = _counts(_checks(run["path"], prepared[inputs]))
        items = sum(counts.values())
        rows.append({"system": run["system"], "prompt": run["prompt"], "items": items,
                     **counts, "clean_share": counts["ok"] / items if items else float("nan")})
    return pd.DataFrame(rows, columns=["system", "prompt", "items", *CHECKS, "clean_share"])


def write_check_table(runs: Sequence[Mapping[str, Any]], csv: str | Path,
                      md: str | Path) -> None:
    """Workflow stage: a benchmark's runs → ``tables/output_checks.csv`` + .md."""
    write_table(check_counts(runs), csv, md, floatfmt=".3f")
