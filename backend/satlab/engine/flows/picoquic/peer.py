"""A QUIC transfer peer on picoquic (through aiopquic), one process per end of a flow.

Each end runs inside its network namespace:

    python -m satlab.engine.flows.picoquic.peer cert --out-dir DIR --address 10.0.0.1
    python -m satlab.engine.flows.picoquic.peer server --listen 10.0.0.1:4433 \\
        --cert DIR/cert.pem --key DIR/key.pem --cc bbr1
    python -m satlab.engine.flows.picoquic.peer client --connect 10.0.0.1:4433 \\
        --size-bytes 20971520 --cc bbr1 --flow-id f1 [--direction upload]

The client opens one bidirectional stream and writes its request at once,
without waiting for the handshake (with a session ticket, in 0-RTT): one JSON
line {"flow", "direction", "size_bytes" or "until_t_s", "warm_up"} and "\\n".
- download: the request ends with FIN; the server answers with size_bytes
  zero bytes, or sends until until_t_s, then FIN.
- upload: the client's zero bytes follow the request line (size_bytes of them
  then FIN, or until the answer comes); the server answers with one JSON line
  {"bytes", "last_byte_t_s"} and FIN: at FIN, or at until_t_s with the bytes
  that had reached it by then.

What a flow measures is what the receiving application got:
- size_bytes: download_time_s runs from just before the client creates the
  connection (handshake included) to the last byte reaching the receiving
  application (the server's, for an upload: `t_s` is CLOCK_MONOTONIC, the
  clock every network namespace shares). PicoquicFlow replaces a download's
  with the client's qlog's (see there).
- duration_s: bytes is what reached the receiving application within
  duration_s of that start (until_t_s = start + duration_s), download_time_s
  the time actually measured (duration_s, to the event loop's wake-up); bytes
  still in flight then are not counted.

Lines on stdout, one JSON object each (`t_s` in CLOCK_MONOTONIC seconds):
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
- either, on failure: {"event":"error","message": a sentence} and exit 1.

PicoquicFlow, at the end, drives the two peers for satlab's engine.
"""

import argparse
import asyncio
import functools
import ipaddress
import json
import math
import os
import re
import shutil
import signal
import socket
import ssl
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, NoReturn

from aiopquic.asyncio import connect, serve
from aiopquic.asyncio.protocol import QuicConnectionProtocol
from aiopquic.quic.configuration import QuicConfiguration
from aiopquic.quic.connection import QuicConnection
from aiopquic.quic.events import (
    ConnectionTerminated,
    HandshakeCompleted,
    QuicEvent,
    StreamDataReceived,
    StreamReset,
)

from satlab.engine.flows.base import Flow, FlowResult, FlowSample
from satlab.engine.flows.tls import CertificateError, endpoint, make_self_signed_cert
from satlab.engine.process import JsonLineChild
from satlab.scenario import MAX_WINDOW_BYTES, MIN_WINDOW_BYTES
from satlab.transports import TRANSPORTS

# Names picoquic registers, matched exactly ("bbr1" is BBRv1, "bbr" is BBRv3).
CONGESTION_CONTROLS = TRANSPORTS["quic-picoquic"].congestion_controls
DEFAULT_ALPN = "satlab"
DIRECTIONS = ("download", "upload")
# Both flow-control windows must exceed the path's bandwidth-delay product or
# the receiver, not the congestion control, sets the pace: 16 MiB covers
# 50 Mbit/s over a 600 ms RTT (3.75 MB) four times over.
FLOW_CONTROL_WINDOW_BYTES = 16 * 1024 * 1024
# Writes go through aiopquic's 4 MiB per-stream ring; smaller chunks keep it
# fed without one write ever exceeding it.
SEND_CHUNK_BYTES = 256 * 1024
ZERO_CHUNK = bytes(SEND_CHUNK_BYTES)
# A download's request in 0-RTT carries this many spaces after its JSON: until
# it has validated the client's address, a server sends at most 3 x what it
# received (RFC 9000, 8.1), and its handshake flight (~3 kB) leaves none of a
# bare request's budget for the response. A client that kept the NEW_TOKEN of
# its previous connection would be validated at once; aiopquic cannot keep it
# (backend/README.md), so the padding lifts the budget past picoquic's initial
# window (15 kB) instead: the response starts one RTT after the request, as
# with a token.
ZERO_RTT_PADDING_BYTES = 8000
MAX_REQUEST_BYTES = ZERO_RTT_PADDING_BYTES + 4096
SERVER_READY_S = 10.0
# A 0-RTT warm-up ("on") transfers this little: it gets a session ticket, and
# stays in slow start, so that picoquic remembers no bandwidth from it.
WARM_UP_BYTES = 1000
WARM_UP_TIMEOUT_S = 60.0
# A "bdp" warm-up sends for this long in the flow's direction: long enough for
# slow start to end (picoquic remembers a bandwidth only then) on any lab
# path: 10 RTTs of 650 ms take cwnd from 15 kB past 15 MB.
WARM_UP_BDP_S = 10.0
# A guard against a download that never ends; a GEO path with heavy loss may
# take minutes (Linux CUBIC needs ~300 s at 1 % loss), picoquic less.
CLIENT_TIMEOUT_S = 900.0
# A stream reset code of our own, so the client can say why it got nothing.
BAD_REQUEST_ERROR_CODE = 0x5A01
TLS_ALERT_BASE = 0x100
TLS_ALERT_NO_APPLICATION_PROTOCOL = 120


