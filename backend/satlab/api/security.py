"""Guards in front of the routes (ASGI middlewares) and around streams:

- SameOrigin: a state-changing request or a WebSocket from a page of another
  site is refused (403); with SameSite=Strict cookies this is what keeps a
  cross-site form away even from a server without sign-in (open access).
- Audit: every state-changing request a signed-in user made that succeeded,
  and every sign-in attempt that passed the rate limit, is recorded (who,
  what, when, from where), for the instructor; nothing else an anonymous
  client sends writes a row. Paths are cut to AUDIT_PATH_CHARS, and the
  trail keeps its newest audit_retention_rows entries.
- SecurityHeaders: what every answer tells the browser (CSP and friends).
- stream_slot: WebSocket streams per client address and in all.
The Host allow-list is Starlette's TrustedHostMiddleware, the body's size
errors.BodyLimit, the client's address behind a reverse proxy uvicorn's
ProxyHeadersMiddleware for SATLAB_TRUSTED_PROXIES only (main.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Callable
from urllib.parse import urlsplit

from fastapi import WebSocket, status
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from satlab.api.errors import Refusal, problem, refusal_response
from satlab.service.store import Store
from satlab.settings import Limits

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _refuse(scope: Scope, receive: Receive, send: Send, code: int, sentence: str) -> None:
    """An HTTP error response, or for a WebSocket the same as its handshake's answer."""
    response = refusal_response(code, [problem(sentence, ["header", "origin"], "cross_site")])
    if scope["type"] == "websocket":
        if "websocket.http.response" in scope.get("extensions", {}):
            await WebSocket(scope, receive, send).send_denial_response(response)
        else:
            await send({"type": "websocket.close", "code": 4000 + code, "reason": sentence[:120]})
        return
    await response(scope, receive, send)


# What a WebSocket's scheme is as a page's origin.
_PAGE_SCHEMES = {"ws": "http", "wss": "https"}


def foreign_origin(scope: Scope) -> str | None:
    """The Origin of a request from a page of another site (None if the
    request comes from this site, or from no page: curl, the CLI, tests).
    Compared by scheme, host and port with the request's own: the Host
    header, which a reverse proxy passes on, and the scheme the request came
    with (X-Forwarded-Proto's, from a trusted proxy), so that a page of
    http://this-host cannot act on https://this-host."""
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is None:
        return "a page of another site" if headers.get("sec-fetch-site") == "cross-site" else None
    parts = urlsplit(origin) if origin != "null" else None
    scheme = str(scope.get("scheme", "http"))
    same = (parts is not None and parts.netloc != "" and parts.netloc == headers.get("host")
            and parts.scheme == _PAGE_SCHEMES.get(scheme, scheme))
    return None if same else origin


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


AUDIT_PATH_CHARS = 200


class Audit:
    """Records after the response; routes name who asked by setting
    scope["state"]["principal"] (deps.current_principal does), may say what
    changed in scope["state"]["audit_detail"], and mark a sign-in attempt
    (once it passed the rate limit) with scope["state"]["sign_in_attempt"]."""

    def __init__(self, app: ASGIApp, store: Callable[[], Store], limits: Callable[[], Limits]):
        self.app = app
        self.store = store  # the Store once the lifespan made it
        self.limits = limits  # the limits in force (the instructor's audit_retention_rows)

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
            principal = state.get("principal")
            if state.get("sign_in_attempt") or (principal is not None and 200 <= code < 300):
                path = scope["path"]
                if len(path) > AUDIT_PATH_CHARS:
                    path = f"{path[:AUDIT_PATH_CHARS]}… ({len(path)} characters)"
                detail = state.get("audit_detail")
                self.store().add_audit(principal.actor if principal is not None else "anonymous",
                                       f"{scope['method']} {path}" + (f": {detail}" if detail else ""), code,
                                       client_address(scope), self.limits().audit_retention_rows)


# No inline script or style, no plugin, no other site; WebAssembly compiled
# (the codec) and workers started (the channel lab's) from this site.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; "
                           "style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {"content-security-policy": CONTENT_SECURITY_POLICY, "x-content-type-options": "nosniff",
                    "x-frame-options": "DENY", "referrer-policy": "no-referrer",
                    "cross-origin-opener-policy": "same-origin"}


class SecurityHeaders:
    """SECURITY_HEADERS on every HTTP answer, unless the route set its own
    (the API's documentation allows its one inline script by its hash)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


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
            raise Refusal(status.HTTP_429_TOO_MANY_REQUESTS,
                          f"{address} holds {self.open[address]} streams open, as many as one client may "
                          f"({self.limits.max_websockets_per_client}, max_websockets_per_client).")
        total = sum(self.open.values())
        if total >= self.limits.max_websockets:
            raise Refusal(status.HTTP_429_TOO_MANY_REQUESTS,
                          f"{total} streams are open, as many as the server allows "
                          f"({self.limits.max_websockets}, max_websockets); try again later.")
        self.open[address] += 1
        try:
            yield
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]

