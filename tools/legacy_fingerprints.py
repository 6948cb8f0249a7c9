"""The legacy table of the content fingerprints (src/gendermt/workflow/legacy_fingerprints.json).

Before issue 54's layout move a job's code fingerprint hashed its modules' names and bytes,
so the move would have rerun every job, translations included. After it, fingerprints follow
content (gendermt.workflow.fingerprints); this table gives the code that did not change the
fingerprint it had, so that results made before the move stay current.

Inputs, made on the move's parent commit (OLD) with its provenance.code_fingerprint logging
each fingerprint it computed (the value, the modules asked for, their import closure) while
``snakemake -n`` planned the default, the SmolLM2 overlay and every study config:

    python tools/legacy_fingerprints.py OLD calls.jsonl translation.json

``translation.json``: for each backend (and stored format), the translation code fingerprint
OLD gave it. Writes the table; run from the repository root after the move.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from gendermt.workflow.fingerprints import digest_of, normalized
from gendermt.workflow.translation_code import translation_fingerprint

ROOT = Path(__file__).resolve().parents[1]

#: Edits the move made to code lines (not imports) that change nothing the code does: a module
#: one folder deeper finds the checkout one parent further up. Applied to the old source, so
#: that the old fingerprint names the new code.
EQUIVALENT = {
    # the judge's default prompt file, moved into GAMBIT's folder: the same file's path
    "gendermt.benchmarks.gambit.judge": [
        ('DEFAULT_TEMPLATES = ROOT / "resources" / "prompts" / "gambit-judge.yaml"',
         'DEFAULT_TEMPLATES = Path(__file__).resolve().parent / "prompts" / "judge.yaml"'),
    ],
    "gendermt.data_sources": [
        ("PROJECT = Path(__file__).resolve().parents[2]  # the checkout: src/gendermt/ → ..",
         "PROJECT = Path(__file__).resolve().parents[3]  "
         "# the checkout: src/gendermt/data/ → ../.."),
    ],
}
TABLE = ROOT / "src/gendermt/workflow/legacy_fingerprints.json"


def old_source(commit: str, module: str, tree: set[str]) -> bytes:
    base = "src/" + module.replace(".", "/")
    for path in (base + ".py", base + "/__init__.py"):
        if path in tree:
            source = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT,
                                    check=True, capture_output=True).stdout.decode("utf-8")
            for old, new in EQUIVALENT.get(module, []):
                assert old in source, (module, old)
                source = source.replace(old, new)
            return source.encode("utf-8")
    raise SystemExit(f"{module}: no file at {commit}")


def content_key(commit: str, closure: list[str], tree: set[str]) -> str:
    digests = []
    for module in closure:
        body = normalized(old_source(commit, module, tree))
        if body.strip():
            digests.append(hashlib.sha256(body).hexdigest())
    return digest_of(digests)


def main(commit: str, calls: str, translation: str) -> int:
    tree = set(subprocess.run(["git", "ls-tree", "-r", "--name-only", commit], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout.split())
    table: dict[str, str] = {}
    for line in Path(calls).read_text(encoding="utf-8").splitlines():
        call = json.loads(line)
        key = content_key(commit, call["closure"], tree)
        if table.get(key, call["value"]) != call["value"]:
            raise SystemExit(f"{call['asked']}: one content, two legacy fingerprints")
        table[key] = call["value"]
    for entry in json.loads(Path(translation).read_text(encoding="utf-8")):
        table[translation_fingerprint(entry["settings"], legacy=False)] = entry["value"]
    TABLE.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n", encoding="utf-8")
    print(f"{len(table)} legacy fingerprints → {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
