"""Roles, quotas and limits, tried as a hostile client would (issue 11's
list): every refusal is checked with the sentence that names the limit.

Runs here never start (max_concurrent_runs=0): they wait in the queue, which
is what quotas count, and the app's shutdown cancels them."""

import dataclasses
import importlib
import os
import pkgutil
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import satlab.api.routes
from satlab.api.auth import INSTRUCTOR_ONLY, SIGN_IN_FIRST
from satlab.api.deps import StreamSlot
from satlab.api.main import create_app
from satlab.api.routes import campaigns, host, runs
from satlab.cli import main as satlab_main
from satlab.engine.wait import wait_until
from satlab.service.store import Store
from satlab.settings import Limits
from tests.api.conftest import TOKEN, instructor, join, refusal
from tests.test_serve import SATLAB, free_port

SMALL_RUN = {"lab": "geo-ideal", "set": ["flows.0.size_bytes=100000"]}
FOREIGN = "http://evil.example"
# Routes any signed-in user may call (the rest is the instructor's alone).
STUDENT_ROUTES = {("GET", "/api/runs"), ("POST", "/api/runs"), ("GET", "/api/runs/{run_id}"),
                  ("GET", "/api/runs/{run_id}/queue"), ("POST", "/api/runs/{run_id}/cancel"),
                  ("GET", "/api/runs/{run_id}/samples"), ("GET", "/api/runs/{run_id}/csv/{kind}"),
                  ("GET", "/api/campaigns"), ("GET", "/api/campaigns/{campaign_id}"),
                  ("POST", "/api/campaigns/{campaign_id}/cancel"), ("POST", "/api/campaigns/{campaign_id}/resume"),
                  ("GET", "/api/campaigns/{campaign_id}/csv"), ("GET", "/api/runs/{run_id}/export"),
                  ("GET", "/api/campaigns/{campaign_id}/export"), ("GET", "/api/labs"), ("GET", "/api/labs/{name}"),
                  ("GET", "/api/capabilities"), ("GET", "/api/limits"), ("GET", "/api/limits/tunnel"),
                  ("GET", "/api/channels/stats"), ("GET", "/api/workers"),
                  ("POST", "/api/channels/stats"), ("GET", "/api/studies"), ("GET", "/api/studies/{study_id}"),
                  ("GET", "/api/studies/{study_id}/runs"), ("GET", "/api/studies/{study_id}/report"),
                  ("GET", "/api/studies/{study_id}/report.csv")}


def routes(app_client: TestClient) -> list[tuple[str, str]]:
    """Every HTTP route of every module of satlab.api.routes but signing in."""
    found = []
    for module in pkgutil.iter_modules(satlab.api.routes.__path__):
        if module.name != "auth":
            router = importlib.import_module(f"satlab.api.routes.{module.name}").router
            found.extend((method, f"/api{route.path}") for route in router.routes if isinstance(route, APIRoute)
                         for method in sorted(route.methods))
    return found


def call(client: TestClient, method: str, path: str, **kwargs):
    concrete = re.sub(r"\{[^}]+\}", "x", path)
    return client.request(method, concrete, json={} if method in ("POST", "PUT") else None, **kwargs)


def test_anonymous_gets_401_with_a_sentence_from_every_route(app_client):
    assert len(routes(app_client)) > 20
    for method, path in routes(app_client):
        response = call(app_client, method, path)
        assert (response.status_code, refusal(response)) == (401, SIGN_IN_FIRST), (method, path)


def test_a_student_gets_403_from_every_route_of_the_instructor(app_client):
    student = join(app_client, "ada")
    instructor_routes = [route for route in routes(app_client) if route not in STUDENT_ROUTES]
    assert ("DELETE", "/api/runs/{run_id}") in instructor_routes and ("GET", "/api/audit") in instructor_routes
    for method, path in instructor_routes:
        response = call(student, method, path)
        if path == "/api/campaigns":
            assert refusal(response).endswith("(student_campaigns is 0).")
        else:
            assert (response.status_code, refusal(response)) == (403, INSTRUCTOR_ONLY), (method, path)


def test_anonymous_streams_are_refused(app_client):
    for path in ("/api/events", "/api/runs/x/stream", "/api/campaigns/x/stream"):
        with pytest.raises(WebSocketDenialResponse) as denied, app_client.websocket_connect(path):
            pass
        assert denied.value.status_code == 401


def test_a_foreign_origin_cannot_post_a_form_even_without_sign_in(settings):
    """The worst case: open access (loopback, no token). The form would cancel a run."""
    with TestClient(create_app(settings)) as client:
        response = client.post("/api/runs/x/cancel", headers={"origin": FOREIGN},
                               content=b"a=1", )
        assert response.status_code == 403
        assert refusal(response) == f"Cross-site request refused: {FOREIGN} is not this site (testserver)."
        # A page of this site passes the guard (and finds no such run).
        assert client.post("/api/runs/x/cancel", headers={"origin": "http://testserver"}).status_code == 404