class PeerError(RuntimeError):
    """A failure to report as one {"event": "error"} line; the message is a sentence."""


def emit(record: dict[str, Any]) -> None:
    """Print one JSON line; flushed at once because a parent reads it live."""
    print(json.dumps(record, separators=(",", ":")), flush=True)


def fail(message: str) -> NoReturn:
    emit({"event": "error", "message": message})
    sys.exit(1)


# ---------------------------------------------------------------- arguments


class SentenceArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad command line as one JSON error line and exit 1."""

    def error(self, message: str) -> NoReturn:
        fail(f"Bad command line for {self.prog}: {message}.")


def parse_endpoint(text: str, option: str) -> tuple[str, int]:
    """Split "10.0.0.1:4433" or "[fd00::1]:4433" into an IP literal and a port."""
    host, separator, port_text = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    try:
        address = ipaddress.ip_address(host)
        port = int(port_text)
    except ValueError:
        address, port = None, 0
    if not separator or address is None or not 1 <= port <= 65535:
        raise PeerError(
            f"{option} must be IP:PORT with an IP literal and a port in 1..65535, got {text!r}."
        )
    return str(address), port


def check_congestion_control(name: str) -> None:
    if name not in CONGESTION_CONTROLS:
        raise PeerError(
            f"--cc {name!r} is not a congestion control picoquic offers; "
            f"choose one of {', '.join(CONGESTION_CONTROLS)}."
        )


def check_positive(value: float, option: str) -> None:
    if not value > 0 or not math.isfinite(value):
        raise PeerError(f"{option} must be a positive number, got {value}.")


def check_readable_file(path: str, option: str) -> None:
    if not os.access(path, os.R_OK) or not os.path.isfile(path):
        raise PeerError(f"{option} {path!r} is not a readable file.")


def ip_family(address: str) -> int:
    return socket.AF_INET6 if ipaddress.ip_address(address).version == 6 else socket.AF_INET


def check_port_free(host: str, port: int) -> None:
    """Fail if a UDP socket holds the port: picoquic binds with SO_REUSEADDR,
    so a second server would otherwise share the port without a word."""
    with socket.socket(ip_family(host), socket.SOCK_DGRAM) as probe:
        try:
            probe.bind(("", port))
        except OSError as error:
            raise PeerError(f"--listen {host}:{port}: UDP port {port} is taken ({error.strerror}).") from error


# ---------------------------------------------------------------- certificate


async def ticks(interval_s: float) -> AsyncIterator[float]:
    """Yield loop.time() once per interval on a fixed grid, so late wake-ups never
    accumulate; a tick missed entirely is skipped, not made up in a burst."""
    loop = asyncio.get_running_loop()
    next_tick = loop.time()
    while True:
        yield loop.time()
        next_tick += interval_s
        now = loop.time()
        if next_tick < now:
            next_tick += math.ceil((now - next_tick) / interval_s) * interval_s
        await asyncio.sleep(next_tick - now)


# ---------------------------------------------------------------- both ends


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


class Received:
    """The stream bytes one end's application has received, and when the last came."""

    def __init__(self) -> None:
        self.bytes = 0
        self.last_byte_t_s = 0.0

    def add(self, count: int) -> None:
        if count:
            self.bytes += count
            self.last_byte_t_s = time.monotonic()


async def send_zeros(quic: QuicConnection, stream_id: int, size_bytes: int | None,
                     until_t_s: float | None) -> None:
    """Send size_bytes zero bytes, or zeros until until_t_s (CLOCK_MONOTONIC), then
    FIN; neither: zeros until cancelled (an upload by duration, until its answer)."""
    remaining = size_bytes
    while remaining is None or remaining > 0:
        if until_t_s is not None and time.monotonic() >= until_t_s:
            await quic.send_stream_data_drained(stream_id, b"", end_stream=True)
            return
        chunk = ZERO_CHUNK if remaining is None or remaining >= SEND_CHUNK_BYTES else bytes(remaining)
        if remaining is not None:
            remaining -= len(chunk)
        await quic.send_stream_data_drained(stream_id, chunk, end_stream=remaining == 0)


