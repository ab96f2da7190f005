"""/api/labs, /api/capabilities, the OpenAPI document and the frontend at /."""

from pathlib import Path

import pytest

from satlab.engine import host
from tests.api.conftest import refusal


def test_get_labs_lists_the_presets(client):
    labs = {lab["name"]: lab for lab in client.get("/api/labs").json()["data"]}
    assert {"geo-ideal", "geo-optical", "geo-dvb-train"} <= labs.keys()
    assert "17.84" in labs["geo-ideal"]["description"] and labs["geo-ideal"]["error"] is None


def test_get_lab_gives_its_text_and_its_validated_scenario(client):
    lab = client.get("/api/labs/geo-optical").json()
    assert "ge-time" in lab["text"]
    channel = lab["scenario"]["path"]["forward"]["channel"]
    assert (channel["loss_time_ratio"], channel["mean_burst_ms"], channel["step_ms"]) == (0.0256, 16.7, 10.0)
    assert channel["q"] == pytest.approx(10 / 16.7)
    assert lab["scenario"]["path"]["return"]["rate_mbps"] == 3


def test_get_lab_unknown_is_404(client):
    response = client.get("/api/labs/nothing")
    assert response.status_code == 404
    assert refusal(response) == "Lab not found"


def test_get_lab_outside_labs_is_404(client):
    for name in ("..", "..%2Fbackend%2Fpyproject", "%2Fetc%2Fpasswd"):
        assert client.get(f"/api/labs/{name}").status_code == 404


def test_get_capabilities_says_why_something_is_unavailable(client):
    capabilities = client.get("/api/capabilities").json()
    backends = {backend["name"]: backend for backend in capabilities["link_backends"]}
    assert backends["netem"]["available"] == host.has_netem()
    if not host.has_netem():
        assert "sch_netem" in backends["netem"]["problem"]
    transports = {transport["name"]: transport for transport in capabilities["transports"]}
    assert "bbr1" in transports["quic-picoquic"]["congestion_controls"]
    # What each transport can be asked for, so that a form offers no more.
    assert [transports[name]["zero_rtt_modes"] for name in ("tcp", "quic-picoquic", "quic-ngtcp2")] == [
        ["off"], ["off", "on", "bdp"], ["off", "on"]]
    assert [transports[name]["flow_control"] for name in ("tcp", "quic-picoquic", "quic-ngtcp2")] == [
        False, True, True]
    # TCP offers what the kernel has now or can load, and says what it has not.
    kernel = capabilities["tcp_congestion_controls"]
    available = Path("/proc/sys/net/ipv4/tcp_available_congestion_control").read_text().split()
    assert kernel["available"] == available
    assert set(transports["tcp"]["congestion_controls"]) == set(kernel["available"] + kernel["loadable"])
    assert set(kernel["missing"]).isdisjoint(transports["tcp"]["congestion_controls"])
    assert "ge-time" in capabilities["channel_models"]


def test_openapi_documents_every_route(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/runs", "/api/runs/{run_id}", "/api/runs/{run_id}/cancel", "/api/runs/{run_id}/csv/{kind}",
            "/api/labs", "/api/labs/{name}", "/api/campaigns", "/api/campaigns/{campaign_id}/csv",
            "/api/capabilities"} <= paths.keys()


def test_frontend_is_served_at_the_root(client):
    response = client.get("/")
    assert response.status_code == 200 and "<title>satlab</title>" in response.text

