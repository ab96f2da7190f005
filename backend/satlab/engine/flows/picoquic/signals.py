"""How a peer stops: SIGTERM (PicoquicFlow's stop) or SIGINT, handled by its event loop."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable


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