async def report_stats(quic: QuicConnection, flow: str, received: Received, interval_s: float) -> None:
    """One stats line per interval.

    path_quality() returns the snapshot picoquic's thread took when the
    previous call asked for one, so each line carries the time of that ask.
    """
    asked_at: float | None = None
    async for now in ticks(interval_s):
        quality = quic.path_quality()
        if asked_at is not None and quality:
            emit(stats_record(asked_at, flow, quality, received.bytes))
        asked_at = now


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


def configuration(args: argparse.Namespace, host: str, **options: Any) -> QuicConfiguration:
    """The QuicConfiguration both ends share: ALPN, congestion control, windows, qlog."""
    check_congestion_control(args.cc)
    for option, value in (("--connection-window-bytes", args.connection_window_bytes),
                          ("--stream-window-bytes", args.stream_window_bytes)):
        if not MIN_WINDOW_BYTES <= value <= MAX_WINDOW_BYTES:
            raise PeerError(f"{option} must be within {MIN_WINDOW_BYTES}..{MAX_WINDOW_BYTES} bytes, got {value}.")
    if args.qlog_dir is not None and not os.path.isdir(args.qlog_dir):
        raise PeerError(f"--qlog-dir {args.qlog_dir!r} is not a directory.")
    check_positive(args.stats_interval_ms, "--stats-interval-ms")
    return QuicConfiguration(
        alpn_protocols=[args.alpn],
        congestion_control_algorithm=args.cc,
        # Windows are announced by both ends; the receiver's bound the transfer.
        max_data=args.connection_window_bytes,
        max_stream_data=args.stream_window_bytes,
        qlog_dir=args.qlog_dir,
        # picoquic binds the wildcard address of this family, not `host`.
        ip_family=ip_family(host),
        **options,
    )


# ---------------------------------------------------------------- server


class ServerProtocol(QuicConnectionProtocol):
    """One connection: reads each stream's request line, then sends a download
    or counts an upload; reports this end's statistics for a measured request."""

    def __init__(
        self, quic: QuicConnection, stream_handler: Any = None, *, stats_interval_s: float
    ) -> None:
        super().__init__(quic, stream_handler=stream_handler)
        self._stats_interval_s = stats_interval_s
        self._headers: dict[int, bytearray] = {}
        self._uploads: dict[int, Request] = {}
        # Streams whose request is read and download sent, upload answered, or
        # request refused: what comes later (a FIN alone, an upload's bytes
        # past its deadline, the rest of a refused request) is not read.
        self._served: set[int] = set()
        self._received = Received()
        self._tasks: set[asyncio.Task[None]] = set()
        self._stats_started = False

    def quic_event_received(self, event: QuicEvent) -> None:
        if isinstance(event, StreamDataReceived):
            if event.stream_id in self._uploads:
                self._receive_upload(event.stream_id, len(event.data), event.end_stream)
            elif event.stream_id not in self._served:
                self._receive_request(event)
        elif isinstance(event, ConnectionTerminated):
            for task in self._tasks:
                task.cancel()

    def _receive_request(self, event: StreamDataReceived) -> None:
        header = self._headers.setdefault(event.stream_id, bytearray())
        header += event.data
        line, newline, rest = header.partition(b"\n")
        if len(line) > MAX_REQUEST_BYTES:
            self._refuse(event.stream_id, f"A request exceeded {MAX_REQUEST_BYTES} bytes.")
            return
        if not newline and not event.end_stream:
            return
        del self._headers[event.stream_id]
        try:
            request = parse_request(bytes(line))
        except PeerError as error:
            self._refuse(event.stream_id, str(error))
            return
        if request.direction == "download":
            self._served.add(event.stream_id)
            self._spawn(send_zeros(self._quic, event.stream_id, request.size_bytes, request.until_t_s))
        else:
            self._uploads[event.stream_id] = request
            if request.until_t_s is not None:
                self._spawn(self._answer_at(event.stream_id, request.until_t_s))
            self._receive_upload(event.stream_id, len(rest), event.end_stream)
        if not self._stats_started and not request.warm_up:
            self._stats_started = True
            self._spawn(report_stats(self._quic, request.flow, self._received, self._stats_interval_s))

    def _receive_upload(self, stream_id: int, count: int, end_stream: bool) -> None:
        self._received.add(count)
        if end_stream:
            self._answer(stream_id)

    async def _answer_at(self, stream_id: int, until_t_s: float) -> None:
        await asyncio.sleep(max(0.0, until_t_s - time.monotonic()))
        self._answer(stream_id, until_t_s)

    def _answer(self, stream_id: int, until_t_s: float | None = None) -> None:
        """Tell the uploader what arrived: all of it, or what had by until_t_s."""
        if self._uploads.pop(stream_id, None) is None:
            return  # answered already (at the deadline)
        self._served.add(stream_id)
        last_byte_t_s = self._received.last_byte_t_s if until_t_s is None else until_t_s
        answer = {"bytes": self._received.bytes, "last_byte_t_s": round(last_byte_t_s, 6)}
        self._quic.send_stream_data(stream_id, json.dumps(answer).encode() + b"\n", end_stream=True)

    def _refuse(self, stream_id: int, message: str) -> None:
        self._headers.pop(stream_id, None)
        self._served.add(stream_id)
        emit({"event": "error", "message": message})
        self._quic.reset_stream(stream_id, BAD_REQUEST_ERROR_CODE)

    def _spawn(self, coroutine: Any) -> None:
        # quic_event_received is synchronous, so every send happens in a task.
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def run_server(args: argparse.Namespace) -> int:
    host, port = parse_endpoint(args.listen, "--listen")
    check_readable_file(args.cert, "--cert")
    check_readable_file(args.key, "--key")
    server_configuration = configuration(args, host, is_client=False)
    server_configuration.load_cert_chain(args.cert, args.key)
    check_port_free(host, port)
    create_protocol = functools.partial(ServerProtocol, stats_interval_s=args.stats_interval_ms / 1000)
    stop = stop_on_signals()
    try:
        server = await serve(host, port, configuration=server_configuration, create_protocol=create_protocol)
    except (OSError, RuntimeError) as error:
        raise PeerError(f"The server could not listen on {args.listen}: {error}.") from None
    emit({"event": "listening", "address": args.listen, "cc": args.cc, "alpn": args.alpn})
    try:
        await stop.wait()
    finally:
        server.close()
    return 0


