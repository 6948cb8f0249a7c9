"""The default run's tables are byte-identical to those of the code before the benchmark
contract (issue 21): tests/data/default_tables.sha256, made at commit 8ff514b.

A benchmark added since then adds tables of its own and columns to the scorecard, so the
scorecard is rebuilt here from the same results, restricted to the listed benchmarks, with the
workflow's own stage and settings: adding a benchmark must not change another's figures.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

DIGESTS = Path(__file__).parent / "data" / "default_tables.sha256"
SCORECARD = {"scorecard/scorecard.csv": "csv", "scorecard/scorecard.md": "md",
             "scorecard/scorecard.tex": "tex", "scorecard/scorecard.json": "json",
             "scorecard/legend.csv": "legend"}

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


def test_the_digest_list_covers_every_table_of_its_benchmarks():
    benchmarks, digests = read_digests()
    assert len(benchmarks) == 6 and len(digests) == 145
    assert all(p.split("/")[0] in benchmarks + ["scorecard"] for p in digests)
    assert set(SCORECARD) <= set(digests)


def test_default_tables_are_byte_identical_to_before_the_contract(default_run, tmp_path):
    from gendermt.scorecard.figures import CONFIG_KEYS
    from gendermt.scorecard.stage import make_scorecard

    default_run.require_success()
    results = default_run.path("results/default")
    benchmarks, digests = read_digests()
    changed = [p for p, d in digests.items()
               if p not in SCORECARD and (not (results / p).is_file() or sha256(results / p) != d)]
    assert not changed, f"tables that differ from before the contract: {changed}"

    config = yaml.safe_load((default_run.workdir / "config/config.yaml").read_text())
    outputs = {kind: str(tmp_path / Path(p).name) for p, kind in SCORECARD.items()}
    outputs.update(png=str(tmp_path / "s.png"), pdf=str(tmp_path / "s.pdf"))
    make_scorecard(results, [CONFIG_KEYS.get(b, b) for b in benchmarks], list(config["systems"]),
                   outputs, config.get("statistics", {}).get("bootstrap", {}), None,
                   config.get("scorecard", {}).get("quality_floors", {}))
    changed = [p for p, kind in SCORECARD.items() if sha256(Path(outputs[kind])) != digests[p]]
    assert not changed, f"scorecard files that differ from before the contract: {changed}"
