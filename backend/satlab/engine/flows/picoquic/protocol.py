"""The picoquic peers' two protocols, apart from any QUIC library.

Between the client and the server, on one bidirectional stream: the client
writes its request at once, without waiting for the handshake (with a
session ticket, in 0-RTT): one JSON line {"flow", "direction", "size_bytes"
or "until_t_s", "warm_up"} and "\\n".
- download: the request ends with FIN; the server answers with size_bytes
  zero bytes, or sends until until_t_s, then FIN.
- upload: the client's zero bytes follow the request line (size_bytes of
  them then FIN, or until the answer comes); the server answers with one
  JSON line {"bytes", "last_byte_t_s"} and FIN: at FIN, or at until_t_s with
  the bytes that had reached it by then.
A request the server refuses resets the stream with BAD_REQUEST_ERROR_CODE.

Between a peer and the process that started it (PicoquicFlow): lines on
stdout, one JSON object each, `t_s` in CLOCK_MONOTONIC seconds (the clock
every network namespace shares, so the server's times are the client's):
- server: {"event":"listening","address","cc","alpn"} once it serves;
  SIGTERM or SIGINT ends it with exit 0.
- both, every interval, per measured connection (not a warm-up), the path
  statistics of this end as a sender and what its application received:
  {"event":"stats","t_s","flow","cwnd_bytes","rtt_ms","rtt_min_ms",
  "bytes_in_flight","pacing_rate_bps","lost_packets","bytes_sent",
  "bytes_received"}.
- client, at the end: {"event":"summary","flow","direction","bytes",
  "download_time_s","goodput_mbps","start_t_s","session_resumed",
  "initial_cid"} and exit 0. initial_cid names the connection's qlog files
  (CID.client.qlog, CID.server.qlog) when --qlog-dir is given.
- cert: {"event":"cert","cert","key"}.
- either, on failure: {"event":"error","message": a sentence} and exit 1.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

DIRECTIONS = ("download", "upload")
# A download's request in 0-RTT carries this many spaces after its JSON: until
# it has validated the client's address, a server sends at most 3 x what it
# received (RFC 9000, 8.1), and its handshake flight (~3 kB) leaves none of a
# bare request's budget for the response. A client that kept the NEW_TOKEN of
# its previous connection would be validated at once; aiopquic cannot keep it
# (README.md beside this file), so the padding lifts the budget past
# picoquic's initial window (15 kB) instead: the response starts one RTT
# after the request, as with a token.
ZERO_RTT_PADDING_BYTES = 8000
MAX_REQUEST_BYTES = ZERO_RTT_PADDING_BYTES + 4096
# A stream reset code of our own, so the client can say why it got nothing.
BAD_REQUEST_ERROR_CODE = 0x5A01


class PeerError(RuntimeError):
    """A failure to report as one {"event": "error"} line; the message is a sentence."""


class Request:
    """The client's request line: {"flow", "direction", "size_bytes" or "until_t_s", "warm_up"}."""

    def __init__(self, flow: str, direction: str, size_bytes: int | None, until_t_s: float | None,
                 warm_up: bool = False) -> None:
        self.flow, self.direction, self.warm_up = flow, direction, warm_up
        self.size_bytes, self.until_t_s = size_bytes, until_t_s

    def encode(self, padding_bytes: int = 0) -> bytes:
        fields = {"flow": self.flow, "direction": self.direction, "warm_up": self.warm_up,
                  **({"size_bytes": self.size_bytes} if self.size_bytes is not None
                     else {"until_t_s": self.until_t_s})}
        return json.dumps(fields, separators=(",", ":")).encode() + b" " * padding_bytes + b"\n"