# ---------------------------------------------------------------- client


class Transfer:
    """Progress of the client's transfer, shared by the protocol that counts
    and the task that waits; `finished` holds (bytes, last_byte_t_s)."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.received = Received()
        self.answer = bytearray()  # an upload's answer line
        self.session_resumed = False
        self.finished: asyncio.Future[tuple[int, float]] = asyncio.get_running_loop().create_future()

    def fail(self, message: str) -> None:
        if not self.finished.done():
            self.finished.set_exception(PeerError(message))

    def finish(self, delivered_bytes: int, last_byte_t_s: float) -> None:
        if not self.finished.done():
            self.finished.set_result((delivered_bytes, last_byte_t_s))

    def progress(self) -> str:
        if self.request.direction == "upload":
            return "no answer to the upload"
        total = f" of {self.request.size_bytes}" if self.request.size_bytes is not None else ""
        return f"{self.received.bytes}{total} bytes"


class ClientProtocol(QuicConnectionProtocol):
    """Counts a download, or reads an upload's answer; settles the transfer at FIN, reset or close."""

    def __init__(
        self, quic: QuicConnection, stream_handler: Any = None, *, transfer: Transfer
    ) -> None:
        super().__init__(quic, stream_handler=stream_handler)
        self._transfer = transfer

    def quic_event_received(self, event: QuicEvent) -> None:
        transfer = self._transfer
        if isinstance(event, HandshakeCompleted):
            transfer.session_resumed = event.session_resumed
        if transfer.finished.done():
            return
        if isinstance(event, StreamDataReceived):
            if transfer.request.direction == "upload":
                self._read_answer(event)
            else:
                self._count_download(event)
        elif isinstance(event, StreamReset):
            reason = " (it refused the request)" if event.error_code == BAD_REQUEST_ERROR_CODE else ""
            transfer.fail(
                f"The server reset the stream with code {event.error_code}{reason} "
                f"after {transfer.progress()}."
            )
        elif isinstance(event, ConnectionTerminated):
            transfer.fail(
                f"The connection ended ({describe_quic_error(event.error_code)}) "
                f"after {transfer.progress()}."
            )

    def _count_download(self, event: StreamDataReceived) -> None:
        transfer, size_bytes = self._transfer, self._transfer.request.size_bytes
        transfer.received.add(len(event.data))
        if size_bytes is not None and transfer.received.bytes > size_bytes:
            transfer.fail(f"The server sent more than requested: {transfer.progress()}.")
        elif event.end_stream:
            if size_bytes is None or transfer.received.bytes == size_bytes:
                transfer.finish(transfer.received.bytes, transfer.received.last_byte_t_s)
            else:
                transfer.fail(f"The server ended the stream after {transfer.progress()}.")

    def _read_answer(self, event: StreamDataReceived) -> None:
        transfer = self._transfer
        transfer.answer += event.data
        if not event.end_stream:
            return
        try:
            answer = json.loads(transfer.answer)
            delivered_bytes, last_byte_t_s = int(answer["bytes"]), float(answer["last_byte_t_s"])
        except (ValueError, TypeError, KeyError):
            transfer.fail(f"The server's answer to the upload is not {{bytes, last_byte_t_s}}: "
                          f"{bytes(transfer.answer[:80])!r}.")
            return
        size_bytes = transfer.request.size_bytes
        if size_bytes is not None and delivered_bytes != size_bytes:
            transfer.fail(f"The server received {delivered_bytes} of the {size_bytes} bytes uploaded.")
        else:
            transfer.finish(delivered_bytes, last_byte_t_s)


