"""The per-item inputs a prompt template produces: its messages rendered for each item (the
template files themselves are read and checked by :mod:`gendermt.config.templates`).

Placeholders: ``{source}`` (the item's source text), ``{src_lang_name}``, ``{tgt_lang_name}``,
``{demonstrations}`` (few-shot examples in the target language, or the source language where
the template says ``demonstrations_by: src_lang``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gendermt.config.templates import DEMONSTRATIONS_BY
from gendermt.core.errors import GenderMTError
from gendermt.data.io import write_jsonl

LANGUAGE_NAMES = {"en": "English", "fr": "French", "it": "Italian", "es": "Spanish",
                  "el": "Greek", "de": "German", "tr": "Turkish", "hu": "Hungarian",
                  "fi": "Finnish", "fa": "Persian", "ar": "Arabic", "hi": "Hindi",
                  "pt": "Portuguese", "ru": "Russian"}


def demonstrations_text(template: dict[str, Any], src_lang: str, tgt_lang: str) -> str:
    """``{demonstrations}`` for one item's languages ("" for a template without them): those
    of its target language, or of its source language (``demonstrations_by: src_lang``)."""
    if "demonstration" not in template:
        return ""
    by = template.get("demonstrations_by", "tgt_lang")
    lang = src_lang if by == "src_lang" else tgt_lang
    demos = template["demonstrations"].get(lang)
    if not demos:
        raise GenderMTError(
            f"template {template['name']!r} has no demonstrations for the "
            f"{DEMONSTRATIONS_BY[by]} {lang!r} (it has "
            f"{', '.join(sorted(template['demonstrations']))}): add "
            f"`demonstrations: {{{lang}: [...]}}` to its file")
    names = {"src_lang_name": LANGUAGE_NAMES.get(src_lang, src_lang),
             "tgt_lang_name": LANGUAGE_NAMES.get(tgt_lang, tgt_lang)}
    return template["demonstration_joiner"].join(
        template["demonstration"].format(**{**d, **names}) for d in demos)


def render(template: dict[str, Any], source: str, src_lang: str, tgt_lang: str,
           **fields: str) -> list[dict]:
    """The chat messages a template gives for one source text; ``fields`` fill the
    benchmark's own placeholders (e.g. ``{translation}``, ``{gender}`` for rewriting)."""
    values = {"source": source, "src_lang_name": LANGUAGE_NAMES.get(src_lang, src_lang),
              "tgt_lang_name": LANGUAGE_NAMES.get(tgt_lang, tgt_lang),
              "demonstrations": demonstrations_text(template, src_lang, tgt_lang), **fields}
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
    the target language, such as GAMBIT's ``fr`` and ``el``); so does the template's own
    ``tgt_lang`` where the data has none (WinoMT's), so that a multilingual NMT system
    translates each prompt's requests into its language.
    """
    import pandas as pd  # here, not at import: the workflow imports this module to plan

    data = pd.read_parquet(data_path, columns=["item_id", "source", "src_lang", "tgt_lang"])
    if tgt_lang is not None:
        data["tgt_lang"] = tgt_lang
    elif template.get("tgt_lang"):
        data["tgt_lang"] = data["tgt_lang"].where(data["tgt_lang"].astype(bool),
                                                  template["tgt_lang"])
    write_jsonl(output, (
        {"item_id": row.item_id, "prompt": template["name"],
         "template_version": template["version"], "template_sha256": template["sha256"],
         "src_lang": row.src_lang, "tgt_lang": row.tgt_lang, "source": row.source,
         "messages": render(template, row.source, row.src_lang, row.tgt_lang)}
        for row in data.itertuples(index=False)))
