"""The shared base of commercial MT services (gendermt.translation.backends.mt_service):
batching within limits, retries bounded with Retry-After, quota errors in one line, cache keys,
the paid-work statement and budget, credentials at start-up."""

from __future__ import annotations

import json
import re
from importlib.metadata import packages_distributions
from typing import ClassVar

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends import BACKENDS, unset_api_keys
from gendermt.translation.backends import mt_service as ms
from gendermt.translation.backends.base import Request
from gendermt.translation.backends.mt_service import (
    Limits,
    MTService,
    QuotaExceeded,
    RateLimited,
    Retryable,
    ServiceError,
    chunks,
    startup_statement,
)
from gendermt.workflow.startup import missing_packages

from ..conftest import ROOT

KEY = "test-key-FAKE-0123456789"


class Fake(MTService):
    name: ClassVar[str] = "fake-mt"
    service: ClassVar[str] = "FakeMT"
    api_version: ClassVar[str] = "v9"
    default_endpoint: ClassVar[str] = "https://fake.example/v9"
    limits: ClassVar[Limits] = Limits(texts=3, chars=20, bytes=200)
    list_price: ClassVar[float] = 10.0
    target_codes: ClassVar[dict[str, str]] = {"fr": "FR", "de": "DE"}
    option_keys: ClassVar[frozenset[str]] = frozenset({"formality"})

    def __init__(self, settings, data) -> None:
        super().__init__(settings, data)
        self.script: list = []  # what each call does: an exception to raise, or None
        self.seen: list[tuple[list[str], str, str]] = []

    def send_chunk(self, texts, source, target):
        self.secret(self.settings["api_key_env"])
        step = self.script.pop(0) if self.script else None
        if step is not None:
            raise step
        self.seen.append((list(texts), source, target))
        return [f"{target}:{t}" for t in texts]


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setitem(BACKENDS, "fake-mt", Fake)
    monkeypatch.setenv("FAKE_KEY", KEY)
    monkeypatch.setattr(ms, "_wait", lambda s: waits.append(s))
    waits.clear()
    return lambda **kw: Fake({"backend": "fake-mt", "api_key_env": "FAKE_KEY", **kw}, None)


waits: list[float] = []


def reqs(texts, lang="fr"):
    return [Request(f"i{n}", t, [], "en", lang) for n, t in enumerate(texts)]


def test_chunks_respect_texts_chars_and_bytes():
    lim = Limits(texts=3, chars=10, bytes=40, overhead=4)
    texts = ["aaaa", "bbbb", "cc", "d", "eeeeeeeeee", "é" * 9, "f"]
    parts = chunks(texts, lim)
    assert [i for p in parts for i in p] == list(range(len(texts)))  # all, in order
    for p in parts:
        assert len(p) <= 3
        assert sum(len(texts[i]) for i in p) <= 10
        assert sum(len(texts[i].encode()) + 4 for i in p) <= 40
    assert parts == [[0, 1, 2], [3], [4], [5, 6]]
    assert chunks(["é" * 9, "ab"], lim) == [[0], [1]]  # 11 code points


def test_batches_by_language_in_order_within_limits(fake):
    b = fake()
    batch = reqs(["one", "two", "three", "four"]) + reqs(["x", "y"], "de")
    batch = [batch[0], batch[4], batch[1], batch[2], batch[5], batch[3]]
    outs = dict(b.translate_each(batch))
    assert [outs[i] for i in range(len(batch))] == [
        f"{'DE' if r.tgt_lang == 'de' else 'FR'}:{r.source}" for r in batch]
    assert all(len(t) <= 3 and sum(map(len, t)) <= 20 for t, _, _ in b.seen)
    assert [(len(t), tgt) for t, _, tgt in b.seen] == [(3, "FR"), (1, "FR"), (2, "DE")]
    assert b.characters_sent == sum(len(r.source) for r in batch)


def test_retry_after_honoured_then_bounded_one_line(fake):
    b = fake(max_retries=3, retry_after_max=2)
    b.script = [RateLimited("HTTP 429", 7.0), Retryable("HTTP 503", 0.5), None]
    assert b.translate(reqs(["a"])) == ["FR:a"]
    assert waits == [2.0, 0.5]  # capped at retry_after_max; the server's 0.5 s kept
    b.script = [RateLimited(f"HTTP 429 {KEY}", 1.0)] * 10
    with pytest.raises(ServiceError) as err:
        b.translate(reqs(["a"]))
    msg = str(err.value)
    assert "\n" not in msg and "FakeMT" in msg and "4 attempts" in msg
    assert "rate-limiting" in msg and KEY not in msg and "[redacted]" in msg


