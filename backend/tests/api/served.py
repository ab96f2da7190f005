"""A real `satlab serve` (uvicorn, its HTTP and WebSocket implementations)
on a free loopback port, with its own database, stopped by its PID; and
clients that connect from a chosen loopback address (127.0.0.2, 127.0.0.3...:
the whole 127/8 is this host's), as distinct machines of a classroom would."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx2
from websockets.sync.client import ClientConnection, connect

from satlab.engine.wait import wait_until
from tests.test_serve import SATLAB, free_port

TOKEN = "a-token-for-served-tests"


def answers(url: str) -> bool:
    try:
        return httpx2.get(url, timeout=5).status_code == 200
    except httpx2.TransportError:
        return False


@contextlib.contextmanager
def serving(directory: Path, env: dict[str, str] | None = None, token: str | None = TOKEN) -> Iterator[str]:
    """satlab serve on 127.0.0.1 with a database in directory and env added
    to the environment; yields its address (host:port). Runs queue and never
    start unless env sets SATLAB_MAX_CONCURRENT_RUNS."""
    port = free_port()
    environment = {**os.environ, "SATLAB_MAX_CONCURRENT_RUNS": "0", **(env or {})}
    environment.pop("SATLAB_INSTRUCTOR_TOKEN", None)
    if token is not None:
        environment["SATLAB_INSTRUCTOR_TOKEN"] = token
    log = (directory / "serve.log").open("w")
    server = subprocess.Popen([SATLAB, "--db", str(directory / "satlab.db"), "serve", "--port", str(port)],
                              env=environment, stdout=log, stderr=subprocess.STDOUT)
    address = f"127.0.0.1:{port}"
    try:
        wait_until(lambda: answers(f"http://{address}/api/auth/me") or server.poll() is not None, 60,
                   "satlab serve to answer")
        assert server.poll() is None, (directory / "serve.log").read_text()
        yield address
    finally:
        server.terminate()
        server.wait(60)
        log.close()


def http_from(source: str, base: str) -> httpx2.Client:
    """An HTTP client whose connections come from the loopback address source."""
    return httpx2.Client(base_url=base, transport=httpx2.HTTPTransport(local_address=source), timeout=30)


@contextlib.contextmanager
def stream_from(source: str, url: str, cookie: str | None = None, origin: str | None = None,
                forwarded_for: str | None = None) -> Iterator[ClientConnection]:
    """A WebSocket from the loopback address source, claiming to be for
    forwarded_for if given (a refused handshake raises InvalidStatus)."""
    host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    headers = {**({"Cookie": f"satlab_session={cookie}"} if cookie else {}),
               **({"X-Forwarded-For": forwarded_for} if forwarded_for else {})}
    with socket.create_connection((host, int(port)), timeout=30, source_address=(source, 0)) as sock, \
            connect(url, sock=sock, additional_headers=headers, origin=origin,  # type: ignore[arg-type]
                    open_timeout=30) as stream:
        yield stream
