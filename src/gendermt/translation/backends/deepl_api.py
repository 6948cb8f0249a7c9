"""DeepL API v2 ``/translate`` through DeepL's own Python client (``pip install
'gendermt[deepl]'``), its ``server_url`` set to the system's ``endpoint``.

Settings (besides the shared ones of :mod:`.mt_service`): ``api_key_env`` (required: the
variable holding the ``DeepL-Auth-Key``), ``formality`` (``default``, ``more``, ``less``,
``prefer_more``, ``prefer_less``), ``model_type`` (``quality_optimized``,
``prefer_quality_optimized``, ``latency_optimized``), ``glossary_id``: each changes outputs,
so each is in every request's cache key. A free-plan key (ending ``:fx``) needs
``endpoint: https://api-free.deepl.com``.

Limits: 50 texts and 128 KiB of request body per request (DeepL's documented limits). The
client's own retries are turned off: the shared base retries (429, 5xx, dropped connections,
malformed answers; Retry-After honoured) within its bounds. HTTP 456 is DeepL's "quota
exceeded": the job stops at once, naming the key's variable.
"""

from __future__ import annotations

import threading
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
    "deepl": {
        "class": "DeepL",
        "style": "source",
        "workload": "service",
        "cli_setting": "api_key_env",
        "example": ("DeepL (MODEL: the variable holding the key)",
                    "gendermt run --model deepl:DEEPL_AUTH_KEY --benchmarks mt-geneval"),
    },
}

#: ISO 639-1 → DeepL target codes (English and Portuguese need a variant; Chinese a script).
TARGETS = {"ar": "AR", "bg": "BG", "cs": "CS", "da": "DA", "de": "DE", "el": "EL",
           "en": "EN-US", "es": "ES", "et": "ET", "fi": "FI", "fr": "FR", "he": "HE",
           "hu": "HU", "id": "ID", "it": "IT", "ja": "JA", "ko": "KO", "lt": "LT", "lv": "LV",
           "nb": "NB", "nl": "NL", "pl": "PL", "pt": "PT-BR", "ro": "RO", "ru": "RU",
           "sk": "SK", "sl": "SL", "sv": "SV", "th": "TH", "tr": "TR", "uk": "UK", "vi": "VI",
           "zh": "ZH-HANS"}
SOURCES = {lang: code.split("-")[0] for lang, code in TARGETS.items()}
FORMALITY = ("default", "more", "less", "prefer_more", "prefer_less")
MODEL_TYPES = ("quality_optimized", "prefer_quality_optimized", "latency_optimized")


