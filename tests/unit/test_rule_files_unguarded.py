"""A benchmark's rule file guards nothing by its own block (issue 64): the Snakefile includes
it only when the config has the block (gendermt.core.registry.configured), so its
`<NAME> = benchmark_spec("<name>")` is always that block, and `if <NAME>:` or
`... if <NAME> else []` is dead code that the packaged benchmarks, the examples a newcomer
copies, must not teach (docs/developing.md: "nothing in it needs a guard")."""

from __future__ import annotations

import re

import pytest

from gendermt.core import registry

from ..conftest import ROOT

RULE_FILES = sorted({path for b in registry.benchmarks()
                     for path in registry.package_dir(b).glob("*.smk")})


def guards(text: str) -> list[str]:
    """The lines of a rule file that test its own block: ``if NAME:`` or a conditional on it
    (``x if NAME else []``, over one line or two)."""
    names = re.findall(r'^([A-Z][A-Z0-9_]*) = benchmark_spec\("[^"]+"\)$', text, re.M)
    code = [line.split("#", 1)[0] for line in text.splitlines()]
    return [line.strip() for line in code for name in names
            if re.search(rf"\bif\s+(not\s+)?{name}\s*(:|$|\s+else\b)", line)]


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_rule_file_does_not_guard_its_own_block(path):
    assert guards(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_each_form_of_guard():
    text = ('GATE = benchmark_spec("gate")\n'
            "if GATE:\n    TARGETS.extend([])\n"
            "RAW = (\n    configured(x)\n    if GATE\n    else []\n)\n"
            "RUNS = run_paths(x) if GATE else []  # a comment: if GATE:\n"
            "SUBSET = {} if GATE.get('subset') else {}\n")
    assert guards(text) == ["if GATE:", "if GATE", "RUNS = run_paths(x) if GATE else []"]
