"""A run's kept files from a worker to the server over a real Redis stream
(satlab.distributed.files): whole and checked, or listed with the reason
they did not arrive; never a byte outside the run's directory or past its cap."""

import hashlib
import json
import os
from pathlib import Path

import redis

from satlab.distributed.events import EVENTS_STREAM, EventConsumer, EventPublisher
from satlab.distributed.files import CHUNK_BYTES, FileChunk, FileHeader, FileReceiver
from satlab.engine.artifacts import ArtifactSink

RUN = "a1b2c3"
CAP_BYTES = 8 << 20


def kept_on_a_worker(tmp_path: Path, contents: dict[str, bytes], cap_bytes: int = CAP_BYTES) -> ArtifactSink:
    """A worker's sink holding contents (already compressed, as a packet capture's merge hands it)."""
    sink = ArtifactSink(tmp_path / "worker" / RUN, cap_bytes)
    for name, data in contents.items():
        source = tmp_path / "source"
        source.write_bytes(data)
        assert sink.keep(name, source, "pcapng", source_gzipped=True) is not None
    return sink


def receiver(tmp_path: Path, cap_bytes: int = CAP_BYTES) -> FileReceiver:
    return FileReceiver(lambda run_id: tmp_path / "server" / run_id, lambda run_id: cap_bytes)


def deliver(client: redis.Redis, files: FileReceiver) -> list[str]:
    """What the server reads of the stream, as RemoteRuns hands it on: chunks to files; the other events' types."""
    consumer = EventConsumer(client, "server")
    others = []
    while received := consumer.read(block_ms=100):
        for entry in received:
            if entry.chunk is not None:
                files.receive(entry.worker, entry.chunk)
            else:
                others.append(entry.event["type"])
        consumer.acknowledge(received)
    assert consumer.refused == []
    return others


def test_kept_files_cross_the_stream_whole_and_before_the_summary(redis_client: redis.Redis, tmp_path: Path):
    big = os.urandom(2 * CHUNK_BYTES + 123)  # three chunks
    sink = kept_on_a_worker(tmp_path, {"iteration0/satellite.pcapng": big, "iteration0/flow0/client.qlog": b""})
    publisher = EventPublisher(redis_client, "w1")
    for kept in sink.files:
        publisher.publish_file(RUN, kept, sink.directory / kept.name)
    publisher.publish({"type": "summary", "run_id": RUN, "artifacts": sink.summary()})
    assert redis_client.xlen(EVENTS_STREAM) == 3 + 1 + 1
    files = receiver(tmp_path)
    assert deliver(redis_client, files) == ["summary"]
    run_directory = tmp_path / "server" / RUN
    assert (run_directory / "iteration0/satellite.pcapng.gz").read_bytes() == big
    assert (run_directory / "iteration0/flow0/client.qlog.gz").read_bytes() == b""
    assert files.settle(RUN, sink.summary()) == sink.summary()
    assert sorted(path.name for path in run_directory.rglob("*") if path.is_file()) == [
        "client.qlog.gz", "satellite.pcapng.gz"]  # no partial file left


def header(name: str = "iteration0/link.pcapng.gz", data: bytes = b"x" * 10, offset: int = 0,
           size_bytes: int | None = None, sha256: str | None = None) -> FileHeader:
    return FileHeader(run_id=RUN, name=name, kind="pcapng", size_bytes=len(data) if size_bytes is None else size_bytes,
                      sha256=sha256 or hashlib.sha256(data).hexdigest(), offset=offset)


def listed(name: str, data: bytes) -> dict:
    return {"name": name, "kind": "pcapng", "size_bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def test_a_file_that_does_not_arrive_whole_is_listed_as_not_kept_with_why(tmp_path: Path):
    files = receiver(tmp_path, cap_bytes=100)
    good, bad, big, cut = b"a" * 10, b"b" * 10, b"c" * 200, b"d" * 20
    files.receive("w1", FileChunk(header("iteration0/good.pcapng.gz", good), good))
    files.receive("w1", FileChunk(header("iteration0/bad.pcapng.gz", bad, sha256="0" * 64), bad))
    files.receive("w1", FileChunk(header("iteration0/big.pcapng.gz", big), big[:50]))
    files.receive("w1", FileChunk(header("iteration0/cut.pcapng.gz", cut), cut[:10]))  # the rest never comes
    files.receive("w1", FileChunk(header("iteration0/gap.pcapng.gz", cut), cut[:5]))
    files.receive("w1", FileChunk(header("iteration0/gap.pcapng.gz", cut, offset=10), cut[10:]))
    summary = {"max_bytes": 100, "used_bytes": 270, "refused": ["iteration0/x.gz was not kept: past the cap"],
               "files": [listed(f"iteration0/{name}.pcapng.gz", data) for name, data in
                         (("good", good), ("bad", bad), ("big", big), ("cut", cut), ("gap", cut),
                          ("lost", b"e"))]}
    settled = files.settle(RUN, summary)
    assert settled is not None
    assert [file["name"] for file in settled["files"]] == ["iteration0/good.pcapng.gz"]
    assert settled["used_bytes"] == 10
    assert settled["refused"] == [
        "iteration0/x.gz was not kept: past the cap",
        "iteration0/bad.pcapng.gz did not arrive: its bytes from worker w1 do not match their SHA-256",
        "iteration0/big.pcapng.gz did not arrive: it would take the run past its cap of 100 bytes",
        "iteration0/cut.pcapng.gz did not arrive: the run ended before all its bytes arrived",
        "iteration0/gap.pcapng.gz did not arrive: worker w1 sent its bytes out of order",
        "iteration0/lost.pcapng.gz did not arrive from the worker"]
    assert [path.name for path in (tmp_path / "server").rglob("*") if path.is_file()] == ["good.pcapng.gz"]


def test_a_chunk_that_is_not_one_of_a_kept_file_is_refused_naming_its_field(redis_client: redis.Redis,
                                                                            tmp_path: Path):
    consumer = EventConsumer(redis_client, "server")
    good = header().model_dump()
    for changed, data in (({"name": "../../../etc/cron.d/x.gz"}, b"x" * 10), ({"name": "/etc/passwd.gz"}, b"x" * 10),
                          ({"run_id": "../x"}, b"x" * 10), ({"kind": "shell"}, b"x" * 10),
                          ({"size_bytes": 4}, b"x" * 10), ({}, b"x" * (CHUNK_BYTES + 1))):
        redis_client.xadd(EVENTS_STREAM, {"worker": "w1", "file": json.dumps({**good, **changed}), "data": data})
    redis_client.xadd(EVENTS_STREAM, {"worker": "w1", "file": "{"})
    assert consumer.read(block_ms=100) == []
    problems = [sentence.split(": ", 1)[1] for sentence in consumer.refused]
    assert [problem.split(":", 1)[0] for problem in problems] == [
        "file.name", "file.name", "file.run_id", "file.kind", "data", "data", "data"]
    assert redis_client.xlen(EVENTS_STREAM) == 0
    assert not (tmp_path / "server").exists()
