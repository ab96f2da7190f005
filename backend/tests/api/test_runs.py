"""/api/runs: bad input is refused naming the field; real runs stream, store and export."""

import csv
import io

import pytest
import yaml
from pydantic import TypeAdapter

from satlab.api.models.events import RunStreamEvent
from tests.api.conftest import as_described, refusal, satlab_namespaces
from tests.conftest import LABS

SMALL = ["flows.0.size_bytes=1000000"]

BAD = [
    ({"lab": "geo-ideal", "set": ["path.forward.rate_mbps=fast"]}, ["path", "forward", "rate_mbps"]),
    ({"lab": "geo-ideal", "set": ["path.return.delay_ms=-5"]}, ["path", "return", "delay_ms"]),
    ({"lab": "geo-ideal", "set": ["path.forward.rate_mbps=0"]}, ["path", "forward", "rate_mbps"]),
    ({"lab": "geo-ideal", "set": ["flows.0.cc=tahoe"]}, ["flows", "0", "cc"]),
    ({"lab": "geo-ideal", "set": ["tunnel.k=200", "tunnel.z=100"]}, ["tunnel"]),
    ({"lab": "geo-ideal", "set": ["flows.0.size_bytes=99999999999999"]}, ["flows", "0", "size_bytes"]),
    ({"lab": "geo-ideal", "set": ["path.forward.speed=3"]}, ["path", "forward", "speed"]),
    ({"lab": "geo-nowhere"}, ["lab"]),
    ({"scenario": {"path": {}, "flows": []}}, ["path", "forward"]),
    ({"scenario": yaml.safe_load((LABS / "geo-ideal.yaml").read_text()),
      "set": ["path.forward.channel={model: trace, file: /etc/passwd}"]}, ["path", "forward", "channel", "file"]),
    ({"scenario": yaml.safe_load((LABS / "geo-ideal.yaml").read_text()),
      "set": ["path.return.channel={model: trace, file: ../backend/pyproject.toml}"]},
     ["path", "return", "channel", "file"]),
    ({"lab": "geo-ideal", "set": ["path.forward.delay_variation={model: trace, file: /etc/passwd}"]},
     ["path", "forward", "delay_variation", "file"]),
    ({"lab": "geo-ideal", "set": ["path.return.rate_trace={file: ../../etc/shadow}"]},
     ["path", "return", "rate_trace", "file"]),
    # Inside the labs directory but not a step trace: refused before anything starts, not by satlink.
    ({"lab": "geo-ideal", "set": ["path.forward.rate_trace={file: geo-ideal.yaml}"]},
     ["path", "forward", "rate_trace", "file"]),
]


