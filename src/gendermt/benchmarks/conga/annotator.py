"""An LLM annotator that tags Italian outputs following the ConGA rules (§5.2–5.3).

The prompt lives in a versioned template file
(``src/gendermt/benchmarks/conga/prompts/annotate.yaml``: ``system`` and ``user`` texts with
``{english}``, the tagged English gold, and ``{italian}``, the output to annotate). The model runs
through the project's backends (any chat backend: ``hf-causal``, ``vllm``, ``openai-compatible`` …),
each request carrying the messages.

Its answer is accepted only if it is the output itself with well-formed Italian tags
(``<M#>``/``<F#>``): the first line that is not empty, code fences and surrounding quotes
removed. Anything else leaves the output unannotated, with the reason and the raw answer
kept in the annotation record; nothing is repaired or guessed.

Requests go through the engine translation's go through (:func:`gendermt.translation.engine.ask`:
the request cache, keyed by the annotator's identity and the rendered request; ``cache.dir`` of the
workflow config), and each batch's answers are stored as they come: a rerun, or a job resumed after
a kill, sends only what was never answered.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gendermt.benchmarks.conga.tags import TagError, TagScheme, normalise_space, parse_tagged
from gendermt.core.errors import GenderMTError

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    import pandas as pd

log = logging.getLogger(__name__)


def load_template(path: str | Path, name: str) -> dict[str, Any]:
    """One template of an annotator prompt file: ``{name, version, system, user, sha256}``."""
    spec = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    templates = spec.get("templates", {})
    if name not in templates:
        raise GenderMTError(f"{path}: no annotator template {name!r} (it has: "
                            f"{', '.join(templates)})")
    tpl = templates[name]
    user = tpl.get("user") or ""
    if "{italian}" not in user or "{english}" not in user:
        raise GenderMTError(f"{path}: template {name!r} needs {{english}} and {{italian}} in "
                            "its user message")
    body = {"name": name, "version": tpl["version"], "system": tpl.get("system"), "user": user}
    body["sha256"] = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False)
                                    .encode()).hexdigest()[:16]
    return body


def render(template: dict[str, Any], english: str, italian: str) -> list[dict[str, str]]:
    values = {"english": english, "italian": italian}
    messages = []
    if template.get("system"):
        messages.append({"role": "system", "content": template["system"].format(**values)})
    messages.append({"role": "user", "content": template["user"].format(**values)})
    return messages


def parse_output(raw: str, hypothesis: str, scheme: TagScheme | None = None
                 ) -> tuple[str | None, str | None]:
    """``(tagged sentence, None)`` if the answer is the output with valid tags, else
    ``(None, reason)``."""
    scheme = scheme or TagScheme.target()
    lines = [ln.strip() for ln in (raw or "").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("```")]
    if not lines:
        return None, "empty answer"
    answer = lines[0]
    for left, right in (('"', '"'), ("“", "”"), ("'", "'"), ("«", "»")):
        if len(answer) > 1 and answer.startswith(left) and answer.endswith(right) and not \
                hypothesis.strip().startswith(left):
            answer = answer[1:-1].strip()
    try:
        parsed = parse_tagged(answer, scheme)
    except TagError as exc:
        return None, f"malformed tags: {exc}"
    if normalise_space(parsed.text) != normalise_space(hypothesis):
        return None, f"the annotator changed the text: {parsed.text!r}"
    return answer, None


def annotate_with_llm(records: list[dict[str, Any]], english: pd.Series,
                      annotator: dict[str, Any], data: pd.DataFrame,
                      scheme: TagScheme, cache_dir: str | Path | None = None
                      ) -> tuple[int, int]:
    """Ask the annotator about each record (in place): accepted answers make it
    ``annotated`` with source ``llm:<system>@<template>:v<version>``. Returns
    ``(requests sent, answers from the cache)``."""
    from gendermt.translation.backends import Request, build_backend
    from gendermt.translation.engine import ask

    if not records:
        return 0, 0
    template = annotator["template"]
    backend = build_backend(annotator["settings"], data)
    label = f"llm:{annotator['system']}@{template['name']}:v{template['version']}"
    requests = [Request(r["item_id"], r["hypothesis"],
                        render(template, english[r["item_id"]], r["hypothesis"]), "it", "it")
                for r in records]
    answers, sent, cached = ask(backend, cache_dir, requests,
                                f"annotating with {annotator['system']}", who="annotator",
                                unit="item")
    for rec in records:
        raw = answers[rec["item_id"]]
        tagged, reason = parse_output(raw, rec["hypothesis"], scheme)
        rec["annotator_raw"] = raw
        if tagged is None:
            rec["notes"].append(f"{label} rejected: {reason}")
        else:
            rec.update(status="annotated", annotation=tagged, annotation_source=label)
    rejected = sum(r["status"] == "unannotated" for r in records)
    log.info("LLM annotator %s: %d of %d answers accepted (%d requests sent, %d answers from "
             "the cache)", label, len(records) - rejected, len(records), sent, cached)
    return sent, cached
