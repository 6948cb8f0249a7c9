"""The default run's tables are byte-identical to the pinned ones: tests/data/default_tables.sha256.

Tables write their floats at gendermt.data.io.TABLE_DIGITS significant digits (issue 33), so their
bytes (texts, integers, numbers at that precision) are what is reproducible across machines:
a last-bit difference of BLAS or CPU (OPENBLAS_CORETYPE) does not change them
(tests/unit/test_table_precision.py). The pinned files are every table of the benchmarks named on
the file's ``# benchmarks:`` line (:func:`table_files`); a benchmark added since (MT-GenEval)
adds tables of its own and columns to the scorecard, so the scorecard is rebuilt here from the
same results, restricted to the listed benchmarks, with the workflow's own stage and settings:
adding a benchmark must not change another's figures.

A change that alters the default's tables on purpose regenerates the file from a fresh
default run (docs/developing.md, "Tables"):

    GENDERMT_WRITE_DEFAULT_DIGESTS=1 PYTHONPATH=$PWD/src \\
        .venv/bin/pytest tests/workflow/test_default_tables.py -k byte_identical
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest
import yaml

DIGESTS = Path(__file__).parents[1] / "data" / "default_tables.sha256"
SCORECARD = {"scorecard/scorecard.csv": "csv", "scorecard/scorecard.md": "md",
             "scorecard/scorecard.tex": "tex", "scorecard/scorecard.json": "json",
             "scorecard/legend.csv": "legend"}
# What is pinned, per listed benchmark: its tables and its per-item CSVs.
PATTERNS = ("{b}/tables/*.csv", "{b}/tables/*.md", "{b}/tables/*.tex",
            "{b}/sentences/*/*.csv", "{b}/assignments/*/*/*.csv", "{b}/validation/*/*.csv")
WRITE = os.environ.get("GENDERMT_WRITE_DEFAULT_DIGESTS") == "1"

pytestmark = pytest.mark.workflow


def read_digests() -> tuple[list[str], dict[str, str]]:
    benchmarks: list[str] = []
    digests: dict[str, str] = {}
    for line in DIGESTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("# benchmarks:"):
            benchmarks = line.split(":", 1)[1].split()
        elif line.strip() and not line.startswith("#"):
            digest, path = line.split(maxsplit=1)
            digests[path] = digest
    return benchmarks, digests


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def table_files(results: Path, benchmarks: list[str]) -> list[str]:
    """Every pinned file of the listed benchmarks in a run's results folder (relative)."""
    found = {p.relative_to(results).as_posix() for b in benchmarks for pattern in PATTERNS
             for p in results.glob(pattern.format(b=b)) if p.is_file()}
    return sorted(found)


def restricted_scorecard(results: Path, workdir: Path, benchmarks: list[str],
                         tmp_path: Path) -> dict[str, Path]:
    """The scorecard's files rebuilt from ``results`` with only ``benchmarks``' columns."""
    from gendermt.scorecard.figures import CONFIG_KEYS
    from gendermt.scorecard.stage import make_scorecard

    config = yaml.safe_load((workdir / "config/config.yaml").read_text())
    outputs = {kind: str(tmp_path / Path(p).name) for p, kind in SCORECARD.items()}
    outputs.update(png=str(tmp_path / "s.png"), pdf=str(tmp_path / "s.pdf"))
    make_scorecard(results, [CONFIG_KEYS.get(b, b) for b in benchmarks], list(config["systems"]),
                   outputs, config.get("statistics", {}).get("bootstrap", {}), None,
                   config.get("scorecard", {}).get("quality_floors", {}))
    return {p: Path(outputs[kind]) for p, kind in SCORECARD.items()}


def write_digests(results: Path, workdir: Path, benchmarks: list[str], tmp_path: Path) -> None:
    """Regenerate tests/data/default_tables.sha256 from a default run (``results``)."""
    scorecard = restricted_scorecard(results, workdir, benchmarks, tmp_path)
    files = {p: sha256(results / p) for p in table_files(results, benchmarks)}
    files.update({p: sha256(path) for p, path in scorecard.items()})
    commit = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=DIGESTS.parent,
                            capture_output=True, text=True).stdout.strip() or "unknown"
    head = ["# sha256 of every table of the default run (config/config.yaml): */tables/*."
            "{csv,md,tex}, the per-item CSVs,",
            "# the scorecard's csv/md/tex/json and legend.csv (rebuilt with only the listed "
            "benchmarks' columns).",
            f"# Made at commit {commit} (plus the working tree), floats at "
            "gendermt.data.io.TABLE_DIGITS significant digits;",
            "# tests/workflow/test_default_tables.py checks that the default run still writes "
            "each byte "
            "for byte, and says how to remake it.",
            f"# benchmarks: {' '.join(benchmarks)}"]
    DIGESTS.write_text("\n".join(head + [f"{d}  {p}" for p, d in sorted(files.items())]) + "\n",
                       encoding="utf-8")


def test_the_digest_list_covers_every_table_of_its_benchmarks():
    benchmarks, digests = read_digests()
    assert len(benchmarks) == 6 and len(digests) >= 145
    assert all(p.split("/")[0] in benchmarks + ["scorecard"] for p in digests)
    assert set(SCORECARD) <= set(digests)


def test_default_tables_are_byte_identical_to_the_pinned_ones(default_run, tmp_path):
    default_run.require_success()
    results = default_run.path("results/default")
    benchmarks, digests = read_digests()
    if WRITE:
        write_digests(results, default_run.workdir, benchmarks, tmp_path)
        benchmarks, digests = read_digests()
    pinned = set(digests) - set(SCORECARD)
    written = set(table_files(results, benchmarks))
    assert written == pinned, (f"tables not pinned: {sorted(written - pinned)}; pinned but not "
                               f"written: {sorted(pinned - written)} (remake the file: see "
                               "this module's docstring)")
    changed = [p for p in sorted(pinned) if sha256(results / p) != digests[p]]
    assert not changed, f"tables that differ from the pinned ones: {changed}"

    scorecard = restricted_scorecard(results, default_run.workdir, benchmarks, tmp_path)
    changed = [p for p, path in scorecard.items() if sha256(path) != digests[p]]
    assert not changed, f"scorecard files that differ from the pinned ones: {changed}"
