"""The files a run on a worker keeps (qlogs, TLS key logs, packet captures:
satlab.engine.artifacts), carried to the server over the event stream.

The worker keeps them as a local run does, in a directory of its own, then,
before it publishes the run's summary, sends each file as chunks of at most
CHUNK_BYTES: one stream entry each, with the fields `worker`, `file` (the
header, JSON: run, name, kind, whole size and SHA-256, the chunk's offset)
and `data` (the chunk's bytes). One worker's entries arrive in order, so the
server appends each chunk to the file it is building (under a temporary
name, as the engine's sink does), and renames the file once it has all its
bytes and their digest matches. The summary comes after its files: when it
arrives, a file it lists that did not arrive whole is taken off the list,
and the reason added to the files the run could not keep.

A worker is trusted with runs, not with the server's disk: every header is
checked (a name of a kept file's shape, within the run's directory; a size
within the run's cap), and a chunk that does not follow the one before it
ends that file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import redis
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from satlab.distributed.messages import RUN_ID_PATTERN
from satlab.engine.artifacts import PARTIAL_PREFIX, KeptFile, Kind
from satlab.scenario import MAX_CAPTURE_BYTES

# A read of the stream (remote.READ_COUNT entries) then holds at most 50 MiB of files in the server's memory.
CHUNK_BYTES = 256 << 10
# A kept file's name in its run's directory: iteration<N>/[flow<N>/]<name>.gz (engine.runner, engine.captures).
_PART = r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}"
NAME_PATTERN = rf"^iteration[0-9]{{1,4}}/(?:flow[0-9]{{1,3}}/)?{_PART}\.gz$"


class FileHeader(BaseModel):
    """What a chunk says of itself and its file."""
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    run_id: str = Field(pattern=RUN_ID_PATTERN)
    name: str = Field(pattern=NAME_PATTERN)
    kind: Kind
    size_bytes: int = Field(ge=0, le=MAX_CAPTURE_BYTES)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    offset: int = Field(ge=0, le=MAX_CAPTURE_BYTES)


@dataclass(frozen=True)
class FileChunk:
    header: FileHeader
    data: bytes


class ChunkRefused(ValueError):
    """A stream entry that claims to be a chunk of a kept file and is not one."""


def parse_chunk(fields: Mapping[bytes, bytes]) -> FileChunk:
    """The chunk of a `file` entry; ChunkRefused, naming the field, if it is not one."""
    data = fields.get(b"data")
    if data is None:
        raise ChunkRefused("data: a file's entry carries its chunk")
    try:
        header = FileHeader.model_validate(json.loads(fields[b"file"]))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ChunkRefused(f"file: not JSON text ({error})") from None
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise ChunkRefused(f"file.{where}: {problem['msg']}") from None
    if len(data) > CHUNK_BYTES or header.offset + len(data) > header.size_bytes:
        raise ChunkRefused(f"data: {len(data)} bytes at offset {header.offset} do not fit a chunk of a file of "
                           f"{header.size_bytes} bytes")
    return FileChunk(header, data)


def publish_file(client: redis.Redis, stream: str, worker: str, run_id: str, kept: KeptFile, path: Path,
                 max_entries: int) -> None:
    """Send one kept file (path, as the sink kept it) as chunks; RedisError if Redis fails meanwhile."""
    offset = 0
    with path.open("rb") as reading:
        while True:
            data = reading.read(CHUNK_BYTES)
            header = FileHeader(run_id=run_id, name=kept.name, kind=kept.kind, size_bytes=kept.size_bytes,
                                sha256=kept.sha256, offset=offset)
            client.xadd(stream, {"worker": worker, "file": header.model_dump_json(), "data": data},
                        maxlen=max_entries, approximate=True)
            offset += len(data)
            if offset >= kept.size_bytes or not data:  # a file cut short: the server says it did not arrive
                return


@dataclass
class _Building:
    """A file the server is receiving: its first chunk's header and what it has so far."""
    header: FileHeader
    out: BinaryIO
    digest: Any = field(default_factory=hashlib.sha256)
    received: int = 0

    def same_file(self, header: FileHeader) -> bool:
        return header.model_copy(update={"offset": 0}) == self.header.model_copy(update={"offset": 0})


