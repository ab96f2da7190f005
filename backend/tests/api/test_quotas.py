"""The quotas the instructor changes while the server runs (PUT
/api/class/quotas): who may, up to which ceiling, what the audit trail keeps,
and that the next start follows them (a real run)."""

import dataclasses
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from satlab.api.auth import INSTRUCTOR_ONLY, SIGN_IN_FIRST
from satlab.api.main import create_app
from satlab.engine.wait import wait_until
from satlab.settings import Limits, Settings
from tests.api.conftest import instructor, join, refusal
from tests.api.test_security import FOREIGN, SMALL_RUN

QUOTAS = "/api/class/quotas"


def quotas(client: TestClient) -> dict[str, int]:
    return {quota["name"]: quota["value"] for quota in client.get(QUOTAS).json()}


def test_students_and_anonymous_may_not_read_or_change_the_quotas(app_client):
    student = join(app_client, "ada")
    for method in ("GET", "PUT"):
        response = app_client.request(method, QUOTAS, json={})
        assert (response.status_code, refusal(response)) == (401, SIGN_IN_FIRST)
        response = student.request(method, QUOTAS, json={})
        assert (response.status_code, refusal(response)) == (403, INSTRUCTOR_ONLY)


def test_a_foreign_page_cannot_change_the_quotas(app_client):
    teacher = instructor(app_client)
    response = teacher.put(QUOTAS, json={**quotas(teacher), "student_concurrent_runs": 8},
                           headers={"Origin": FOREIGN})
    assert (response.status_code, refusal(response)) == (
        403, f"Cross-site request refused: {FOREIGN} is not this site (testserver).")
    assert quotas(teacher)["student_concurrent_runs"] == 2


def test_the_quotas_are_each_quota_with_its_default_and_ceiling(app_client):
    listed = instructor(app_client).get(QUOTAS).json()
    assert [quota["name"] for quota in listed] == list(Limits.ceilings())
    assert listed[0] == {"name": "student_concurrent_runs", "value": 2, "default": 2, "ceiling": 8,
                         "description": "runs one student may have queued or running at once"}
    assert {quota["name"] for quota in listed} == {"student_concurrent_runs", "student_runs_per_hour",
                                                   "student_flow_bytes", "student_flow_duration_s",
                                                   "student_cross_traffic_mbps", "student_iterations",
                                                   "student_campaigns", "student_link_rate_mbps",
                                                   "audit_retention_rows", "retention_days"}


def test_the_instructor_changes_quotas_which_are_kept_audited_and_shown_to_students(classroom):
    with TestClient(create_app(classroom)) as app_client:
        teacher, ada = instructor(app_client), join(app_client, "ada")
        response = teacher.put(QUOTAS, json={**quotas(teacher), "student_concurrent_runs": 1, "retention_days": 7})
        assert response.status_code == 200, response.text
        assert {quota["name"]: quota["value"] for quota in response.json()}["student_concurrent_runs"] == 1
        limits = {limit["name"]: limit["value"] for limit in ada.get("/api/limits").json()}
        assert (limits["student_concurrent_runs"], limits["retention_days"]) == (1, 7)
        assert teacher.get("/api/class").json()["retention_days"] == 7
        audit = teacher.get("/api/audit").json()["data"]
        assert audit[0]["action"] == ("PUT /api/class/quotas: student_concurrent_runs 2 -> 1, "
                                      "retention_days 30 -> 7")
        assert audit[0]["actor"] == "instructor"
    with TestClient(create_app(classroom)) as app_client:  # a restart keeps them
        teacher = instructor(app_client)
        assert quotas(teacher)["student_concurrent_runs"] == 1
        # Back at the environment's value, a quota is forgotten: the environment decides it again.
        teacher.put(QUOTAS, json={**quotas(teacher), "student_concurrent_runs": 2, "retention_days": 30})
        assert app_client.app.state.manager.store.quotas() == {}
        assert teacher.get("/api/audit").json()["data"][0]["action"] == (
            "PUT /api/class/quotas: student_concurrent_runs 1 -> 2, retention_days 7 -> 30")


def test_a_quota_above_its_ceiling_is_refused_naming_both_and_nothing_changes(classroom):
    ceilings = {**Limits.ceilings(), "student_flow_bytes": 60_000_000}
    with TestClient(create_app(dataclasses.replace(classroom, ceilings=ceilings))) as app_client:
        teacher = instructor(app_client)
        before = quotas(teacher)
        response = teacher.put(QUOTAS, json={**before, "student_concurrent_runs": 9,
                                             "student_flow_bytes": 60_000_001})
        assert response.status_code == 422
        assert response.json()["detail"] == [
            {"loc": ["body", "student_concurrent_runs"], "type": "ceiling",
             "msg": "student_concurrent_runs: 9 is more than its ceiling, 8 "
                    "(SATLAB_CEILING_STUDENT_CONCURRENT_RUNS, set where the server runs)"},
            {"loc": ["body", "student_flow_bytes"], "type": "ceiling",
             "msg": "student_flow_bytes: 60000001 is more than its ceiling, 60000000 "
                    "(SATLAB_CEILING_STUDENT_FLOW_BYTES, set where the server runs)"}]
        assert quotas(teacher) == before
        response = teacher.put(QUOTAS, json={**before, "retention_days": -1})
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "retention_days"]
        response = teacher.put(QUOTAS, json={"student_concurrent_runs": 1})
        assert response.status_code == 422  # every quota, as the form sends them
        assert quotas(teacher) == before
        # The form reads the ceilings where it reads every limit: the API's OpenAPI document.
        schema = teacher.get("/api/openapi.json").json()["components"]["schemas"]["ClassQuotas"]
        assert schema["properties"]["student_flow_bytes"]["maximum"] == 60_000_000
        assert schema["properties"]["student_concurrent_runs"] == {
            "type": "integer", "minimum": 0, "maximum": 8, "title": "Student Concurrent Runs",
            "description": "runs one student may have queued or running at once"}


