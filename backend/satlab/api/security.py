"""Guards in front of the routes (ASGI middlewares) and around streams:

- SameOrigin: a state-changing request or a WebSocket from a page of another
  site is refused (403); with SameSite=Strict cookies this is what keeps a
  cross-site form away even from a server without sign-in (open access).
- Audit: every state-changing request that succeeded, and every sign-in
  attempt, is recorded (who, what, when, from where), for the instructor.
- stream_slot: WebSocket streams per client address and in all.
The Host allow-list is Starlette's TrustedHostMiddleware, the body's size
errors.BodyLimit (main.py, from settings.limits.max_request_bytes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from fastapi import HTTPException, WebSocket, status
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from satlab.service.store import Store
from satlab.settings import Limits

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _refuse(scope: Scope, receive: Receive, send: Send, code: int, sentence: str) -> None:
    """An HTTP error response, or for a WebSocket the same as its handshake's answer."""
    response = JSONResponse({"detail": sentence}, code)
    if scope["type"] == "websocket":
        if "websocket.http.response" in scope.get("extensions", {}):
            await WebSocket(scope, receive, send).send_denial_response(response)
        else:
            await send({"type": "websocket.close", "code": 4000 + code, "reason": sentence[:120]})
        return
    await response(scope, receive, send)


def foreign_origin(scope: Scope) -> str | None:
    """The Origin of a request from a page of another site (None if the
    request comes from this site, or from no page: curl, the CLI, tests).
    Compared by host and port with the Host header, which a reverse proxy
    passes on (so HTTPS in front does not make this site's pages foreign)."""
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is None:
        return "a page of another site" if headers.get("sec-fetch-site") == "cross-site" else None
    netloc = urlsplit(origin).netloc if origin != "null" else ""
    return None if netloc and netloc == headers.get("host") else origin


class SameOrigin:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        guarded = scope["type"] == "websocket" or (scope["type"] == "http" and scope["method"] in UNSAFE_METHODS)
        origin = foreign_origin(scope) if guarded else None
        if origin is not None:
            what = "stream" if scope["type"] == "websocket" else "request"
            await _refuse(scope, receive, send, status.HTTP_403_FORBIDDEN,
                          f"Cross-site {what} refused: {origin} is not this site "
                          f"({Headers(scope=scope).get('host')}).")
            return
        await self.app(scope, receive, send)


class Audit:
    """Records after the response; routes name who asked by setting
    scope["state"]["principal"] (deps.current_principal does), and may say
    what changed in scope["state"]["audit_detail"]."""

    def __init__(self, app: ASGIApp, store: Any):
        self.app = app
        self.store = store  # a callable returning the Store once the lifespan made it

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in UNSAFE_METHODS:
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        code = 500

        async def recording_send(message: Message) -> None:
            nonlocal code
            if message["type"] == "http.response.start":
                code = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            sign_in = scope["path"].startswith("/api/auth/")
            if 200 <= code < 300 or (sign_in and code != status.HTTP_429_TOO_MANY_REQUESTS):
                principal = state.get("principal")
                store: Store = self.store()
                detail = state.get("audit_detail")
                store.add_audit(principal.actor if principal is not None else "anonymous",
                                f"{scope['method']} {scope['path']}" + (f": {detail}" if detail else ""), code,
                                client_address(scope))


class StreamCounter:
    """Open WebSocket streams, by client address."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.open: Counter[str] = Counter()

    async def slot(self, websocket: WebSocket) -> AsyncIterator[None]:
        """A FastAPI dependency of every stream: 429 (the handshake's answer)
        when the client or everyone holds as many streams as allowed."""
        address = client_address(websocket.scope)
        if self.open[address] >= self.limits.max_websockets_per_client:
            raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS,
                                detail=f"{address} holds {self.open[address]} streams open, as many as one client "
                                       f"may ({self.limits.max_websockets_per_client}, max_websockets_per_client).")
        total = sum(self.open.values())
        if total >= self.limits.max_websockets:
            raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS,
                                detail=f"{total} streams are open, as many as the server allows "
                                       f"({self.limits.max_websockets}, max_websockets); try again later.")
        self.open[address] += 1
        try:
            yield
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]

