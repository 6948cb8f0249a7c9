"""A declared benchmark's files, read or named without building the data table (no pandas):
its contract's ``source_texts`` and ``data_files`` (gendermt.core.contract).

- ``source_texts``: its source texts per prompt and language (the paid-work estimate of
  commercial MT services at start-up, before any input is built);
- ``data_files``: the files its runs read that its config block does not name (the benchmark
  file and every data file of the configured languages), which the run summary records as its
  data sources (gendermt.workflow.run_record: their sha256 on the report's front page)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gendermt.benchmarks.declared.config import languages_of, shown_path, spec_of
from gendermt.benchmarks.declared.data import _lines, _table
from gendermt.benchmarks.declared.spec import data_path, data_root, path_templates


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


def data_files(name: str, block: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(key, path) of the benchmark file (``benchmarks.<name>.file``) and of each data file
    the run reads (``benchmarks.<name>.data.<key of the benchmark file>``, one per language
    where the path has ``{lang}``), each once, paths as the rules name them (relative to the
    working directory where they are inside it)."""
    spec = spec_of(name)
    folder = data_root(spec, block.get("data_root"))
    found = {shown_path(spec["file"]): f"benchmarks.{name}.file"}
    for lang in languages_of(spec, block):
        for key in path_templates(spec):
            path = shown_path(str(data_path(spec, folder, key, lang)))
            found.setdefault(path, f"benchmarks.{name}.data.{key}")
    return [(key, path) for path, key in found.items()]
