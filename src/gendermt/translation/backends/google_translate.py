"""Google Cloud Translation over REST (``requests``; no Google SDK): the Basic edition (v2,
``/language/translate/v2`` with an API key) or the Advanced edition (v3,
``projects/{project}/locations/{location}:translateText``, with an API key or an OAuth bearer
token such as a service account's, ``gcloud auth print-access-token``).

Settings (besides the shared ones of :mod:`.mt_service`): ``api_version`` (``v2``, the
default, or ``v3``); ``api_key_env`` (sent as ``key=``) or ``token_env`` (sent as
``Authorization: Bearer``; v3 only), one of them required; v3: ``project`` (required),
``location`` (default ``global``), ``model`` (``nmt``, the default, or ``llm``: the
Translation LLM, ``general/translation-llm``; it needs a location such as ``us-central1``).
``api_version``, ``project``, ``location`` and ``model`` are in every request's cache key.

Limits: v2 128 texts and 30,000 code points a request (Google's recommendation) and 204,800
bytes a body; v3 1,024 texts and 30,000 code points. HTTP 429 and ``rateLimitExceeded`` /
``userRateLimitExceeded`` are retried (Retry-After honoured); a spent quota (403
``dailyLimitExceeded`` / ``quotaExceeded``, 429 ``RESOURCE_EXHAUSTED`` naming a quota) stops
the job, naming the key, token or project to change.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from gendermt.core.errors import GenderMTError
from gendermt.translation.backends.mt_service import (
    Limits,
    MTService,
    RateLimited,
    Retryable,
    ServiceError,
    parse_retry_after,
)

if TYPE_CHECKING:
    import pandas as pd

#: This module's backends, as gendermt.core.backends reads them from this file's text
#: (without importing it): name → its class and what is known before a job runs.
ABOUT = {
    "google-translate": {
        "class": "GoogleTranslate",
        "style": "source",
        "workload": "service",
        "cli_setting": "api_key_env",
        "example": ("Google Cloud Translation (MODEL: the key's variable)",
                    "gendermt run --model google-translate:GOOGLE_API_KEY --benchmarks mt-geneval"),
    },
}

#: ISO 639-1 → Google's codes (mostly the same; Chinese and Hebrew differ).
_SAME = ("af", "ar", "bg", "bn", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "fa",
         "fi", "fr", "ga", "gu", "hi", "hr", "hu", "hy", "id", "is", "it", "ja", "ka", "kk",
         "ko", "lt", "lv", "mk", "ml", "mr", "ms", "mt", "nl", "no", "pa", "pl", "pt", "ro",
         "ru", "sk", "sl", "sq", "sr", "sv", "sw", "ta", "te", "th", "tl", "tr", "uk", "ur",
         "vi", "zu")
CODES = {lang: lang for lang in _SAME}
CODES.update({"zh": "zh-CN", "he": "iw", "nb": "no"})
LIMITS = {"v2": Limits(texts=128, chars=30_000, bytes=204_800, overhead=16),
          "v3": Limits(texts=1024, chars=30_000, overhead=16)}
MODELS = {"nmt": "general/nmt", "llm": "general/translation-llm"}
RATE_REASONS = ("rateLimitExceeded", "userRateLimitExceeded")
QUOTA_REASONS = ("dailyLimitExceeded", "quotaExceeded", "billingNotEnabled",
                 "dailyLimitExceededUnreg")


class GoogleTranslate(MTService):
    name: ClassVar[str] = "google-translate"
    service: ClassVar[str] = "Google Cloud Translation"
    api_version: ClassVar[str] = "v2"
    default_endpoint: ClassVar[str] = "https://translation.googleapis.com"
    client_modules: ClassVar[tuple[str, ...]] = ("requests",)
    extra: ClassVar[str] = "google"
    limits: ClassVar[Limits] = LIMITS["v2"]
    list_price: ClassVar[float] = 20.0  # NMT, USD per million characters
    target_codes: ClassVar[dict[str, str]] = CODES
    source_codes: ClassVar[dict[str, str]] = CODES
    option_keys: ClassVar[frozenset[str]] = frozenset({"api_version", "project", "location",
                                                      "model"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"token_env"})
    extra_runtime_keys: ClassVar[frozenset[str]] = frozenset({"token_env"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        version = settings.get("api_version", "v2")
        if version not in LIMITS:
            raise GenderMTError(f"backend 'google-translate': api_version must be v2 or v3, "
                                f"not {version!r}")
        if not settings.get("api_key_env") and not settings.get("token_env"):
            raise GenderMTError("backend 'google-translate' needs api_key_env (an API key) "
                                "or token_env (an OAuth bearer token, v3)")
        if version == "v2":
            if settings.get("token_env") and not settings.get("api_key_env"):
                raise GenderMTError("backend 'google-translate': v2 takes an API key "
                                    "(api_key_env); a bearer token needs api_version v3")
            extra = sorted({"project", "location", "model"} & set(settings))
            if extra:
                raise GenderMTError(f"backend 'google-translate': {extra} are v3 settings; "
                                    f"set api_version: v3")
        else:
            if not str(settings.get("project", "")).strip():
                raise GenderMTError("backend 'google-translate': v3 needs project (the "
                                    "Google Cloud project id)")
            if settings.get("model", "nmt") not in MODELS:
                raise GenderMTError(f"backend 'google-translate': model must be nmt or llm, "
                                    f"not {settings['model']!r}")

    @classmethod
    def key_envs(cls, settings: dict[str, Any]) -> list[str]:
        return [str(settings[k]) for k in ("api_key_env", "token_env") if settings.get(k)]

    @classmethod
    def quota_advice(cls, settings: dict[str, Any]) -> str:
        who = " or ".join(cls.key_envs(settings))
        project = f" of project {settings['project']}" if settings.get("project") else ""
        return (f"raise the Cloud Translation quota{project} (Google Cloud console, IAM & "
                f"Admin > Quotas), or set {who} to credentials of a project with quota left, "
                f"then rerun (answers received are kept)")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame | None) -> None:
        super().__init__(settings, data)
        self.version = str(settings.get("api_version", "v2"))
        self.limits = LIMITS[self.version]  # type: ignore[misc]
        self.api_version = self.version  # type: ignore[misc]
        self._session: Any = None
        if self.version == "v3":
            project = str(settings["project"])
            location = str(settings.get("location", "global"))
            self.parent = f"projects/{project}/locations/{location}"
            self.model = f"{self.parent}/models/{MODELS[settings.get('model', 'nmt')]}"
            self.url = f"{self.endpoint}/v3/{self.parent}:translateText"
        else:
            self.url = f"{self.endpoint}/language/translate/v2"

    def _auth(self) -> tuple[dict[str, str], dict[str, str]]:
        """(headers, query parameters) carrying the credentials."""
        if self.settings.get("token_env") and self.version == "v3":
            return {"Authorization": f"Bearer {self.secret(str(self.settings['token_env']))}"}, {}
        return {}, {"key": self.secret(str(self.settings["api_key_env"]))}

    def _body(self, texts: list[str], source: str, target: str) -> dict[str, Any]:
        if self.version == "v3":
            body: dict[str, Any] = {"contents": texts, "targetLanguageCode": target,
                                    "mimeType": "text/plain", "model": self.model}
            if source:
                body["sourceLanguageCode"] = source
            return body
        body = {"q": texts, "target": target, "format": "text"}
        if source:
            body["source"] = source
        return body

    def send_chunk(self, texts: list[str], source: str, target: str) -> list[str]:
        import requests

        if self._session is None:
            self._session = requests.Session()
        headers, params = self._auth()
        try:
            resp = self._session.post(self.url, params=params, headers=headers,
                                      json=self._body(texts, source, target),
                                      timeout=self.timeout)
            payload = resp.content
        except requests.RequestException as exc:
            raise Retryable(f"connection failed: {type(exc).__name__}: {exc}") from None
        if resp.status_code != 200:
            self._refused(resp.status_code, payload, resp.headers.get("Retry-After"))
        try:
            answer = json.loads(payload)
            found = answer["translations"] if self.version == "v3" else \
                answer["data"]["translations"]
            return [t["translatedText"] for t in found]
        except (ValueError, KeyError, TypeError) as exc:
            raise Retryable(f"malformed answer ({type(exc).__name__}: {exc}): "
                            f"{payload[:200]!r}") from None

    def _refused(self, status: int, payload: bytes, retry_after: str | None) -> None:
        """Raise what a non-200 answer means (retry, quota, or a refusal)."""
        text = payload[:600].decode(errors="replace")
        try:
            error = json.loads(payload).get("error", {})
        except (ValueError, AttributeError):
            error = {}
        error = error if isinstance(error, dict) else {}
        reasons = {str(e.get("reason", "")) for e in error.get("errors", []) or []
                   if isinstance(e, dict)}
        for d in error.get("details", []) or []:
            if isinstance(d, dict) and d.get("reason"):
                reasons.add(str(d["reason"]))
        detail = f"HTTP {status} {error.get('status', '')} {sorted(reasons) or ''}: " \
                 f"{error.get('message', text)}".replace("\n", " ")
        after = parse_retry_after(retry_after)
        quota_words = "quota" in str(error.get("message", "")).lower()
        if reasons & set(QUOTA_REASONS) or (status == 429 and quota_words and
                                            error.get("status") == "RESOURCE_EXHAUSTED"
                                            and "per day" in str(error.get("message", ""))):
            raise self.quota_error(detail)
        if status == 429 or reasons & set(RATE_REASONS):
            raise RateLimited(detail, after)
        if status >= 500 or status == 408:
            raise Retryable(detail, after)
        if status == 403 and quota_words:
            raise self.quota_error(detail)
        if status in (401, 403):
            raise ServiceError(f"{self.who()}: the credentials in "
                               f"{' / '.join(self.key_envs(self.settings))} were refused "
                               f"({self.redact(detail)}): set them to a valid key or token "
                               f"with the Cloud Translation API enabled")
        raise ServiceError(f"{self.who()}: the request was refused ({self.redact(detail)}): "
                           f"check the system's settings and languages")

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None
