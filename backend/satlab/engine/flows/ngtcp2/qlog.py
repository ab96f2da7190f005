"""Reading ngtcp2's qlogs (JSON-SEQ: one record per line, times in integer
milliseconds since their side created the connection) while their programs
still write them, and what one side's qlog tells: its congestion state,
stream 0 as it received it, what it sent, and its first exchange (which
sets the server's clock against the client's).

Both programs write through a 4 KiB stdio buffer, so live figures lag by at
most 4 KiB of records (milliseconds at full rate, longer while the window is
small); a SIGINT flushes a program's tail, which SIGTERM would lose. What
has been read is released (a hole in the file), so a qlog takes the disk of
its unread tail only, and may be kept gzip-compressed as it is read.
"""

from __future__ import annotations

import ctypes
import gzip
import heapq
import json
import os
from array import array
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FALLOC_FL_KEEP_SIZE = 0x01
FALLOC_FL_PUNCH_HOLE = 0x02
_libc = ctypes.CDLL(None, use_errno=True)
_libc.fallocate.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64)
KEEP_GZIP_LEVEL = 6  # of 9: qlog JSON shrinks ~10x at a fraction of level 9's time
# The one request of a flow, on the client's first bidirectional stream.
REQUEST_STREAM_ID = 0
RECORD_SEPARATOR = b"\x1e"
QLOG_READ_CHUNK_BYTES = 1 << 20
# Cheap byte tests that spare the JSON parsing of records that cannot matter.
RECOVERY_EVENT = b'"recovery:'
PACKET_SENT = b'"name":"transport:packet_sent"'
PACKET_RECEIVED = b'"name":"transport:packet_received"'
STREAM_FRAME = b'"frame_type":"stream"'
ACK_FRAME = b'"frame_type":"ack"'


def split_records(data: bytes) -> tuple[list[bytes], bytes]:
    """The complete JSON-SEQ records in data (each RS, JSON, newline), without
    their RS, and the incomplete rest to prepend to what follows."""
    *lines, rest = data.split(b"\n")
    records = [line.lstrip(RECORD_SEPARATOR) for line in lines]
    return [record for record in records if record.strip()], rest


def parse_record(record: bytes) -> dict[str, Any] | None:
    """One record as a JSON object, or None if it is not one (a torn or foreign line)."""
    try:
        parsed = json.loads(record)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError alike
        return None
    return parsed if isinstance(parsed, dict) else None


def record_time_ms(event: dict[str, Any] | None) -> float | None:
    time_ms = event.get("time") if event is not None else None
    return float(time_ms) if isinstance(time_ms, int | float) else None


def release_read_bytes(fd: int, end: int) -> None:
    """Give the file's blocks before end back to the file system (a hole:
    they read as zeros, and take no disk), leaving its size and the writer's
    offset as they are; nothing where the file system cannot."""
    if end > 0:
        # Fails (EOPNOTSUPP) where the file system cannot: the qlog then takes its whole size until the flow ends.
        _libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, end)


class QlogTail:
    """The records of a qlog file that its program may still be writing, each
    read once: records() continues where the previous call stopped and keeps
    a torn last line for the next. A missing file has no records yet.

    What has been read no longer takes disk (release_read_bytes): a long
    flow's qlog, read ten times a second, grows the work directory by the
    program's unread tail only. With keep_to, the bytes read are also
    written there, gzip-compressed, as they are read (close() ends it)."""

    def __init__(self, path: Path, keep_to: Path | None = None):
        self.path = path
        self.keep_to = keep_to
        self._offset = 0
        self._rest = b""
        self._kept: gzip.GzipFile | None = None

    def records(self) -> Iterator[bytes]:
        """The complete records written before the call, since the last call;
        consume them all. (Not up to the end of the file: a program writing
        faster than they are parsed would keep the reader from ever returning.)"""
        try:
            qlog = self.path.open("r+b")  # writable: releasing blocks needs it
        except FileNotFoundError:
            return
        with qlog:
            qlog.seek(self._offset)
            end = os.fstat(qlog.fileno()).st_size
            while self._offset < end and (chunk := qlog.read(min(QLOG_READ_CHUNK_BYTES, end - self._offset))):
                self._offset += len(chunk)
                self._keep(chunk)
                complete, self._rest = split_records(self._rest + chunk)
                yield from complete
            release_read_bytes(qlog.fileno(), self._offset)

    def _keep(self, chunk: bytes) -> None:
        if self.keep_to is None:
            return
        if self._kept is None:
            # mtime=0: the same qlog gives the same bytes every time.
            self._kept = gzip.GzipFile(self.keep_to, "wb", compresslevel=KEEP_GZIP_LEVEL, mtime=0)
        self._kept.write(chunk)

    def close(self) -> Path | None:
        """End the kept copy; its path, or None if nothing was kept."""
        if self._kept is None:
            return None
        self._kept.close()
        self._kept = None
        return self.keep_to