def test_a_raised_quota_lets_the_next_starts_through(app_client):
    """Queued runs (max_concurrent_runs=0) count as a student's: raising the
    quota lets more start at once, lowering it refuses the next."""
    teacher, ada = instructor(app_client), join(app_client, "ada")
    assert teacher.put(QUOTAS, json={**quotas(teacher), "student_concurrent_runs": 3}).status_code == 200
    codes = [ada.post("/api/runs", json=SMALL_RUN).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    assert teacher.put(QUOTAS, json={**quotas(teacher), "student_concurrent_runs": 1}).status_code == 200
    response = ada.post("/api/runs", json=SMALL_RUN)
    assert (response.status_code, refusal(response)) == (
        429, "You have 3 runs queued or running, and this would add 1; a student may have 1 at once "
             "(student_concurrent_runs): wait for one to end.")


def test_the_environment_sets_defaults_and_ceilings(monkeypatch, tmp_path):
    monkeypatch.setenv("SATLAB_LIMIT_STUDENT_CONCURRENT_RUNS", "3")
    monkeypatch.setenv("SATLAB_CEILING_STUDENT_CONCURRENT_RUNS", "4")
    settings = Settings.from_env()
    assert (settings.limits.student_concurrent_runs, settings.ceilings["student_concurrent_runs"]) == (3, 4)
    monkeypatch.setenv("SATLAB_CEILING_STUDENT_CONCURRENT_RUNS", "1")
    with pytest.raises(ValueError, match=r"^SATLAB_LIMIT_STUDENT_CONCURRENT_RUNS is 3, above its ceiling 1 "
                                         r"\(SATLAB_CEILING_STUDENT_CONCURRENT_RUNS\): lower the one or raise the "
                                         r"other$"):
        Settings.from_env()


def test_a_lowered_ceiling_caps_a_quota_set_before(classroom):
    with TestClient(create_app(classroom)) as app_client:
        teacher = instructor(app_client)
        teacher.put(QUOTAS, json={**quotas(teacher), "student_concurrent_runs": 8})
    lowered = dataclasses.replace(classroom, ceilings={**Limits.ceilings(), "student_concurrent_runs": 5})
    with TestClient(create_app(lowered)) as app_client:
        assert quotas(instructor(app_client))["student_concurrent_runs"] == 5


@pytest.mark.needs_root
def test_a_changed_quota_applies_to_the_next_start_of_a_real_run(classroom):
    """Runs really start here (one at a time): the instructor lowers two
    quotas, and the student's next starts follow them."""
    with TestClient(create_app(dataclasses.replace(classroom, max_concurrent_runs=1))) as app_client:
        teacher, ada = instructor(app_client), join(app_client, "ada")
        changed = {**quotas(teacher), "student_concurrent_runs": 1, "student_flow_bytes": 150_000}
        assert teacher.put(QUOTAS, json=changed).status_code == 200

        response = ada.post("/api/runs", json={"lab": "geo-ideal", "set": ["flows.0.size_bytes=200000"]})
        assert (response.status_code, refusal(response)) == (
            403, "flows.0.size_bytes: 200000 bytes is more than a student's flow may move (150000, "
                 "student_flow_bytes)")
        run = ada.post("/api/runs", json=SMALL_RUN)  # 100 kB over a 500 ms round trip: seconds
        assert run.status_code == 201, run.text
        run_id = run.json()["run_id"]
        response = ada.post("/api/runs", json=SMALL_RUN)
        assert (response.status_code, refusal(response)) == (
            429, "You have 1 runs queued or running, and this would add 1; a student may have 1 at once "
                 "(student_concurrent_runs): wait for one to end.")

        wait_until(lambda: ada.get(f"/api/runs/{run_id}").json()["status"] not in ("queued", "running"), 60,
                   f"run {run_id} to end")
        done = ada.get(f"/api/runs/{run_id}").json()
        assert done["status"] == "done", done["error"]
        assert done["result"]["flows"][0]["bytes"] >= 100_000
        again = ada.post("/api/runs", json=SMALL_RUN)  # the one run ended: the quota lets the next through
        assert again.status_code == 201
        assert ada.post(f"/api/runs/{again.json()['run_id']}/cancel").status_code == 202


def test_the_ceilings_are_documented():
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    for name, ceiling in Limits.ceilings().items():
        assert f"| `{name}` | {getattr(Limits(), name)} | {ceiling} |" in readme, name


def test_the_presets_students_may_run_are_audited_with_the_choice(app_client):
    teacher = instructor(app_client)
    assert teacher.put("/api/class/labs", json={"enabled_labs": ["geo-ideal", "geo-optical"]}).status_code == 200
    assert teacher.put("/api/class/labs", json={"enabled_labs": None}).status_code == 200
    actions = [entry["action"] for entry in teacher.get("/api/audit").json()["data"][:2]]
    assert actions == ["PUT /api/class/labs: every preset", "PUT /api/class/labs: geo-ideal, geo-optical"]
