"""Issue 51 item 8: user-given path templates fill only their documented placeholders; a
``str.format`` field with attribute or index access (``{prompt.__class__}``, ``{0}``) is
refused in one line naming it and the allowed ones, never evaluated."""

import pytest

from gendermt.config.placeholders import fill
from gendermt.core.backends import check_system
from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.stored import resolve_path

BAD = ["out/{prompt.__class__}.txt", "out/{0}.txt", "out/{prompt[0]}.txt",
       "out/{prompt!r}.txt", "out/{prompt:>40}.txt", "out/{prompt"]


@pytest.mark.parametrize("path", BAD)
def test_stored_path_is_refused_at_start_up(path):
    with pytest.raises(GenderMTError) as err:
        check_system({"backend": "stored", "path": path})
    message = str(err.value)
    assert "\n" not in message and "{benchmark}, {prompt}" in message
    assert "class 'str'" not in message


@pytest.mark.parametrize("path", BAD)
def test_stored_path_is_never_evaluated_when_resolved(path):
    with pytest.raises(GenderMTError, match="allowed"):
        resolve_path(path, {"benchmark": "winomt", "prompt": "p"})


def test_stored_path_fills_the_documented_placeholders():
    assert resolve_path("o/{benchmark}/{prompt}.txt", {"benchmark": "b", "prompt": "p"}) == \
        "o/b/p.txt"
    assert resolve_path("o/{{x}}.txt", {}) == "o/{x}.txt"


def test_conga_annotation_paths(tmp_path):
    from gendermt.benchmarks.conga.config import annotation_files, check

    (tmp_path / "s-p.tsv").write_text("x", encoding="utf-8")
    good = {"annotations": {"files": [{"path": str(tmp_path / "{system}-{prompt}.tsv")}]}}
    assert [f["path"] for f in annotation_files(good, "s", "p")] == [str(tmp_path / "s-p.tsv")]
    bad = {"annotations": {"files": [{"path": "{system.__class__}.tsv"}]}}
    with pytest.raises(GenderMTError, match=r"annotations\.files\[0\]\.path.*"
                                            r"\{system\.__class__\}.*\{system\}, \{prompt\}"):
        check(bad, {})


def test_fill_names_the_placeholder_and_the_allowed_ones():
    with pytest.raises(GenderMTError, match=r"^k: placeholder \{lang\.x\} is not allowed .*"
                                            r"\(placeholders allowed: \{lang\}\)$"):
        fill("{lang.x}", {"lang": "fr"}, "k")
    assert fill("a/{lang}/b", {"lang": "fr"}, "k") == "a/fr/b"
