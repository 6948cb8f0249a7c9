"""Reading a config file the project is given, strictly: one line for what is wrong.

Snakemake loads ``--configfile`` itself (a key given twice silently keeps the last value; a
folder, a missing, UTF-16 or binary file stops its command line with a traceback, before any
project code runs). The project re-reads every config file it is given with
:func:`read_config`: the workflow's start-up (:mod:`gendermt.workflow.startup`), and the
entry points ``python -m gendermt.config.run check|report-path`` (``make run``/``make report``
call ``check`` before Snakemake) and ``gendermt scorecard --configfile``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from gendermt.config.input_limits import check_input
from gendermt.core.errors import GenderMTError

_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_BASE):  # type: ignore[misc, valid-type]
    """YAML's safe loader, refusing a mapping that gives a key twice."""


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)  # merge keys (<<) first: an override is no duplicate
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        try:
            first = seen.get(key)
        except TypeError:  # an unhashable key: the constructor names it
            break
        if first is not None:
            raise GenderMTError(f"key {key!r} given twice (lines {first} and {line}); keep "
                                "one: YAML would silently use the last")
        seen[key] = line
    return loader.construct_mapping(node, deep=True)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def _text(path: Path) -> str:
    if path.is_dir():
        raise GenderMTError(f"{path}: is a folder, not a config file (give a .yaml file)")
    if not path.exists():
        raise GenderMTError(f"{path}: no such config file")
    check_input(path, "config")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GenderMTError(f"{path}: cannot read the config file ({exc.strerror})") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (b"\x00" in data[:200] and
                                                      data[:200].count(b"\x00") * 3 >= len(
                                                          data[:200])):
        raise GenderMTError(f"{path}: UTF-16 text, not UTF-8; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise GenderMTError(f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} on line "
                            f"{line}); a config file is UTF-8 YAML") from None


def read_config(path: str | Path) -> dict[str, Any]:
    """A config file's mapping; :class:`GenderMTError` (one line naming the file) when it is
    not a readable UTF-8 YAML mapping or gives a key twice."""
    path = Path(path)
    text = _text(path)
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a safe loader)
    except GenderMTError as exc:
        raise GenderMTError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" on line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise GenderMTError(f"{path}: not YAML{where}: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise GenderMTError(f"{path}: a config file is a YAML mapping (key: value lines), "
                            f"not a {type(data).__name__}")
    return data


DEFAULT_CONFIG = "config/config.yaml"


def check_config_files(named: Sequence[str], config: dict, basedir: str | Path) -> None:
    """Config files named on the command line replace the embedded default; a set of them
    that leaves the default out must say so by naming its own run (`run:`), so that the
    default's benchmarks are never dropped by accident and the two never share results."""
    if not named:
        return
    default = (Path(basedir) / DEFAULT_CONFIG).resolve()
    if any(Path(p).resolve() == default for p in named):
        return
    if config.get("run") is None:
        files = " ".join(shown_path(p) for p in named)
        raise GenderMTError(
            f"--configfile {files}: named config files replace the default "
            f"({DEFAULT_CONFIG}) instead of adding to it, and these do not name a run.\n"
            f"  To add them to the default, name it first:  --configfile {DEFAULT_CONFIG} "
            f"{files}\n"
            "  To run them on their own (as the study configs do, with "
            "config/study/systems.yaml), give the run a name in one of them, e.g.\n"
            "      run: mine        # its results go to results/mine/\n"
            "  or on the command line: --config run=mine"
        )


def shown_path(path: str | Path) -> str:
    """A path as the user would type it: relative to the working directory where it can be."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