def describe_quic_error(code: int) -> str:
    """Name a QUIC close code; 0x100 + N carries TLS alert N (RFC 9001, section 4.8)."""
    if code == TLS_ALERT_BASE + TLS_ALERT_NO_APPLICATION_PROTOCOL:
        return f"QUIC error code {code}, TLS alert no_application_protocol: the two ends' --alpn differ"
    if TLS_ALERT_BASE <= code < 2 * TLS_ALERT_BASE:
        return f"QUIC error code {code}, TLS alert {code - TLS_ALERT_BASE}"
    return f"QUIC error code {code}"


async def settle_at(transfer: Transfer, until_t_s: float) -> None:
    """Settle a download by duration: what had arrived by until_t_s."""
    await asyncio.sleep(max(0.0, until_t_s - time.monotonic()))
    transfer.finish(transfer.received.bytes, time.monotonic())


async def resumed_by_now(quic: QuicConnection, deadline_s: float = 0.5) -> bool:
    """Whether the handshake resumed a session, from a fresh snapshot of the connection.

    HandshakeCompleted reads aiopquic's cached snapshot of picoquic's
    connection, which may predate the handshake (then it says False, as it
    does for a transfer done within the first round trip); path_quality()
    asks picoquic's thread for a new one.
    """
    deadline = time.monotonic() + deadline_s
    while True:
        quic.path_quality()
        if quic._session_resumed(0) or time.monotonic() > deadline:
            return bool(quic._session_resumed(0))
        await asyncio.sleep(0.01)


async def run_client(args: argparse.Namespace) -> int:
    host, port = parse_endpoint(args.connect, "--connect")
    if (args.size_bytes is None) == (args.duration_s is None):
        raise PeerError("Give exactly one of --size-bytes and --duration-s.")
    if args.size_bytes is not None and args.size_bytes <= 0:
        raise PeerError(f"--size-bytes must be a positive number of bytes, got {args.size_bytes}.")
    if args.duration_s is not None:
        check_positive(args.duration_s, "--duration-s")
    check_positive(args.timeout_s, "--timeout-s")
    if not args.flow_id:
        raise PeerError("--flow-id must not be empty.")
    client_configuration = configuration(
        args, host, is_client=True,
        # The server's certificate is self-signed for the lab.
        verify_mode=ssl.CERT_NONE,
        # Loaded when the connection starts, saved when it ends: a warm-up
        # leaves the ticket (and its transport parameters) a later run resumes.
        session_ticket_file=args.ticket_file,
    )
    started_at = time.monotonic()
    until_t_s = started_at + args.duration_s if args.duration_s is not None else None
    transfer = Transfer(Request(args.flow_id, args.direction, args.size_bytes, until_t_s, args.warm_up))
    stop_on_signals(lambda: transfer.fail(
        f"The transfer was stopped by a signal after {transfer.progress()}."
    ))
    create_protocol = functools.partial(ClientProtocol, transfer=transfer)
    tasks: list[asyncio.Task[None]] = []
    try:
        async with asyncio.timeout(args.timeout_s):
            async with connect(
                host, port, configuration=client_configuration,
                create_protocol=create_protocol, wait_connected=False,
            ) as protocol:
                quic = protocol._quic
                # Written before the handshake completes, it leaves with the
                # client's first packets: 0-RTT ones with a session ticket.
                stream_id = quic.get_next_available_stream_id()
                resumed_download = args.ticket_file is not None and args.direction == "download"
                padding_bytes = ZERO_RTT_PADDING_BYTES if resumed_download and not args.warm_up else 0
                quic.send_stream_data(stream_id, transfer.request.encode(padding_bytes),
                                      end_stream=args.direction == "download")
                if args.direction == "upload":
                    tasks.append(asyncio.create_task(
                        send_zeros(quic, stream_id, args.size_bytes, None)))
                elif until_t_s is not None:
                    tasks.append(asyncio.create_task(settle_at(transfer, until_t_s)))
                if not args.warm_up:
                    tasks.append(asyncio.create_task(report_stats(
                        quic, args.flow_id, transfer.received, args.stats_interval_ms / 1000)))
                try:
                    delivered_bytes, last_byte_t_s = await transfer.finished
                finally:
                    for task in tasks:
                        task.cancel()
                initial_cid = (quic.connection_ids or {}).get("initial", b"").hex()
                session_resumed = transfer.session_resumed
                if args.ticket_file is not None and not session_resumed:
                    session_resumed = await resumed_by_now(quic)
    except TimeoutError:
        raise PeerError(
            f"The transfer did not finish within --timeout-s {args.timeout_s} s: "
            f"{transfer.progress()}."
        ) from None
    except ConnectionError as error:
        raise PeerError(f"The connection to {args.connect} failed: {error}.") from None
    download_time_s = last_byte_t_s - started_at
    emit({
        "event": "summary",
        "flow": args.flow_id,
        "direction": args.direction,
        "bytes": delivered_bytes,
        "download_time_s": round(download_time_s, 6),
        "goodput_mbps": round(delivered_bytes * 8 / download_time_s / 1e6, 6),
        "start_t_s": round(started_at, 6),
        "session_resumed": session_resumed,
        "initial_cid": initial_cid,
    })
    return 0


