"""A QUIC download peer on picoquic (through aiopquic), one process per end of a flow.

Each end runs inside its network namespace:

    python -m satlab.flows.quic_picoquic cert --out-dir DIR --address 10.0.0.1
    python -m satlab.flows.quic_picoquic server --listen 10.0.0.1:4433 \\
        --cert DIR/cert.pem --key DIR/key.pem --cc bbr1
    python -m satlab.flows.quic_picoquic client --connect 10.0.0.1:4433 \\
        --size-bytes 20971520 --cc bbr1 --flow-id f1

The client opens one bidirectional stream and writes its request at once,
without waiting for the handshake: a JSON object {"flow": ID, "size_bytes": N}
ended by FIN. The server answers with N zero bytes ended by FIN.

Lines on stdout, one JSON object each (`t_s` is CLOCK_MONOTONIC seconds, the
clock every network namespace shares, so a parent aligns it with its own
time.monotonic()):
- server: {"event":"listening","address","cc","alpn"} once it serves; then per
  connection that made a request, every interval, the sender's path statistics
  {"event":"stats","t_s","flow","cwnd_bytes","rtt_ms","rtt_min_ms",
  "bytes_in_flight","pacing_rate_bps","lost_packets","bytes_sent"}.
  SIGTERM or SIGINT ends it with exit 0.
- client: every interval {"event":"stats","t_s","flow","bytes_received"}; at the
  end {"event":"summary","flow","bytes","download_time_s","goodput_mbps",
  "start_t_s"} and exit 0, download_time_s counting from just before the
  connection is created (handshake included) to the last byte.
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
import signal
import socket
import ssl
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, NoReturn

from aiopquic.asyncio import connect, serve
from aiopquic.asyncio.protocol import QuicConnectionProtocol
from aiopquic.quic.configuration import QuicConfiguration
from aiopquic.quic.connection import QuicConnection
from aiopquic.quic.events import (
    ConnectionTerminated,
    QuicEvent,
    StreamDataReceived,
    StreamReset,
)

from satlab.flows.base import Flow, FlowResult, FlowSample
from satlab.flows.registry import TRANSPORTS
from satlab.flows.tls import CertificateError, endpoint, make_self_signed_cert
from satlab.process import JsonLineChild

# Names picoquic registers, matched exactly ("bbr1" is BBRv1, "bbr" is BBRv3).
CONGESTION_CONTROLS = TRANSPORTS["quic-picoquic"].congestion_controls
DEFAULT_ALPN = "satlab"
# Both flow-control windows must exceed the path's bandwidth-delay product or
# the receiver, not the congestion control, sets the pace: 16 MiB covers
# 50 Mbit/s over a 600 ms RTT (3.75 MB) four times over.
FLOW_CONTROL_WINDOW_BYTES = 16 * 1024 * 1024
# Writes go through aiopquic's 4 MiB per-stream ring; smaller chunks keep it
# fed without one write ever exceeding it.
SEND_CHUNK_BYTES = 256 * 1024
ZERO_CHUNK = bytes(SEND_CHUNK_BYTES)
MAX_REQUEST_BYTES = 4096
SERVER_READY_S = 10.0
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


# ---------------------------------------------------------------- server


def parse_request(raw: bytes) -> tuple[str, int]:
    """Read {"flow": ID, "size_bytes": N} into (flow, size_bytes)."""
    try:
        request = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise PeerError(f"The request is not JSON: {raw[:80]!r}.") from None
    if not isinstance(request, dict):
        raise PeerError("The request must be a JSON object.")
    flow, size_bytes = request.get("flow"), request.get("size_bytes")
    if not isinstance(flow, str) or not flow:
        raise PeerError(f"The request's flow must be a non-empty string, got {flow!r}.")
    if type(size_bytes) is not int or size_bytes <= 0:
        raise PeerError(f"The request's size_bytes must be a positive integer, got {size_bytes!r}.")
    return flow, size_bytes


class DownloadServerProtocol(QuicConnectionProtocol):
    """One connection: serves each request stream, and reports the sender's path statistics."""

    def __init__(
        self, quic: QuicConnection, stream_handler: Any = None, *, stats_interval_s: float
    ) -> None:
        super().__init__(quic, stream_handler=stream_handler)
        self._stats_interval_s = stats_interval_s
        self._requests: dict[int, bytearray] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._stats_started = False

    def quic_event_received(self, event: QuicEvent) -> None:
        if isinstance(event, StreamDataReceived):
            self._receive_request(event)
        elif isinstance(event, ConnectionTerminated):
            for task in self._tasks:
                task.cancel()

    def _receive_request(self, event: StreamDataReceived) -> None:
        request = self._requests.setdefault(event.stream_id, bytearray())
        request += event.data
        if len(request) > MAX_REQUEST_BYTES:
            self._refuse(event.stream_id, f"A request exceeded {MAX_REQUEST_BYTES} bytes.")
            return
        if not event.end_stream:
            return
        del self._requests[event.stream_id]
        try:
            flow, size_bytes = parse_request(bytes(request))
        except PeerError as error:
            self._refuse(event.stream_id, str(error))
            return
        self._spawn(self._send_download(event.stream_id, size_bytes))
        if not self._stats_started:
            self._stats_started = True
            self._spawn(self._report_stats(flow))

    def _refuse(self, stream_id: int, message: str) -> None:
        self._requests.pop(stream_id, None)
        emit({"event": "error", "message": message})
        self._quic.reset_stream(stream_id, BAD_REQUEST_ERROR_CODE)

    def _spawn(self, coroutine: Any) -> None:
        # quic_event_received is synchronous, so every send happens in a task.
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_download(self, stream_id: int, size_bytes: int) -> None:
        remaining = size_bytes
        while remaining > 0:
            chunk = ZERO_CHUNK if remaining >= SEND_CHUNK_BYTES else bytes(remaining)
            remaining -= len(chunk)
            await self._quic.send_stream_data_drained(stream_id, chunk, end_stream=remaining == 0)

    async def _report_stats(self, flow: str) -> None:
        """One stats line per interval.

        path_quality() returns the snapshot picoquic's thread took when the
        previous call asked for one, so each line carries the time of that ask.
        """
        asked_at: float | None = None
        async for now in ticks(self._stats_interval_s):
            quality = self._quic.path_quality()
            if asked_at is not None and quality:
                emit(stats_record(asked_at, flow, quality))
            asked_at = now


