"""A declared benchmark's source texts per prompt and language, read from its files without
building the data table: the ``sources`` hook of gendermt.core.contract (the paid-work
estimate of commercial MT services at start-up, before any input is built). No pandas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.benchmarks.declared.config import languages_of, spec_of
from gendermt.benchmarks.declared.data import _lines, _table
from gendermt.benchmarks.declared.spec import data_root


def source_texts(name: str, block: Mapping[str, Any], prompts: list[str]
                 ) -> dict[str, dict[str, list[str]]] | None:
    """Each prompt sends every configured language's sources, one per item and gender (as
    the data stage's ``segments`` gives them); None under a subset. A file the data stage
    would refuse raises GenderMTError (start-up then gives no estimate)."""
    if block.get("subset"):
        return None
    spec = spec_of(name)
    langs = languages_of(spec, block)
    folder = data_root(spec, block.get("data_root"))
    if spec["data"]["format"] == "lines":
        items = {lang: _lines(spec, folder, lang)[0] for lang in langs}
    else:
        items = _table(spec, folder, langs)[0]
    texts = {lang: [item["source"][g] for item in items[lang] for g in spec["genders"]]
             for lang in langs}
    return {p: texts for p in prompts}
