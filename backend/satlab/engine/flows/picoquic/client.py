"""The client peer: connects, writes its request at once (in 0-RTT with a
session ticket), downloads or uploads (protocol.py has the wire), prints its
stats lines and, at the end, its summary line: bytes and download_time_s as
README.md beside this file defines them ("Results")."""

from __future__ import annotations

import argparse
import asyncio
import functools
import ssl
import time
from typing import Any

from aiopquic.asyncio import connect
from aiopquic.quic.connection import QuicConnection
from aiopquic.quic.events import (
    ConnectionTerminated,
    HandshakeCompleted,
    QuicEvent,
    StreamDataReceived,
    StreamReset,
)

from satlab.engine.flows.picoquic.aiopquic_internals import ConnectionProtocol, session_resumed
from satlab.engine.flows.picoquic.options import check_positive, configuration, parse_endpoint
from satlab.engine.flows.picoquic.protocol import (
    BAD_REQUEST_ERROR_CODE,
    DIRECTIONS,
    ZERO_RTT_PADDING_BYTES,
    PeerError,
    Received,
    Request,
    emit,
    parse_answer,
    summary_record,
)
from satlab.engine.flows.picoquic.sending import report_stats, send_zeros
from satlab.engine.flows.picoquic.signals import stop_on_signals

TLS_ALERT_BASE = 0x100
TLS_ALERT_NO_APPLICATION_PROTOCOL = 120


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


class ClientProtocol(ConnectionProtocol):
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
            delivered_bytes, last_byte_t_s = parse_answer(bytes(transfer.answer))
        except PeerError as error:
            transfer.fail(str(error))
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
        if session_resumed(quic) or time.monotonic() > deadline:
            return session_resumed(quic)
        await asyncio.sleep(0.01)


def add_client_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--connect", required=True, metavar="ADDR:PORT")
    parser.add_argument("--size-bytes", type=int)
    parser.add_argument("--duration-s", type=float)
    parser.add_argument("--direction", choices=DIRECTIONS, default="download")
    parser.add_argument("--flow-id", default="1", help="label of the stats lines")
    parser.add_argument("--timeout-s", type=float, default=120.0)
    parser.add_argument("--ticket-file", help="session ticket store, read at start, written at the end")
    parser.add_argument("--warm-up", action="store_true",
                        help="a connection that only leaves a session ticket: no stats lines")


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
                quic = protocol.quic
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
                resumed = transfer.session_resumed
                if args.ticket_file is not None and not resumed:
                    resumed = await resumed_by_now(quic)
    except TimeoutError:
        raise PeerError(
            f"The transfer did not finish within --timeout-s {args.timeout_s} s: "
            f"{transfer.progress()}."
        ) from None
    except ConnectionError as error:
        raise PeerError(f"The connection to {args.connect} failed: {error}.") from None
    emit(summary_record(transfer.request, delivered_bytes, started_at, last_byte_t_s, resumed, initial_cid))
    return 0