def test_a_foreign_origin_cannot_open_a_stream(app_client):
    teacher = instructor(app_client)
    with pytest.raises(WebSocketDenialResponse) as denied, \
            teacher.websocket_connect("/api/events", headers={"origin": FOREIGN}):
        pass
    assert denied.value.status_code == 403
    with teacher.websocket_connect("/api/events", headers={"origin": "http://testserver"}):
        pass


def test_an_unknown_host_header_is_refused(app_client):
    """DNS rebinding: a page of evil.example that resolves to this server."""
    response = app_client.get("/api/auth/me", headers={"host": "evil.example.com"})
    assert (response.status_code, response.text) == (400, "Invalid host header")


def test_a_burst_of_50_starts_from_one_student_starts_only_the_quota(app_client):
    student = join(app_client, "ada")
    with ThreadPoolExecutor(16) as pool:
        responses = list(pool.map(lambda _: student.post("/api/runs", json=SMALL_RUN), range(50)))
    codes = sorted(response.status_code for response in responses)
    limit = Limits().student_concurrent_runs
    assert codes == [201] * limit + [429] * (50 - limit)
    refused = refusal(next(response for response in responses if response.status_code == 429))
    assert refused == (f"You have {limit} runs queued or running, and this would add 1; a student may have {limit} "
                       "at once (student_concurrent_runs): wait for one to end.")
    assert student.get("/api/runs").json()["count"] == limit


def test_runs_per_hour_and_the_queue_are_limited(classroom):
    """The students' queued runs together, and the instructor's apart: a class
    that fills its part of the queue never refuses the instructor."""
    limits = dataclasses.replace(Limits(), student_concurrent_runs=10, student_runs_per_hour=3, max_queued_runs=5)
    with TestClient(create_app(dataclasses.replace(classroom, limits=limits))) as app_client:
        student = join(app_client, "ada")
        for _ in range(3):
            run_id = student.post("/api/runs", json=SMALL_RUN).json()["run_id"]
        assert student.post(f"/api/runs/{run_id}/cancel").status_code == 202
        response = student.post("/api/runs", json=SMALL_RUN)
        assert response.status_code == 429
        assert "(student_runs_per_hour)" in refusal(response)
        bob = join(app_client, "bob")
        codes = [bob.post("/api/runs", json=SMALL_RUN).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]  # 2 of ada's + 3 of bob's wait: the class's 5
        assert refusal(bob.post("/api/runs", json=SMALL_RUN)).startswith(
            "The queue is full: 5 of the class's runs wait already and at most 5 may (max_queued_runs)")
        teacher = instructor(app_client)
        codes = [teacher.post("/api/runs", json=SMALL_RUN).status_code for _ in range(6)]
        assert codes == [201] * 5 + [429]
        assert refusal(teacher.post("/api/runs", json=SMALL_RUN)) == (
            "The queue is full: 5 of your runs wait already and at most 5 may (max_queued_runs); try again when "
            "some have started.")


def test_a_student_cannot_see_or_cancel_anothers_run(app_client):
    ada, bob, teacher = join(app_client, "ada"), join(app_client, "bob"), instructor(app_client)
    run_id = ada.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    assert bob.get(f"/api/runs/{run_id}").status_code == 404
    assert bob.get(f"/api/runs/{run_id}/samples").status_code == 404
    assert bob.post(f"/api/runs/{run_id}/cancel").status_code == 404
    assert bob.get("/api/runs").json()["count"] == 0
    with bob.websocket_connect(f"/api/runs/{run_id}/stream") as stream:
        assert stream.receive()["code"] == 4404
    assert teacher.get(f"/api/runs/{run_id}").status_code == 200
    assert ada.get(f"/api/runs/{run_id}/queue").json()["queue_position"] == 1

    assert teacher.post(f"/api/runs/{run_id}/share").status_code == 200
    assert bob.get(f"/api/runs/{run_id}").status_code == 200  # shared: seen, still not bob's to cancel
    response = bob.post(f"/api/runs/{run_id}/cancel")
    assert (response.status_code, refusal(response)) == (403, "You may cancel only your own runs.")
    assert ada.post(f"/api/runs/{run_id}/cancel").status_code == 202


