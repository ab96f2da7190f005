"""The server peer: listens, reads each stream's request line, then sends a
download or counts an upload and answers it (protocol.py has the wire);
prints its listening line and, for a measured request, its stats lines."""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import socket
import time
from typing import Any

from aiopquic.asyncio import serve
from aiopquic.quic.connection import QuicConnection
from aiopquic.quic.events import ConnectionTerminated, QuicEvent, StreamDataReceived

from satlab.engine.flows.picoquic.aiopquic_internals import ConnectionProtocol
from satlab.engine.flows.picoquic.options import configuration, ip_family, parse_endpoint
from satlab.engine.flows.picoquic.protocol import (
    BAD_REQUEST_ERROR_CODE,
    MAX_REQUEST_BYTES,
    PeerError,
    Received,
    Request,
    emit,
    encode_answer,
    parse_request,
)
from satlab.engine.flows.picoquic.sending import report_stats, send_zeros
from satlab.engine.flows.picoquic.signals import stop_on_signals


class ServerProtocol(ConnectionProtocol):
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
            self._spawn(send_zeros(self.quic, event.stream_id, request.size_bytes, request.until_t_s))
        else:
            self._uploads[event.stream_id] = request
            if request.until_t_s is not None:
                self._spawn(self._answer_at(event.stream_id, request.until_t_s))
            self._receive_upload(event.stream_id, len(rest), event.end_stream)
        if not self._stats_started and not request.warm_up:
            self._stats_started = True
            self._spawn(report_stats(self.quic, request.flow, self._received, self._stats_interval_s))

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
        self.quic.send_stream_data(stream_id, encode_answer(self._received.bytes, last_byte_t_s),
                                   end_stream=True)

    def _refuse(self, stream_id: int, message: str) -> None:
        self._headers.pop(stream_id, None)
        self._served.add(stream_id)
        emit({"event": "error", "message": message})
        self.quic.reset_stream(stream_id, BAD_REQUEST_ERROR_CODE)

    def _spawn(self, coroutine: Any) -> None:
        # quic_event_received is synchronous, so every send happens in a task.
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--listen", required=True, metavar="ADDR:PORT")
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)


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


def check_readable_file(path: str, option: str) -> None:
    if not os.access(path, os.R_OK) or not os.path.isfile(path):
        raise PeerError(f"{option} {path!r} is not a readable file.")


def check_port_free(host: str, port: int) -> None:
    """Fail if a UDP socket holds the port: picoquic binds with SO_REUSEADDR,
    so a second server would otherwise share the port without a word."""
    with socket.socket(ip_family(host), socket.SOCK_DGRAM) as probe:
        try:
            probe.bind(("", port))
        except OSError as error:
            raise PeerError(f"--listen {host}:{port}: UDP port {port} is taken ({error.strerror}).") from error
