"""Runs on `satlab worker`s for real: redis-server, `satlab serve` with
SATLAB_BROKER_URL and two workers on this host (each its name and lock
directory), tiny geo-ideal runs. A campaign spreads over both and their
events reach a browser's WebSocket; a worker SIGKILLed mid-run has its run
tried once more and its leftovers swept at its next start; a server
SIGKILLed mid-campaign loses nothing; a queue message that is not a run
request is refused without running anything."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import signal
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect as websocket

from satlab.distributed import connection, workers
from satlab.distributed.celery_app import RUN_QUEUE, RUN_TASK, make_app
from satlab.distributed.events import EVENTS_STREAM
from satlab.engine import host, topology
from satlab.engine.wait import wait_until
from satlab.service.artifacts import RunArtifacts
from satlab.service.store import Store
from tests.distributed.conftest import RedisServer
from tests.distributed.stack import Stack

pytestmark = pytest.mark.needs_root

CAMPAIGN_DEADLINE_S = 300.0


def campaign(size_bytes: int) -> dict[str, Any]:
    """Six tiny runs: three congestion controls x two iterations."""
    return {"name": "spread", "scenario": "geo-ideal",
            "set": {"flows.0.size_bytes": size_bytes, "flows.0.hystart": None},
            "matrix": {"flows.0.cc": ["cubic", "bbr", "reno"]}, "iterations": 2, "parallel": 6, "seed": 3}


@pytest.fixture
def stack(redis_server: RedisServer, tmp_path: Path) -> Iterator[Stack]:
    deployed = Stack(redis_server, tmp_path)
    try:
        deployed.start_server()
        deployed.start_worker("w1")
        deployed.start_worker("w2")
        yield deployed
    finally:
        deployed.close()


def start_campaign(stack: Stack, size_bytes: int) -> str:
    created = httpx2.post(f"{stack.api}/campaigns", json=campaign(size_bytes), timeout=30)
    assert created.status_code == 201, created.text
    return str(created.json()["campaign_id"])


def campaign_state(stack: Stack, campaign_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = httpx2.get(f"{stack.api}/campaigns/{campaign_id}", timeout=30).json()
    return answer


def wait_for_campaign(stack: Stack, campaign_id: str) -> dict[str, Any]:
    wait_until(lambda: campaign_state(stack, campaign_id)["status"] != "running", CAMPAIGN_DEADLINE_S,
               f"campaign {campaign_id} to end")
    return campaign_state(stack, campaign_id)


def running_with_samples(store: Store, worker: str) -> str | None:
    """A run that worker is running and whose samples the server stored already."""
    runs, _ = store.list_runs(status="running")
    for listed in runs:
        run = store.get_run(listed.run_id)
        if run is not None and run.worker == worker and store.flow_samples(run.run_id):
            return run.run_id
    return None


def test_a_campaign_spreads_over_two_workers_and_their_events_reach_a_websocket(stack: Stack) -> None:
    campaign_id = start_campaign(stack, 300_000)
    received: list[dict[str, Any]] = []

    def listen() -> None:
        with websocket(f"ws://127.0.0.1:{stack.port}/api/campaigns/{campaign_id}/stream") as ws:
            for text in ws:
                event = json.loads(text)
                received.append(event)
                if event["type"] == "campaign" and event["status"] != "running":
                    return
    listener = threading.Thread(target=listen)
    listener.start()
    final = wait_for_campaign(stack, campaign_id)
    listener.join(30)
    assert final["status"] == "done"
    assert final["progress"] == {"total": 6, "pending": 0, "running": 0, "done": 6, "failed": 0, "cancelled": 0}
    with Store(stack.db) as store:
        runs = {item.run_id: store.get_run(item.run_id) for item in store.campaign_items(campaign_id)}
        assert all(run is not None and run.status == "done" and run.attempt == 1 for run in runs.values())
        by_worker = {run_id: run.worker for run_id, run in runs.items() if run is not None}
        assert set(by_worker.values()) == {"w1", "w2"}, by_worker
        for run_id, run in runs.items():
            assert run is not None and run.fidelity is not None and store.flow_samples(run_id)
            assert run.fidelity["calibration"]["max_concurrent"]["kernel_tcp"] == 4  # the worker's calibration
            assert run.provenance["kernel"] and "satlab" in run.provenance  # the worker's, not the server's
    summaries = {event["run_id"] for event in received if event["type"] == "summary"}
    started = {event["run_id"] for event in received if event["type"] == "state" and event["state"] == "started"}
    assert summaries == started == set(runs)
    assert {by_worker[run_id] for run_id in summaries} == {"w1", "w2"}  # events of both workers' runs
    assert not any("provenance" in event for event in received)  # the worker's fields stay on the server


def test_a_workers_run_keeps_its_qlogs_and_captures_on_the_server(stack: Stack) -> None:
    """A QUIC run with packet captures, run by a worker: its files (qlogs of
    both ends, the link's and the tunnel's captures) are on the server once
    the run is done, byte for byte what the run's result lists."""
    created = httpx2.post(f"{stack.api}/runs", timeout=30, json={"lab": "geo-ideal", "set": [
        "flows.0.transport=quic-picoquic", "flows.0.cc=bbr1", "flows.0.size_bytes=200000", "flows.0.hystart=null",
        "capture.packets=true", "tunnel.k=5", "tunnel.z=100"]})
    assert created.status_code == 201, created.text
    run_id = created.json()["run_id"]
    with Store(stack.db) as store:
        wait_until(lambda: (run := store.get_run(run_id)) is not None and run.status != "queued"
                   and run.status != "running", CAMPAIGN_DEADLINE_S, f"run {run_id} to end")
        run = store.get_run(run_id)
    assert run is not None and run.status == "done" and run.worker in ("w1", "w2") and run.result is not None
    artifacts = run.result["artifacts"]
    assert artifacts["refused"] == []
    listed = {file["name"]: file for file in artifacts["files"]}
    assert {file["kind"] for file in listed.values()} == {"qlog", "keylog", "pcapng"}
    export = httpx2.get(f"{stack.api}/runs/{run_id}/export", params={"what": "all"}, timeout=60)
    assert export.status_code == 200, export.text
    archive = zipfile.ZipFile(io.BytesIO(export.content))
    kept = RunArtifacts.beside(stack.db).directory(run_id)
    for name, file in listed.items():
        data = (kept / name).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (file["size_bytes"], file["sha256"]), name
        assert archive.read(name.removesuffix(".gz")) == gzip.decompress(data)  # the export unpacks them
    assert not (host.WORK_ROOT / f"worker-{run.worker}" / run_id).exists()  # the worker's copy is gone


