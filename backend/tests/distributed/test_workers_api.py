"""GET /api/workers: this server itself without a broker, the workers' own
records with one, and a 503 with a sentence (never a hang) when Redis cannot
be used; `satlab worker` refuses to start with a sentence when it cannot work."""

import os
import subprocess
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from satlab.api.main import create_app
from satlab.distributed import connection, workers
from satlab.distributed.workers import WorkerRecord, WorkerRun
from satlab.settings import Settings
from tests.conftest import LABS
from tests.distributed.conftest import RedisServer, free_loopback_port
from tests.distributed.stack import SATLAB


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "satlab.db", labs_dir=LABS, frontend_dir=tmp_path, max_concurrent_runs=3)


@pytest.fixture
def without_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(connection.BROKER_URL_VARIABLE, raising=False)


def client_of(settings: Settings) -> TestClient:
    return TestClient(create_app(settings))


def test_without_a_broker_the_server_is_the_one_worker(settings: Settings, without_broker: None) -> None:
    with client_of(settings) as client:
        answer = client.get("/api/workers")
    assert answer.status_code == 200
    body = answer.json()
    assert body["broker"] == "none"
    (server,) = body["workers"]
    assert (server["name"], server["max_runs"], server["runs"]) == ("this server", 3, [])


def test_with_redis_unreachable_the_server_starts_and_says_why(settings: Settings,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"redis://:a-secret-for-tests@127.0.0.1:{free_loopback_port()}/0"
    monkeypatch.setenv(connection.BROKER_URL_VARIABLE, url)
    started = time.monotonic()
    with client_of(settings) as client:
        answer = client.get("/api/workers")
    assert time.monotonic() - started < 3 * connection.CONNECT_TIMEOUT_S
    assert answer.status_code == 503
    (problem,) = answer.json()["detail"]
    assert problem["msg"].startswith(f"cannot reach Redis at redis://127.0.0.1:{url.rsplit(':', 1)[1]}")
    assert "queued runs wait until it answers" in problem["msg"] and "a-secret-for-tests" not in answer.text


def test_a_broker_url_without_a_password_stops_the_start(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(connection.BROKER_URL_VARIABLE, "redis://127.0.0.1:6379/0")
    with pytest.raises(ValueError, match="has no password; Redis must require one"), client_of(settings):
        pass


def test_with_a_broker_the_workers_are_their_records(settings: Settings, redis_server: RedisServer,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(connection.BROKER_URL_VARIABLE, redis_server.url)
    record = WorkerRecord(name="lab-pc-7", host="lab-pc-7", pid=4242, started_at=1000.0, seen_at=time.time(),
                          kernel="6.18.0", satlab_version="0.1.0",
                          calibration={"measured_at": "2026-11-27T10:00:00+00:00",
                                       "max_concurrent": {"kernel_tcp": 16, "tunnel": 8, "quic": 8}},
                          max_runs=16, runs=[WorkerRun(run_id="a1b2c3", kind="quic", attempt=2, state="running",
                                                       since=1001.0)])
    client = connection.connect(redis_server.url)
    workers.announce(client, record)
    client.close()
    with client_of(settings) as api:
        body = api.get("/api/workers").json()
    assert body["broker"] == "connected"
    (listed,) = body["workers"]
    assert listed["calibration"]["max_concurrent"] == {"kernel_tcp": 16, "tunnel": 8, "quic": 8}
    assert listed["runs"] == [{"run_id": "a1b2c3", "kind": "quic", "attempt": 2, "state": "running", "since": 1001.0}]
    assert (listed["name"], listed["refused"], listed["waiting_reason"]) == ("lab-pc-7", 0, None)


@pytest.mark.parametrize(("url", "says"), [
    (None, "SATLAB_BROKER_URL is not set"),
    ("redis://127.0.0.1:1/0", "has no password"),
    ("redis://:a-secret-for-tests@127.0.0.1:{port}/0", "cannot reach Redis at redis://127.0.0.1:{port}/0"),
])
@pytest.mark.needs_root
def test_satlab_worker_refuses_to_start_with_a_sentence(tmp_path: Path, url: str | None, says: str) -> None:
    port = free_loopback_port()
    environment = {key: value for key, value in os.environ.items() if key != connection.BROKER_URL_VARIABLE}
    if url is not None:
        environment[connection.BROKER_URL_VARIABLE] = url.format(port=port)
    environment["SATLAB_LOCK_DIR"] = str(tmp_path / "locks")
    started = time.monotonic()
    done = subprocess.run([SATLAB, "worker", "--name", "w-test"], env=environment, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert says.format(port=port) in done.stderr and "a-secret-for-tests" not in done.stderr
    assert time.monotonic() - started < 30


def test_a_workers_record_expires_unless_renewed(redis_server: RedisServer) -> None:
    client = connection.connect(redis_server.url)
    try:
        record = WorkerRecord(name="gone", host="h", pid=1, started_at=0.0, seen_at=0.0, kernel="k",
                              satlab_version=None, calibration=None, max_runs=1, runs=[])
        workers.announce(client, record)
        assert 0 < int(client.ttl(workers.record_key("gone"))) <= workers.RECORD_TTL_S
        assert [listed.name for listed in workers.live_workers(client)] == ["gone"]
    finally:
        client.close()


def test_with_a_broker_a_campaign_keeps_no_more_than_parallel_of_its_items_queued(
        settings: Settings, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """`parallel` stays the upper bound with a broker: a student's campaign,
    admitted for `parallel` runs at once, never has more out to the workers
    (no worker listens here: what the server sent out stays out)."""
    monkeypatch.setenv(connection.BROKER_URL_VARIABLE, redis_server.url)
    spec = {"name": "bounded", "scenario": "geo-ideal", "set": {"flows.0.size_bytes": 100000, "flows.0.hystart": None},
            "matrix": {"flows.0.cc": ["cubic", "bbr", "reno"]}, "iterations": 1, "parallel": 1, "seed": 3}
    with client_of(settings) as client:
        created = client.post("/api/campaigns", json=spec)
        assert created.status_code == 201, created.text
        campaign_id = created.json()["campaign_id"]
        statuses = [item["status"] for item in client.get(f"/api/campaigns/{campaign_id}").json()["items"]]
        client.post(f"/api/campaigns/{campaign_id}/cancel")
    assert sorted(statuses) == ["pending", "pending", "running"], statuses