def stats_record(t_s: float, flow: str, quality: dict[str, int]) -> dict[str, Any]:
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
    }


async def run_server(args: argparse.Namespace) -> int:
    host, port = parse_endpoint(args.listen, "--listen")
    check_congestion_control(args.cc)
    check_readable_file(args.cert, "--cert")
    check_readable_file(args.key, "--key")
    check_positive(args.stats_interval_ms, "--stats-interval-ms")
    configuration = QuicConfiguration(
        is_client=False,
        alpn_protocols=[args.alpn],
        congestion_control_algorithm=args.cc,
        max_data=FLOW_CONTROL_WINDOW_BYTES,
        max_stream_data=FLOW_CONTROL_WINDOW_BYTES,
        # picoquic binds the wildcard address of this family, not `host`.
        ip_family=ip_family(host),
    )
    configuration.load_cert_chain(args.cert, args.key)
    check_port_free(host, port)
    create_protocol = functools.partial(
        DownloadServerProtocol, stats_interval_s=args.stats_interval_ms / 1000
    )
    stop = stop_on_signals()
    try:
        server = await serve(host, port, configuration=configuration, create_protocol=create_protocol)
    except (OSError, RuntimeError) as error:
        raise PeerError(f"The server could not listen on {args.listen}: {error}.") from None
    emit({"event": "listening", "address": args.listen, "cc": args.cc, "alpn": args.alpn})
    try:
        await stop.wait()
    finally:
        server.close()
    return 0


# ---------------------------------------------------------------- client


class Download:
    """Progress of one download, shared by the protocol that counts and the task that waits."""

    def __init__(self, size_bytes: int) -> None:
        self.size_bytes = size_bytes
        self.received_bytes = 0
        self.last_byte_at = 0.0
        self.finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def fail(self, message: str) -> None:
        if not self.finished.done():
            self.finished.set_exception(PeerError(message))

    def progress(self) -> str:
        return f"{self.received_bytes} of {self.size_bytes} bytes"


