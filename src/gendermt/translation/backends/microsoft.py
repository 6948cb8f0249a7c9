"""Microsoft (Azure AI) Translator, Text API v3 ``/translate``, through Microsoft's own client
(``azure-ai-translation-text``: ``pip install 'gendermt[microsoft]'``), its ``endpoint`` set to
the system's.

Settings (besides the shared ones of :mod:`.mt_service`): ``api_key_env`` (required: the
variable holding the resource's key, sent as ``Ocp-Apim-Subscription-Key``), ``region`` (the
resource's Azure region, ``Ocp-Apim-Subscription-Region``: needed by regional and
multi-service resources; it routes, it changes no output), ``category`` (a Custom Translator
system's category id; default ``general``: it changes outputs, so it is in every request's
cache key).

The request is v3's (``/translate?api-version=3.0&from=…&to=…[&category=…]``, a JSON array of
``{"Text"}``), sent through the client's pipeline (its key and region headers, endpoint and
transport) with the client's own retries off: the shared base retries. Version 2 of the client
speaks the 2026 API by default, which has no ``category``; v3 is the API the WinoMT-era studies
used and Microsoft still serves.

Limits: 1,000 texts and 50,000 characters per request (Translator's documented limits).
403000–403999 (403001: the free tier's quota spent) stop the job at once, naming the key's
variable; 429 is retried honouring Retry-After.
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
    "microsoft-translator": {
        "class": "MicrosoftTranslator",
        "style": "source",
        "workload": "service",
        "cli_setting": "api_key_env",
        "example": ("Microsoft Translator (MODEL: the key's variable)",
                    "gendermt run --model microsoft-translator:AZURE_TRANSLATOR_KEY --option "
                    "region=westeurope --benchmarks mt-geneval"),
    },
}

#: ISO 639-1 → Translator's codes (its language list; Chinese, Serbian and Mongolian need a
#: script, Norwegian is Bokmål).
TARGETS = {code: code for code in (
    "af", "am", "ar", "as", "az", "ba", "bg", "bn", "bo", "bs", "ca", "cs", "cy", "da", "de",
    "dv", "el", "en", "es", "et", "eu", "fa", "fi", "fj", "fo", "fr", "ga", "gl", "gu", "ha",
    "he", "hi", "hr", "ht", "hu", "hy", "id", "ig", "is", "it", "iu", "ja", "ka", "kk", "km",
    "kn", "ko", "ku", "ky", "lo", "lt", "lv", "mg", "mi", "mk", "ml", "mr", "ms", "mt", "my",
    "nb", "ne", "nl", "or", "pa", "pl", "ps", "pt", "ro", "ru", "rw", "sk", "sl", "sm", "so",
    "sq", "sv", "sw", "ta", "te", "th", "ti", "tk", "tr", "tt", "ty", "ug", "uk", "ur", "uz",
    "vi", "xh", "yo", "zu")} | {"zh": "zh-Hans", "sr": "sr-Cyrl", "mn": "mn-Cyrl", "no": "nb"}
#: Error codes that name a Custom Translator system (``category``) missing for the pair.
CATEGORY_ERRORS = frozenset({400079, 400080})


def error_of(body: bytes) -> tuple[int | None, str]:
    """Translator's error code and message in an error body (``{"error": {"code",
    "message"}}``); ``(None, excerpt)`` for a body that is not one."""
    try:
        error = json.loads(body).get("error")
        code = error.get("code")
        return (int(code) if str(code).isdigit() else None), str(error.get("message"))[:200]
    except (ValueError, AttributeError, TypeError):
        return None, body[:200].decode(errors="replace")


class MicrosoftTranslator(MTService):
    name: ClassVar[str] = "microsoft-translator"
    service: ClassVar[str] = "Microsoft Translator"
    api_version: ClassVar[str] = "3.0"
    default_endpoint: ClassVar[str] = "https://api.cognitive.microsofttranslator.com"
    client_modules: ClassVar[tuple[str, ...]] = ("azure.ai.translation.text", "azure.core")
    extra: ClassVar[str] = "microsoft"
    limits: ClassVar[Limits] = Limits(texts=1000, chars=50_000)
    list_price: ClassVar[float] = 10.0  # Translator S1 (pay as you go), USD per million chars
    target_codes: ClassVar[dict[str, str]] = TARGETS
    source_codes: ClassVar[dict[str, str]] = TARGETS
    option_keys: ClassVar[frozenset[str]] = frozenset({"category"})
    extra_keys: ClassVar[frozenset[str]] = frozenset({"region"})
    extra_runtime_keys: ClassVar[frozenset[str]] = frozenset({"region"})
    required_keys: ClassVar[frozenset[str]] = frozenset({"api_key_env"})

    @classmethod
    def check_settings(cls, settings: dict[str, Any]) -> None:
        super().check_settings(settings)
        for key in ("region", "category"):
            if key in settings and (not isinstance(settings[key], str)
                                    or not settings[key].strip()):
                raise GenderMTError(f"backend 'microsoft-translator': {key} must be a "
                                    f"non-empty string, not {settings[key]!r}")

    @classmethod
    def quota_advice(cls, settings: dict[str, Any]) -> str:
        env = settings.get("api_key_env")
        return (f"the Translator resource whose key is in {env} is out of quota or not "
                f"allowed this call (403001: the free tier's characters are spent): raise its "
                f"pricing tier in the Azure portal, or set {env} to another resource's key "
                f"(and `region` to that resource's), then rerun (answers received are kept)")

    def __init__(self, settings: dict[str, Any], data: pd.DataFrame | None) -> None:
        super().__init__(settings, data)
        self._client: Any = None

    def client(self) -> Any:
        """Microsoft's client on the system's endpoint, its own retries off."""
        if self._client is None:
            try:
                from azure.ai.translation.text import TextTranslationClient
                from azure.core.credentials import AzureKeyCredential
            except ImportError:
                raise GenderMTError("backend 'microsoft-translator' needs Microsoft's client: "
                                    "pip install 'gendermt[microsoft]'") from None
            key = self.secret(str(self.settings["api_key_env"]))
            self._client = TextTranslationClient(
                endpoint=self.endpoint, credential=AzureKeyCredential(key),
                region=self.settings.get("region"), retry_total=0,
                connection_timeout=self.timeout, read_timeout=self.timeout)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def send_chunk(self, texts: list[str], source: str, target: str) -> list[str]:
        client = self.client()  # first: without the SDK, its one named line
        from azure.core.exceptions import AzureError, DecodeError
        from azure.core.rest import HttpRequest

        params = {"api-version": self.api_version, "to": target}
        if source:
            params["from"] = source
        if "category" in self.settings:
            params["category"] = str(self.settings["category"])
        request = HttpRequest("POST", "/translate", params=params,
                              json=[{"Text": t} for t in texts])
        try:
            response = client.send_request(request)
            status, body = response.status_code, response.read()
        except DecodeError as exc:
            raise Retryable(f"malformed answer ({type(exc).__name__})") from None
        except AzureError as exc:  # refused, dropped or timed-out connections
            raise Retryable(f"connection failed: {type(exc).__name__}: {exc}") from None
        if status != 200:
            raise self.failure(status, body, response.headers.get("Retry-After"))
        try:
            return [item["translations"][0]["text"] for item in json.loads(body)]
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise Retryable(f"malformed answer ({type(exc).__name__}: {exc})") from None

    def failure(self, status: int, body: bytes, retry_after: str | None) -> Exception:
        """What an answer other than 200 is raised as: retried (429, 408, 5xx), the quota's
        one line (403000 family), else one line naming the setting to check."""
        code, message = error_of(body)
        said = f"HTTP {status}, code {code}: {message}"
        if status == 429:
            return RateLimited(said, parse_retry_after(retry_after))
        if status == 408 or status >= 500:
            return Retryable(said, parse_retry_after(retry_after))
        if status == 403 and code is not None and 403000 <= code < 404000:
            return self.quota_error(said)
        env = self.settings["api_key_env"]
        if status == 401:
            return ServiceError(
                f"{self.who()}: the key in {env} was refused ({self.redact(said)}): set it to "
                f"the Translator resource's key, and `region` to the resource's region (now "
                f"{self.settings.get('region', 'unset')}) for a regional resource")
        if code in CATEGORY_ERRORS:
            return ServiceError(
                f"{self.who()}: no system for `category` {self.settings.get('category')!r} "
                f"({self.redact(said)}): set category to a deployed Custom Translator "
                f"system's id for this language pair, or remove it")
        return ServiceError(f"{self.who()}: Translator refused a request "
                            f"({self.redact(said)}): check the system's settings and "
                            f"languages")
