"""The audit trail cannot be flooded, and a full database can always be
brought back under its limit through the API (issue 20, defect 1).

Runs here never start (max_concurrent_runs=0)."""

import dataclasses

from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from satlab.api.auth import INSTRUCTOR
from satlab.api.main import create_app
from satlab.api.security import AUDIT_PATH_CHARS, Audit
from satlab.service.store import Store
from satlab.settings import Limits
from tests.api.conftest import TOKEN, instructor, join, refusal
from tests.api.test_security import SMALL_RUN
from tests.test_store import PROVENANCE, SCENARIO, run_result, sample_event


def audit_count(client: TestClient) -> int:
    count: int = instructor(client).get("/api/audit").json()["count"]
    return count


def test_anonymous_requests_write_no_audit_row(app_client):
    """The defect: `POST /api/auth/<120,000 characters>` was a 405 and a row, 15
    of them took the database past its limit. Now only sign-in attempts
    within the rate limit write a row."""
    teacher = instructor(app_client)
    before = audit_count(app_client)
    for _ in range(15):
        assert app_client.post("/api/auth/" + "x" * 60_000).status_code in (404, 405)
        assert app_client.post("/api/runs/x/cancel").status_code == 401
        assert app_client.post("/api/auth/student", json={"class_code": "ABC", "name": "a\0b"}).status_code == 422
        assert app_client.post("/api/auth/logout").status_code == 200  # nobody signed out: nothing to record
    assert teacher.get("/api/audit").json()["count"] == before


def test_sign_in_attempts_are_recorded_only_within_the_rate_limit(app_client):
    limit = Limits().login_attempts_per_minute
    codes = [app_client.post("/api/auth/instructor", json={"token": "guess"}).status_code for _ in range(limit + 20)]
    assert codes == [401] * limit + [429] * 20
    with Store(app_client.app.state.settings.db_path) as store:
        entries, count = store.list_audit(1000)
    assert count == limit, [entry.action for entry in entries]
    assert {(entry.actor, entry.action, entry.status) for entry in entries} == {
        ("anonymous", "POST /api/auth/instructor", 401)}


def test_the_audit_keeps_the_newest_rows_the_instructor_chose(app_client):
    teacher = instructor(app_client)
    quotas = {quota["name"]: quota["value"] for quota in teacher.get("/api/class/quotas").json()}
    assert teacher.put("/api/class/quotas", json={**quotas, "audit_retention_rows": 3}).status_code == 200
    ada = join(app_client, "ada")
    code = app_client.app.state.auth.class_code
    for _ in range(6):  # each sign-in a row
        assert ada.post("/api/auth/student", json={"class_code": code, "name": "ada"}).status_code == 200
    entries = teacher.get("/api/audit").json()
    assert entries["count"] == 3
    assert [entry["action"] for entry in entries["data"]] == ["POST /api/auth/student"] * 3


def test_a_long_path_is_cut_in_the_audit(tmp_path):
    """A route that answers any path (none of satlab's routes with a long path answers 2xx)."""
    store = Store(tmp_path / "audit.db")

    def anything(request: Request) -> PlainTextResponse:
        request.state.principal = INSTRUCTOR
        return PlainTextResponse("ok")

    app = Audit(Starlette(routes=[Route("/{path:path}", anything, methods=["POST"])]), store=lambda: store,
                limits=Limits)
    with TestClient(app) as client:
        assert client.post("/" + "y" * 60_000).status_code == 200
    (entry,), _ = store.list_audit()
    assert entry.action == f"POST /{'y' * (AUDIT_PATH_CHARS - 1)}… (60001 characters)"
    store.close()


def fill(store: Store, run_id: str, samples: int) -> None:
    """A finished run with many samples, as a day of runs leaves them."""
    store.create_run(run_id, SCENARIO, PROVENANCE)
    store.set_run_status(run_id, "running")
    for index in range(samples):
        store.add_sample(sample_event(run_id, t_s=0.1 * index))
    store.finish_run(run_id, run_result(run_id))


def test_a_full_database_is_recovered_through_the_api(classroom):
    with Store(classroom.db_path) as store:
        empty_bytes = store.database_bytes()
        fill(store, "f00001", 3000)
        full_bytes = store.database_bytes()
    limit = (empty_bytes + full_bytes) // 2
    settings = dataclasses.replace(classroom, limits=dataclasses.replace(Limits(), max_database_bytes=limit))
    with TestClient(create_app(settings)) as app_client:
        teacher = instructor(app_client)
        refused = teacher.post("/api/runs", json=SMALL_RUN)
        assert refused.status_code == 507
        assert f"its limit is {limit} (max_database_bytes)" in refusal(refused)
        assert teacher.post("/api/storage/prune").json()["pruned_runs"] == 0  # retention_days: 30 days
        pruned = teacher.post("/api/storage/prune", json={"samples_older_than_days": 0, "audit_rows": 0})
        assert pruned.status_code == 200, pruned.text
        assert pruned.json()["pruned_runs"] == 1 and pruned.json()["database_bytes"] < limit
        assert teacher.post("/api/runs", json=SMALL_RUN).status_code == 201
    with Store(classroom.db_path) as store:
        assert store.flow_summaries("f00001")  # the summaries stay


def test_the_audit_is_pruned_through_the_api(classroom):
    """A database full of audit rows (the instructor's own actions) comes back too."""
    with TestClient(create_app(classroom)) as app_client:
        teacher = instructor(app_client)
        for _ in range(30):
            teacher.post("/api/class/code")
        assert teacher.get("/api/audit").json()["count"] >= 30
        response = teacher.post("/api/storage/prune", json={"audit_rows": 3})
        assert response.json()["audit_rows_dropped"] >= 28
        assert teacher.get("/api/audit").json()["count"] == 4  # 3 kept, and the prune itself
        response = teacher.post("/api/storage/prune", json={"audit_rows": -1})
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "audit_rows"]
        assert app_client.post("/api/auth/instructor", json={"token": TOKEN}).status_code == 200