@pytest.mark.host_wide
def test_a_worker_killed_mid_run_has_its_run_tried_once_more_and_its_leftovers_swept(stack: Stack) -> None:
    campaign_id = start_campaign(stack, 1_000_000)
    with Store(stack.db) as store:
        wait_until(lambda: running_with_samples(store, "w1") is not None, CAMPAIGN_DEADLINE_S,
                   "a run of w1 to stream samples")
        killed = running_with_samples(store, "w1")
    assert killed is not None
    stack.stop_worker("w1", signal.SIGKILL)
    final = wait_for_campaign(stack, campaign_id)
    assert final["status"] == "done"
    assert final["progress"]["done"] == 6 and final["progress"]["failed"] == 0
    item = next(item for item in final["items"] if any(a["run_id"] == killed for a in item["attempts"]))
    first, second = item["attempts"]
    assert (first["run_id"], first["attempt"], first["worker"], first["status"]) == (killed, 1, "w1", "failed")
    assert "its worker w1 stopped answering mid-run" in first["error"]
    assert f"tried again as run {second['run_id']} (attempt 2 of 2)" in first["error"]
    assert (second["attempt"], second["worker"], second["status"]) == (2, "w2", "done")
    assert item["run_id"] == second["run_id"] and item["status"] == "done"
    # Every other item ran once, or was w1's too when it died (it ran up to 4 at once), and counted once.
    for other in final["items"]:
        assert [attempt["status"] for attempt in other["attempts"]] in (["done"], ["failed", "done"])
        assert all("its worker w1 stopped answering" in attempt["error"] for attempt in other["attempts"][:-1])
    # What the killed worker's run left (its namespaces) goes at that worker's next start.
    stack.start_worker("w1")
    assert not [name for name in topology.existing_namespaces() if killed in name]


