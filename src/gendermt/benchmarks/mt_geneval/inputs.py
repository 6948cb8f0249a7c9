"""MT-GenEval's requests: ``data.parquet`` × a prompt's templates → ``inputs/{prompt}.jsonl``.

A counterfactual segment is one sentence and takes the prompt's template. A contextual item
is an English context sentence and the sentence its references translate: the paper's systems
were context-aware (the ``2to1`` files: context ``<sep>`` sentence in, the sentence out), so a
chat LLM gets the prompt's ``<prompt>_context`` template, which shows the context and asks for
the translation of the sentence alone (the scorer compares the output with the sentence's
references). A system that reads only the plain ``source`` (NMT, copy-source) translates the
sentence without its context: the contextual set then measures what it guesses.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from gendermt.data.io import write_jsonl
from gendermt.translation.prompts import render

if TYPE_CHECKING:  # imported where used: the workflow imports this module to plan
    pass

CONTEXT_SUFFIX = "_context"


def context_template_name(prompt: str) -> str:
    """The template a prompt uses for contextual items."""
    return prompt + CONTEXT_SUFFIX


def templates_of(templates: dict[str, dict[str, Any]], prompt: str, sets: list[str]
                 ) -> dict[str, dict[str, Any] | None]:
    """The rule's params: the prompt's template and, when the contextual set runs, its
    ``_context`` companion (the config check made sure it exists)."""
    context = templates[context_template_name(prompt)] if "contextual" in sets else None
    return {"template": templates[prompt], "context_template": context}


def messages(template: dict[str, Any], context_template: dict[str, Any] | None,
             row: Any) -> list[dict]:
    """The chat messages of one segment: contextual items (``set == "contextual"``) through
    the context template, with ``{context}`` filled; the rest through the prompt's."""
    if row.set == "contextual":
        if context_template is None:
            raise ValueError(f"{row.item_id}: a contextual item, but the prompt "
                             f"{template['name']!r} has no {CONTEXT_SUFFIX} template")
        return render(context_template, row.source, row.src_lang, row.tgt_lang,
                      context=row.context)
    return render(template, row.source, row.src_lang, row.tgt_lang, context="")


def build_inputs(data_path: str | Path, template: dict[str, Any],
                 context_template: dict[str, Any] | None, output: str | Path) -> None:
    """Workflow stage: one request per segment, with the plain source (the sentence) and the
    chat messages; each record names the template that rendered it and its version."""
    import pandas as pd

    data = pd.read_parquet(data_path, columns=["item_id", "set", "source", "context",
                                               "src_lang", "tgt_lang"])

    def record(row: Any) -> dict:
        used = context_template if row.set == "contextual" else template
        return {"item_id": row.item_id, "prompt": template["name"],
                "template": (used or template)["name"],
                "template_version": (used or template)["version"],
                "template_sha256": (used or template)["sha256"],
                "src_lang": row.src_lang, "tgt_lang": row.tgt_lang, "source": row.source,
                "messages": messages(template, context_template, row)}

    write_jsonl(output, (record(row) for row in data.itertuples(index=False)))