@dataclass
class Endpoint:
    """What one side's qlog tells so far: its congestion state (that of the
    sender), stream 0 as it received it and what it sent (those of the
    receiver), and when its first packets left and came (the clocks' offset)."""
    cwnd_bytes: int | None = None
    rtt_ms: float | None = None
    lost_packets: int = 0
    packets_sent: int = 0
    ack_frames_sent: int = 0
    first_sent_ms: float | None = None
    first_received_ms: float | None = None
    stream_bytes: int = 0  # of stream 0, received in order
    final_bytes: int | None = None  # stream 0's size, once its FIN came
    complete_ms: float | None = None  # when stream_bytes reached final_bytes
    zero_rtt_stream_data: bool = False  # a 0-RTT packet carried stream-0 data
    # Ranges (offset, end) received beyond stream_bytes, a heap by offset.
    _ahead: list[tuple[int, int]] = field(default_factory=list, repr=False)
    # stream_bytes after each millisecond in which it grew: bytes_at() looks back.
    _progress_ms: array[int] = field(default_factory=lambda: array("q"), repr=False)
    _progress_bytes: array[int] = field(default_factory=lambda: array("q"), repr=False)

    def observe(self, record: bytes) -> None:
        if RECOVERY_EVENT in record:
            self._observe_recovery(parse_record(record))
        elif PACKET_SENT in record:
            self.packets_sent += 1
            self.ack_frames_sent += record.count(ACK_FRAME)
            if self.first_sent_ms is None:
                self.first_sent_ms = record_time_ms(parse_record(record))
        elif PACKET_RECEIVED in record:
            if self.first_received_ms is None:
                self.first_received_ms = record_time_ms(parse_record(record))
            if STREAM_FRAME in record:
                self._observe_stream(parse_record(record))

    def _observe_recovery(self, event: dict[str, Any] | None) -> None:
        if event is None:
            return
        name, data = event.get("name"), event.get("data")
        if name == "recovery:packet_lost":
            self.lost_packets += 1
        elif name == "recovery:metrics_updated" and isinstance(data, dict):
            # ngtcp2 repeats every metric in each event, but guard anyway.
            if isinstance(cwnd := data.get("congestion_window"), int):
                self.cwnd_bytes = cwnd
            if isinstance(rtt := data.get("smoothed_rtt"), int | float):
                self.rtt_ms = float(rtt)

    def _observe_stream(self, event: dict[str, Any] | None) -> None:
        time_ms = record_time_ms(event)
        data = event.get("data") if event is not None else None
        if time_ms is None or not isinstance(data, dict) or not isinstance(frames := data.get("frames"), list):
            return
        header = data.get("header")
        zero_rtt = isinstance(header, dict) and header.get("packet_type") == "0RTT"
        for frame in frames:
            if not (isinstance(frame, dict) and frame.get("frame_type") == "stream"
                    and frame.get("stream_id") == REQUEST_STREAM_ID
                    and isinstance(offset := frame.get("offset"), int)
                    and isinstance(length := frame.get("length"), int)):
                continue
            self.zero_rtt_stream_data |= zero_rtt
            if frame.get("fin") is True:
                self.final_bytes = offset + length
            if offset + length > self.stream_bytes:
                heapq.heappush(self._ahead, (offset, offset + length))
        grown = False
        while self._ahead and self._ahead[0][0] <= self.stream_bytes:
            end = heapq.heappop(self._ahead)[1]
            grown |= end > self.stream_bytes
            self.stream_bytes = max(self.stream_bytes, end)
        if grown:
            self._record_progress(int(time_ms))
        if self.complete_ms is None and self.final_bytes is not None and self.stream_bytes >= self.final_bytes:
            self.complete_ms = time_ms

    def _record_progress(self, time_ms: int) -> None:
        if self._progress_ms and self._progress_ms[-1] == time_ms:
            self._progress_bytes[-1] = self.stream_bytes
        else:
            self._progress_ms.append(time_ms)
            self._progress_bytes.append(self.stream_bytes)

    def bytes_at(self, time_ms: float) -> int:
        """Stream bytes received in order by time_ms (of this side's clock)."""
        index = bisect_right(self._progress_ms, time_ms)
        return self._progress_bytes[index - 1] if index else 0


def server_clock_ms(client: Endpoint, server: Endpoint) -> float | None:
    """The client's qlog time at the server's time 0, when the client's first
    packet arrived: half the first exchange's round trip (the client's first
    packet out to the server's first reply in, less the server's time before
    replying) after that packet left; None until both qlogs show it."""
    if client.first_sent_ms is None or client.first_received_ms is None or server.first_sent_ms is None:
        return None
    return client.first_sent_ms + (client.first_received_ms - client.first_sent_ms - server.first_sent_ms) / 2
