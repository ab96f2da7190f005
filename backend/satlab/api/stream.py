"""WebSocket streams of engine events, fed from run threads."""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from satlab.service.runs import RunManager

Event = dict[str, Any]


class StreamState(enum.Enum):
    SNAPSHOT = "snapshot"  # subscribed; sending what exists already
    LIVE = "live"  # forwarding events as they come
    CLOSED = "closed"


async def forward_events(websocket: WebSocket, manager: RunManager, key: str | None,
                         snapshot: Callable[[], Event | None], is_last: Callable[[Event], bool],
                         wanted: Callable[[Event], bool] = lambda event: True) -> None:
    """Send `snapshot()` (taken after subscribing, so no event falls in
    between), then every wanted event of `key` until one is_last; a snapshot
    that is_last ends the stream at once. The socket is accepted already;
    a client that goes away ends the stream at once too, even while no
    event comes (a queued run, a quiet events stream)."""
    loop = asyncio.get_running_loop()
    events: asyncio.Queue[Event] = asyncio.Queue()
    unsubscribe = manager.broker.subscribe(lambda event: loop.call_soon_threadsafe(events.put_nowait, event), key)
    state = StreamState.SNAPSHOT

    async def forward() -> None:
        nonlocal state
        first = snapshot()
        if first is not None:
            await websocket.send_json(first)
            if is_last(first):
                state = StreamState.CLOSED
        if state is StreamState.SNAPSHOT:
            state = StreamState.LIVE
        while state is StreamState.LIVE:
            event = await events.get()
            if wanted(event):
                await websocket.send_json(event)
            if is_last(event):
                state = StreamState.CLOSED
        await websocket.close()

    async def until_disconnect() -> None:
        # Clients send nothing; reading is how a closed connection shows.
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass

    tasks = [asyncio.create_task(forward()), asyncio.create_task(until_disconnect())]
    try:
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        for task in done:
            with contextlib.suppress(WebSocketDisconnect):
                task.result()
    finally:
        state = StreamState.CLOSED
        unsubscribe()
