"""DeepL and Google Cloud Translation backends against loopback stand-ins of their APIs,
through the real clients (DeepL's `deepl`, `requests`): wire format, auth, batching limits,
429 with Retry-After, quota errors, malformed answers, dropped connections, keys redacted."""

from __future__ import annotations

import pytest

from gendermt.translation.backends import build_backend
from gendermt.translation.backends import mt_service as ms
from gendermt.translation.backends.base import Request
from gendermt.translation.backends.mt_service import QuotaExceeded, ServiceError

from ..mt_standins import DeepLStandIn, GoogleStandIn

KEY = "test-key-DEEPL-0123456789"
GKEY = "test-key-GOOGLE-0123456789"

pytest.importorskip("deepl")
pytest.importorskip("requests")


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("DEEPL_TEST_KEY", KEY)
    monkeypatch.setenv("GOOGLE_TEST_KEY", GKEY)
    waits: list[float] = []
    monkeypatch.setattr(ms, "_wait", waits.append)
    return waits


def reqs(n, langs=("fr", "de"), size=1):
    return [Request(f"i{k}", f"sentence {k} " + "x" * size, [], "en", langs[k % len(langs)])
            for k in range(n)]


def deepl_backend(url, **kw):
    return build_backend({"backend": "deepl", "api_key_env": "DEEPL_TEST_KEY",
                          "endpoint": url, "timeout": 5, **kw}, "unused.parquet")


def google_backend(url, **kw):
    return build_backend({"backend": "google-translate", "api_key_env": "GOOGLE_TEST_KEY",
                          "endpoint": url, "timeout": 5, **kw}, "unused.parquet")


def expected(batch, codes):
    return [f"{codes[r.tgt_lang]}| {r.source}" for r in batch]


def test_deepl_in_order_within_limits_with_options():
    batch = reqs(130)
    with DeepLStandIn(KEY) as server:
        b = deepl_backend(server.url, formality="more", model_type="quality_optimized")
        assert b.translate(batch) == expected(batch, {"fr": "FR", "de": "DE"})
    assert not server.breaches
    assert all(len(r["texts"]) <= 50 for r in server.requests)
    assert len(server.requests) == 4  # 65 fr (50 + 15), 65 de (50 + 15)
    assert {b_["formality"] for b_ in server.bodies} == {"more"}
    assert {b_["model_type"] for b_ in server.bodies} == {"quality_optimized"}
    assert {b_["source_lang"] for b_ in server.bodies} == {"EN"}


def test_deepl_bytes_limit_counted():
    batch = reqs(40, ("fr",), size=6000)  # 40 texts of ~6 kB: 128 KiB holds 21
    with DeepLStandIn(KEY) as server:
        assert deepl_backend(server.url).translate(batch) == expected(batch, {"fr": "FR"})
    assert not server.breaches and len(server.requests) == 2
    assert max(r["bytes"] for r in server.requests) <= 128 * 1024


def test_deepl_retries_429_5xx_drop_malformed_honouring_retry_after(keys):
    batch = reqs(3)
    with DeepLStandIn(KEY, plan=["429", "503", "drop", "malformed"], retry_after="3") as server:
        b = deepl_backend(server.url, retry_after_max=2)
        assert b.translate(batch) == expected(batch, {"fr": "FR", "de": "DE"})
    assert keys[:2] == [2.0, 2.0]  # Retry-After 3, capped at retry_after_max
    assert len(keys) == 4 and len(server.requests) == 6  # 4 failures, then fr and de


def test_deepl_429_storm_is_bounded_one_line(keys):
    with DeepLStandIn(KEY, always="429", retry_after="1") as server:
        b = deepl_backend(server.url, max_retries=4)
        with pytest.raises(ServiceError) as err:
            b.translate(reqs(2, ("fr",)))
    msg = str(err.value)
    assert "\n" not in msg and "DeepL" in msg and "5 attempts" in msg and "rerun" in msg
    assert len(server.requests) == 5 and keys == [1.0] * 4


def test_deepl_quota_456_named(keys):
    with DeepLStandIn(KEY, always="quota") as server, \
            pytest.raises(QuotaExceeded, match="DEEPL_TEST_KEY") as err:
        deepl_backend(server.url).translate(reqs(2))
    assert len(server.requests) == 1 and not keys  # not retried
    assert "456" in str(err.value) and KEY not in str(err.value)


