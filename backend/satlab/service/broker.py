"""The fan-out of engine events: every event of a run (and its campaign's
progress) goes to the subscribers of that run, of that campaign, or of
everything (the WebSocket streams, the command line's progress)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("satlab")

Event = dict[str, Any]


class Broker:
    """Hands each event to the subscribers of its run or campaign (or of
    everything). Callbacks run on the publishing thread: they must be quick."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[tuple[str | None, Callable[[Event], object]]] = []

    def subscribe(self, callback: Callable[[Event], object], key: str | None = None) -> Callable[[], None]:
        """Events whose run_id or campaign_id is key (all events if None); returns the unsubscriber."""
        entry = (key, callback)
        with self._lock:
            self._subscribers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._subscribers:
                    self._subscribers.remove(entry)
        return unsubscribe

    def publish(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for key, callback in subscribers:
            if key is None or key in (event.get("run_id"), event.get("campaign_id")):
                try:
                    callback(event)
                except Exception:  # one broken subscriber must not stop a run
                    log.exception("an event subscriber failed")

    def publish_run_event(self, event: Event, campaign_id: str | None) -> None:
        """A run's event, marked with its campaign's id if it has one."""
        self.publish({**event, "campaign_id": campaign_id} if campaign_id else event)
