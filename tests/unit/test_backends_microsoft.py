"""microsoft-translator through Microsoft's own client against a loopback stand-in of Translator
v3 /translate (tests/azure_translator_server.py): outputs in order per target language, the
request limits (counted requests), retries and Retry-After, a 429 storm's bounded end, the
403000 family's one line, the key kept out of every message and cache key."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("azure.ai.translation.text", reason="the `microsoft` extra is not installed")

from gendermt.core.backends import check_system  # noqa: E402
from gendermt.core.errors import GenderMTError  # noqa: E402
from gendermt.translation.backends import build_backend  # noqa: E402
from gendermt.translation.backends import mt_service as ms  # noqa: E402
from gendermt.translation.backends.base import Request  # noqa: E402
from gendermt.translation.backends.mt_service import QuotaExceeded, ServiceError  # noqa: E402

from ..azure_translator_server import AzureTranslatorServer  # noqa: E402

KEY = "ms-FAKE-key-0123456789abcdef"
REGION = "westeurope"


@pytest.fixture
def waits(monkeypatch):
    monkeypatch.setenv("MS_TEST_KEY", KEY)
    seen: list[float] = []
    monkeypatch.setattr(ms, "_wait", seen.append)  # the retries' waits, not slept
    return seen


def backend(server, **extra):
    return build_backend({"backend": "microsoft-translator", "endpoint": server.url,
                          "api_key_env": "MS_TEST_KEY", "region": REGION, "backoff": 0.01,
                          "timeout": 5, **extra}, None)


def reqs(texts, langs=("es",)):
    return [Request(f"i{n}", t, [], "en", langs[n % len(langs)]) for n, t in enumerate(texts)]


def test_settings_are_checked():
    check_system({"backend": "microsoft-translator", "api_key_env": "AZURE_TRANSLATOR_KEY",
                  "region": "westeurope", "category": "general", "max_characters": 10})
    with pytest.raises(GenderMTError, match=r"needs \['api_key_env'\]"):
        check_system({"backend": "microsoft-translator"})
    with pytest.raises(GenderMTError, match="category must be a non-empty string"):
        check_system({"backend": "microsoft-translator", "api_key_env": "K", "category": ""})
    with pytest.raises(GenderMTError, match="not shown"):
        check_system({"backend": "microsoft-translator", "api_key_env": KEY + " x"})


def test_outputs_in_order_per_language_within_the_request_limits(waits):
    # 2,500 short texts in two languages (1,000 texts a request at most), then 30 long ones
    # (50,000 characters a request at most: 12 of 4,000)
    short = reqs([f"sentence {n}" for n in range(2500)], ("es", "fr"))
    long = reqs([f"{n:02d}" + "y" * 3998 for n in range(30)], ("de",))
    with AzureTranslatorServer(KEY, region=REGION) as server:
        b = backend(server, category="tech-v2")
        assert b.translate(short) == [f"{r.tgt_lang}/tech-v2: {r.source}" for r in short]
        assert b.translate(long) == [f"de/tech-v2: {r.source}" for r in long]
    sizes = [(r["params"]["to"], len(r["texts"])) for r in server.requests]
    assert sorted(sizes[:4]) == [("es", 250), ("es", 1000), ("fr", 250), ("fr", 1000)]
    assert sizes[4:] == [("de", 12), ("de", 12), ("de", 6)]
    assert not server.violations and b.calls == len(server.requests) == 7
    assert all(r["params"] == {"api-version": "3.0", "from": "en", "to": r["params"]["to"],
                               "category": "tech-v2"} for r in server.requests)
    assert {h["Ocp-Apim-Subscription-Key"] for h in server.headers} == {KEY}
    assert {h["Ocp-Apim-Subscription-Region"] for h in server.headers} == {REGION}
    # every text billed once
    assert server.billed_chars == sum(len(r.source) for r in short + long)
    assert b.characters_sent == server.billed_chars


def test_faults_are_retried_and_retry_after_honoured(waits):
    texts = [f"t{n}" for n in range(5)]
    plan = {"t0": ["429@3", "drop", "malformed", "500", "503", "short"]}
    with AzureTranslatorServer(KEY, region=REGION, plan=plan) as server:
        b = backend(server, max_retries=6, retry_after_max=10)
        assert b.translate(reqs(texts)) == [f"es: {t}" for t in texts]
    assert server.faults == plan["t0"] == ["429@3", "drop", "malformed", "500", "503", "short"]
    assert len(server.requests) == 7 and waits[0] == 3.0  # the server's Retry-After
    assert server.billed_chars == sum(map(len, texts))  # answered once


def test_a_429_storm_ends_in_bounded_time_with_one_named_line(waits):
    with AzureTranslatorServer(KEY, region=REGION, always="429@30") as server:
        b = backend(server, max_retries=4, retry_after_max=2)
        t0 = time.monotonic()
        with pytest.raises(ServiceError) as err:
            b.translate(reqs(["a", "b"]))
        assert time.monotonic() - t0 < 10
    msg = str(err.value)
    assert len(server.requests) == 5 and waits == [2.0] * 4  # capped at retry_after_max
    assert "\n" not in msg and "Microsoft Translator" in msg and "5 attempts" in msg
    assert "429001" in msg and "rate-limiting" in msg and KEY not in msg


@pytest.mark.parametrize("fault", ["quota", "forbidden"])
def test_the_403000_family_stops_at_once_naming_the_key(waits, fault):
    with AzureTranslatorServer(KEY, region=REGION, plan={"a": [fault]}) as server, \
            pytest.raises(QuotaExceeded) as err:
        backend(server).translate(reqs(["a", "b"]))
    msg = str(err.value)
    assert len(server.requests) == 1 and not waits  # no retry
    assert "\n" not in msg and "MS_TEST_KEY" in msg and "pricing tier" in msg
    assert ("403001" if fault == "quota" else "403000") in msg and KEY not in msg


def test_a_refused_key_names_the_variable_and_region(waits, monkeypatch):
    monkeypatch.setenv("MS_TEST_KEY", "ms-FAKE-wrong-key-000000000")
    with AzureTranslatorServer(KEY, region=REGION) as server, \
            pytest.raises(ServiceError, match="MS_TEST_KEY was refused.*`region`") as err:
        backend(server).translate(reqs(["a"]))
    assert "wrong-key" not in str(err.value) and len(server.requests) == 0


def test_cache_key_has_endpoint_version_and_category_not_region_or_key(waits):
    r = reqs(["hello"])[0]

    def digest(**extra):
        settings = {"backend": "microsoft-translator", "api_key_env": "MS_TEST_KEY", **extra}
        return build_backend(settings, None).request_digest(r)

    base = digest()
    assert digest(region="eastus", timeout=3, max_retries=1) == base
    assert digest(category="tech-v2") != base
    assert digest(endpoint="https://api-eur.cognitive.microsofttranslator.com") != base
    wire = build_backend({"backend": "microsoft-translator", "api_key_env": "MS_TEST_KEY",
                          "category": "c1"}, None).wire_request(r)
    assert wire["api_version"] == "3.0" and wire["options"] == {"category": "c1"}
    assert KEY not in json.dumps(wire)
    # Translator's own codes: a script for Chinese, Bokmål for Norwegian
    zh, no = (Request("z", "x", [], "en", lang) for lang in ("zh", "no"))
    assert (wire_of(zh)["target_lang"], wire_of(no)["target_lang"]) == ("zh-Hans", "nb")


def wire_of(request):
    return build_backend({"backend": "microsoft-translator", "api_key_env": "MS_TEST_KEY"},
                         None).wire_request(request)


def test_a_request_past_its_timeout_is_retried(waits):
    with AzureTranslatorServer(KEY, region=REGION, plan={"a": ["slow"]},
                               slow_seconds=1.5) as server:
        t0 = time.monotonic()
        assert backend(server, timeout=0.5).translate(reqs(["a", "b"])) == ["es: a", "es: b"]
        assert time.monotonic() - t0 < 1.4  # the client gave up on the slow answer
    assert server.faults == ["slow"] and len(server.headers) == 2 and len(waits) == 1
