"""A loopback stand-in for Amazon Translate's ``TranslateText`` (AWS JSON 1.1 protocol).

It speaks what boto3 sends: ``POST /`` with ``X-Amz-Target:
AWSShineFrontendService_20170701.TranslateText``, ``Content-Type:
application/x-amz-json-1.1``, a SigV4 ``Authorization`` header (its access key id and
region checked, not its signature), a body ``{"Text", "SourceLanguageCode",
"TargetLanguageCode", "Settings": {"Formality", "Profanity"}}``; the answer
``{"TranslatedText", "SourceLanguageCode", "TargetLanguageCode", "AppliedSettings"}``; errors
as ``{"__type": "ThrottlingException", "message": …}``. One text a call, at most 10,000 bytes
of UTF-8 (over them: TextSizeLimitExceededException). Each text is answered
``"<target>: <text>"``, with ``" [FORMAL]"``/``" [MASK]"`` appended for the settings given.

Faults (see :mod:`tests.standin_http`; ``drop``, ``malformed``, ``slow`` are shared):

``throttle``   400 ThrottlingException
``toomany``    400 TooManyRequestsException
``limit``      400 LimitExceededException (a quota spent)
``500``        500 InternalServerException
``503``        503 ServiceUnavailableException
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler

from .standin_http import StandInServer

TARGET = "AWSShineFrontendService_20170701.TranslateText"
MAX_BYTES = 10_000
FAULTS = {
    "throttle": (400, "ThrottlingException", "Rate exceeded"),
    "toomany": (400, "TooManyRequestsException", "You have made too many requests within a "
                "short period of time. Wait for a short time and then try your request again."),
    "limit": (400, "LimitExceededException", "The specified limit has been exceeded. Review "
              "your request and retry it with a quantity below the stated limit."),
    "500": (500, "InternalServerException", "An internal server error occurred."),
    "503": (503, "ServiceUnavailableException", "The Amazon Translate service is "
            "temporarily unavailable."),
}


class AmazonTranslateServer(StandInServer):
    def __init__(self, access_key: str, region: str = "us-east-1", **kwargs) -> None:
        super().__init__(**kwargs)
        self.access_key, self.region = access_key, region

    def error(self, handler: BaseHTTPRequestHandler, status: int, kind: str,
              message: str) -> None:
        self.send_json(handler, status, {"__type": kind, "message": message},
                       content_type="application/x-amz-json-1.1")

    def handle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        auth = handler.headers.get("Authorization") or ""
        scope = f"/{self.region}/translate/aws4_request"
        if not auth.startswith(f"AWS4-HMAC-SHA256 Credential={self.access_key}/") or \
                scope not in auth or "Signature=" not in auth:
            return self.error(handler, 400, "UnrecognizedClientException",
                              "The security token included in the request is invalid.")
        if handler.path != "/" or handler.headers.get("X-Amz-Target") != TARGET or \
                not (handler.headers.get("Content-Type") or "").startswith(
                    "application/x-amz-json-1.1"):
            return self.error(handler, 400, "UnknownOperationException", "unknown operation")
        request = json.loads(body)
        text = request["Text"]
        with self.lock:
            self.requests.append(request)
        if len(text.encode()) > MAX_BYTES:
            with self.lock:
                self.violations.append(f"{len(text.encode())} bytes")
            return self.error(handler, 400, "TextSizeLimitExceededException",
                              "Input text size exceeds limit. Max length of request text "
                              "allowed is 10000 bytes")
        fault = self.fault_for([text])
        if fault and self.common_fault(handler, fault):
            return None
        if fault in FAULTS:
            return self.error(handler, *FAULTS[fault])
        self.pause(fault)
        settings = request.get("Settings") or {}
        marks = "".join(f" [{settings[k]}]" for k in ("Formality", "Profanity") if k in settings)
        self.bill([text], request["TargetLanguageCode"])
        answer = {"TranslatedText": f"{request['TargetLanguageCode']}: {text}{marks}",
                  "SourceLanguageCode": request["SourceLanguageCode"],
                  "TargetLanguageCode": request["TargetLanguageCode"]}
        if settings:
            answer["AppliedSettings"] = settings
        self.send_json(handler, 200, answer, content_type="application/x-amz-json-1.1")
