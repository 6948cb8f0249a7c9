"""Versioned prompt templates and the per-item inputs they produce.

A template file (YAML) holds named text ``fragments`` and ``templates`` that join fragments
into the user (and optionally system) message. Each template has a ``version`` to bump when
its text changes; the rendered text travels in the workflow's ``params``, so editing one
template reruns exactly the jobs that used it.

Placeholders: ``{source}`` (the item's source text), ``{src_lang_name}``, ``{tgt_lang_name}``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from gendermt.errors import GenderMTError
from gendermt.io import write_jsonl

LANGUAGE_NAMES = {"en": "English", "fr": "French", "it": "Italian", "es": "Spanish",
                  "el": "Greek", "de": "German", "tr": "Turkish", "hu": "Hungarian",
                  "fi": "Finnish", "fa": "Persian"}


def load_templates(path: str | Path) -> dict[str, dict[str, Any]]:
    """Resolve every template of a file into ``{name: {version, system, user, sha256}}``."""
    spec = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    fragments: dict[str, str] = spec.get("fragments", {})
    joiner: str = spec.get("joiner", " ")
    resolved = {}
    for name, tpl in spec["templates"].items():
        parts = {}
        for role in ("system", "user"):
            names = tpl.get(role) or []
            unknown = [n for n in names if n not in fragments]
            if unknown:
                raise GenderMTError(f"{path}: template {name!r} uses unknown fragment(s) {unknown}")
            parts[role] = joiner.join(fragments[n] for n in names) if names else None
        # the text the system works on; a monolingual rewriter's is {translation}
        slot = "{" + tpl.get("input", "source") + "}"
        if not parts["user"] or slot not in parts["user"]:
            raise GenderMTError(f"{path}: template {name!r} has no user message with {slot}")
        body = {"name": name, "version": tpl["version"], **parts}
        if "answer" in tpl:  # how a benchmark reads the answers (GATE X-E: neutral)
            body["answer"] = tpl["answer"]
        body["sha256"] = hashlib.sha256(
            json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
        resolved[name] = body
    return resolved


def render(template: dict[str, Any], source: str, src_lang: str, tgt_lang: str,
           **fields: str) -> list[dict]:
    """The chat messages a template gives for one source text; ``fields`` fill the
    benchmark's own placeholders (e.g. ``{translation}``, ``{gender}`` for rewriting)."""
    values = {"source": source, "src_lang_name": LANGUAGE_NAMES.get(src_lang, src_lang),
              "tgt_lang_name": LANGUAGE_NAMES.get(tgt_lang, tgt_lang), **fields}
    messages = []
    if template.get("system"):
        messages.append({"role": "system", "content": template["system"].format(**values)})
    messages.append({"role": "user", "content": template["user"].format(**values)})
    return messages


def build_inputs(data_path: str | Path, template: dict[str, Any], output: str | Path,
                 tgt_lang: str | None = None) -> None:
    """Workflow stage: ``data.parquet`` + one template → ``inputs/{prompt}.jsonl``.

    Each record carries the plain source (for NMT systems) and the chat messages (for LLMs).
    ``tgt_lang`` overrides the data's target language (benchmarks whose prompts are named by
    the target language, such as GAMBIT's ``fr`` and ``el``).
    """
    data = pd.read_parquet(data_path, columns=["item_id", "source", "src_lang", "tgt_lang"])
    if tgt_lang is not None:
        data["tgt_lang"] = tgt_lang
    write_jsonl(output, (
        {"item_id": row.item_id, "prompt": template["name"],
         "template_version": template["version"], "template_sha256": template["sha256"],
         "src_lang": row.src_lang, "tgt_lang": row.tgt_lang, "source": row.source,
         "messages": render(template, row.source, row.src_lang, row.tgt_lang)}
        for row in data.itertuples(index=False)))
