"""Amazon Translate's ``TranslateText`` through boto3 (``pip install 'gendermt[amazon]'``), its
``endpoint_url`` set to the system's ``endpoint`` when it has one.

Settings (besides the shared ones of :mod:`.mt_service`): ``region`` (else boto3's
``AWS_REGION``/``AWS_DEFAULT_REGION``; the default endpoint is the region's), ``profile`` (a
profile of the AWS config files), ``formality`` (``FORMAL``, ``INFORMAL``) and ``profanity``
(``MASK``): those two change outputs, so they are in every request's cache key, as is the
endpoint (the region's). ``concurrency`` (the base's): calls in flight at once, 4 here by
default.

Credentials come from boto3's own chain (``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``
with ``AWS_SESSION_TOKEN``, ``AWS_PROFILE`` or ``profile``, the shared config files, a
container or instance role): the project never writes them, and every message is redacted of
them. boto3's own retries are off (one attempt a call): the shared base retries
ThrottlingException, TooManyRequestsException, 5xx, dropped connections and malformed answers
within its bounds; LimitExceededException (a quota spent) stops the job at once, naming what
to change.

Limits: one text per call, at most 10,000 bytes of UTF-8 (TranslateText's documented limit);
a longer text fails before it is sent.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.mt_service import (
    Limits,
    MTService,
    RateLimited,
    Retryable,
    ServiceError,
)

if TYPE_CHECKING:
    import pandas as pd

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "amazon-translate": {
        "class": "AmazonTranslate",
        "style": "source",
        "workload": "service",
        "cli_setting": None,
        "example": ("Amazon Translate (credentials as boto3 finds them)",
                    "gendermt run --model amazon-translate: --option region=eu-west-1 "
                    "--benchmarks mt-geneval"),
    },
}

#: Calls in flight per job unless a system sets ``concurrency`` (the base's default is 1:
#: a call carries one text here).
DEFAULT_CONCURRENCY = 4
#: ISO 639-1 → Amazon Translate's codes (its language list; Norwegian is ``no``).
TARGETS = {code: code for code in (
    "af", "am", "ar", "az", "bg", "bn", "bs", "ca", "cs", "cy", "da", "de", "el", "en", "es",
    "et", "fa", "fi", "fr", "ga", "gu", "ha", "he", "hi", "hr", "ht", "hu", "hy", "id", "is",
    "it", "ja", "ka", "kk", "kn", "ko", "lt", "lv", "mk", "ml", "mn", "mr", "ms", "mt", "nl",
    "no", "pa", "pl", "ps", "pt", "ro", "ru", "si", "sk", "sl", "so", "sq", "sr", "sv", "sw",
    "ta", "te", "th", "tl", "tr", "uk", "ur", "uz", "vi", "zh")} | {"nb": "no"}
FORMALITY = ("FORMAL", "INFORMAL")
PROFANITY = ("MASK",)
#: Error codes worth another try (besides any 5xx): throttling and the service's own failures.
THROTTLED = frozenset({"ThrottlingException", "TooManyRequestsException"})
RETRIED = THROTTLED | {"ServiceUnavailableException", "InternalServerException",
                       "RequestTimeout", "RequestTimeoutException"}
QUOTA = frozenset({"LimitExceededException", "ServiceQuotaExceededException"})
#: Error codes that say the credentials were refused.
REFUSED = frozenset({"UnrecognizedClientException", "InvalidSignatureException",
                     "AccessDeniedException", "ExpiredTokenException", "InvalidClientTokenId",
                     "MissingAuthenticationTokenException", "IncompleteSignatureException"})
CHAIN = ("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN for temporary "
         "ones), or AWS_PROFILE / the system's `profile`")
#: What, besides the two key variables, tells boto3's chain where credentials are.
CHAIN_SOURCES = ("AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE",
                 "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI")


def region_of(settings: dict[str, Any]) -> str:
    """The system's ``region``, else boto3's from the environment ("" when none)."""
    return str(settings.get("region") or os.environ.get("AWS_REGION")
               or os.environ.get("AWS_DEFAULT_REGION") or "")


class AmazonTranslate(MTService):
    name: ClassVar[str] = "amazon-translate"
    service: ClassVar[str] = "Amazon Translate"
    api_version: ClassVar[str] = "2017-07-01"
    default_endpoint: ClassVar[str] = "https://translate.{region}.amazonaws.com"
    client_modules: ClassVar[tuple[str, ...]] = ("boto3", "botocore")
    extra: ClassVar[str] = "amazon"
    limits: ClassVar[Limits] = Limits(texts=1, bytes=10_000, overhead=0)
    list_price: ClassVar[float] = 15.0  # standard real-time translation, USD per million chars
    target_codes: ClassVar[dict[str, str]] = TARGETS
    source_codes: ClassVar[dict[str, str]] = TARGETS
    option_keys: ClassVar[frozenset[str]] = frozenset({"formality", "profanity"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"region", "profile"})
    # the region is in the cache key as the endpoint's (endpoint_of)
    extra_runtime_keys: ClassVar[frozenset[str]] = frozenset({"region", "profile"})
    default_batch_size: ClassVar[int] = 64  # one call a text: a cache commit per 64 calls

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        for key, allowed in (("formality", FORMALITY), ("profanity", PROFANITY)):
            if key in settings and settings[key] not in allowed:
                raise GenderMTError(f"backend 'amazon-translate': {key} must be one of "
                                    f"{', '.join(allowed)}, not {settings[key]!r}")
        if not region_of(settings):
            raise GenderMTError("backend 'amazon-translate': no region: set the system's "
                                "`region` (e.g. us-east-1) or export AWS_REGION")

    @classmethod
    def endpoint_of(cls, settings: dict[str, Any]) -> str:
        return str(settings.get("endpoint") or cls.default_endpoint.format(
            region=region_of(settings))).rstrip("/")

    @classmethod
    def output_settings(cls, settings: dict[str, Any]) -> dict[str, Any]:
        # the region's endpoint (from the environment, too) decides the outputs' server
        return {**super().output_settings(settings), "endpoint": cls.endpoint_of(settings)}

    @classmethod
    def key_envs(cls, settings: dict[str, Any]) -> list[str]:
        return ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]

    @classmethod
    def missing_credentials(cls, settings: dict[str, Any]) -> list[str]:
        """None when boto3's chain has somewhere to look (the key variables, a profile, a
        web identity or container role, the shared files); else one line naming them. (An
        instance role with none of these: name it in a profile, ``credential_source``.)"""
        if all(os.environ.get(v) for v in cls.key_envs(settings)) or settings.get("profile") \
                or any(os.environ.get(v) for v in CHAIN_SOURCES):
            return []
        files = [os.environ.get("AWS_SHARED_CREDENTIALS_FILE", "~/.aws/credentials"),
                 os.environ.get("AWS_CONFIG_FILE", "~/.aws/config")]
        if any(Path(f).expanduser().is_file() for f in files):
            return []
        return [f"no AWS credentials for Amazon Translate: export {CHAIN} before running"]

    @classmethod
    def quota_advice(cls, settings: dict[str, Any]) -> str:
        return (f"the AWS account's Amazon Translate quota in region {region_of(settings)} is "
                f"spent: raise it in Service Quotas, or use another account's credentials "
                f"({CHAIN}), then rerun (answers received are kept)")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame | None) -> None:
        super().__init__(settings, data)
        self.region = region_of(settings)
        # one text a call: the base's requests in flight, 4 unless the system says
        self.concurrency = int(settings.get("concurrency", DEFAULT_CONCURRENCY))
        self.options_sent = {name: settings[key] for key, name in
                             (("formality", "Formality"), ("profanity", "Profanity"))
                             if key in settings}
        self._client: Any = None
        self._lock = threading.Lock()

    def client(self) -> Any:
        """A boto3 client of the system's region and endpoint, its own retries off; the
        credentials it resolved are redacted from every message."""
        with self._lock:
            if self._client is None:
                self._client = self._new_client()
        return self._client

    def _new_client(self) -> Any:
        try:
            import boto3
            from botocore.config import Config
            from botocore.exceptions import BotoCoreError
        except ImportError:
            raise GenderMTError("backend 'amazon-translate' needs boto3: pip install "
                                "'gendermt[amazon]'") from None
        try:
            session = boto3.session.Session(profile_name=self.settings.get("profile"),
                                            region_name=self.region)
        except BotoCoreError as exc:  # a profile that is not in the config files
            raise ServiceError(f"{self.who()}: {exc}: check `profile`") from None
        credentials = session.get_credentials()
        if credentials is None:
            raise ServiceError(f"{self.who()}: no AWS credentials found: export {CHAIN}")
        frozen = credentials.get_frozen_credentials()
        self._secrets.extend(s for s in (frozen.access_key, frozen.secret_key, frozen.token)
                             if s and s not in self._secrets)
        config = Config(retries={"total_max_attempts": 1, "mode": "standard"},
                        connect_timeout=self.timeout, read_timeout=self.timeout,
                        max_pool_connections=max(10, self.concurrency))
        return session.client("translate", endpoint_url=self.settings.get("endpoint"),
                              config=config)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def send_chunk(self, texts: list[str], source: str, target: str) -> list[str]:
        client = self.client()  # first: without boto3, its one named line
        from botocore.exceptions import BotoCoreError, ClientError

        (text,) = texts
        call = {"Text": text, "SourceLanguageCode": source or "auto",
                "TargetLanguageCode": target}
        if self.options_sent:
            call["Settings"] = dict(self.options_sent)
        try:
            answer = client.translate_text(**call)
        except ClientError as exc:
            raise self.failure(exc) from None
        except BotoCoreError as exc:  # refused, dropped or timed-out connections
            raise Retryable(f"{type(exc).__name__}: {exc}") from None
        out = answer.get("TranslatedText")
        if not isinstance(out, str):
            raise Retryable(f"malformed answer: no TranslatedText (keys "
                            f"{sorted(k for k in answer if k != 'ResponseMetadata')})")
        return [out]

    def failure(self, exc: Any) -> Exception:
        """What an error answer is raised as: retried (throttling, 5xx), the quota's one line
        (LimitExceededException), else one line naming what to check."""
        error = exc.response.get("Error") or {}
        code = str(error.get("Code") or "unknown")
        status = (exc.response.get("ResponseMetadata") or {}).get("HTTPStatusCode") or 0
        said = f"{code} (HTTP {status}): {str(error.get('Message') or '')[:200]}"
        if code in THROTTLED:
            return RateLimited(f"{said}; the account's TranslateText rate in {self.region} is "
                               f"exceeded: lower `concurrency` (now {self.concurrency}) or "
                               f"raise the quota in Service Quotas")
        if code in RETRIED or status >= 500:
            return Retryable(said)
        if code in QUOTA:
            return self.quota_error(said)
        if code in REFUSED:
            return ServiceError(f"{self.who()}: the AWS credentials were refused "
                                f"({self.redact(said)}): check {CHAIN}, and `region` (now "
                                f"{self.region})")
        return ServiceError(f"{self.who()}: Amazon Translate refused a request "
                            f"({self.redact(said)}): check the system's settings (formality, "
                            f"profanity) and languages")
