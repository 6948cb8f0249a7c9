"""A declared benchmark's config block (``benchmarks.<name>``): its checks, its templates and
the lookups its rules use. The contract names per-benchmark functions (``check_<name>``,
``templates_<name>``): the hooks receive the block, not the benchmark's name, so the name is
part of the function's (module ``__getattr__``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from gendermt.benchmarks.declared.contract import declared_files
from gendermt.benchmarks.declared.spec import heading, load
from gendermt.core.errors import GenderMTError

PACKAGE = "gendermt.benchmarks.declared"


def benchmark_files() -> dict[str, str]:
    """name → benchmark file of every declared benchmark: the project's, and those a config
    keeps outside it (``benchmarks.<name>.file``, gendermt.config.benchmark_files)."""
    return {(h := heading(path))["name"]: h["file"] for path in declared_files()}


def spec_of(name: str) -> dict[str, Any]:
    """The benchmark file of a declared benchmark, checked (a copy)."""
    files = benchmark_files()
    if name not in files:
        raise GenderMTError(f"{name}: no declared benchmark of that name (declared: "
                            f"{', '.join(files) or 'none'})")
    return load(files[name])


def languages_of(spec: Mapping[str, Any], block: Mapping[str, Any]) -> list[str]:
    """The target languages a run asks for: the block's ``languages``, else the file's."""
    return list(block.get("languages") or spec["languages"])


def check(name: str, spec: Mapping[str, Any], config: Mapping[str, Any]) -> None:
    """The benchmark file is valid, the block's languages are among its, and every file of
    them exists (messages start with the config key)."""
    from gendermt.benchmarks.declared.data import files

    # (``spec``: the config block, as every contract's check names it; ``declared``: the
    # benchmark file)
    key = f"benchmarks.{name}"
    try:
        declared = spec_of(name)
    except GenderMTError as exc:
        raise GenderMTError(f"{key}: {exc}") from None
    unknown = [lang for lang in spec.get("languages") or [] if lang not in declared["languages"]]
    if unknown:
        raise GenderMTError(f"{key}.languages: {', '.join(unknown)} not among "
                            f"{declared['file']}'s languages "
                            f"({', '.join(declared['languages'])})")
    try:
        files(declared, languages_of(declared, spec), spec.get("data_root"))
    except GenderMTError as exc:
        raise GenderMTError(f"{key}.data_root: {exc}") from None


def templates(name: str, spec: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The block's (``spec``) templates: its ``templates`` file's where it names one, else the
    benchmark file's own (it is a template file too)."""
    from gendermt.config.templates import PLACEHOLDERS, check_placeholders, load_templates

    # the file's templates only: the whole file is checked by `check` (its message then
    # names the block, not its templates)
    path = spec.get("templates") or benchmark_files()[name]
    found = load_templates(path)
    check_placeholders(found, PLACEHOLDERS, path)
    return found


def is_declared(package: str) -> bool:
    return package == PACKAGE


def shown_path(path: str) -> str:
    """``path`` relative to the working directory (the project root) where it is inside it,
    else as given."""
    from pathlib import Path

    file, here = Path(path).resolve(), Path.cwd().resolve()
    return str(file.relative_to(here)) if file.is_relative_to(here) else path


def configured(benchmarks: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The configured declared benchmarks, for their rule file: name → ``spec`` (the file,
    checked), ``languages``, ``root`` (the block's data_root, None for the file's), ``files``
    (what the data stage reads), ``label``, ``rule`` (the rules' name suffix) and
    ``metrics``."""
    from gendermt.benchmarks.declared.data import files
    from gendermt.core import registry

    found = {}
    for name, block in benchmarks.items():
        if not is_declared(registry.get(name).package):
            continue
        spec = spec_of(name)
        # relative to the working directory (the project root) where it is inside it: paths
        # are params (data.json records them), so moving the project reruns nothing
        spec["file"] = shown_path(spec["file"])
        langs = languages_of(spec, block)
        root = block.get("data_root")
        found[name] = {"spec": spec, "languages": langs, "root": root,
                       "files": [str(p) for p in files(spec, langs, root)],
                       "label": spec["label"], "rule": name.replace("-", "_"),
                       "metrics": list(spec["metrics"])}
    return found


_HOOKS: dict[str, Callable[..., Any]] = {"check_": check, "templates_": templates}


def __getattr__(attr: str) -> Callable[..., Any]:
    for prefix, hook in _HOOKS.items():
        if attr.startswith(prefix) and len(attr) > len(prefix):
            return partial(hook, attr[len(prefix):])
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