def test_retry_budget_bounds_a_storm(fake):
    b = fake(max_retries=100, retry_budget=5, timeout=1)
    b.script = [RateLimited("HTTP 429", 1.0)] * 200
    with pytest.raises(ServiceError, match="retry_budget of 5 s"):
        b.translate(reqs(["a"]))
    assert sum(waits) <= 5


def test_quota_error_names_the_key(fake):
    b = fake()
    b.script = [b.quota_error("HTTP 456: Quota exceeded")]
    with pytest.raises(QuotaExceeded, match="FAKE_KEY") as err:
        b.translate(reqs(["a"]))
    assert "\n" not in str(err.value)


def test_malformed_answer_is_retried(fake, monkeypatch):
    b = fake(max_retries=1)
    calls = []
    monkeypatch.setattr(b, "send_chunk", lambda t, s, g: calls.append(1) or
                        (["only one"] if len(calls) == 1 else [x.upper() for x in t]))
    assert b.translate(reqs(["a", "b"])) == ["A", "B"]
    assert len(calls) == 2


def test_cache_key_has_service_endpoint_version_options_not_key(fake):
    r = reqs(["hello"])[0]
    base = fake().request_digest(r)
    assert fake().request_digest(r) == base
    assert fake(formality="more").request_digest(r) != base
    assert fake(endpoint="http://127.0.0.1:9/v9").request_digest(r) != base
    assert fake(timeout=5, max_retries=1, price_per_million_chars=1).request_digest(r) == base
    assert fake(lang_codes={"fr": "FR-CA"}).request_digest(r) != base
    wire = json.dumps(fake().wire_request(r))
    assert KEY not in wire and "v9" in wire and "fake.example" in wire
    assert "formality" in fake(formality="more").identity()
    assert "api_key_env" not in Fake.output_settings({"backend": "fake-mt",
                                                      "api_key_env": "FAKE_KEY"})


def test_unknown_language_and_settings_refused(fake):
    with pytest.raises(GenderMTError, match="no target language code for 'xx'.*lang_codes"):
        fake().before_sending(reqs(["a"], "xx"))
    with pytest.raises(GenderMTError, match="no setting"):
        Fake.check_settings({"backend": "fake-mt", "model": "x"})
    with pytest.raises(GenderMTError, match="not shown"):
        Fake.check_settings({"backend": "fake-mt", "api_key_env": "sk-abc def"})
    with pytest.raises(GenderMTError, match="max_characters"):
        Fake.check_settings({"backend": "fake-mt", "max_characters": -1})


def test_statement_and_budget(fake, capsys):
    b = fake(max_characters=10, price_per_million_chars=20)
    b.before_sending(reqs(["12345", "67890"]))
    err = capsys.readouterr().err
    assert "10 characters to send" in err and "0.00 USD at 20 USD" in err
    with pytest.raises(GenderMTError, match="exceed max_characters 10.*nothing was sent"):
        b.before_sending(reqs(["12345", "678901"]))


def test_startup_statement_counts_built_inputs_less_cache(fake, tmp_path):
    from gendermt.translation.cache import RequestCache

    inputs = tmp_path / "in.jsonl"
    rows = [{"item_id": f"i{n}", "source": s, "messages": [], "src_lang": "en",
             "tgt_lang": "fr"} for n, s in enumerate(["abcd", "efgh", "abcd"])]
    inputs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    settings = {"backend": "fake-mt", "api_key_env": "FAKE_KEY", "max_characters": 7}
    jobs = [("s", str(inputs), settings), ("s", str(tmp_path / "later.jsonl"), settings)]
    lines, errors = startup_statement({"s": settings}, jobs, tmp_path / "cache")
    assert "8 characters" in lines[0] and "1 job(s) not counted yet" in lines[0]
    assert errors and "max_characters 7" in errors[0]
    b = fake()
    digest = b.request_digest(Request("i0", "abcd", [], "en", "fr"))
    RequestCache(tmp_path / "cache").put_many({digest: "x"}, "fake-mt", "run1", {digest: 0.1})
    lines, errors = startup_statement({"s": settings}, jobs, tmp_path / "cache")
    assert "4 characters" in lines[0] and not errors


def test_missing_credentials_named(fake, monkeypatch):
    monkeypatch.delenv("FAKE_KEY")
    lines = unset_api_keys({"s": {"backend": "fake-mt", "api_key_env": "FAKE_KEY"}}, ["s"])
    assert lines == ["systems.s.api_key_env: the environment variable FAKE_KEY is not set; "
                     "export it with the API key before running"]


