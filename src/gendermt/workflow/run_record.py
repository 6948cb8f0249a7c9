"""What a run is: its name, the config files it was made from, its data sources, systems and
commit, known at start-up and written beside the results (the report's front page shows it,
with the date and environment of the job that writes it: gendermt.report.frontpage)."""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Sequence
from pathlib import Path

from gendermt.config.files import shown_path
from gendermt.data.sources import Hasher, Source, configured_sources, identity, is_sample


def git_commit(root: str | Path) -> str:
    """The checkout's commit (short), "+modified" when tracked files differ from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                              text=True, timeout=20, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "--short=12", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", "src", "workflow",
                    "config", "resources", "Snakefile")
    except (OSError, subprocess.SubprocessError):
        return "unknown (not a git checkout)"
    return commit + ("+modified" if dirty else "")


def _sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def summary(run: str, configfiles: Sequence[str], config: dict, basedir: str | Path,
            hasher: Hasher | None = None, datasets: Sequence[dict] = ()) -> dict:
    """The run summary, as far as it is known at start-up (the job adds the date).
    ``datasets``: the declared public data sets the config names (gendermt.data.datasets), each
    with its source, commit, licence and every file's sha256 (listed only when there are)."""
    hasher = hasher or Hasher(None)
    sources = []
    for source in configured_sources(config) + read_files(config):
        if source.key.endswith(".templates"):
            continue  # the project's prompt templates: recorded with every input file
        files = identity(source.path, hasher)
        # data: the benchmark's items; the rest (mappings, lexicons, references, ...) are
        # what the analyses read beside them
        data = ".data." in source.key
        entry = {"benchmark": source.key.split(".")[1], "key": source.key,
                 "path": source.path, "data": data, "sample": source.sample and data,
                 "project_file": source.sample,
                 "size": sum(f["size"] for f in files)}
        if source.folder:
            entry["files"] = len(files)
            entry["sha256"] = hashlib.sha256("".join(
                f"{f['path']}\0{f['sha256']}\n" for f in files).encode()).hexdigest()
        else:
            entry["sha256"] = files[0]["sha256"]
        sources.append(entry)
    for name, spec in config.get("benchmarks", {}).items():
        data = spec.get("data", {})
        if isinstance(data, dict) and data.get("hub"):
            sources.append({"benchmark": name, "key": f"benchmarks.{name}.data.hub",
                            "hub": data["hub"], "revision": data.get("revision") or "main",
                            "data": True, "sample": False, "project_file": False})
    systems = _systems_used(config)
    found = {
        "run": run,
        "config_files": [{"path": shown_path(p), "sha256": _sha256(p)} for p in configfiles
                         if Path(p).is_file()],
        "commit": git_commit(basedir),
        "benchmarks": list(config.get("benchmarks", {})),
        "sources": sources,
        "systems": systems,
    }
    subsets = {name: dict(spec["subset"]) for name, spec in config.get("benchmarks", {}).items()
               if spec.get("subset")}
    if subsets:
        # a study's subset of a benchmark's items (gendermt.data.subsets; the counts kept are in
        # that benchmark's data.json)
        found["subsets"] = subsets
    if datasets:
        # where each came from this time (cache, local copy, download) is not recorded: it
        # changes nothing in the results
        found["datasets"] = [{k: v for k, v in d.items() if k not in ("folder", "obtained")}
                             for d in datasets]
    return found


def read_files(config: dict) -> list[Source]:
    """The files a benchmark's runs read that its config block does not name (a declared
    benchmark's file and data files), from its contract's ``data_files``: recorded as its
    data sources beside the files its block names."""
    from gendermt.core import registry
    from gendermt.core.contract import resolve

    found = []
    for name, block in config.get("benchmarks", {}).items():
        hook = registry.get(name).data_files
        found += [Source(key, path) for key, path in resolve(hook)(name, block)] if hook else []
    return found


def _systems_used(config: dict) -> list[dict]:
    """The configured systems some benchmark runs, each with what it is and the benchmarks
    that run it."""
    from gendermt.core.backends import system_kind

    used: dict[str, list[str]] = {}
    for name, spec in config.get("benchmarks", {}).items():
        for system in _systems_of(spec):
            used.setdefault(system, []).append(name)
    systems = []
    for name, settings in config.get("systems", {}).items():
        if name not in used:
            continue
        what = settings.get("model") or settings.get("path") or settings.get("reference") or ""
        systems.append({"system": name, "backend": settings.get("backend", ""),
                        # model, baseline or oracle: the report labels reference points
                        "kind": system_kind(settings),
                        "model": str(what), "revision": settings.get("revision", ""),
                        "benchmarks": used[name],
                        "sample": bool(settings.get("path")) and is_sample(
                            str(settings["path"]).split("{", 1)[0] or ".")})
    return systems


def _systems_of(spec: dict) -> list[str]:
    names = list(spec.get("systems", []))
    for per in spec.get("paradigm_systems", {}).values():
        names += per
    for per in spec.get("language_systems", {}).values():
        names += list(per.values())
    annotator = spec.get("annotations", {}).get("annotator") or {}
    names += [annotator["system"]] if annotator.get("system") else []
    for detector in spec.get("detectors", {}).values():
        names += [detector["system"]] if isinstance(detector, dict) and "system" in detector \
            else []
    return list(dict.fromkeys(names))


def startup_line(summary: dict) -> str:
    """One line at start-up: what this run is made of."""
    sources = [s for s in summary["sources"] if s.get("data", True)]
    samples = sum(s["sample"] for s in sources)
    configs = ", ".join(c["path"] for c in summary["config_files"]) or "(none)"
    return (f"gendermt: run '{summary['run']}' (results/{summary['run']}/) from {configs}; "
            f"{len(summary['benchmarks'])} benchmarks, {len(summary['systems'])} systems; "
            f"{len(sources)} data sources, {samples} of them project samples; "
            f"commit {summary['commit']}")
