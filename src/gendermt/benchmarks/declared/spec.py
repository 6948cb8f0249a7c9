"""A declared benchmark's file: found, read and checked.

Every ``resources/benchmarks/<name>/benchmark.yaml`` of the project is a benchmark (its ``name`` is
its folder's). The file is checked against ``spec.schema.yaml`` (unknown keys are errors) and for
what a schema cannot say (each per-gender mapping names exactly the benchmark's genders; a metric
against references has references; a table format has its ``path``); every message is one line
naming the file and the key. The file is also the benchmark's prompt template file (``fragments``,
``templates``: :mod:`gendermt.translation.prompts`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

# found and read (their headings) by the contract, which may import nothing of the package
from gendermt.benchmarks.declared.contract import (  # noqa: F401
    SPEC_FILE,
    SPECS_DIR,
    heading,
    read_file,
    spec_files,
)
from gendermt.core.errors import GenderMTError

SCHEMA = Path(__file__).with_name("spec.schema.yaml")
#: Metrics scored against each gender's reference (they need ``data.reference``).
REFERENCE_METRICS = ("bleu", "chrf", "comet")
SACREBLEU_METRICS = ("bleu", "chrf")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_read = read_file


def _genders_of(path: Path, spec: Mapping[str, Any], key: str) -> None:
    value = spec["data"].get(key)
    if isinstance(value, dict) and set(value) != set(spec["genders"]):
        raise GenderMTError(f"{path}: data.{key}: names genders {', '.join(value)}, the "
                            f"benchmark's are {', '.join(spec['genders'])} (give one per "
                            "gender, or one name shared by all)")


def _check_format(path: Path, spec: dict[str, Any]) -> None:
    """The keys of the data's format, and its paths (:func:`_check_path`)."""
    data = spec["data"]
    if data["format"] == "lines":
        extra = [k for k in ("path", "language", "id") if k in data]
        if extra:
            raise GenderMTError(f"{path}: data.{extra[0]}: not a key of format `lines` (each "
                                "column names its own file)")
    else:
        if "path" not in data:
            raise GenderMTError(f"{path}: data.path: format {data['format']} reads one table "
                                "per `path` (write {lang} where the target language goes)")
    for key, template in path_templates(spec).items():
        _check_path(path, key, template)
    if data["format"] != "lines" and "{lang}" not in data["path"] and "language" not in data:
        raise GenderMTError(f"{path}: data.path: without {{lang}} the table holds every "
                            "language: name its language field in data.language")


def _check(path: Path, spec: dict[str, Any]) -> None:
    from gendermt.config.checks import check_schema

    try:
        check_schema(spec, _schema(), fill_defaults=True)
    except GenderMTError as exc:
        raise GenderMTError(f"{path}: {exc}") from None
    data = spec["data"]
    for key in ("source", "reference", "words"):
        _genders_of(path, spec, key)
    if "reference" not in data and "words" not in data:
        raise GenderMTError(f"{path}: data: give `reference` (a reference per gender) or "
                            "`words` (a gendered-word list per gender)")
    lacking = [m for m in spec["metrics"] if m in REFERENCE_METRICS]
    if lacking and "reference" not in data:
        raise GenderMTError(f"{path}: metrics: {', '.join(lacking)} need data.reference (a "
                            "reference per gender)")
    _check_format(path, spec)
    from gendermt.config.templates import PLACEHOLDERS, check_placeholders, load_templates

    check_placeholders(load_templates(path), PLACEHOLDERS, path)


@cache
def _schema() -> dict[str, Any]:
    return yaml.load(SCHEMA.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506


@cache
def _load(path: str, mtime_ns: int) -> dict[str, Any]:
    file = Path(path)
    spec = _read(file)
    _check(file, spec)
    spec["file"] = path
    return spec


def load(path: str | Path) -> dict[str, Any]:
    """The benchmark's file, checked, with its schema's defaults and ``file`` (its path).
    A copy: callers may change it."""
    import copy

    file = Path(path)
    if not file.is_file():
        raise GenderMTError(f"{file}: benchmark file not found")
    return copy.deepcopy(_load(str(file), file.stat().st_mtime_ns))


def per_gender(spec: Mapping[str, Any], key: str) -> dict[str, str] | None:
    """``data.<key>`` as ``{gender: name}`` (one name shared by all genders spread out);
    None when the file does not give it."""
    value = spec["data"].get(key)
    if value is None:
        return None
    if isinstance(value, str):
        return {g: value for g in spec["genders"]}
    return {g: value[g] for g in spec["genders"]}


def data_root(spec: Mapping[str, Any], override: str | Path | None = None) -> Path:
    """The folder the data paths are relative to: the config's ``data_root``, else the
    file's ``data.root`` (relative to the file)."""
    if override:
        return Path(override)
    import os

    root = Path(spec["data"].get("root", "."))
    return root if root.is_absolute() else Path(os.path.normpath(Path(spec["file"]).parent
                                                                 / root))


#: The placeholders a data path may use.
PATH_PLACEHOLDERS = ("lang",)


def path_templates(spec: Mapping[str, Any]) -> dict[str, str]:
    """``{key: template}`` of every data path the file names (``path``, or each column's
    file for format ``lines``; ``source.female`` for a per-gender one)."""
    data = spec["data"]
    if data["format"] != "lines":
        return {"path": data["path"]}
    found = {}
    for column in ("source", "reference", "words"):
        value = data.get(column)
        if isinstance(value, str):
            found[column] = value
        elif value:
            found.update({f"{column}.{g}": name for g, name in value.items()})
    return found


def _check_path(path: Path, key: str, template: str) -> None:
    """A data path fills only {lang} and stays below its root (no `..`, not absolute)."""
    from pathlib import PurePath

    from gendermt.config.placeholders import check

    check(template, PATH_PLACEHOLDERS, f"{path}: data.{key}")
    parts = PurePath(template)
    if parts.is_absolute():
        raise GenderMTError(f"{path}: data.{key}: {template!r} is an absolute path; data "
                            "paths are relative to the data root (data.root, or the config's "
                            "data_root)")
    if ".." in parts.parts:
        raise GenderMTError(f"{path}: data.{key}: {template!r} climbs out of the data root "
                            "with '..'; move the files below it or set the root (data.root, "
                            "or the config's data_root) instead")


def data_path(spec: Mapping[str, Any], folder: Path, key: str, lang: str) -> Path:
    """The file of ``data.<key>`` for ``lang`` under ``folder``, checked to stay inside it
    (a symlink pointing out of the root is refused; its content is never shown)."""
    import os

    from gendermt.config.placeholders import fill

    template = path_templates(spec)[key]
    _check_path(Path(spec["file"]), key, template)
    file = folder / fill(template, {"lang": lang}, f"{spec['file']}: data.{key}")
    real, root = Path(os.path.realpath(file)), Path(os.path.realpath(folder))
    if not real.is_relative_to(root):
        raise GenderMTError(f"{file}: data.{key} resolves outside the data root {folder} "
                            "(a symlink out of it); copy the file below the root or set the "
                            "root to where it is")
    return file


def gap_label(spec: Mapping[str, Any]) -> str:
    first, second = spec["genders"]
    return f"{first} − {second}"
