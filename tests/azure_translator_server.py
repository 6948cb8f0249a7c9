"""A loopback stand-in for Azure AI Translator's Text API v3 ``/translate``.

It speaks the v3 wire format: ``POST /translate?api-version=3.0&from=en&to=es[&category=…]``
with a JSON array ``[{"Text": …}, …]``, the key in ``Ocp-Apim-Subscription-Key`` (and the
resource's region in ``Ocp-Apim-Subscription-Region`` when the stand-in is given one), the
answer ``[{"translations": [{"text": …, "to": "es"}]}, …]`` in order, errors as
``{"error": {"code": 403001, "message": …}}``. It enforces the service's request limits
(1,000 array elements, 50,000 characters a request; over them: 400077) and answers each
text ``"<to>: <text>"`` (``"<to>/<category>: <text>"`` for a category other than
``general``).

Faults (see :mod:`tests.standin_http`; ``drop``, ``malformed``, ``slow`` are shared):

``429``, ``429@N``  429001 with ``Retry-After: N`` (0 by default)
``quota``           403001: the subscription's free quota is spent
``forbidden``       403000: the operation is not allowed
``500``, ``503``    500000 / 503000
``short``           200 with one answer fewer than texts
"""

from __future__ import annotations

import json
import urllib.parse
from http.server import BaseHTTPRequestHandler

from .standin_http import StandInServer

MAX_ELEMENTS, MAX_CHARS = 1000, 50_000
MESSAGES = {
    400077: "The maximum request size has been exceeded.",
    401000: "The request is not authorized because credentials are missing or invalid.",
    403000: "The operation is not allowed.",
    403001: "The operation is not allowed because the subscription has exceeded its free "
            "quota.",
    429001: "The server rejected the request because the client has exceeded request limits.",
    500000: "An unexpected error occurred.",
    503000: "Service is temporarily unavailable.",
}


class AzureTranslatorServer(StandInServer):
    def __init__(self, key: str, region: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.key, self.region = key, region

    def error(self, handler: BaseHTTPRequestHandler, code: int,
              headers: dict[str, str] | None = None) -> None:
        self.send_json(handler, code // 1000, {"error": {"code": code,
                                                         "message": MESSAGES[code]}}, headers)

    def handle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        url = urllib.parse.urlsplit(handler.path)
        params = dict(urllib.parse.parse_qsl(url.query))
        if handler.headers.get("Ocp-Apim-Subscription-Key") != self.key or (
                self.region and handler.headers.get("Ocp-Apim-Subscription-Region")
                != self.region):
            return self.error(handler, 401000)
        if url.path != "/translate" or params.get("api-version") != "3.0" or \
                "to" not in params:
            return self.send_json(handler, 400, {"error": {
                "code": 400036, "message": "The target language is not valid."}})
        texts = [item.get("Text", item.get("text")) for item in json.loads(body)]
        with self.lock:
            self.requests.append({"params": params, "texts": texts})
        if len(texts) > MAX_ELEMENTS or sum(len(t) for t in texts) > MAX_CHARS:
            with self.lock:
                self.violations.append(f"{len(texts)} texts, {sum(map(len, texts))} chars")
            return self.error(handler, 400077)
        fault = self.fault_for(texts)
        name, _, arg = (fault or "").partition("@")
        if fault and self.common_fault(handler, fault):
            return None
        if name == "429":
            return self.error(handler, 429001, {"Retry-After": arg or "0"})
        if name in ("quota", "forbidden"):
            return self.error(handler, 403001 if name == "quota" else 403000)
        if name in ("500", "503"):
            return self.error(handler, int(name) * 1000)
        self.pause(fault)
        to, category = params["to"], params.get("category", "general")
        tag = to if category == "general" else f"{to}/{category}"
        answers = [{"translations": [{"text": f"{tag}: {t}", "to": to}]} for t in texts]
        if name == "short":
            answers = answers[:-1]
        else:
            self.bill(texts, to)
        self.send_json(handler, 200, answers,
                       {"X-metered-usage": str(sum(len(t) for t in texts))})