# ---------------------------------------------------------------- qlog


class QlogCounts:
    """What one end sent on a connection, and when stream data first reached it, from its qlog."""

    def __init__(self) -> None:
        self.packets_sent = 0
        self.ack_frames_sent = 0
        self.zero_rtt_packets_sent = 0
        self.first_sent_us: int | None = None
        self.first_stream_data_us: int | None = None
        self.last_stream_data_us: int | None = None

    @property
    def time_to_first_byte_ms(self) -> float | None:
        """From this end's first packet to the first stream data it received, by picoquic's clock."""
        if self.first_sent_us is None or self.first_stream_data_us is None:
            return None
        return (self.first_stream_data_us - self.first_sent_us) / 1000

    @property
    def transfer_time_s(self) -> float | None:
        """From this end's first packet to the last stream data it received, by picoquic's clock."""
        if self.first_sent_us is None or self.last_stream_data_us is None:
            return None
        return (self.last_stream_data_us - self.first_sent_us) / 1e6


# An ACK frame (type 0x02/0x03), not ack_frequency; picoquic logs each frame
# of a packet on its own line after the packet's event line.
ACK_FRAME = re.compile(rb'"frame_type": "ack"[,}]')


def count_qlog(path: Path) -> QlogCounts:
    """Read a picoquic qlog line by line (one runs to hundreds of megabytes).

    picoquic writes each event as a line "[relative_time_us, category, event,
    {...": the lines that follow, up to the next event, are its frames.
    """
    counts = QlogCounts()
    event = b""
    time_us = 0
    with path.open("rb") as qlog:
        for line in qlog:
            if line.startswith(b"["):
                time_text, _, rest = line[1:].partition(b",")
                time_us = int(time_text) if time_text.isdigit() else time_us
                event = rest.split(b'"', 4)[3] if rest.count(b'"') >= 4 else b""
                if event == b"packet_sent":
                    counts.packets_sent += 1
                    counts.zero_rtt_packets_sent += b'"packet_type": "0RTT"' in line
                    if counts.first_sent_us is None:
                        counts.first_sent_us = time_us
            if event == b"packet_sent":
                counts.ack_frames_sent += len(ACK_FRAME.findall(line))
            elif event == b"packet_received" and b'"frame_type": "stream"' in line:
                if counts.first_stream_data_us is None:
                    counts.first_stream_data_us = time_us
                counts.last_stream_data_us = time_us
    return counts


# ---------------------------------------------------------------- satlab flow