@pytest.mark.parametrize(("body", "loc"), BAD, ids=[".".join(loc) for _, loc in BAD])
def test_create_run_with_bad_input_is_422_naming_the_field_and_creates_nothing(client, body, loc):
    before = satlab_namespaces()
    response = client.post("/api/runs", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert any(problem["loc"][1:] == loc for problem in detail), detail
    assert all(problem["msg"].startswith(".".join(problem["loc"][1:])) for problem in detail)
    assert client.get("/api/runs").json()["count"] == 0
    assert satlab_namespaces() == before


def test_create_run_with_both_lab_and_scenario_is_422(client):
    response = client.post("/api/runs", json={"lab": "geo-ideal", "scenario": {}})
    assert response.status_code == 422
    assert "exactly one of lab or scenario" in response.text


def test_get_run_unknown_is_404(client):
    response = client.get("/api/runs/ffffff")
    assert response.status_code == 404
    assert refusal(response) == "Run not found"


def test_cancel_run_unknown_is_404(client):
    assert refusal(client.post("/api/runs/ffffff/cancel")) == "Run not found"


def test_stream_run_unknown_closes_with_4404(client):
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/api/runs/ffffff/stream") as ws:
        ws.receive_json()
    assert closed.value.code == 4404


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.needs_root
def test_create_run_streams_stores_and_exports_a_real_download(client):
    created = client.post("/api/runs", json={"lab": "geo-ideal", "set": SMALL})
    assert created.status_code == 201
    run = created.json()
    assert run["status"] in ("queued", "running")
    assert run["provenance"]["kernel"] and run["scenario"]["flows"][0]["size_bytes"] == 1_000_000
    run_id = run["run_id"]

    events = []
    with client.websocket_connect(f"/api/runs/{run_id}/stream") as ws:
        while not events or events[-1]["type"] != "summary":
            events.append(ws.receive_json())
    assert events[0]["type"] == "run"
    for event in events:
        assert as_described(TypeAdapter(RunStreamEvent), event) == event
    states = [event["state"] for event in events if event["type"] == "state"]
    assert states[-1] == "done" and "running" in states
    samples = [event for event in events if event["type"] == "sample"]
    assert len(samples) >= 10  # a 1 MB download over a 500 ms RTT takes seconds, sampled at 10 Hz
    assert max(flow["bytes_acked"] for sample in samples for flow in sample["flows"]) > 500_000

    stored = client.get(f"/api/runs/{run_id}").json()
    assert stored["status"] == "done" and stored["finished_at"] >= stored["started_at"]
    assert stored["result"] == {key: value for key, value in events[-1].items() if key != "type"}
    (flow,) = stored["result"]["flows"]
    assert flow["bytes"] >= 1_000_000  # iperf3 sends whole writes
    # 1 MB at 12 Mbit/s is 0.67 s of serialisation; slow start over a 500 ms RTT needs several RTTs more.
    assert 1.5 < flow["download_time_s"] < 10

    summary = read_csv(client.get(f"/api/runs/{run_id}/csv/summary").text)
    assert len(summary) == 1
    assert float(summary[0]["download_time_s"]) == pytest.approx(flow["download_time_s"])
    flow_samples = client.get(f"/api/runs/{run_id}/csv/flow-samples")
    assert flow_samples.headers["content-type"].startswith("text/csv")
    rows = read_csv(flow_samples.text)
    assert len(rows) == sum(len(sample["flows"]) for sample in samples)
    assert int(rows[-1]["acked_bytes"]) > 500_000 and float(rows[-1]["rtt_ms"]) >= 500
    links = client.get(f"/api/runs/{run_id}/samples").json()["links"]
    assert {row["direction"] for row in links} == {"forward", "return"}
    assert not {name for name in satlab_namespaces() if run_id in name}


@pytest.mark.needs_root
def test_cancel_run_while_running_ends_cancelled_and_removes_everything(client):
    run_id = client.post("/api/runs", json={"lab": "geo-ideal"}).json()["run_id"]
    with client.websocket_connect(f"/api/runs/{run_id}/stream") as ws:
        event = ws.receive_json()
        while event.get("state") != "running":
            event = ws.receive_json()
        assert client.post(f"/api/runs/{run_id}/cancel").status_code == 202
        while event["type"] != "summary":
            event = ws.receive_json()
    assert event["status"] == "cancelled"
    assert client.get(f"/api/runs/{run_id}").json()["status"] == "cancelled"
    assert client.post(f"/api/runs/{run_id}/cancel").status_code == 409
    assert not {name for name in satlab_namespaces() if run_id in name}


@pytest.mark.needs_root
def test_list_runs_filters_by_status(client, settings):
    run_id = client.post("/api/runs", json={"lab": "geo-ideal", "set": ["flows.0.size_bytes=200000"]}).json()["run_id"]
    with client.websocket_connect(f"/api/runs/{run_id}/stream") as ws:
        while ws.receive_json()["type"] != "summary":
            pass
    assert [run["run_id"] for run in client.get("/api/runs?status=done").json()["data"]] == [run_id]
    assert client.get("/api/runs?status=running").json() == {"data": [], "count": 0}
    assert client.get("/api/runs?status=bogus").status_code == 422
