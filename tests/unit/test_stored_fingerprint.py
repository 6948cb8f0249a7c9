"""A stored system's translation jobs fingerprint its format's reader by the reader's own
source: adding a backend to the registry (or changing what the reader imports) redoes no
stored output, a change to the reader itself does."""

from __future__ import annotations

import shutil

from gendermt.workflow import fingerprints
from gendermt.workflow.translation_code import translation_fingerprint

STORED = {"backend": "stored", "path": "x/en-{prompt}.txt", "format": "winomt"}


def test_a_new_backend_redoes_no_stored_output_a_changed_reader_does(tmp_path, monkeypatch):
    package = tmp_path / "gendermt"
    shutil.copytree(fingerprints.ROOT, package,
                    ignore=shutil.ignore_patterns("__pycache__", "_project"))
    monkeypatch.setattr(fingerprints, "ROOT", package)
    before = translation_fingerprint(STORED)

    # a new backend is a module of its own that declares itself (gendermt.core.backends)
    (package / "translation" / "backends" / "new.py").write_text(
        'ABOUT = {\n    "new": {"class": "New"},\n}\n')
    base = package / "translation" / "backends" / "base.py"
    base.write_text(base.read_text() + "\nNEW_HOOK = 1\n")
    assert translation_fingerprint(STORED) == before

    reader = package / "benchmarks" / "winomt" / "stored_format.py"
    reader.write_text(reader.read_text() + "\nCHANGED = 1\n")
    assert translation_fingerprint(STORED) != before