class DownloadClientProtocol(QuicConnectionProtocol):
    """Counts the bytes of one download and settles it at FIN, reset or close."""

    def __init__(
        self, quic: QuicConnection, stream_handler: Any = None, *, download: Download
    ) -> None:
        super().__init__(quic, stream_handler=stream_handler)
        self._download = download

    def quic_event_received(self, event: QuicEvent) -> None:
        download = self._download
        if download.finished.done():
            return
        if isinstance(event, StreamDataReceived):
            download.received_bytes += len(event.data)
            if download.received_bytes > download.size_bytes:
                download.fail(f"The server sent more than requested: {download.progress()}.")
            elif download.received_bytes == download.size_bytes and not download.last_byte_at:
                download.last_byte_at = time.monotonic()
            if event.end_stream:
                if download.received_bytes == download.size_bytes:
                    download.finished.set_result(None)
                else:
                    download.fail(f"The server ended the stream after {download.progress()}.")
        elif isinstance(event, StreamReset):
            reason = " (it refused the request)" if event.error_code == BAD_REQUEST_ERROR_CODE else ""
            download.fail(
                f"The server reset the stream with code {event.error_code}{reason} "
                f"after {download.progress()}."
            )
        elif isinstance(event, ConnectionTerminated):
            download.fail(
                f"The connection ended ({describe_quic_error(event.error_code)}) "
                f"after {download.progress()}."
            )


def describe_quic_error(code: int) -> str:
    """Name a QUIC close code; 0x100 + N carries TLS alert N (RFC 9001, section 4.8)."""
    if code == TLS_ALERT_BASE + TLS_ALERT_NO_APPLICATION_PROTOCOL:
        return f"QUIC error code {code}, TLS alert no_application_protocol: the two ends' --alpn differ"
    if TLS_ALERT_BASE <= code < 2 * TLS_ALERT_BASE:
        return f"QUIC error code {code}, TLS alert {code - TLS_ALERT_BASE}"
    return f"QUIC error code {code}"


async def report_progress(download: Download, flow: str, interval_s: float) -> None:
    async for now in ticks(interval_s):
        emit({"event": "stats", "t_s": round(now, 6), "flow": flow,
              "bytes_received": download.received_bytes})


async def run_client(args: argparse.Namespace) -> int:
    host, port = parse_endpoint(args.connect, "--connect")
    check_congestion_control(args.cc)
    if args.size_bytes <= 0:
        raise PeerError(f"--size-bytes must be a positive number of bytes, got {args.size_bytes}.")
    check_positive(args.timeout_s, "--timeout-s")
    check_positive(args.stats_interval_ms, "--stats-interval-ms")
    if not args.flow_id:
        raise PeerError("--flow-id must not be empty.")
    configuration = QuicConfiguration(
        is_client=True,
        alpn_protocols=[args.alpn],
        congestion_control_algorithm=args.cc,
        # The server's certificate is self-signed for the lab.
        verify_mode=ssl.CERT_NONE,
        max_data=FLOW_CONTROL_WINDOW_BYTES,
        max_stream_data=FLOW_CONTROL_WINDOW_BYTES,
        ip_family=ip_family(host),
    )
    download = Download(args.size_bytes)
    stop_on_signals(lambda: download.fail(
        f"The download was stopped by a signal after {download.progress()}."
    ))
    create_protocol = functools.partial(DownloadClientProtocol, download=download)
    request = json.dumps({"flow": args.flow_id, "size_bytes": args.size_bytes}).encode()
    started_at = time.monotonic()
    try:
        async with asyncio.timeout(args.timeout_s):
            async with connect(
                host, port, configuration=configuration,
                create_protocol=create_protocol, wait_connected=False,
            ) as protocol:
                # Written before the handshake completes, it leaves with the
                # client's first 1-RTT packets: no round trip is spent waiting.
                stream_id = protocol._quic.get_next_available_stream_id()
                protocol._quic.send_stream_data(stream_id, request, end_stream=True)
                reporter = asyncio.create_task(
                    report_progress(download, args.flow_id, args.stats_interval_ms / 1000)
                )
                try:
                    await download.finished
                finally:
                    reporter.cancel()
    except TimeoutError:
        raise PeerError(
            f"The download did not finish within --timeout-s {args.timeout_s} s: "
            f"received {download.progress()}."
        ) from None
    except ConnectionError as error:
        raise PeerError(f"The connection to {args.connect} failed: {error}.") from None
    download_time_s = download.last_byte_at - started_at
    emit({
        "event": "summary",
        "flow": args.flow_id,
        "bytes": args.size_bytes,
        "download_time_s": round(download_time_s, 6),
        "goodput_mbps": round(args.size_bytes * 8 / download_time_s / 1e6, 6),
        "start_t_s": round(started_at, 6),
    })
    return 0


# ---------------------------------------------------------------- satlab flow


