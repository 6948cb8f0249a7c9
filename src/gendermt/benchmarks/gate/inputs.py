"""GATE's requests → ``inputs/{prompt}.jsonl`` (the generic contract; see
gendermt.translation.prompts).

A request is one GATE row in one direction: the English source, its translation with the
ambiguous person in one gender (the *original*) and the gender asked for. ``source`` is the
translation to rewrite (what an offline rewriter works on); ``source_sentence`` the English
source; ``messages`` the chat prompt (``{source}``, ``{translation}``, ``{gender}``,
``{tgt_lang_name}`` in the template).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.data.io import write_jsonl
from gendermt.translation import prompts


def render(template: dict[str, Any], source: str, translation: str, gender: str,
           tgt_lang: str) -> list[dict]:
    """GATE's rewriting prompt: English source, its translation, the requested gender."""
    return prompts.render(template, source, "en", tgt_lang, translation=translation,
                          gender=gender)


def build_inputs(data_path: str | Path, template: dict[str, Any], output: str | Path) -> None:
    """Workflow stage: ``data.parquet`` + one template → ``inputs/{prompt}.jsonl``."""
    data = pd.read_parquet(data_path, columns=["item_id", "source", "original",
                                               "requested_gender", "src_lang", "tgt_lang"])
    write_jsonl(output, (
        {"item_id": row.item_id, "prompt": template["name"],
         "template_version": template["version"], "template_sha256": template["sha256"],
         "src_lang": row.src_lang, "tgt_lang": row.tgt_lang, "source": row.original,
         "source_sentence": row.source, "requested_gender": row.requested_gender,
         "messages": render(template, row.source, row.original, row.requested_gender,
                            row.tgt_lang)}
        for row in data.itertuples(index=False)))
