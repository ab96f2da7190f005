"""Run events from workers to the server, over a Redis stream.

A worker publishes every event its runs emit (the engine's on_event dicts:
state, sample, summary, error), and the files its runs keep (as chunks,
before their run's summary: satlab.distributed.files), to one stream; the server reads it as a
consumer group, stores each event and streams it to browsers as it does a
local run's, then acknowledges it. A stream rather than pub/sub: an event
published while the server is down waits in the stream, and an event the
server read but had not stored when it stopped is read again at its next
start (its consumer's pending entries come first), so a restart loses
nothing. Acknowledged entries are deleted; a cap bounds the stream if the
server stays away for long (the oldest entries go first).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import redis

from satlab.distributed.files import ChunkRefused, FileChunk, parse_chunk, publish_file
from satlab.engine.artifacts import KeptFile

EVENTS_STREAM = "satlab:run-events"
SERVER_GROUP = "satlab-server"
# At 10 samples a second for each of 16 runs, about 1 h 45 min of events.
STREAM_MAX_ENTRIES = 1_000_000
EVENT_TYPES = ("state", "sample", "summary", "error")
WORKER_NAME_MAX_CHARS = 255


class EventRefused(ValueError):
    """A stream entry that is not a run event."""


def check_event(event: Any) -> dict[str, Any]:
    """event if it is a run event (a mapping with a known type and a run_id); EventRefused otherwise."""
    if not isinstance(event, dict):
        raise EventRefused(f"an event is a JSON object, got {type(event).__name__}")
    if event.get("type") not in EVENT_TYPES:
        raise EventRefused(f"type: must be one of {', '.join(EVENT_TYPES)}, got {str(event.get('type'))[:40]!r}")
    if not isinstance(event.get("run_id"), str):
        raise EventRefused("run_id: every run event names its run")
    return event


@dataclass(frozen=True)
class ReceivedEvent:
    entry_id: str  # the stream's id of the entry, to acknowledge it
    worker: str  # who published it
    event: dict[str, Any]  # a chunk of a kept file: {"type": "file", "run_id": ...}
    chunk: FileChunk | None = None  # the chunk, for a file's entry (satlab.distributed.files)


def parse_entry(fields: Mapping[bytes, bytes]) -> ReceivedEvent:
    """A stream entry (without its id): a run event, or a chunk of a run's
    kept file; EventRefused if it is neither."""
    worker, body = fields.get(b"worker"), fields.get(b"event")
    if worker is None or (body is None and b"file" not in fields):
        raise EventRefused("an entry has the fields worker and event (a file's: worker, file and data)")
    try:
        worker_name = worker.decode()
    except UnicodeDecodeError as error:
        raise EventRefused(f"worker: not UTF-8 text ({error})") from None
    if not 0 < len(worker_name) <= WORKER_NAME_MAX_CHARS:
        raise EventRefused(f"worker: a name of 1 to {WORKER_NAME_MAX_CHARS} characters")
    if body is None:
        try:
            chunk = parse_chunk(fields)
        except ChunkRefused as refusal:
            raise EventRefused(str(refusal)) from None
        return ReceivedEvent("", worker_name, {"type": "file", "run_id": chunk.header.run_id}, chunk)
    try:
        event = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise EventRefused(f"event: not JSON text ({error})") from None
    return ReceivedEvent("", worker_name, check_event(event))


class EventPublisher:
    """A worker's side: publishes its runs' events under its name."""

    def __init__(self, client: redis.Redis, worker: str, stream: str = EVENTS_STREAM,
                 max_entries: int = STREAM_MAX_ENTRIES):
        self.client, self.worker, self.stream, self.max_entries = client, worker, stream, max_entries

    def publish(self, event: dict[str, Any]) -> str:
        """Add event to the stream; its entry's id."""
        entry_id = self.client.xadd(self.stream, {"worker": self.worker, "event": json.dumps(check_event(event))},
                                    maxlen=self.max_entries, approximate=True)
        return cast(bytes, entry_id).decode()

    def publish_file(self, run_id: str, kept: KeptFile, path: Path) -> None:
        """Add one of run_id's kept files to the stream, as chunks (satlab.distributed.files)."""
        publish_file(self.client, self.stream, self.worker, run_id, kept, path, self.max_entries)


class EventConsumer:
    """The server's side: one consumer of SERVER_GROUP. Give it the same
    name at every start, so that it first reads again what it had read and
    not acknowledged before it stopped. Entries that are not run events are
    acknowledged and dropped, each with a sentence in `refused`."""

    def __init__(self, client: redis.Redis, consumer: str, stream: str = EVENTS_STREAM, group: str = SERVER_GROUP):
        self.client, self.consumer, self.stream, self.group = client, consumer, stream, group
        self.refused: list[str] = []
        self._pending_first = True
        try:
            client.xgroup_create(stream, group, id="0", mkstream=True)
        except redis.ResponseError as error:
            if "BUSYGROUP" not in str(error):  # it exists: another start made it
                raise

    @property
    def reading_new(self) -> bool:
        """True once what was read and not acknowledged before is read again: reads now bring new entries."""
        return not self._pending_first

    def read(self, count: int = 100, block_ms: int = 1000) -> list[ReceivedEvent]:
        """Up to count events: first those read before and never
        acknowledged, then new ones, waiting up to block_ms for one."""
        if self._pending_first:
            events = self._read("0", count, None)
            if events:
                return events
            self._pending_first = False
        return self._read(">", count, block_ms)

    def _read(self, start: str, count: int, block_ms: int | None) -> list[ReceivedEvent]:
        reply = cast(list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes] | None]]]],
                     self.client.xreadgroup(self.group, self.consumer, {self.stream: start}, count=count,
                                            block=block_ms) or [])
        events, refused_ids = [], []
        for _, entries in reply:
            for raw_id, fields in entries:
                entry_id = raw_id.decode()
                try:
                    if fields is None:  # deleted after it was read: nothing left to store
                        raise EventRefused("the entry was deleted")
                    received = parse_entry(fields)
                except EventRefused as refusal:
                    self.refused.append(f"entry {entry_id} of {self.stream}: {refusal}")
                    refused_ids.append(entry_id)
                    continue
                events.append(dataclasses.replace(received, entry_id=entry_id))
        self._forget(refused_ids)
        return events

    def acknowledge(self, events: Iterable[ReceivedEvent]) -> None:
        """Mark events stored: they are not read again, and leave the stream."""
        self._forget([event.entry_id for event in events])

    def _forget(self, entry_ids: list[str]) -> None:
        if entry_ids:
            self.client.xack(self.stream, self.group, *entry_ids)
            self.client.xdel(self.stream, *entry_ids)