def test_what_a_student_may_run_is_limited(app_client):
    ada, teacher = join(app_client, "ada"), instructor(app_client)
    cases = {
        # 10 GiB flows
        "flows.0.size_bytes=10737418240": "flows.0.size_bytes: 10737418240 bytes is more than a student's flow may "
                                          "move (50000000, student_flow_bytes)",
        # 8 x 10 Gbit/s of cross traffic for an hour
        "cross_traffic=[{rate_mbps: 10000, duration_s: 3600}]": "(120 s, student_flow_duration_s); cross_traffic: "
                                                                 "10000 Mbit/s in all is more than a student's run "
                                                                 "may send (20, student_cross_traffic_mbps)",
        "iterations=50": "iterations: 50 is more than a student's run may have (3, student_iterations)",
    }
    for override, sentence in cases.items():
        response = ada.post("/api/runs", json={"lab": "geo-ideal", "set": [override]})
        assert response.status_code == 403, response.text
        assert sentence in refusal(response)
    scenario = teacher.get("/api/labs/geo-ideal").json()["scenario"]
    response = ada.post("/api/runs", json={"scenario": scenario})
    assert response.status_code == 403 and "give `lab`" in refusal(response)
    assert teacher.put("/api/class/labs", json={"enabled_labs": ["geo-optical"]}).status_code == 200
    response = ada.post("/api/runs", json=SMALL_RUN)
    assert refusal(response) == "lab: the instructor has not enabled 'geo-ideal' for students; enabled: geo-optical"
    assert response.json()["detail"][0]["loc"] == ["body", "lab"]


def test_a_huge_campaign_and_long_descriptions_are_refused(app_client):
    teacher = instructor(app_client)
    campaign = {"name": "huge", "scenario": "geo-ideal", "iterations": 1000,
                "matrix": {"flows.0.size_bytes": list(range(1, 11))}}
    response = teacher.post("/api/campaigns", json=campaign)
    assert (response.status_code, refusal(response)) == (
        422, "matrix: the campaign has 10000 runs (configurations x iterations), more than 256 (max_campaign_runs)")
    assert response.json()["detail"][0]["loc"] == ["body", "matrix"]
    response = teacher.post("/api/runs", json={**SMALL_RUN, "set": [*SMALL_RUN["set"], "description=" + "x" * 100_000]})
    assert (response.status_code, refusal(response)) == (
        422, "description: 100000 characters is more than 2000 (max_description_chars)")
    assert response.json()["detail"][0]["loc"] == ["body", "description"]


def test_a_full_database_refuses_new_runs(classroom):
    limits = dataclasses.replace(Limits(), max_database_bytes=1)
    with TestClient(create_app(dataclasses.replace(classroom, limits=limits))) as app_client:
        response = instructor(app_client).post("/api/runs", json=SMALL_RUN)
        assert response.status_code == 507
        assert "its limit is 1 (max_database_bytes)" in refusal(response)


