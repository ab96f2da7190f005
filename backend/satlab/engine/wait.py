"""Waiting for a condition with a deadline, never for "long enough"."""

from __future__ import annotations

import time
from collections.abc import Callable

POLL_S = 0.02


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll condition until it holds; TimeoutError naming `what` after timeout seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(POLL_S)
