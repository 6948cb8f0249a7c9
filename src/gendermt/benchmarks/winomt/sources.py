"""WinoMT's source texts per prompt, read from ``en.txt`` without building the data table:
its contract's ``source_texts`` (gendermt.core.contract: the paid-work estimate of commercial MT
services at start-up, before any input is built). No pandas: start-up runs on every call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.core.errors import GenderMTError
from gendermt.data.textfiles import read_lines


def source_texts(name: str, spec: Mapping[str, Any], prompts: list[str]
                 ) -> dict[str, dict[str, list[str]]] | None:
    """``{prompt: {prompt: sentences}}``: WinoMT's prompts are named by their target language
    and each sends every sentence of ``en.txt``. None under a subset (which rows it keeps is
    known once the data stage has run) or when the file is not as expected (the data stage
    names what is wrong)."""
    if spec.get("subset"):
        return None
    try:
        sentences = [line.split("\t")[2] for line in read_lines(spec["data"]["path"])]
    except (OSError, IndexError, KeyError, ValueError, GenderMTError):
        return None
    return {p: {p: sentences} for p in prompts}
