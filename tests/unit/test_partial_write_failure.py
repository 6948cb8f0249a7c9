"""Answers already received are never lost to a failed write (issue 51 item 12): when the
partial file cannot be written (disk full) or synced, the answers of the batch in flight that
arrived are committed to the request cache first, so that the rerun sends none of them again."""

import errno
from typing import ClassVar

import pytest

from gendermt.translation import runner
from gendermt.translation.backends import BACKENDS, Backend
from gendermt.translation.cache import RequestCache


class Lazy(Backend):
    """Answers one request at a time, as a server's answers arrive; counts each request it
    answers (what a paid API would bill)."""

    name: ClassVar[str] = "lazy"
    default_batch_size: ClassVar[int] = 8
    answered: ClassVar[list[str]] = []

    def translate_each(self, batch):
        for i, r in enumerate(batch):
            Lazy.answered.append(r.source)
            yield i, f"« {r.source} »"

    def translate(self, batch):
        return [out for _, out in self.translate_each(batch)]


def disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture
def lazy(monkeypatch):
    monkeypatch.setitem(BACKENDS, "lazy", Lazy)
    monkeypatch.setattr(Lazy, "answered", [])


@pytest.mark.parametrize("fails", ["write", "sync"])
def test_a_failed_partial_write_loses_no_answer_received(lazy, stage, tmp_path, monkeypatch,
                                                         fails):
    data, inputs, out, meta = stage
    cache = tmp_path / "cache"
    take = runner._PartialWriter.take
    calls = []

    def take_until_full(self, answer):  # the disk fills up mid-batch (the 12th answer)
        calls.append(answer)
        if len(calls) == 12:
            disk_full()
        return take(self, answer)

    with monkeypatch.context() as patch:
        if fails == "write":
            patch.setattr(runner._PartialWriter, "take", take_until_full)
        else:
            patch.setattr(runner._PartialWriter, "sync", disk_full)
        with pytest.raises(OSError, match="No space left"):
            runner.translate_file(inputs, data, "lazy", {"backend": "lazy"}, out, meta,
                                  cache_dir=cache)
    first = list(Lazy.answered)
    assert first and not out.exists()
    assert len(RequestCache(cache)) == len(set(first))  # every answer received is cached
    Lazy.answered = []
    runner.translate_file(inputs, data, "lazy", {"backend": "lazy"}, out, meta,
                          cache_dir=cache)
    assert not set(Lazy.answered) & set(first)  # the rerun pays for none of them again
    assert out.exists()
