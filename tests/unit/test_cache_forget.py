"""`gendermt cache forget` (issue 31 item 6): an empty or short digest (an unset shell
variable) deletes nothing; a digest is whole or a unique prefix of at least 12 digits; bulk
deletion needs `--all` and says what it deletes first; a bad translation file is one line."""

import hashlib
import json

import pytest

from gendermt.cli import main
from gendermt.translation.cache import RequestCache


@pytest.fixture
def cache(tmp_path):
    cache = RequestCache(tmp_path / "cache")
    cache.put_many({hashlib.sha256(str(i).encode()).hexdigest(): f"answer {i}"
                    for i in range(79)}, "test")
    return cache


def forget(cache, *args):
    return main(["cache", "forget", "--dir", str(cache.path.parent), *args])


@pytest.mark.parametrize("digest", ["", "a", "   ", "0123456789a", "not-hex-digest!!"])
def test_an_empty_or_short_digest_deletes_nothing(cache, capsys, digest):
    assert forget(cache, "--digest", digest) == 2
    err = capsys.readouterr().err
    assert "give a whole digest or a prefix of at least 12 hex digits" in err
    assert "--all" in err and "Traceback" not in err
    assert len(cache) == 79


def test_a_whole_digest_or_a_unique_prefix_deletes_one(cache, capsys):
    whole = hashlib.sha256(b"3").hexdigest()
    assert forget(cache, "--digest", whole) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == {"forgotten": 1, "left": 78}
    assert f"forgetting 1 entry by digest of {cache.path}: {whole[:16]}" in out.err
    prefix = hashlib.sha256(b"4").hexdigest()[:12]
    assert forget(cache, "--digest", prefix) == 0
    assert json.loads(capsys.readouterr().out) == {"forgotten": 1, "left": 77}
    # a prefix that names no entry deletes nothing, and says so
    assert forget(cache, "--digest", "f" * 64) == 0
    assert json.loads(capsys.readouterr().out) == {"forgotten": 0, "left": 77}


def test_an_ambiguous_prefix_deletes_nothing(cache, capsys):
    cache.put_many({"abcdef012345" + "0" * 52: "x", "abcdef012345" + "1" * 52: "y"}, "test")
    assert forget(cache, "--digest", "abcdef012345") == 2
    assert "matches several entries" in capsys.readouterr().err
    assert len(cache) == 81


def test_bulk_deletion_needs_all_and_says_so_first(cache, capsys):
    assert forget(cache) == 2
    assert "--all" in capsys.readouterr().err and len(cache) == 79
    assert forget(cache, "--all", "--digest", "f" * 64) == 2 and len(cache) == 79
    capsys.readouterr()
    assert forget(cache, "--all") == 0
    out = capsys.readouterr()
    assert f"forgetting all 79 entries of {cache.path}" in out.err
    assert json.loads(out.out) == {"forgotten": 79, "left": 0}


@pytest.mark.parametrize("content", ["not json\n", '{"no_item": 1}\n', "\udcff"])
def test_a_bad_translation_file_is_one_line(cache, capsys, tmp_path, content):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content.encode(errors="surrogateescape"))
    assert forget(cache, "--translations", str(bad)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gendermt: error: {bad}: ") and "Traceback" not in err
    assert len(cache) == 79
    assert forget(cache, "--translations", str(tmp_path / "absent.jsonl")) == 2
    assert "no such file" in capsys.readouterr().err
