"""The migration table of declared stage versions (src/gendermt/workflow/stage_versions_v1.json).

Until issue 64 a job's ``code`` param was a fingerprint of the modules it imported, found by
parsing imports (commit c0d773e, ``gendermt.workflow.fingerprints``). Now it is the declared
version of each stage it runs (``gendermt.workflow.stage_versions``). So that no job of an
existing results folder reruns, version 1 of every combination of stages a rule can name is
the fingerprint c0d773e gave it: this tool computes them with c0d773e's own code, extracted
from git history into a temporary folder, for every combination the rule files and lookups
can form (each literal ``code_fingerprint(...)`` call, with every backend's modules where the
call adds a system's, every benchmark's explorer and normaliser, and every translation
backend and stored format).

    python -m tools.stage_versions_v1 [COMMIT]

Run once; kept so that the table can be checked against history.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMIT = "c0d773e"
TABLE = ROOT / "src/gendermt/workflow/stage_versions_v1.json"

_CALL = re.compile(r"code_fingerprint\(")
_LITERAL = re.compile(r'"(gendermt(?:\.\w+)+)"')


def _calls(text: str) -> list[tuple[list[str], bool]]:
    """Each ``code_fingerprint(...)`` call's literal module names, and whether it adds more."""
    found = []
    for match in _CALL.finditer(text):
        depth, i = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        inner = text[match.end():i - 1]
        if "def code_fingerprint" in text[max(0, match.start() - 4):match.end()]:
            continue
        literals = _LITERAL.findall(inner)
        rest = _LITERAL.sub("", inner).replace(",", "").strip()
        found.append((literals, bool(rest)))
    return found


def key_of(modules: list[str] | tuple[str, ...]) -> str:
    """The table's key of a ``code`` param naming these stages (order and repeats ignored)."""
    return " ".join(sorted(set(modules)))


def translation_key(backend: str, request_version: int, readers: list[str]) -> str:
    """The table's key of a translation job's ``code`` param."""
    return f"translation {backend} request@{request_version} " + " ".join(sorted(readers))


def compute(old: Path) -> dict[str, str]:
    sys.path.insert(0, str(old / "src"))
    from gendermt.workflow.fingerprints import code_fingerprint

    from gendermt.benchmarks import registry
    from gendermt.scorecard.figures import reader_modules
    from gendermt.scoring.normalization import normalizers
    from gendermt.translation.backends import BACKENDS, system_modules
    from gendermt.translation.backends.stored import formats
    from gendermt.workflow.translation_code import translation_fingerprint

    settings = [{"backend": name} for name in BACKENDS if name != "stored"]
    settings += [{"backend": "stored", "format": f} for f in ["lines", *formats()]]
    extras: list[tuple[str, ...]] = [()] + [tuple(system_modules(s)) for s in settings]
    table: dict[str, str] = {}

    def add(modules: list[str] | tuple[str, ...]) -> None:
        table[key_of(modules)] = code_fingerprint(*sorted(set(modules)))

    texts = [p.read_text(encoding="utf-8") for p in
             [*old.glob("workflow/rules/*.smk"), *old.glob("src/gendermt/**/*.smk"),
              *old.glob("src/gendermt/**/*.py")]]
    for text in texts:
        for literals, more in _calls(text):
            if not literals:
                continue
            for extra in (extras if more else [()]):
                add([*literals, *extra])
    # the declared benchmarks' reader joins the others where a run registers one
    readers = reader_modules()
    add(["gendermt.scorecard.stage", *readers])
    add(["gendermt.scorecard.stage", *readers, "gendermt.benchmarks.declared.scorecard"])
    explorers = [f"{b.package}.explorer" for b in registry.benchmarks()]
    for module in dict.fromkeys([*explorers, "gendermt.benchmarks.declared.explorer"]):
        add(["gendermt.report.explorer_page", module])
    owns = [None, *(m.partition(":")[0] for m in normalizers().values())]
    for stage in ("gendermt.scoring.score", "gendermt.scoring.comet"):
        for own in owns:
            add([stage, *([own] if own else [])])
    for s in settings:
        cls = BACKENDS[s["backend"]]
        readers = list(cls.modules_by_name(s))
        table[translation_key(s["backend"], getattr(cls, "request_version", 1), readers)] = (
            translation_fingerprint(s))
    return dict(sorted(table.items()))


def main(commit: str = COMMIT) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", commit, "src", "workflow", "config"],
                                 cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        table = compute(Path(tmp))
    TABLE.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"{len(table)} version-1 params of {commit} → {TABLE.relative_to(ROOT)}")


if __name__ == "__main__":
    main(*sys.argv[1:])