def test_a_large_body_is_refused_before_it_is_read(app_client):
    teacher = instructor(app_client)
    response = teacher.post("/api/runs", content=b"x" * (Limits().max_request_bytes + 1),
                            headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert len(response.content) < 1000


def test_too_many_streams_are_refused(classroom):
    limits = dataclasses.replace(Limits(), max_websockets_per_client=2)
    with TestClient(create_app(dataclasses.replace(classroom, limits=limits))) as app_client:
        teacher = instructor(app_client)
        with teacher.websocket_connect("/api/events"), teacher.websocket_connect("/api/events"):
            with pytest.raises(WebSocketDenialResponse) as denied, teacher.websocket_connect("/api/events"):
                pass
            assert denied.value.status_code == 429
            assert "(2, max_websockets_per_client)" in refusal(denied.value)
        with teacher.websocket_connect("/api/events"):  # closed streams give their slot back
            pass


def test_sign_in_sessions_and_their_cookie(app_client):
    assert app_client.get("/api/auth/me").json()["role"] == "anonymous"
    response = app_client.post("/api/auth/instructor", json={"token": "wrong"})
    assert (response.status_code, refusal(response)) == (401, "token: that is not the instructor's token.")
    response = app_client.post("/api/auth/student", json={"class_code": "WRONG", "name": "eve"})
    assert response.status_code == 401 and "not the class code" in refusal(response)
    response = app_client.post("/api/auth/instructor", json={"token": TOKEN})
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert app_client.get("/api/auth/me").json()["role"] == "instructor"
    forged = app_client.cookies["satlab_session"][:-2] + "xx"
    app_client.cookies.clear()
    app_client.cookies.set("satlab_session", forged)
    assert app_client.get("/api/auth/me").json()["role"] == "anonymous"


def test_sign_in_attempts_are_rate_limited(app_client):
    limit = Limits().login_attempts_per_minute
    codes = [app_client.post("/api/auth/instructor", json={"token": "guess"}).status_code for _ in range(limit + 1)]
    assert codes == [401] * limit + [429]
    response = app_client.post("/api/auth/instructor", json={"token": TOKEN})  # even the right one, for a minute
    assert response.status_code == 429
    assert f"at most {limit} a minute (login_attempts_per_minute)" in refusal(response)


def test_the_audit_trail_names_who_did_what(app_client):
    ada = join(app_client, "ada")
    run_id = ada.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    ada.post(f"/api/runs/{run_id}/cancel")
    app_client.post("/api/auth/instructor", json={"token": "guess"})
    entries = instructor(app_client).get("/api/audit").json()["data"]
    actions = [(entry["actor"].split(" (")[0], entry["action"], entry["status"]) for entry in reversed(entries)]
    assert ("student ada", "POST /api/runs", 201) in actions
    assert ("student ada", f"POST /api/runs/{run_id}/cancel", 202) in actions
    assert ("anonymous", "POST /api/auth/instructor", 401) in actions
    assert all(entry["at"] > 0 and entry["address"] for entry in entries)


def test_the_token_is_stored_hashed_and_a_new_one_is_issued_once(settings, tmp_path):
    fresh = dataclasses.replace(settings, db_path=tmp_path / "fresh.db", open_access=False, new_token=True,
                                allowed_hosts=("testserver",))
    app = create_app(fresh)
    with TestClient(app) as client:
        token = app.state.auth.issued_token
        assert token and client.post("/api/auth/instructor", json={"token": token}).status_code == 200
    with Store(fresh.db_path) as store:
        stored = store.get_state("instructor_token_hash")
    assert stored.startswith("$argon2") and token not in stored
    app = create_app(fresh)
    with TestClient(app):
        assert app.state.auth.issued_token is None  # printed once: the next start keeps it


def test_serve_on_the_network_without_a_token_refuses_to_start(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SATLAB_INSTRUCTOR_TOKEN", raising=False)
    assert satlab_main(["--db", str(tmp_path / "satlab.db"), "serve", "--host", "0.0.0.0"]) == 2
    assert "serve: --host 0.0.0.0 lets other machines in, and then the lab needs an instructor token" \
        in capsys.readouterr().err


def test_the_limits_table_is_served_and_documented(app_client):
    table = instructor(app_client).get("/api/limits").json()
    assert [limit["name"] for limit in table] == [limit.name for limit in dataclasses.fields(Limits)]
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    for limit in table:
        assert f"| `{limit['name']}` | {limit['value']} |" in readme, limit["name"]


def test_retention_prunes_old_samples_and_the_instructor_deletes_runs(app_client):
    teacher = instructor(app_client)
    run_id = teacher.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    response = teacher.delete(f"/api/runs/{run_id}")
    assert (response.status_code, refusal(response)) == (409, "The run is queued: cancel it first.")
    teacher.post(f"/api/runs/{run_id}/cancel")
    assert teacher.delete(f"/api/runs/{run_id}").status_code == 200
    assert teacher.get(f"/api/runs/{run_id}").status_code == 404
    response = teacher.post("/api/storage/prune").json()
    assert response["pruned_runs"] == 0 and response["database_bytes"] > 0


def test_every_stream_needs_a_slot():
    """A stream without the slot dependency would escape max_websockets."""
    streams = [route for module in (campaigns, host, runs) for route in module.router.routes
               if isinstance(route, APIWebSocketRoute)]
    assert len(streams) == 3
    assert all(StreamSlot in route.dependencies for route in streams)


def test_a_real_server_refuses_foreign_pages_and_anonymous_streams(tmp_path):
    """The same guards through uvicorn and its WebSocket implementation, as browsers meet them."""
    port = free_port()
    server = subprocess.Popen([SATLAB, "--db", str(tmp_path / "satlab.db"), "serve", "--port", str(port)],
                              env={**os.environ, "SATLAB_INSTRUCTOR_TOKEN": TOKEN},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"127.0.0.1:{port}"
    try:
        wait_until(lambda: answers(f"http://{base}/api/auth/me") or server.poll() is not None, 30,
                   "satlab serve to answer")
        response = httpx2.post(f"http://{base}/api/runs/x/cancel", headers={"origin": FOREIGN}, content=b"a=1")
        assert (response.status_code, refusal(response)) == (
            403, f"Cross-site request refused: {FOREIGN} is not this site ({base}).")
        for origin, status, sentence in ((FOREIGN, 403, "Cross-site stream refused"), (None, 401, "Sign in first")):
            with pytest.raises(InvalidStatus) as refused:
                connect(f"ws://{base}/api/events", origin=origin).close()
            assert refused.value.response.status_code == status
            assert sentence in refused.value.response.body.decode()
    finally:
        server.terminate()
        server.wait(30)


def answers(url: str) -> bool:
    try:
        return httpx2.get(url).status_code == 200
    except httpx2.TransportError:
        return False
