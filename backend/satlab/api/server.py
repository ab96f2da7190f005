"""How `satlab serve` runs the app: uvicorn, with its HTTP connections held
to deadlines, and no proxy believed unless the instructor names it.

- A client has header_timeout_s (Limits) from connecting, or from the first
  byte of a later request on the connection, to send a request's headers
  whole, and body_timeout_s from then to send its body; else the connection
  is closed. So a slow-loris client, trickling a header byte at a time,
  holds a connection at most header_timeout_s. Between requests an idle
  connection is uvicorn's timeout_keep_alive's (IDLE_KEEP_ALIVE_S), which
  stops at the first byte. Headers are at most MAX_HEADER_BYTES (h11; a
  larger request is a 400).
- uvicorn's proxy handling is off: it would believe X-Forwarded-For from
  127.0.0.1 (its default), so that a client behind a proxy that does not
  set the header chooses its own address. The app believes the addresses
  of SATLAB_TRUSTED_PROXIES only (main.py, uvicorn's ProxyHeadersMiddleware).
"""

from __future__ import annotations

import asyncio

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from satlab.settings import Limits

MAX_HEADER_BYTES = 16 * 1024
IDLE_KEEP_ALIVE_S = 5


def deadline_protocol(header_timeout_s: float, body_timeout_s: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection whose client takes longer
    than header_timeout_s to send a request's headers, or body_timeout_s to
    send its body (the time the app takes to answer is not counted)."""

    class ClientDeadlines(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _phase: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._follow()

        def data_received(self, data: bytes) -> None:
            if self._phase is None and self.conn.their_state is h11.IDLE:
                self._follow()  # a new request's first byte: its deadline counts from now
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.conn.their_state is h11.IDLE:  # idle: uvicorn's keep-alive timer's, until a first byte
                self._cancel()
                self._phase = None
            else:  # a pipelined request came with the last one
                self._follow()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel()
            super().connection_lost(exc)

        def _follow(self) -> None:
            """Keep the deadline of what the client owes now: headers (h11's
            IDLE), a body (SEND_BODY), or nothing (the app's turn, a
            WebSocket, a closing connection)."""
            state = self.conn.their_state
            # uvicorn hands an upgraded connection to its WebSocket protocol while h11 still waits
            # for the request's (empty) body: from then on no request's deadline applies.
            upgraded = self.transport.get_protocol() is not self
            phase = None if upgraded or self.transport.is_closing() else (
                "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None)
            if phase == self._phase:
                return
            self._cancel()
            self._phase = phase
            if phase is not None:
                self._deadline = self.loop.call_later(header_timeout_s if phase == "headers" else body_timeout_s,
                                                      self._expire)

        def _cancel(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()  # connection_lost tells the app, if it was reading the body

    return ClientDeadlines


def config(app: FastAPI, limits: Limits, host: str, port: int) -> uvicorn.Config:
    return uvicorn.Config(app, host=host, port=port, log_level="warning",
                          http=deadline_protocol(limits.header_timeout_s, limits.body_timeout_s),
                          proxy_headers=False, forwarded_allow_ips=[],
                          timeout_keep_alive=IDLE_KEEP_ALIVE_S, h11_max_incomplete_event_size=MAX_HEADER_BYTES)


def serve(app: FastAPI, limits: Limits, host: str, port: int) -> None:
    """Serve app until SIGINT or SIGTERM."""
    uvicorn.Server(config(app, limits, host, port)).run()