class PicoquicFlow(Flow):
    """satlab's flow contract over the two peers above, each started as
    `python -m satlab.engine.flows.picoquic.peer` in its namespace; the server in
    server_netns, the client in client_netns, whatever the direction. The
    sender (the server for a download, the client for an upload) gives the
    samples' cwnd, RTT and losses; the receiver's application the bytes.

    bytes and download_time_s are the client's (see the module's docstring
    for sizes and durations), but for a download of size_bytes
    download_time_s comes from the client's qlog: its first packet to the
    last response data, by picoquic's clock, which Python's scheduling on a
    loaded host (hundreds of ms) does not stretch (ngtcp2's time is read from
    its qlog too).
    retransmissions counts the packets picoquic declared lost, as of the
    sender's last stats line.

    zero_rtt: start_server() also runs a warm-up client to completion (before
    the run's clock, not measured) that leaves a session ticket for the
    measured client to resume, sending its request in 0-RTT. "on": the warm-up
    downloads WARM_UP_BYTES, too few to leave slow start, so no bandwidth is
    remembered. "bdp": the warm-up sends for WARM_UP_BDP_S in the flow's
    direction; picoquic then seeds the measured connection's congestion
    control with the bandwidth and minimum RTT the warm-up's sender had when
    it left slow start (the server remembers them with the tickets it issued,
    the client's ticket store carries its own): draft-kuhn-quic-0rtt-bdp's
    local storage. Its BDP frame is out of aiopquic's reach (backend/README.md).

    details, from the measured connection's qlogs (deleted once counted):
    ack_frames_sent and receiver_packets_sent, the receiver's; for a download,
    time_to_first_byte_ms, from the client's first packet to the first
    response byte by picoquic's clock (one RTT with 0-RTT, two without); with
    0-RTT, session_resumed and zero_rtt_packets_sent (the client's).
    """

    server: JsonLineChild | None = None
    client: JsonLineChild | None = None

    def setup(self) -> None:
        flow = self.planned
        self._cert, self._key = make_self_signed_cert(str(self.workdir), flow.server_addr)
        self._qlog_dirs = {role: self.workdir / f"qlog-{role}" for role in ("server", "client")}
        for directory in self._qlog_dirs.values():
            directory.mkdir()
        self._ticket_file = str(self.workdir / "session-tickets.bin")
        self._receiver = "client" if flow.direction == "download" else "server"

    def _common_args(self) -> list[str]:
        """What every peer of the flow takes: its congestion control and windows."""
        flow = self.planned
        return ["--cc", flow.cc,
                "--connection-window-bytes", str(flow.connection_window_bytes or FLOW_CONTROL_WINDOW_BYTES),
                "--stream-window-bytes", str(flow.stream_window_bytes or FLOW_CONTROL_WINDOW_BYTES)]

    def start_server(self) -> None:
        flow = self.planned
        qlog = ["--qlog-dir", str(self._qlog_dirs["server"])] if self._receiver == "server" else []
        self.server = JsonLineChild(
            peer_command("server", "--listen", endpoint(flow.server_addr, flow.port),
                         "--cert", self._cert, "--key", self._key, *self._common_args(), *qlog),
            flow.server_netns, f"picoquic-server-{flow.index}",
        )
        try:
            self.server.wait_event("listening", SERVER_READY_S)
        except RuntimeError as error:
            raise PeerError(self._error_of(self.server) or str(error)) from None
        if flow.zero_rtt != "off":
            self._warm_up()

    def _transfer_args(self) -> list[str]:
        flow = self.planned
        amount = (["--size-bytes", str(flow.size_bytes)] if flow.size_bytes is not None
                  else ["--duration-s", f"{flow.duration_s:g}"])
        return [*amount, "--direction", flow.direction,
                "--timeout-s", str(CLIENT_TIMEOUT_S + (flow.duration_s or 0))]

    def _warm_up(self) -> None:
        flow = self.planned
        transfer = (["--duration-s", f"{WARM_UP_BDP_S:g}", "--direction", flow.direction]
                    if flow.zero_rtt == "bdp" else ["--size-bytes", str(WARM_UP_BYTES)])
        warm_up = JsonLineChild(
            peer_command("client", "--connect", endpoint(flow.server_addr, flow.port), *transfer,
                         *self._common_args(), "--flow-id", str(flow.index), "--warm-up",
                         "--timeout-s", str(WARM_UP_TIMEOUT_S),
                         "--ticket-file", self._ticket_file),
            flow.client_netns, f"picoquic-warm-up-{flow.index}",
        )
        try:
            warm_up.process.wait()
        finally:
            warm_up.stop()
        if "summary" not in warm_up.events:
            raise PeerError(f"Flow {flow.index}: the 0-RTT warm-up connection failed: "
                            f"{self._error_of(warm_up) or warm_up.stderr_text()}")

    def start_client(self) -> None:
        flow = self.planned
        qlog = (["--qlog-dir", str(self._qlog_dirs["client"])]
                if self._receiver == "client" or flow.zero_rtt != "off" else [])
        tickets = ["--ticket-file", self._ticket_file] if flow.zero_rtt != "off" else []
        self.client = JsonLineChild(
            peer_command("client", "--connect", endpoint(flow.server_addr, flow.port),
                         *self._transfer_args(), *self._common_args(),
                         "--flow-id", str(flow.index), *qlog, *tickets),
            flow.client_netns, f"picoquic-client-{flow.index}",
        )

    def done(self) -> bool:
        return self.client is not None and not self.client.running()

    def _ends(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """The latest stats lines of (sender, receiver)."""
        server = self.server.latest if self.server is not None else None
        client = self.client.latest if self.client is not None else None
        return (server, client) if self.planned.direction == "download" else (client, server)

    def sample(self) -> FlowSample | None:
        sender, receiver = self._ends()
        if sender is None:
            return None
        return FlowSample(
            # What the receiving application has received: QUIC's goodput.
            bytes_acked=receiver["bytes_received"] if receiver is not None else None,
            cwnd_bytes=sender["cwnd_bytes"],
            rtt_ms=sender["rtt_ms"],
            retransmissions=sender["lost_packets"],
        )

    def collect(self) -> FlowResult:
        assert self.client is not None and self.server is not None
        self.client.stop()  # it has exited: this joins its line reader
        self.server.stop()  # so that picoquic closes its qlog
        sender, receiver = self._ends()
        lost_packets = sender["lost_packets"] if sender is not None else None
        summary = self.client.events.get("summary")
        if summary is None:
            error = self._error_of(self.client) or (
                f"The picoquic client of flow {self.planned.index} exited "
                f"{self.client.process.returncode} without a summary: {self.client.stderr_text()}"
            )
            received = receiver["bytes_received"] if receiver is not None else 0
            self._delete_qlogs()
            return FlowResult(received, None, lost_packets, error=error)
        receiving, client = self._read_qlogs(summary["initial_cid"])
        self._delete_qlogs()
        download_time_s = summary["download_time_s"]
        details: dict[str, Any] = {
            "ack_frames_sent": receiving.ack_frames_sent if receiving else None,
            "receiver_packets_sent": receiving.packets_sent if receiving else None,
        }
        if self.planned.direction == "download":
            details["time_to_first_byte_ms"] = receiving.time_to_first_byte_ms if receiving else None
            if self.planned.size_bytes is not None and receiving and receiving.transfer_time_s is not None:
                download_time_s = round(receiving.transfer_time_s, 6)
        if self.planned.zero_rtt != "off":
            details["session_resumed"] = summary["session_resumed"]
            details["zero_rtt_packets_sent"] = client.zero_rtt_packets_sent if client else None
        return FlowResult(summary["bytes"], download_time_s, lost_packets, details=details)

    def _read_qlogs(self, initial_cid: str) -> tuple[QlogCounts | None, QlogCounts | None]:
        """The measured connection's qlog counts: (the receiver's, the client's)."""
        def counts(role: str) -> QlogCounts | None:
            path = self._qlog_dirs[role] / f"{initial_cid}.{role}.qlog"
            return count_qlog(path) if path.is_file() else None

        receiver = counts(self._receiver)
        return receiver, receiver if self._receiver == "client" else counts("client")

    def _delete_qlogs(self) -> None:
        for directory in self._qlog_dirs.values():
            shutil.rmtree(directory, ignore_errors=True)

    def stop(self) -> None:
        for child in (self.client, self.server):
            if child is not None:
                child.stop()

    @staticmethod
    def _error_of(child: JsonLineChild) -> str | None:
        error = child.events.get("error")
        return error["message"] if error is not None else None


def peer_command(role: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "satlab.engine.flows.picoquic.peer", role, *args]


# ---------------------------------------------------------------- main


def stop_on_signals(on_signal: Callable[[], object] | None = None) -> asyncio.Event:
    """Return an event SIGTERM and SIGINT set (and call on_signal), for a clean exit."""
    stop = asyncio.Event()

    def handle() -> None:
        stop.set()
        if on_signal is not None:
            on_signal()

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, handle)
    return stop


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """What both ends take: congestion control, ALPN, windows, statistics, qlog."""
    parser.add_argument("--cc", required=True, metavar="ALGO")
    parser.add_argument("--alpn", default=DEFAULT_ALPN)
    parser.add_argument("--stats-interval-ms", type=float, default=100.0)
    parser.add_argument("--connection-window-bytes", type=int, default=FLOW_CONTROL_WINDOW_BYTES,
                        help="initial_max_data this end announces")
    parser.add_argument("--stream-window-bytes", type=int, default=FLOW_CONTROL_WINDOW_BYTES,
                        help="initial_max_stream_data this end announces")
    parser.add_argument("--qlog-dir", help="write a qlog per connection into this directory")


