"""Which systems see MT-GenEval's context: a contextual item is a context sentence and the
sentence to translate; a prompted LLM is shown the context (the prompt's ``_context``
template), while a system that reads only the plain source translates the sentence alone, so
its contextual accuracy measures what it guesses, not how it uses the context. The workflow
records the answer per run (the summary table's ``context_shown``)."""

from __future__ import annotations

from typing import Any

from gendermt.benchmarks.mt_geneval.inputs import context_template_name


def context_shown(settings: dict[str, Any], templates: dict[str, dict[str, Any]], prompt: str,
                  sets: list[str]) -> bool | None:
    """Whether a system sees the contextual items' context sentence: a backend that reads the
    rendered messages (an LLM: its module declares the ``llm`` style, gendermt.core.backends)
    on a prompt whose ``_context`` template fills ``{context}``; never a backend that reads
    only the plain ``source`` (Apertium, a stored file, copy-source, a reference oracle), which
    translates the sentence alone. None where the contextual set does not run."""
    if "contextual" not in sets:
        return None
    from gendermt.core import backends

    about = backends.info(str(settings.get("backend")))
    if about is None:
        backends.backend_class(settings)  # an unknown backend: its error
    if about is None or about.style != "llm":
        return False
    template = templates.get(context_template_name(prompt)) or {}
    return any("{context}" in str(template.get(part) or "") for part in ("system", "user"))