class PicoquicFlow(Flow):
    """satlab's flow contract over the two peers above, each started as
    `python -m satlab.flows.quic_picoquic` in its namespace. A download only:
    the server, in server_netns, is the sender whose stats lines sample() reads.

    download_time_s is the client's own: from just before it creates the
    connection (handshake included) to the last byte. retransmissions counts
    the packets picoquic declared lost, as of the sender's last stats line.
    """

    server: JsonLineChild | None = None
    client: JsonLineChild | None = None

    def setup(self) -> None:
        flow = self.planned
        if flow.direction != "download" or flow.size_bytes is None:
            raise PeerError(
                f"Flow {flow.index}: quic-picoquic runs downloads of size_bytes only, "
                f"not direction {flow.direction!r} or duration_s."
            )
        self._cert, self._key = make_self_signed_cert(str(self.workdir), flow.server_addr)

    def start_server(self) -> None:
        flow = self.planned
        self.server = JsonLineChild(
            peer_command("server", "--listen", endpoint(flow.server_addr, flow.port),
                         "--cert", self._cert, "--key", self._key, "--cc", flow.cc),
            flow.server_netns, f"picoquic-server-{flow.index}",
        )
        try:
            self.server.wait_event("listening", SERVER_READY_S)
        except RuntimeError as error:
            raise PeerError(self._error_of(self.server) or str(error)) from None

    def start_client(self) -> None:
        flow = self.planned
        assert flow.size_bytes is not None
        self.client = JsonLineChild(
            peer_command("client", "--connect", endpoint(flow.server_addr, flow.port),
                         "--size-bytes", str(flow.size_bytes), "--cc", flow.cc,
                         "--flow-id", str(flow.index), "--timeout-s", str(CLIENT_TIMEOUT_S)),
            flow.client_netns, f"picoquic-client-{flow.index}",
        )

    def done(self) -> bool:
        return self.client is not None and not self.client.running()

    def sample(self) -> FlowSample | None:
        sender = self.server.latest if self.server is not None else None
        if sender is None:
            return None
        receiver = self.client.latest if self.client is not None else None
        return FlowSample(
            # What the client application has received: QUIC's goodput.
            bytes_acked=receiver["bytes_received"] if receiver is not None else None,
            cwnd_bytes=sender["cwnd_bytes"],
            rtt_ms=sender["rtt_ms"],
            retransmissions=sender["lost_packets"],
        )

    def collect(self) -> FlowResult:
        assert self.client is not None
        self.client.stop()  # it has exited: this joins its line reader
        sender = self.server.latest if self.server is not None else None
        lost_packets = sender["lost_packets"] if sender is not None else None
        summary = self.client.events.get("summary")
        if summary is None:
            error = self._error_of(self.client) or (
                f"The picoquic client of flow {self.planned.index} exited "
                f"{self.client.process.returncode} without a summary: {self.client.stderr_text()}"
            )
            received = self.client.latest["bytes_received"] if self.client.latest else 0
            return FlowResult(received, None, lost_packets, error=error)
        return FlowResult(summary["bytes"], summary["download_time_s"], lost_packets)

    def stop(self) -> None:
        for child in (self.client, self.server):
            if child is not None:
                child.stop()

    @staticmethod
    def _error_of(child: JsonLineChild) -> str | None:
        error = child.events.get("error")
        return error["message"] if error is not None else None


def peer_command(role: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "satlab.flows.quic_picoquic", role, *args]


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


def build_parser() -> argparse.ArgumentParser:
    parser = SentenceArgumentParser(
        prog="quic_picoquic", description="A QUIC download peer on picoquic for satlab flows."
    )
    roles = parser.add_subparsers(dest="role", required=True, parser_class=SentenceArgumentParser)

    cert = roles.add_parser("cert", help="write a self-signed cert.pem and key.pem")
    cert.add_argument("--out-dir", required=True)
    cert.add_argument("--address", required=True, help="server IP the certificate names")

    server = roles.add_parser("server", help="serve downloads and report path statistics")
    server.add_argument("--listen", required=True, metavar="ADDR:PORT")
    server.add_argument("--cert", required=True)
    server.add_argument("--key", required=True)
    server.add_argument("--cc", required=True, metavar="ALGO")
    server.add_argument("--alpn", default=DEFAULT_ALPN)
    server.add_argument("--stats-interval-ms", type=float, default=100.0)

    client = roles.add_parser("client", help="download --size-bytes and print a summary")
    client.add_argument("--connect", required=True, metavar="ADDR:PORT")
    client.add_argument("--size-bytes", required=True, type=int)
    client.add_argument("--cc", required=True, metavar="ALGO")
    client.add_argument("--alpn", default=DEFAULT_ALPN)
    client.add_argument("--flow-id", default="1", help="label of the server's stats lines")
    client.add_argument("--timeout-s", type=float, default=120.0)
    client.add_argument("--stats-interval-ms", type=float, default=100.0)
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
