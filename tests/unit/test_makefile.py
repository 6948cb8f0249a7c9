"""`make lint` checks folders that exist: a renamed folder (benchmarks/ → perf/) made ruff
fail on a missing path, and the lint target with it."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT


def _lint_paths() -> list[str]:
    makefile = (ROOT / "Makefile").read_text()
    line = re.search(r"^\t\$\(BIN\)/ruff check (.+)$", makefile, re.M)
    assert line, "the Makefile's lint target no longer runs ruff check"
    return line.group(1).split()


def test_make_lint_names_only_folders_that_exist():
    missing = [p for p in _lint_paths() if not (ROOT / p).exists()]
    assert not missing, f"make lint's ruff checks paths that do not exist: {missing}"


def test_the_linted_folders_are_ruff_clean():
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    proc = subprocess.run([str(ruff), "check", *_lint_paths()], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