class FileReceiver:
    """The server's side: builds each run's files in its directory."""

    def __init__(self, directory: Callable[[str], Path], cap_bytes: Callable[[str], int]):
        # directory: a run's directory (service.artifacts.RunArtifacts.directory); cap_bytes: the most its
        # files may take (its scenario's capture.max_bytes, or the server's run_artifact_bytes).
        self._directory, self._cap_bytes = directory, cap_bytes
        self._building: dict[tuple[str, str], _Building] = {}
        self._problems: dict[str, list[str]] = {}  # per run: why a file did not arrive, a sentence each

    def receive(self, worker: str, chunk: FileChunk) -> None:
        """Add a chunk to its file; the file is whole (and renamed) with its last chunk."""
        header = chunk.header
        key = (header.run_id, header.name)
        target = self._directory(header.run_id) / header.name
        if target.exists():
            return  # whole already: a chunk read again after a restart
        building = self._building.get(key)
        if building is None:
            if header.offset != 0:
                return  # the rest of a file refused at its start (its reason is noted), or begun before a restart
            cap = self._cap_bytes(header.run_id)
            if self._used_bytes(header.run_id) + header.size_bytes > cap:
                self._note(header, f"it would take the run past its cap of {cap} bytes")
                return
            target.parent.mkdir(parents=True, exist_ok=True)
            building = _Building(header, target.with_name(PARTIAL_PREFIX + target.name).open("wb"))
            self._building[key] = building
        if header.offset != building.received or not building.same_file(header):
            self._drop(key, f"worker {worker} sent its bytes out of order")
            return
        building.out.write(chunk.data)
        building.digest.update(chunk.data)
        building.received += len(chunk.data)
        if building.received < header.size_bytes:
            return
        del self._building[key]
        building.out.close()
        partial = Path(building.out.name)
        if building.digest.hexdigest() != header.sha256:
            partial.unlink(missing_ok=True)
            self._note(header, f"its bytes from worker {worker} do not match their SHA-256")
            return
        partial.rename(target)

    def settle(self, run_id: str, artifacts: dict[str, Any] | None) -> dict[str, Any] | None:
        """The run's artifacts summary (its result's) as the server holds
        them: each listed file whole here stays listed; one that is not
        moves to `refused`, with the reason. Call with the run's summary."""
        for key in [key for key in self._building if key[0] == run_id]:
            self._drop(key, "the run ended before all its bytes arrived")
        problems = self._problems.pop(run_id, [])
        if artifacts is None:
            return None
        directory = self._directory(run_id)
        kept, refused = [], list(artifacts.get("refused", []))
        for listed in artifacts.get("files", []):
            name = str(listed.get("name"))
            if (directory / name).is_file():
                kept.append(listed)
            else:
                refused.append(next((problem for problem in problems if problem.startswith(f"{name} ")),
                                    f"{name} did not arrive from the worker"))
        return {**artifacts, "files": kept, "refused": refused,
                "used_bytes": sum(int(listed.get("size_bytes", 0)) for listed in kept)}

    def _used_bytes(self, run_id: str) -> int:
        """What the run's files take here: those whole, and those being built at their whole size."""
        directory = self._directory(run_id)
        whole = sum(path.stat().st_size for path in directory.rglob("*")
                    if path.is_file() and not path.name.startswith(PARTIAL_PREFIX)) if directory.is_dir() else 0
        return whole + sum(building.header.size_bytes for key, building in self._building.items()
                           if key[0] == run_id)

    def _note(self, header: FileHeader, why: str) -> None:
        self._problems.setdefault(header.run_id, []).append(f"{header.name} did not arrive: {why}")

    def _drop(self, key: tuple[str, str], why: str) -> None:
        building = self._building.pop(key)
        building.out.close()
        Path(building.out.name).unlink(missing_ok=True)
        self._note(building.header, why)
