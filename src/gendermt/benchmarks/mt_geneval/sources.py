"""MT-GenEval's source texts per prompt and language, read from the release's files without
building the data table: its contract's ``source_texts`` (gendermt.core.contract: the paid-work
estimate of commercial MT services at start-up, before any input is built). No pandas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.benchmarks.mt_geneval import GENDERS, SETS
from gendermt.benchmarks.mt_geneval.data import (
    SEP,
    contextual_paths,
    counterfactual_paths,
    data_root,
    read_segments,
)
from gendermt.core.errors import GenderMTError


def source_texts(name: str, spec: Mapping[str, Any], prompts: list[str]
                 ) -> dict[str, dict[str, list[str]]] | None:
    """Each prompt sends, per configured language, the masculine and feminine sentences and
    the contextual items' sentences (a plain-source system gets the sentence without its
    context), as the data stage's ``segments`` gives them. None under a subset or when a
    file is missing (the data stage says which)."""
    if spec.get("subset"):
        return None
    data = spec["data"]
    split = data.get("split", "test")
    sets = data.get("sets", list(SETS))
    texts: dict[str, list[str]] = {}
    try:
        root = data_root(data["root"])
        for lang in data["languages"]:
            found = texts.setdefault(lang, [])
            if "counterfactual" in sets:
                paths = counterfactual_paths(root, lang, split)
                for gender in GENDERS:
                    found += read_segments(paths[f"source_{gender}"])
            if "contextual" in sets:
                found += [line.split(SEP)[-1].strip() for line in
                          read_segments(contextual_paths(root, lang, split)["source"])]
    except (OSError, GenderMTError):
        return None
    return {p: texts for p in prompts}
