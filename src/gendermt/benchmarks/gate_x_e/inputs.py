"""GATE X-E's requests → ``inputs/{prompt}.jsonl``, the same contract as the generic
``build_inputs`` (gendermt.translation.prompts), with what a rewriter needs.

A request is one instance's source sentence and one of its gender-marked translations (the
*original*); the rewriter is asked for all three uniform-gender rewrites at once, and each
test tuple later takes the one of its requested gender (gate_x_e.scoring). In each record:
``source`` is the text a system works on — the original translation, as a monolingual
rewriter (the project's rule-based one; the paper's GPT-3.5 rewriter of Appendix B) sees it —
``source_sentence`` is the source-language sentence, and ``messages`` is the chat prompt with
both (``{source}`` and ``{translation}`` in the template), for LLM backends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from gendermt.data.io import write_jsonl
from gendermt.translation import prompts


def render(template: dict[str, Any], source: str, translation: str, src_lang: str
           ) -> list[dict]:
    """GATE X-E's rewriting prompt: the source sentence and its English translation."""
    return prompts.render(template, source, src_lang, "en", translation=translation)


def build_inputs(data_path: str | Path, template: dict[str, Any], output: str | Path) -> None:
    """Workflow stage: ``data.parquet`` + one template → ``inputs/{prompt}.jsonl``."""
    data = pd.read_parquet(data_path, columns=["item_id", "source", "original", "src_lang",
                                               "tgt_lang"])
    write_jsonl(output, (
        {"item_id": row.item_id, "prompt": template["name"],
         "template_version": template["version"], "template_sha256": template["sha256"],
         "src_lang": row.src_lang, "tgt_lang": row.tgt_lang, "source": row.original,
         "source_sentence": row.source,
         "messages": render(template, row.source, row.original, row.src_lang)}
        for row in data.itertuples(index=False)))
