"""amazon-translate through boto3 against a loopback stand-in of TranslateText
(tests/amazon_translate_server.py): one call a text, in order, per target language, the
10,000-byte limit, formality/profanity sent and keyed, concurrency bounded, throttling retried
and bounded, LimitExceededException's one line, the credential chain named and redacted."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("boto3", reason="the `amazon` extra is not installed")

from gendermt.core.backends import check_system  # noqa: E402
from gendermt.core.errors import GenderMTError  # noqa: E402
from gendermt.translation.backends import build_backend, unset_api_keys  # noqa: E402
from gendermt.translation.backends import mt_service as ms  # noqa: E402
from gendermt.translation.backends.base import ItemFailed, Request  # noqa: E402
from gendermt.translation.backends.mt_service import QuotaExceeded, ServiceError  # noqa: E402

from ..amazon_translate_server import AmazonTranslateServer  # noqa: E402

ACCESS = "AKIAFAKETEST00000000"
SECRET = "FAKEsecret/0123456789abcdefghijklmnopqrs"


@pytest.fixture
def waits(monkeypatch, tmp_path):
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    seen: list[float] = []
    monkeypatch.setattr(ms, "_wait", seen.append)  # the retries' waits, not slept
    return seen


def backend(server, **extra):
    return build_backend({"backend": "amazon-translate", "endpoint": server.url,
                          "region": "us-east-1", "backoff": 0.01, "timeout": 5, **extra}, None)


def reqs(texts, langs=("es",)):
    return [Request(f"i{n}", t, [], "en", langs[n % len(langs)]) for n, t in enumerate(texts)]


def test_settings_are_checked(waits):
    check_system({"backend": "amazon-translate", "region": "eu-west-1", "formality": "FORMAL",
                  "profanity": "MASK", "concurrency": 8})
    with pytest.raises(GenderMTError, match="formality must be one of FORMAL, INFORMAL"):
        check_system({"backend": "amazon-translate", "region": "eu-west-1",
                      "formality": "more"})
    with pytest.raises(GenderMTError, match="no region.*AWS_REGION"):
        check_system({"backend": "amazon-translate"})
    with pytest.raises(GenderMTError, match="concurrency"):
        check_system({"backend": "amazon-translate", "region": "eu-west-1", "concurrency": 0})


def test_one_call_a_text_in_order_concurrency_bounded(waits):
    texts = [f"sentence {n}" for n in range(40)]
    with AmazonTranslateServer(ACCESS, delay=0.02) as server:
        b = backend(server, formality="FORMAL", profanity="MASK", concurrency=3)
        batch = reqs(texts, ("es", "fr", "de", "it"))
        assert b.translate(batch) == [f"{r.tgt_lang}: {r.source} [FORMAL] [MASK]"
                                      for r in batch]
    assert len(server.requests) == 40 and sorted(r["Text"] for r in server.requests) == \
        sorted(texts)
    assert all(r["Settings"] == {"Formality": "FORMAL", "Profanity": "MASK"} and
               r["SourceLanguageCode"] == "en" for r in server.requests)
    assert 1 < server.max_in_flight <= 3
    assert all(h["X-Amz-Target"].endswith(".TranslateText") and ACCESS in h["Authorization"]
               for h in server.headers)
    assert server.billed_chars == b.characters_sent == sum(map(len, texts))


def test_the_10000_byte_limit(waits):
    fits, over = "é" * 5000, "é" * 5000 + "x"  # 10,000 and 10,001 bytes of UTF-8
    with AmazonTranslateServer(ACCESS) as server:
        outs = dict(backend(server).translate_each(reqs(["a", fits, over])))
    assert outs[0] == "es: a" and outs[1] == f"es: {fits}"
    assert isinstance(outs[2], ItemFailed) and "not sent" in str(outs[2])
    assert len(server.requests) == 2 and not server.violations


def test_faults_are_retried(waits):
    plan = {"a": ["throttle", "toomany", "drop", "malformed", "500", "503"]}
    with AmazonTranslateServer(ACCESS, plan=plan) as server:
        assert backend(server, max_retries=6).translate(reqs(["a", "b"])) == ["es: a", "es: b"]
    assert server.faults == ["throttle", "toomany", "drop", "malformed", "500", "503"]
    assert len(server.requests) == 8 and len(waits) == 6
    assert server.billed_chars == 2  # each answered once


def test_a_throttling_storm_ends_in_bounded_time_with_one_named_line(waits):
    with AmazonTranslateServer(ACCESS, always="throttle") as server:
        b = backend(server, max_retries=3, concurrency=2)
        t0 = time.monotonic()
        with pytest.raises(ServiceError) as err:
            b.translate(reqs([f"t{n}" for n in range(20)]))
        assert time.monotonic() - t0 < 10
    msg = str(err.value)
    # 4 attempts a call; once one call has failed for good no worker makes another attempt
    # (the other worker's call in flight stops before its next one)
    assert 4 <= len(server.requests) <= 4 * 2
    assert "\n" not in msg and "ThrottlingException" in msg and "4 attempts" in msg
    assert "`concurrency`" in msg and "Service Quotas" in msg and SECRET not in msg


def test_limit_exceeded_stops_at_once_naming_the_quota(waits):
    with AmazonTranslateServer(ACCESS, plan={"a": ["limit"]}) as server, \
            pytest.raises(QuotaExceeded) as err:
        backend(server, concurrency=1).translate(reqs(["a", "b"]))
    msg = str(err.value)
    assert len(server.requests) == 1 and not waits
    assert "\n" not in msg and "LimitExceededException" in msg and "Service Quotas" in msg
    assert "us-east-1" in msg and ACCESS not in msg and SECRET not in msg


def test_refused_and_missing_credentials_named_not_shown(waits, monkeypatch):
    with AmazonTranslateServer("AKIAOTHERACCOUNT0000") as server, \
            pytest.raises(ServiceError, match="credentials were refused.*AWS_ACCESS_KEY_ID") \
            as err:
        backend(server).translate(reqs(["a"]))
    assert ACCESS not in str(err.value) and SECRET not in str(err.value)
    systems = {"aws": {"backend": "amazon-translate", "region": "us-east-1"}}
    assert unset_api_keys(systems, ["aws"]) == []
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    assert unset_api_keys(systems, ["aws"]) == [
        "systems.aws: no AWS credentials for Amazon Translate: export AWS_ACCESS_KEY_ID and "
        "AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN for temporary ones), or AWS_PROFILE / "
        "the system's `profile` before running"]


def test_cache_key_has_endpoint_and_options_not_credentials(waits):
    r = reqs(["hello"])[0]

    def digest(**extra):
        return build_backend({"backend": "amazon-translate", "region": "us-east-1", **extra},
                             None).request_digest(r)

    base = digest()
    assert digest(concurrency=9, timeout=3, profile="x") == base
    assert digest(formality="INFORMAL") != base and digest(profanity="MASK") != base
    assert digest(region="eu-west-1") != base  # another region's endpoint
    b = build_backend({"backend": "amazon-translate", "region": "us-east-1"}, None)
    wire = json.dumps(b.wire_request(r))
    assert "translate.us-east-1.amazonaws.com" in wire and ACCESS not in wire
    assert b.output_settings({"backend": "amazon-translate", "region": "us-east-1"}) == {
        "backend": "amazon-translate", "endpoint": "https://translate.us-east-1.amazonaws.com"}


def test_a_call_past_its_timeout_is_retried(waits):
    with AmazonTranslateServer(ACCESS, plan={"a": ["slow"]}, slow_seconds=1.5) as server:
        t0 = time.monotonic()
        assert backend(server, timeout=0.5, concurrency=1).translate(reqs(["a"])) == ["es: a"]
        assert time.monotonic() - t0 < 1.4  # the client gave up on the slow answer
    assert server.faults == ["slow"] and len(server.headers) == 2 and len(waits) == 1
