"""ConGA's comparison (§7): English gold entities against Italian realisations, by index.

For each sentence and each entity index:

* on both sides: one category per gender the Italian gives the entity — match (M→M, F→F),
  error (M→F, F→M) or bias (A→M, A→F). An entity realised once feminine and once masculine
  (Table 2, ``asciutta <F1> … bravo <M1>``) counts under both, as Table 4 files sentence 125
  under "A→F/M";
* only in English: ``unmatched_source`` (e.g. pronouns Italian drops); only in Italian:
  ``unmatched_target``. Tags without an index (allowed only when a scheme does not require
  one) cannot be aligned and count as unmatched on their side, one per tag.

Precision and recall per gender follow §7 and Table 6: matches over the gender's tags in the
Italian outputs (precision) and in the English source (recall) — Table 6 divides
173 TowerLLM M-matches by its 544 Italian M tags and by the 356 English M tags (Table 3).
``denominator="entities"`` divides by entity counts instead (an option, recorded with the
results; not the paper's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from gendermt.benchmarks.conga import CATEGORIES, PAIR_CATEGORY, SOURCE_LETTERS, TARGET_LETTERS
from gendermt.benchmarks.conga.tags import TaggedSentence
from gendermt.scoring.metric_signature import metric_signature

DENOMINATORS = ("tags", "entities")
#: Bumped when the comparison or the precision/recall below change.
SIGNATURE_VERSION = 1


def signature(denominator: str = "tags", source_tags: dict | None = None,
              target_tags: dict | None = None, annotator: str | None = None) -> str:
    """The metric's signature: the denominator, the tag syntax of each side (``default``:
    the scheme's own) and who annotated the outputs the tables did not get from files
    (``annotator``: the LLM annotator's system; ``none``: files and alternatives only)."""
    return metric_signature("conga", SIGNATURE_VERSION, {
        "denominator": denominator, "source_tags": source_tags or "default",
        "target_tags": target_tags or "default", "annotator": annotator})


def compare(source: TaggedSentence, target: TaggedSentence) -> list[dict[str, Any]]:
    """One row per (entity, realised gender): ``entity, source_gender, target_gender,
    category``; genders are ``""`` where the entity is absent on that side."""
    src, tgt = source.entities(), target.entities()
    rows: list[dict[str, Any]] = []
    for entity in sorted(set(src) | set(tgt)):
        s = src[entity][0] if entity in src else ""
        if entity not in tgt:
            rows.append({"entity": entity, "source_gender": s, "target_gender": "",
                         "category": "unmatched_source"})
        elif entity not in src:
            rows.append({"entity": entity, "source_gender": "",
                         "target_gender": "".join(tgt[entity]),
                         "category": "unmatched_target"})
        else:
            rows += [{"entity": entity, "source_gender": s, "target_gender": g,
                      "category": PAIR_CATEGORY[(s, g)]} for g in tgt[entity]]
    rows += [{"entity": None, "source_gender": t.gender, "target_gender": "",
              "category": "unmatched_source"} for t in source.unindexed()]
    rows += [{"entity": None, "source_gender": "", "target_gender": t.gender,
              "category": "unmatched_target"} for t in target.unindexed()]
    return rows


def category_counts(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    counts = Counter(r["category"] for r in rows)
    return {c: int(counts.get(c, 0)) for c in CATEGORIES}


def totals(source: TaggedSentence, target: TaggedSentence) -> dict[str, int]:
    """Tag and entity counts per gender on each side (Table 3 and the metric denominators)."""
    out: dict[str, int] = {}
    for side, sentence, letters in (("source", source, SOURCE_LETTERS),
                                    ("target", target, TARGET_LETTERS)):
        tags = sentence.tag_counts()
        realised = Counter(g for genders in sentence.entities().values() for g in genders)
        realised.update(t.gender for t in sentence.unindexed())
        for letter in letters:
            out[f"{side}_tags_{letter.lower()}"] = int(tags.get(letter, 0))
            out[f"{side}_entities_{letter.lower()}"] = int(realised.get(letter, 0))
    return out


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def _f1(p: float | None, r: float | None) -> float | None:
    if p is None or r is None:
        return None
    return 2 * p * r / (p + r) if p + r else 0.0


def precision_recall(counts: dict[str, float], denominator: str = "tags"
                     ) -> dict[str, float | None]:
    """``precision_m, recall_m, f1_m, precision_f, recall_f, f1_f`` from summed counts
    (categories and :func:`totals`); ``None`` where a denominator is zero."""
    if denominator not in DENOMINATORS:
        raise ValueError(f"denominator must be one of {DENOMINATORS}, not {denominator!r}")
    out: dict[str, float | None] = {}
    for letter in ("m", "f"):
        match = counts[f"match_{letter}"]
        p = _ratio(match, counts[f"target_{denominator}_{letter}"])
        r = _ratio(match, counts[f"source_{denominator}_{letter}"])
        out.update({f"precision_{letter}": p, f"recall_{letter}": r, f"f1_{letter}": _f1(p, r)})
    return out


def score_sentence(source: TaggedSentence, target: TaggedSentence
                   ) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Entity rows and the sentence's counts (categories + totals)."""
    rows = compare(source, target)
    return rows, {**category_counts(rows), **totals(source, target)}


def describe(rows: Iterable[dict[str, Any]]) -> str:
    """Readable entity outcomes for the per-sentence log, e.g. ``F2→M error_f_to_m``."""
    parts = []
    for r in rows:
        name = "?" if r["entity"] is None else str(r["entity"])
        left = f"{r['source_gender']}{name}" if r["source_gender"] else f"∅{name}"
        right = r["target_gender"] or "∅"
        parts.append(f"{left}→{right} {r['category']}")
    return "; ".join(parts)
