"""/api/campaigns: a matrix x iterations, validated before anything runs,
with progress, a CSV with a row per run and flow, and resumable after the
backend stops."""

import csv
import io

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from satlab.api.main import create_app
from satlab.api.models.events import CampaignStreamEvent
from satlab.engine import host
from satlab.service.campaign_driver import campaign_claim
from tests.api.conftest import as_described, refusal, satlab_namespaces


def campaign(**changes):
    spec = {"name": "cc", "scenario": "geo-ideal", "set": {"flows.0.size_bytes": 300_000, "flows.0.hystart": None},
            "matrix": {"flows.0.cc": ["cubic", "bbr"]}, "iterations": 1, "parallel": 2, "seed": 3}
    return {**spec, **changes}


def wait_for_end(client, campaign_id):
    with client.websocket_connect(f"/api/campaigns/{campaign_id}/stream") as ws:
        event = ws.receive_json()
        while event["type"] != "campaign" or event["status"] == "running":
            assert as_described(TypeAdapter(CampaignStreamEvent), event) == event
            event = ws.receive_json()
    return event


BAD = [
    (campaign(matrix={"flows.0.cc": ["cubic", "tahoe"]}), "tahoe"),
    (campaign(iterations=0), "iterations"),
    (campaign(scenario="../backend/pyproject"), "scenario"),
    (campaign(scenario="/etc/passwd"), "scenario"),
    (campaign(matrix={"flows.0.cc": []}), "matrix.flows.0.cc"),
    (campaign(colour="red"), "colour"),
]


@pytest.mark.parametrize(("body", "named"), BAD, ids=[named for _, named in BAD])
def test_create_campaign_with_bad_input_is_422_and_creates_nothing(client, body, named):
    before = satlab_namespaces()
    response = client.post("/api/campaigns", json=body)
    assert response.status_code == 422
    assert named in response.text
    assert client.get("/api/campaigns").json()["count"] == 0
    assert client.get("/api/runs").json()["count"] == 0
    assert satlab_namespaces() == before


def test_get_campaign_unknown_is_404(client):
    assert refusal(client.get("/api/campaigns/cnothing")) == "Campaign not found"


@pytest.mark.needs_root
def test_create_campaign_runs_the_matrix_and_exports_a_row_per_run_and_flow(client):
    created = client.post("/api/campaigns", json=campaign())
    assert created.status_code == 201
    campaign_id = created.json()["campaign_id"]
    assert created.json()["progress"]["total"] == 2
    final = wait_for_end(client, campaign_id)
    assert final["status"] == "done"
    assert final["progress"] == {"total": 2, "pending": 0, "running": 0, "done": 2, "failed": 0, "cancelled": 0}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/campaigns/{campaign_id}/csv").text)))
    assert sorted(row["flows.0.cc"] for row in rows) == ["bbr", "cubic"]
    assert all(row["cc"] == row["flows.0.cc"] and float(row["download_time_s"]) > 1 for row in rows)
    assert len({row["seed"] for row in rows}) == 1  # one iteration: one seed for every configuration
    runs = client.get(f"/api/runs?campaign_id={campaign_id}").json()
    assert runs["count"] == 2 and {run["status"] for run in runs["data"]} == {"done"}


@pytest.mark.needs_root
def test_campaign_resumes_after_the_backend_stops(settings):
    spec = campaign(matrix={"flows.0.cc": ["cubic", "bbr", "reno"]}, parallel=1)
    with TestClient(create_app(settings)) as client:
        campaign_id = client.post("/api/campaigns", json=spec).json()["campaign_id"]
        with client.websocket_connect(f"/api/campaigns/{campaign_id}/stream") as ws:
            while ws.receive_json().get("state") != "running":
                pass
    # The backend stopped with the first run cancelled mid-way: the campaign is still to be finished.
    with TestClient(create_app(settings)) as client:
        final = wait_for_end(client, campaign_id)
        assert final["status"] == "done" and final["progress"]["done"] == 3
        items = client.get(f"/api/campaigns/{campaign_id}").json()["items"]
        assert [item["status"] for item in items] == ["done"] * 3


def test_list_campaigns_pages_newest_first(client):
    store = client.app.state.manager.store
    for campaign_id in ("cold", "cnew"):
        store.create_campaign(campaign_id, campaign_id, campaign(), [])
    page = client.get("/api/campaigns?limit=1").json()
    assert page["count"] == 2 and [c["campaign_id"] for c in page["data"]] == ["cnew"]
    assert [c["campaign_id"] for c in client.get("/api/campaigns?limit=1&offset=1").json()["data"]] == ["cold"]
    assert client.get("/api/campaigns?limit=0").status_code == 422


def test_resuming_a_campaign_another_process_runs_is_409_and_changes_nothing(client):
    store = client.app.state.manager.store
    store.create_campaign("cheld0001", "held", campaign(), [])
    store.set_campaign_status("cheld0001", "cancelled")
    name = campaign_claim("cheld0001")
    held = host.try_claim(name)  # as the process that drives it holds it
    assert held is not None
    try:
        response = client.post("/api/campaigns/cheld0001/resume")
        assert response.status_code == 409
        assert "Another satlab process" in refusal(response)
        assert client.get("/api/campaigns/cheld0001").json()["status"] == "cancelled"
    finally:
        host.release(name, held)
