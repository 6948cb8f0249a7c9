"""The stage-version lock: what each stage runs, hashed, beside its declared version
(src/gendermt/workflow/stage_versions.json; gendermt.workflow.stage_versions reads the versions).

A job's ``code`` param is its stages' declared versions, so a change to a stage's code reruns
nothing by itself. This lock keeps the safety that import-following fingerprints gave: each
stage's hash covers the normalised source (no imports, docstrings, comments or blank lines) of
every gendermt module it imports, followed transitively, and each rule script is hashed too.
``check`` (the unit test tests/unit/test_stage_lock.py, so CI) fails when one of them changed
since it was locked; the developer then says which it is:

    python -m tools.stage_lock bump STAGE...            # what it writes changes: its jobs rerun
    python -m tools.stage_lock unchanged STAGE... --why "a refactor"   # behaviour unchanged
    python -m tools.stage_lock check                    # what CI checks

``unchanged`` and ``bump`` take rule scripts (their paths) as well as stages, or ``all`` (every
one out of date); ``unchanged`` records the reason in the file's log. A stage new to the lock
is added by ``bump`` at version 1. ``make stage-lock`` runs ``check``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from gendermt.workflow import import_graph, stage_versions  # noqa: E402

LOCK = stage_versions.VERSIONS

#: a stage named in a rule file or lookup: stage_code("gendermt...."), its first literal
_STAGE_CALL = re.compile(r"\b(?:stage_code|scoring_code)\(\s*\"(gendermt(?:\.\w+)+)\"")
_LITERAL = re.compile(r'"(gendermt(?:\.\w+)+)"')


def _rule_files() -> list[Path]:
    return sorted([*ROOT.glob("workflow/rules/*.smk"), *ROOT.glob("src/gendermt/**/*.smk")])


def _scripts() -> list[Path]:
    return sorted([*ROOT.glob("workflow/scripts/*.py"),
                   *ROOT.glob("src/gendermt/benchmarks/*/scripts/*.py")])


def used_stages() -> set[str]:
    """Every stage a rule's ``code`` param can name: the stages named in the rule files and
    the code the workflow runs, the backends' modules and what they load by name, the
    benchmarks' explorers, scorecard readers and normalisers, the translation runner."""
    from gendermt.core import registry
    from gendermt.scorecard.figures import reader_modules
    from gendermt.scoring.normalization import normalizers
    from gendermt.translation.backends import BACKENDS, system_modules
    from gendermt.translation.backends.stored import formats

    found: set[str] = {stage_versions.RUNNER, "gendermt.scorecard.stage",
                       "gendermt.report.explorer_page", "gendermt.scoring.score",
                       "gendermt.scoring.comet", *reader_modules(),
                       "gendermt.benchmarks.declared.scorecard",
                       "gendermt.benchmarks.declared.explorer"}
    for path in [*_rule_files(), *ROOT.glob("src/gendermt/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"\bstage_code\(", text):
            depth, i = 1, match.end()
            while depth and i < len(text):
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            found.update(_LITERAL.findall(text[match.end():i]))
        found.update(_STAGE_CALL.findall(text))
    settings = [{"backend": n} for n in BACKENDS if n != "stored"]
    settings += [{"backend": "stored", "format": f} for f in ["lines", *formats()]]
    for s in settings:
        found.update(system_modules(s))
    found.update(f"{b.package}.explorer" for b in registry.benchmarks())
    found.update(m.partition(":")[0] for m in normalizers().values())
    return {s for s in found if import_graph._file_of(s) is not None}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@cache  # by the file's (mtime, size): each module is read once however many stages run it
def _module_digest(path: Path, mtime_ns: int, size: int) -> str | None:
    body = import_graph.normalized(path.read_bytes())
    return _digest(body)[:16] if body.strip() else None


def module_hashes(modules: set[str]) -> dict[str, str]:
    hashes = {}
    for module in sorted(modules):
        path = import_graph._file_of(module)
        if path is None:
            continue
        stat = path.stat()
        digest = _module_digest(path, stat.st_mtime_ns, stat.st_size)
        if digest:
            hashes[module] = digest
    return hashes


def current() -> dict:
    """The lock as the code is now: each stage's closure and hash, each script's hash."""
    stages, modules = {}, {}
    for stage in sorted(used_stages()):
        hashes = module_hashes(set(import_graph.modules_run_by(stage)))
        modules.update(hashes)
        stages[stage] = {"code": _digest("\0".join(sorted(hashes.values())).encode())[:16],
                         "modules": sorted(hashes)}
    scripts = {str(p.relative_to(ROOT)): _digest(import_graph.normalized(p.read_bytes()))[:16]
               for p in _scripts()}
    return {"stages": stages, "modules": dict(sorted(modules.items())), "scripts": scripts}


def load() -> dict:
    return json.loads(LOCK.read_text(encoding="utf-8"))


def problems(lock: dict | None = None, now: dict | None = None) -> list[str]:
    """What is out of date in the lock, each with what to run; [] if nothing."""
    lock = load() if lock is None else lock
    now = current() if now is None else now
    found = []
    hint = ("python -m tools.stage_lock bump {0} (what it writes changes: its jobs rerun) or "
            "python -m tools.stage_lock unchanged {0} --why '...' (behaviour unchanged)")
    for stage, entry in now["stages"].items():
        locked = lock["stages"].get(stage)
        if locked is None:
            found.append(f"{stage}: a stage with no declared version: "
                         f"python -m tools.stage_lock bump {stage}")
        elif locked["code"] != entry["code"]:
            changed = [m for m in entry["modules"]
                       if lock["modules"].get(m) != now["modules"][m]]
            found.append(f"{stage}: its code changed since version {locked['version']} was "
                         f"locked ({', '.join(changed) or 'its modules'}): "
                         + hint.format(stage))
    for script, digest in now["scripts"].items():
        if lock["scripts"].get(script) != digest:
            found.append(f"{script}: the rule script changed since it was locked: "
                         + hint.format(script))
    return found


def _write(lock: dict) -> None:
    lock["stages"] = dict(sorted(lock["stages"].items()))
    lock["scripts"] = dict(sorted(lock["scripts"].items()))
    lock["modules"] = dict(sorted(lock.get("modules", {}).items()))
    # one line a stage, module, script and log entry: diffs show what changed
    parts = []
    for key, value in lock.items():
        if isinstance(value, dict):
            rows = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                    for k, v in value.items()]
            parts.append(f" {json.dumps(key)}: {{\n" + ",\n".join(rows) + "\n }")
        elif isinstance(value, list):
            rows = [f"  {json.dumps(v, ensure_ascii=False)}" for v in value]
            parts.append(f" {json.dumps(key)}: [" + ("\n" + ",\n".join(rows) + "\n ]"
                                                   if rows else "]"))
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    LOCK.write_text("{\n" + ",\n".join(parts) + "\n}\n", encoding="utf-8")


def record(names: list[str], *, bump: bool, why: str = "") -> list[str]:
    """Bring the named stages and scripts up to date in the lock: ``bump`` raises a
    stage's version (its jobs rerun); otherwise the change is logged as behaviour unchanged.
    Returns what was done, one line each."""
    lock, now = load(), current()
    if names == ["all"]:  # every stage and script out of date
        names = [n for n, e in now["stages"].items()
                 if lock["stages"].get(n, {}).get("code") != e["code"]]
        names += [n for n, d in now["scripts"].items() if lock["scripts"].get(n) != d]
    done = []
    for name in names:
        if name in now["scripts"]:
            lock["scripts"][name] = now["scripts"][name]
            done.append(f"{name}: locked")
        elif name in now["stages"]:
            entry = lock["stages"].get(name)
            if entry is None:
                lock["stages"][name] = {"version": 1, "code": now["stages"][name]["code"]}
                done.append(f"{name}: version 1")
                continue
            if bump:
                entry["version"] += 1
            else:
                lock.setdefault("unchanged", []).append(
                    {"stage": name, "version": entry["version"], "from": entry["code"],
                     "to": now["stages"][name]["code"], "why": why})
            entry["code"] = now["stages"][name]["code"]
            done.append(f"{name}: version {entry['version']}"
                        + ("" if bump else " (behaviour unchanged)"))
        else:
            raise SystemExit(f"{name}: neither a stage the rules name nor a rule script")
    # the modules' hashes as they are now (what the next change is compared with)
    lock["modules"] = now["modules"]
    _write(lock)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.stage_lock", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="fail when a stage's code changed since it was locked")
    bump = sub.add_parser("bump", help="raise stages' versions (their jobs rerun)")
    bump.add_argument("names", nargs="+")
    same = sub.add_parser("unchanged", help="record changes that alter no output")
    same.add_argument("names", nargs="+")
    same.add_argument("--why", required=True, help="why the outputs stay the same")
    args = parser.parse_args(argv)
    if args.command == "check":
        found = problems()
        print("\n".join(found) or "the stage-version lock is up to date")
        return 1 if found else 0
    print("\n".join(record(args.names, bump=args.command == "bump",
                           why=getattr(args, "why", ""))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