def test_a_server_killed_mid_campaign_loses_nothing(stack: Stack) -> None:
    campaign_id = start_campaign(stack, 1_000_000)
    with Store(stack.db) as store:
        wait_until(lambda: any(running_with_samples(store, worker) for worker in ("w1", "w2")), CAMPAIGN_DEADLINE_S,
                   "a run to stream samples")
        across = [run.run_id for run in store.list_runs(status="running")[0]]
    stack.stop_server(signal.SIGKILL)
    stopped_at = time.monotonic()
    stack.start_server()
    assert time.monotonic() - stopped_at > 1.0  # runs went on while nobody read their events
    final = wait_for_campaign(stack, campaign_id)
    assert final["status"] == "done"
    assert final["progress"] == {"total": 6, "pending": 0, "running": 0, "done": 6, "failed": 0, "cancelled": 0}
    assert all(len(item["attempts"]) == 1 for item in final["items"])
    with Store(stack.db) as store:
        for run_id in across:
            run = store.get_run(run_id)
            assert run is not None and run.status == "done" and run.result is not None
            times = [sample.t_s for sample in store.link_samples(run_id) if sample.direction == "forward"]
            assert times == sorted(set(times)), "a sample stored twice"
            gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
            assert max(gaps) < 1.5, f"run {run_id} lost the samples of {max(gaps):.1f} s"


@pytest.mark.host_wide
def test_a_queue_message_that_is_no_run_request_is_refused_without_running_anything(
        redis_server: RedisServer, tmp_path: Path) -> None:
    stack = Stack(redis_server, tmp_path)
    stack.start_worker("w1")
    app = make_app(redis_server.url)
    client = connection.connect(redis_server.url)
    before = set(topology.existing_namespaces())
    try:
        app.send_task(RUN_TASK, args=[{"run_id": "zzz", "scenario": {"flows": "many"}}], queue=RUN_QUEUE)
        app.send_task(RUN_TASK, args=[{"run_id": "abc123", "idempotency_key": "c1:0", "attempt": 1,
                                       "artifact_bytes": 1 << 20,
                                       "scenario": {"name": "x", "flows": [{"transport": "tcp", "cc": "tahoe"}]}}],
                      queue=RUN_QUEUE)
        # Not JSON: a pickled body is never read (workers run as root).
        with app.producer_or_acquire() as producer:
            producer.publish(b"\x80\x04K\x01.", routing_key=RUN_QUEUE, content_type="application/x-python-serialize",
                             content_encoding="binary", headers={"task": RUN_TASK, "id": "pickled"})

        def refused() -> int:
            record = workers.read_record(client, "w1")
            return record.refused if record is not None else 0
        wait_until(lambda: refused() == 2 and client.llen(RUN_QUEUE) == 0, 60, "the worker to refuse both")
        record = workers.read_record(client, "w1")
        assert record is not None and record.runs == []
        assert record.last_refusal is not None and "scenario.flows.0.cc" in record.last_refusal
        events = [json.loads(fields[b"event"]) for _, fields in client.xrange(EVENTS_STREAM)]
        # The request that names a run fails that run with the reason; nothing started.
        assert [(event["type"], event.get("state"), event.get("status")) for event in events] == [
            ("error", None, None), ("state", "failed", None), ("summary", None, "failed")]
        assert events[-1]["run_id"] == "abc123" and "refused the run request" in events[-1]["error"]
        assert set(topology.existing_namespaces()) - before == set()
        assert "refused a queue message without running anything" in stack.log("w1")
        assert "Refusing to deserialize untrusted content of type pickle" in stack.log("w1")
    finally:
        client.close()
        stack.close()
