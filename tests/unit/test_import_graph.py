"""No two gendermt modules import each other (issue 29: WinoMT's corrected and original
readers did, for the spaCy loader; now ``winomt/spacy_models.py``). A circle makes the import
order decide what exists, and every fingerprint of one covers the other."""

from __future__ import annotations

from gendermt.workflow.import_graph import _imports

from ..conftest import ROOT

SRC = ROOT / "src"


def modules() -> list[str]:
    found = []
    for path in SRC.joinpath("gendermt").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        if not name.endswith(".__init__"):  # a package and its modules may name each other
            found.append(name)
    return sorted(found)


def test_no_two_modules_import_each_other():
    names = set(modules())
    circles = sorted({tuple(sorted((a, b))) for a in names for b in _imports(a)
                      if b in names and b != a and a in _imports(b)})
    assert not circles, f"modules that import each other: {circles}"


def test_the_spacy_loader_is_shared_by_both_readers():
    assert "gendermt.benchmarks.winomt.spacy_models" in _imports(
        "gendermt.benchmarks.winomt.morphology")
    assert "gendermt.benchmarks.winomt.morphology" not in _imports(
        "gendermt.benchmarks.winomt.spacy_models")