class DeepL(MTService):
    name: ClassVar[str] = "deepl"
    service: ClassVar[str] = "DeepL"
    api_version: ClassVar[str] = "v2"
    default_endpoint: ClassVar[str] = "https://api.deepl.com"
    client_modules: ClassVar[tuple[str, ...]] = ("deepl",)
    extra: ClassVar[str] = "deepl"
    limits: ClassVar[Limits] = Limits(texts=50, bytes=128 * 1024, overhead=16)
    list_price: ClassVar[float] = 25.0  # DeepL API Pro, USD per million characters
    target_codes: ClassVar[dict[str, str]] = TARGETS
    source_codes: ClassVar[dict[str, str]] = SOURCES
    option_keys: ClassVar[frozenset[str]] = frozenset({"formality", "model_type",
                                                      "glossary_id"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"api_key_env"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        for key, allowed in (("formality", FORMALITY), ("model_type", MODEL_TYPES)):
            if key in settings and settings[key] not in allowed:
                raise GenderMTError(f"backend 'deepl': {key} must be one of "
                                    f"{', '.join(allowed)}, not {settings[key]!r}")
        if "glossary_id" in settings and not str(settings["glossary_id"]).strip():
            raise GenderMTError("backend 'deepl': glossary_id must not be empty")

    @classmethod
    def quota_advice(cls, settings: dict[str, Any]) -> str:
        return (f"DeepL's character quota of the key in {settings.get('api_key_env')} is "
                f"spent: raise its cost control limit in the DeepL account, or set "
                f"{settings.get('api_key_env')} to a key with quota left, then rerun "
                f"(answers received are kept)")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame | None) -> None:
        super().__init__(settings, data)
        self._translator: Any = None
        self._local = threading.local()

    def _client(self) -> Any:
        if self._translator is None:
            try:
                import deepl
            except ImportError:
                raise GenderMTError("backend 'deepl' needs DeepL's client: pip install "
                                    "'gendermt[deepl]'") from None
            # the shared base retries, within its bounds and honouring Retry-After
            deepl.http_client.max_network_retries = 0
            deepl.http_client.min_connection_timeout = self.timeout
            key = self.secret(str(self.settings["api_key_env"]))
            # the client joins "v2/translate" to server_url (urljoin): a trailing slash
            # keeps an endpoint's own path (https://proxy.example/deepl/v2/translate)
            self._translator = deepl.Translator(key, server_url=self.endpoint + "/",
                                                send_platform_info=False)
            # the client keeps no response headers (Retry-After) and sends prepared requests
            # (no session hooks): its session's send is wrapped to see them (the client's
            # private API; the stand-in tests check it)
            session = self._translator._client._session
            send = session.send

            def seen(request: Any, **kwargs: Any) -> Any:
                response = send(request, **kwargs)
                self._local.headers = response.headers
                return response

            session.send = seen
        return self._translator

    def _retry_after(self) -> float | None:
        headers = getattr(self._local, "headers", None)
        return parse_retry_after(headers.get("Retry-After")) if headers is not None else None

    def _failure(self, exc: Exception) -> Exception:
        """What a failure of the client means: retry, quota, or a refusal."""
        import deepl

        if isinstance(exc, deepl.QuotaExceededException):
            return self.quota_error(f"HTTP 456: {exc}")
        if isinstance(exc, deepl.TooManyRequestsException):
            return RateLimited(f"HTTP 429: {exc}", self._retry_after())
        if isinstance(exc, deepl.AuthorizationException):
            return ServiceError(f"{self.who()}: the key in {self.settings['api_key_env']} was "
                                f"refused (HTTP 403: {self.redact(str(exc))}): set it to a "
                                f"valid DeepL key (a free-plan key needs endpoint "
                                f"https://api-free.deepl.com)")
        if isinstance(exc, deepl.ConnectionException):
            return Retryable(f"connection failed: {exc}")
        if isinstance(exc, deepl.DeepLException):
            status = getattr(exc, "http_status_code", None)
            if getattr(exc, "should_retry", False) or (status or 0) >= 500:
                return Retryable(f"HTTP {status}: {exc}", self._retry_after())
            return ServiceError(f"{self.who()}: DeepL refused a request (HTTP {status}: "
                                f"{self.redact(str(exc))}): check the system's settings "
                                f"(formality, model_type, glossary_id) and languages")
        if getattr(self._local, "headers", None) is None:  # raised before any answer
            return ServiceError(f"{self.who()}: {self.redact(str(exc))}")
        return Retryable(f"malformed answer ({type(exc).__name__}: {exc})")

    def send_chunk(self, texts: list[str], source: str, target: str) -> list[str]:
        import deepl

        translator = self._client()
        self._local.headers = None
        options = {k: self.settings[k] for k in ("formality", "model_type")
                   if k in self.settings}
        if "glossary_id" in self.settings:
            options["glossary"] = str(self.settings["glossary_id"])
        try:
            results = translator.translate_text(texts, source_lang=source or None,
                                                target_lang=target, **options)
        except (deepl.DeepLException, TypeError, ValueError, KeyError, AttributeError) as exc:
            raise self._failure(exc) from None
        if not isinstance(results, list):
            results = [results]
        return [getattr(r, "text", None) for r in results]