SERVICES = ["deepl", "google-translate", "microsoft-translator", "amazon-translate"]


@pytest.mark.parametrize("backend", SERVICES)
def test_a_missing_client_is_named_with_its_extra(backend, monkeypatch):
    cls = BACKENDS[backend]
    # a package that is not installed, and a module whose parent package is not installed
    monkeypatch.setattr(cls, "client_modules", ("gendermt_absent", "gendermt_absent2.sub"))
    systems = {"a": {"backend": backend}, "b": {"backend": backend},
               "c": {"backend": "copy-source"}}
    assert missing_packages(systems, ["b", "a", "c"]) == [
        f"systems.a, b: backend {backend!r} needs {cls.service}'s client (gendermt_absent, "
        f"gendermt_absent2.sub not installed): pip install 'gendermt[{cls.extra}]'"]


def test_each_service_names_its_client_and_an_extra_the_tests_install():
    """The extra each service names exists, lists the client's distribution, and is in the
    test extra (CI runs every service's tests, none skipped for a missing client)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for backend in SERVICES:
        cls = BACKENDS[backend]
        assert cls.client_modules and cls.extra in extras, backend
        named = {re.match(r"[A-Za-z0-9_.-]+", r)[0].lower() for r in extras[cls.extra]}
        for module in cls.client_modules:
            dists = {d.lower() for d in packages_distributions().get(module.split(".")[0], [])}
            assert dists & named, (backend, module, dists, named)
        assert f"gendermt[{cls.extra}]" in extras["test"], backend
        assert missing_packages({"s": {"backend": backend}}, ["s"]) == [], backend


def test_startup_refuses_a_language_without_a_code(fake, tmp_path):
    inputs = tmp_path / "in.jsonl"
    inputs.write_text(json.dumps({"item_id": "i0", "source": "a", "messages": [],
                                  "src_lang": "en", "tgt_lang": "xx"}) + "\n")
    settings = {"backend": "fake-mt", "api_key_env": "FAKE_KEY"}
    with pytest.raises(GenderMTError, match="no target language code for 'xx'"):
        startup_statement({"s": settings}, [("s", str(inputs), settings)], None)


def test_google_token_env_named_when_unset(monkeypatch):
    monkeypatch.delenv("GOOGLE_TOKEN_X", raising=False)
    monkeypatch.setenv("GOOGLE_KEY_X", "k")
    systems = {"g": {"backend": "google-translate", "api_version": "v3", "project": "p",
                     "api_key_env": "GOOGLE_KEY_X", "token_env": "GOOGLE_TOKEN_X"}}
    lines = unset_api_keys(systems, ["g"])
    assert lines == ["systems.g: the environment variable GOOGLE_TOKEN_X is not set; export "
                     "it with the Google Cloud Translation credentials before running"]


def test_concurrent_requests_in_order_and_bounded(fake, monkeypatch):
    import threading
    import time as _time

    b = fake(concurrency=3)
    lock, state = threading.Lock(), {"now": 0, "most": 0}

    def send(texts, source, target):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        _time.sleep(0.02)
        with lock:
            state["now"] -= 1
        return [f"{target}:{t}" for t in texts]

    monkeypatch.setattr(b, "send_chunk", send)
    batch = reqs([f"t{k}" for k in range(30)])
    assert b.translate(batch) == [f"FR:t{k}" for k in range(30)]
    assert state["most"] == 3  # 10 requests of 3 texts, 3 at a time
    assert b.characters_sent == sum(len(r.source) for r in batch)


def test_concurrent_failure_keeps_answers_and_stops(fake, monkeypatch):
    b = fake(concurrency=2, max_retries=0)
    monkeypatch.setattr(b, "send_chunk", lambda texts, s, t: (
        (_ for _ in ()).throw(b.quota_error("spent")) if "t3" in texts else list(texts)))
    got, err = {}, None
    try:
        for i, out in b.translate_each(reqs([f"t{k}" for k in range(30)])):
            got[i] = out
    except QuotaExceeded as exc:
        err = exc
    assert err is not None and got and 3 not in got
    assert len(got) < 30


def test_a_token_pasted_into_token_env_is_refused_unshown():
    from gendermt.config.checks import check_key_names

    with pytest.raises(GenderMTError) as err:
        check_key_names({"systems": {"g": {"backend": "google-translate",
                                           "token_env": "ya29.a0-secret token"}}})
    assert "systems.g.token_env: token_env must name an environment variable" in str(err.value)
    assert "ya29" not in str(err.value)
