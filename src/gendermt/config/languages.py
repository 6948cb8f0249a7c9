"""Which languages a configured benchmark translates into, and whether a multilingual NMT
model knows them: checked by ``gendermt run`` before Snakemake starts, on the model's
tokenizer only (no weights), so that a model a benchmark cannot take is named at once
instead of in a job after its download.

A benchmark's languages are its contract's ``direction`` (``en→ar/de/es/...``), narrowed to
those its config block names (``data.languages``, or prompts named by their language).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gendermt.core import registry
from gendermt.core.errors import GenderMTError


def _sides(name: str) -> tuple[set[str], set[str]]:
    sources, targets = set(), set()
    for pair in registry.get(name).direction.split(","):
        left, arrow, right = pair.strip().partition("→")
        if arrow:
            sources.update(x.strip() for x in left.split("/") if x.strip())
            targets.update(x.strip() for x in right.split("/") if x.strip())
    return sources, targets


def target_languages(name: str, spec: Mapping[str, Any]) -> list[str]:
    """The ISO 639-1 codes the benchmark's block translates into."""
    _, declared = _sides(name)
    data = spec.get("data") if isinstance(spec.get("data"), Mapping) else {}
    named = {str(x).lower() for x in (data.get("languages") or [])}
    named |= {str(p).lower() for p in spec.get("prompts") or []}
    return sorted(declared & named or declared)


def source_languages(name: str) -> list[str]:
    return sorted(_sides(name)[0])


def _tokenizer(settings: Mapping[str, Any]) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(settings["model"]),
                                         revision=settings.get("revision"))


def check(system: str, settings: Mapping[str, Any], blocks: Mapping[str, Mapping[str, Any]],
          load_tokenizer: Callable[[Mapping[str, Any]], Any] | None = None) -> None:
    """Every benchmark's source and target languages known to the system's model (an
    ``hf-seq2seq`` model with language codes). A
    :class:`GenderMTError` names the benchmark, the language and the fix."""
    from gendermt.translation.backends import nmt_languages

    backend = settings.get("backend")
    if backend != "hf-seq2seq" or settings.get("tgt_lang"):
        return  # a fixed pair (tgt_lang) is the user's choice; other backends say in the job
    try:
        tok = (load_tokenizer or _tokenizer)(settings)
    except (OSError, ValueError) as exc:  # no such model, no network and no cached copy
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GenderMTError(f"{system}: cannot read the tokenizer of {settings['model']} to "
                            f"check its languages ({first}); check the model's id or folder, "
                            f"or fetch it first (hf download {settings['model']})") from None
    kind = nmt_languages.family(tok)
    if kind is None:
        return  # one language pair: nothing to ask for (docs/multitarget-nmt.md)
    codes = dict(settings.get("lang_codes") or {})
    for name, spec in blocks.items():
        wanted = [(lang, "source") for lang in source_languages(name)]
        wanted += [(lang, "target") for lang in target_languages(name, spec)]
        for lang, role in wanted:
            try:
                nmt_languages.target(tok, kind, lang, codes, str(settings["model"]), role)
            except GenderMTError as exc:
                raise GenderMTError(f"{system} cannot run {name} ({role} language {lang!r}): "
                                    f"{exc}; or leave {name} out of --benchmarks") from None