def build_parser() -> argparse.ArgumentParser:
    parser = SentenceArgumentParser(
        prog="satlab.engine.flows.picoquic.peer", description="A QUIC transfer peer on picoquic for satlab flows."
    )
    roles = parser.add_subparsers(dest="role", required=True, parser_class=SentenceArgumentParser)

    cert = roles.add_parser("cert", help="write a self-signed cert.pem and key.pem")
    cert.add_argument("--out-dir", required=True)
    cert.add_argument("--address", required=True, help="server IP the certificate names")

    server = roles.add_parser("server", help="serve transfers and report path statistics")
    server.add_argument("--listen", required=True, metavar="ADDR:PORT")
    server.add_argument("--cert", required=True)
    server.add_argument("--key", required=True)
    add_common_arguments(server)

    client = roles.add_parser("client", help="download or upload, and print a summary")
    client.add_argument("--connect", required=True, metavar="ADDR:PORT")
    client.add_argument("--size-bytes", type=int)
    client.add_argument("--duration-s", type=float)
    client.add_argument("--direction", choices=DIRECTIONS, default="download")
    client.add_argument("--flow-id", default="1", help="label of the stats lines")
    client.add_argument("--timeout-s", type=float, default=120.0)
    client.add_argument("--ticket-file", help="session ticket store, read at start, written at the end")
    client.add_argument("--warm-up", action="store_true",
                        help="a connection that only leaves a session ticket: no stats lines")
    add_common_arguments(client)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.role == "cert":
            cert_path, key_path = make_self_signed_cert(args.out_dir, args.address)
            emit({"event": "cert", "cert": cert_path, "key": key_path})
            return 0
        runner = run_server if args.role == "server" else run_client
        return asyncio.run(runner(args))
    except (PeerError, CertificateError) as error:
        fail(str(error))


if __name__ == "__main__":
    sys.exit(main())