def parse_request(raw: bytes) -> Request:
    """Read the request line (without its newline)."""
    try:
        request = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise PeerError(f"The request is not JSON: {raw[:80]!r}.") from None
    if not isinstance(request, dict):
        raise PeerError("The request must be a JSON object.")
    flow, direction = request.get("flow"), request.get("direction", "download")
    size_bytes, until_t_s = request.get("size_bytes"), request.get("until_t_s")
    warm_up = request.get("warm_up", False)
    if not isinstance(flow, str) or not flow:
        raise PeerError(f"The request's flow must be a non-empty string, got {flow!r}.")
    if direction not in DIRECTIONS:
        raise PeerError(f"The request's direction must be download or upload, got {direction!r}.")
    if (size_bytes is None) == (until_t_s is None):
        raise PeerError("The request must give exactly one of size_bytes and until_t_s.")
    if size_bytes is not None and (type(size_bytes) is not int or size_bytes <= 0):
        raise PeerError(f"The request's size_bytes must be a positive integer, got {size_bytes!r}.")
    if until_t_s is not None and (type(until_t_s) not in (int, float) or not math.isfinite(until_t_s)):
        raise PeerError(f"The request's until_t_s must be a time in seconds, got {until_t_s!r}.")
    if type(warm_up) is not bool:
        raise PeerError(f"The request's warm_up must be true or false, got {warm_up!r}.")
    return Request(flow, direction, size_bytes, until_t_s, warm_up)


def encode_answer(delivered_bytes: int, last_byte_t_s: float) -> bytes:
    """The server's answer to an upload: what arrived, and when the last of it came."""
    return json.dumps({"bytes": delivered_bytes, "last_byte_t_s": round(last_byte_t_s, 6)}).encode() + b"\n"


def parse_answer(raw: bytes) -> tuple[int, float]:
    """(bytes, last_byte_t_s) of the server's answer to an upload."""
    try:
        answer = json.loads(raw)
        return int(answer["bytes"]), float(answer["last_byte_t_s"])
    except (ValueError, TypeError, KeyError):
        raise PeerError(f"The server's answer to the upload is not {{bytes, last_byte_t_s}}: {raw[:80]!r}.") from None


class Received:
    """The stream bytes one end's application has received, and when the last came."""

    def __init__(self) -> None:
        self.bytes = 0
        self.last_byte_t_s = 0.0

    def add(self, count: int) -> None:
        if count:
            self.bytes += count
            self.last_byte_t_s = time.monotonic()


def emit(record: dict[str, Any]) -> None:
    """Print one record line; flushed at once because a parent reads it live."""
    print(json.dumps(record, separators=(",", ":")), flush=True)


def stats_record(t_s: float, flow: str, quality: dict[str, int], bytes_received: int) -> dict[str, Any]:
    """Map picoquic_path_quality_t (bytes, microseconds, bytes per second) to named units."""
    return {
        "event": "stats",
        "t_s": round(t_s, 6),
        "flow": flow,
        "cwnd_bytes": quality["cwin"],
        "rtt_ms": quality["rtt"] / 1000,
        "rtt_min_ms": quality["rtt_min"] / 1000,
        "bytes_in_flight": quality["bytes_in_transit"],
        "pacing_rate_bps": quality["pacing_rate"] * 8,
        "lost_packets": quality["lost"],
        "bytes_sent": quality["bytes_sent"],
        "bytes_received": bytes_received,
    }


def summary_record(request: Request, delivered_bytes: int, started_at: float, last_byte_t_s: float,
                   session_resumed: bool, initial_cid: str) -> dict[str, Any]:
    """The client's last line: the transfer from just before it created the
    connection (started_at) to the last byte reaching the receiving application."""
    download_time_s = last_byte_t_s - started_at
    return {
        "event": "summary",
        "flow": request.flow,
        "direction": request.direction,
        "bytes": delivered_bytes,
        "download_time_s": round(download_time_s, 6),
        "goodput_mbps": round(delivered_bytes * 8 / download_time_s / 1e6, 6),
        "start_t_s": round(started_at, 6),
        "session_resumed": session_resumed,
        "initial_cid": initial_cid,
    }
