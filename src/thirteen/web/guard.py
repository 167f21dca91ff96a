"""Around every request: bodies above a limit refused before the app reads them, protective
headers, a new player's cookie and the app's own time (``Server-Timing``, which a load test
reads to tell the server's work from the wait for a core) on every answer, slow answers
logged, and schema errors answered in one line (`validation_error`)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .server import COOKIE

log = logging.getLogger("thirteen.web")

COOKIE_AGE = 10 * 365 * 24 * 3600
MAX_BODY = 4096  # bytes: the largest valid request is far smaller
SLOW = 0.25  # seconds: slower answers are logged

ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[MutableMapping[str, Any]]],
     Callable[[MutableMapping[str, Any]], Awaitable[None]]],
    Awaitable[None],
]


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "path", "query")]
    return ".".join(parts) or "request"


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    for e in errors:
        if e.get("type") == "json_invalid":
            return JSONResponse({"detail": f"malformed JSON: {e.get('ctx', {}).get('error', '')}"
                                 .rstrip(": ")}, status_code=400)
    text = "; ".join(f"{_where(tuple(e.get('loc', ())))}: {e.get('msg', 'invalid')}"
                     for e in errors)
    clean = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")),
              "type": str(e.get("type", ""))} for e in errors]
    return JSONResponse({"detail": text or "invalid request", "errors": clean},
                        status_code=422)


class Guard:
    """Pure ASGI middleware: bodies above ``MAX_BODY`` get 413 before the app sees them (with
    or without a Content-Length); every response gets protective headers, and the cookie of a
    newly issued player token (even an error response, so that a client keeps one token)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: MutableMapping[str, Any],
                       receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
                       send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        more = scope["method"] not in ("GET", "HEAD") or length is not None
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_body:
                await self._too_large(send)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        buffered = b"".join(chunks)
        sent = False
        began = time.perf_counter()  # the app's time, sent as Server-Timing

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": buffered, "more_body": False}
            return await receive()

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"same-origin"),
                    (b"x-frame-options", b"DENY"),
                    (b"content-security-policy",
                     b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                     b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
                ]
                token = (scope.get("state") or {}).get("new_player")
                if token:
                    extra.append((b"set-cookie", (
                        f"{COOKIE}={token}; Max-Age={COOKIE_AGE}; Path=/; HttpOnly; "
                        "SameSite=Strict").encode()))
                dur = 1000 * (time.perf_counter() - began)
                extra.append((b"server-timing", f"app;dur={dur:.1f}".encode()))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, replay, send_with_headers)
        took = time.perf_counter() - began
        if took > SLOW:
            log.warning("slow request: %s %s took %.0f ms", scope["method"], scope["path"],
                        1000 * took)

    async def _too_large(self, send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        body = json.dumps(
            {"detail": f"request body too large (limit {self.max_body} bytes)"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
