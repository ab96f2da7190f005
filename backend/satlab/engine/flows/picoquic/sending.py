"""What either peer does while a transfer runs: send the zero payload on the
stream, and report this end's path statistics as a sender, one stats line
per interval on a fixed grid."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator

from aiopquic.quic.connection import QuicConnection

from satlab.engine.flows.picoquic.protocol import Received, emit, stats_record

# Writes go through aiopquic's 4 MiB per-stream ring; smaller chunks keep it
# fed without one write ever exceeding it.
SEND_CHUNK_BYTES = 256 * 1024
ZERO_CHUNK = bytes(SEND_CHUNK_BYTES)


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
