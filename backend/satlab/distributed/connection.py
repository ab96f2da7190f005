"""Reaching Redis, the broker: its URL, connections that fail fast with a
sentence a person can act on, and never a password in a message.

Redis always requires a password here (requirepass; the stack generates
one into its .env): a URL without one is refused before connecting.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import redis

# redis://:<secret>@<host>:<port>/<db>, or rediss:// for TLS (Redis' tls-port) across a network.
BROKER_URL_VARIABLE = "SATLAB_BROKER_URL"
CONNECT_TIMEOUT_S = 5.0
# Reads wait at most this long for Redis to answer (a blocking read adds its own wait).
SOCKET_TIMEOUT_S = 10.0


class BrokerUnavailable(RuntimeError):
    """Redis cannot be used: unreachable, or refusing the password."""


def broker_url() -> str | None:
    """The broker's URL from SATLAB_BROKER_URL; None: no broker, everything runs in this process."""
    return os.environ.get(BROKER_URL_VARIABLE) or None


def redacted(url: str) -> str:
    """url without its password, for messages and logs."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def check_url(url: str) -> None:
    """ValueError unless url names Redis with a password."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise ValueError(f"{BROKER_URL_VARIABLE}: {redacted(url)} is not a Redis URL; "
                         "allowed: redis://:<secret>@<host>:<port>/<db> or rediss://… (TLS)")
    if not parts.password:
        raise ValueError(f"{BROKER_URL_VARIABLE}: {redacted(url)} has no password; Redis must require one "
                         "(redis://:<secret>@<host>:<port>/<db>, the secret from the stack's .env)")


def connect(url: str, socket_timeout_s: float = SOCKET_TIMEOUT_S) -> redis.Redis:
    """A client of the Redis at url, proven to answer (PING) within
    CONNECT_TIMEOUT_S; BrokerUnavailable saying what went wrong otherwise."""
    check_url(url)
    client = redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT_S, socket_timeout=socket_timeout_s)
    try:
        client.ping()
    except redis.AuthenticationError:
        client.close()
        raise BrokerUnavailable(f"Redis at {redacted(url)} refused the password: use the secret from the stack's "
                          f".env in {BROKER_URL_VARIABLE}") from None
    except (redis.ConnectionError, redis.TimeoutError) as error:
        client.close()
        raise BrokerUnavailable(f"cannot reach Redis at {redacted(url)} ({error}): is redis-server running there, "
                          f"and is {BROKER_URL_VARIABLE} right?") from None
    return client