def test_deepl_wrong_key_refused_without_showing_it(monkeypatch):
    with DeepLStandIn("another-key-000000000") as server, \
            pytest.raises(ServiceError, match="DEEPL_TEST_KEY was refused") as err:
        deepl_backend(server.url).translate(reqs(1))
    assert KEY not in str(err.value)


@pytest.mark.parametrize("version", ["v2", "v3"])
def test_google_in_order_within_limits(version):
    batch = reqs(450, ("fr", "de", "zh"))
    extra = {"api_version": "v3", "project": "p1", "model": "llm",
             "location": "us-central1"} if version == "v3" else {}
    with GoogleStandIn(GKEY, version=version) as server:
        b = google_backend(server.url, **extra)
        assert b.translate(batch) == expected(batch, {"fr": "fr", "de": "de", "zh": "zh-CN"})
    assert not server.breaches
    assert len(server.requests) == (6 if version == "v2" else 3)  # 150 a language: 128 + 22 (v2)
    if version == "v3":
        assert set(server.models) == {
            "projects/p1/locations/us-central1/models/general/translation-llm"}
        assert {r["path"].split("?")[0] for r in server.requests} == {
            "/v3/projects/p1/locations/us-central1:translateText"}


def test_google_code_points_limit():
    batch = reqs(10, ("fr",), size=7000)  # 70k code points: 4 texts a request at most
    with GoogleStandIn(GKEY) as server:
        google_backend(server.url).translate(batch)
    assert not server.breaches and len(server.requests) == 3


def test_google_v3_bearer_token(monkeypatch):
    monkeypatch.setenv("GOOGLE_TEST_TOKEN", GKEY)
    with GoogleStandIn(GKEY, version="v3") as server:
        b = build_backend({"backend": "google-translate", "token_env": "GOOGLE_TEST_TOKEN",
                           "api_version": "v3", "project": "p", "endpoint": server.url},
                          "unused.parquet")
        assert b.translate(reqs(2, ("fr",))) == ["fr| sentence 0 x", "fr| sentence 1 x"]
    assert all("key=" not in r["path"] for r in server.requests)


def test_google_retries_then_quota_403_named(keys):
    with GoogleStandIn(GKEY, plan=["429", "500", "drop", "malformed"]) as server:
        batch = reqs(2, ("fr",))
        assert google_backend(server.url).translate(batch) == expected(batch, {"fr": "fr"})
    assert len(keys) == 4 and keys[0] == 1.0
    with GoogleStandIn(GKEY, always="quota") as server, \
            pytest.raises(QuotaExceeded, match="GOOGLE_TEST_KEY") as err:
        google_backend(server.url).translate(reqs(2))
    assert len(server.requests) == 1 and "dailyLimitExceeded" in str(err.value)
    assert "\n" not in str(err.value) and GKEY not in str(err.value)


def test_google_storm_and_key_in_url_redacted(keys):
    with GoogleStandIn(GKEY, always="drop") as server, pytest.raises(ServiceError) as err:
        google_backend(server.url, max_retries=2).translate(reqs(1))
    assert "3 attempts" in str(err.value) and GKEY not in str(err.value)


def test_settings_checked():
    from gendermt.core.backends import check_system
    from gendermt.core.errors import GenderMTError

    for bad, why in (({"backend": "deepl"}, "needs"),
                     ({"backend": "deepl", "api_key_env": "K", "formality": "polite"},
                      "formality"),
                     ({"backend": "google-translate"}, "api_key_env"),
                     ({"backend": "google-translate", "api_key_env": "K", "model": "llm"},
                      "v3 settings"),
                     ({"backend": "google-translate", "api_key_env": "K",
                       "api_version": "v3"}, "project"),
                     ({"backend": "google-translate", "token_env": "T"}, "bearer")):
        with pytest.raises(GenderMTError, match=why):
            check_system(bad)


def test_deepl_endpoint_with_a_path():
    with DeepLStandIn(KEY) as server:
        server.prefix = "/deepl"
        b = deepl_backend(server.url + "/deepl/")
        assert b.translate(reqs(1, ("fr",))) == ["FR| sentence 0 x"]
    assert server.requests[0]["path"] == "/deepl/v2/translate"
