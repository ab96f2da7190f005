"""Every way a run can be queued passes the same quota checks for its caller
(issue 20, defects 2 and 3): a run, a campaign, a campaign resumed, a study
run, the command line; per run and per campaign.

Runs here never start (max_concurrent_runs=0): they wait in the queue,
which is what the quotas count."""

import dataclasses

import pytest
import yaml
from fastapi.testclient import TestClient

from satlab.api.main import create_app
from satlab.cli import main as satlab_main
from satlab.settings import Limits
from tests.api.conftest import instructor, join, refusal
from tests.api.test_security import SMALL_RUN
from tests.conftest import LABS

CAMPAIGN = {"name": "c", "scenario": "geo-ideal", "set": {"flows.0.size_bytes": 100_000}, "iterations": 1}


def set_quotas(teacher: TestClient, **changes: int) -> None:
    quotas = {quota["name"]: quota["value"] for quota in teacher.get("/api/class/quotas").json()}
    response = teacher.put("/api/class/quotas", json={**quotas, **changes})
    assert response.status_code == 200, response.text


@pytest.fixture
def campaigning(app_client):
    """The instructor, having let students start campaigns, and a student."""
    teacher = instructor(app_client)
    set_quotas(teacher, student_campaigns=1)
    return teacher, join(app_client, "mallory")


# -- one run: what it may ask for (defect 3) -----------------------------------------------------

SLOW_RUNS = {
    # 50 MB over 0.001 Mbit/s: about 400,000 s
    "a size over a slow link": (["flows.0.size_bytes=50000000", "path.forward.rate_mbps=0.001"],
                                "flows.0: its downloads' bytes over the slowest link (path.forward.rate_mbps"),
    "a slow LAN segment": (["path.lan={rate_mbps: 0.01}"], "(path.lan.rate_mbps: 0.01 Mbit/s left for them)"),
    "a late start": (["flows.0.size_bytes=50000000", "flows.0.start_s=119"], "flows.0: its downloads' bytes"),
    "cross traffic that fills the link": (["cross_traffic=[{link: forward, rate_mbps: 15}]"],
                                          "flows.0: the cross traffic leaves its downloads no capacity"),
    "16 flows of 1 GB": (["flows.0.size_bytes=1000000000", "flows.0.count=16"],
                         "flows.0.size_bytes: 1000000000 bytes is more than a student's flow may move"),
    "a flow of an hour": (["flows.0.size_bytes=null", "flows.0.duration_s=3600"],
                          "flows.0: it would last until 3600 s"),
    "a fast link": (["path.forward.rate_mbps=1000"],
                    "path.forward.rate_mbps: 1000 Mbit/s is more than a student's link may carry (300, "
                    "student_link_rate_mbps)"),
}


@pytest.mark.parametrize("overrides", SLOW_RUNS.values(), ids=SLOW_RUNS.keys())
def test_a_students_run_is_bounded_in_time_and_rate(app_client, overrides):
    assignments, sentence = overrides
    response = join(app_client, "ada").post("/api/runs", json={"lab": "geo-ideal", "set": assignments})
    assert response.status_code == 403, response.text
    assert sentence in refusal(response)
    assert response.json()["detail"][0]["loc"][0] == "body"


def test_the_instructor_runs_what_a_student_may_not(app_client):
    teacher = instructor(app_client)
    for assignments, _ in SLOW_RUNS.values():
        assert teacher.post("/api/runs", json={"lab": "geo-ideal", "set": assignments}).status_code == 201


# -- campaigns (defect 2) --------------------------------------------------------------------------

def test_a_students_campaign_names_an_enabled_preset(campaigning):
    teacher, mallory = campaigning
    scenario = teacher.get("/api/labs/geo-ideal").json()["scenario"]
    response = mallory.post("/api/campaigns", json={**CAMPAIGN, "scenario": scenario})
    assert (response.status_code, response.json()["detail"][0]["loc"]) == (403, ["body", "scenario"])
    assert "give `lab`, not a scenario of your own" in refusal(response)
    assert teacher.put("/api/class/labs", json={"enabled_labs": ["geo-optical"]}).status_code == 200
    response = mallory.post("/api/campaigns", json=CAMPAIGN)
    assert (response.status_code, refusal(response)) == (
        403, "lab: the instructor has not enabled 'geo-ideal' for students; enabled: geo-optical")
    assert teacher.get("/api/campaigns").json()["count"] == 0


def test_each_configuration_of_a_students_campaign_is_within_the_per_run_quotas(campaigning):
    _, mallory = campaigning
    response = mallory.post("/api/campaigns", json={
        **CAMPAIGN, "set": {"flows.0.size_bytes": 50_000_000},
        "matrix": {"path.forward.rate_mbps": [12, 0.001], "flows.0.start_s": [0, 3600]}})
    assert response.status_code == 403
    sentences = refusal(response)
    assert "(configuration 1: path.forward.rate_mbps=12, flows.0.start_s=3600)" in sentences
    assert "(configuration 2: path.forward.rate_mbps=0.001, flows.0.start_s=0)" in sentences
    assert "configuration 0:" not in sentences
    for assignments, _ in SLOW_RUNS.values():
        overrides = {path: yaml.safe_load(value) for path, value in (assignment.split("=", 1)
                                                                      for assignment in assignments)}
        response = mallory.post("/api/campaigns", json={**CAMPAIGN, "set": overrides})
        assert response.status_code == 403, (assignments, response.text)


def test_a_students_campaign_counts_in_their_runs_at_once_and_per_hour(campaigning):
    teacher, mallory = campaigning
    response = mallory.post("/api/campaigns", json={**CAMPAIGN, "iterations": 256})
    assert (response.status_code, refusal(response)) == (
        429, "You started 0 runs in the last hour (with those your campaigns will run), and this would add 256; a "
             "student may start 20 (student_runs_per_hour).")
    response = mallory.post("/api/campaigns", json={**CAMPAIGN, "iterations": 3, "parallel": 3})
    assert response.status_code == 429 and "this would add 3; a student may have 2 at once" in refusal(response)
    created = mallory.post("/api/campaigns", json={**CAMPAIGN, "iterations": 15, "parallel": 2})
    assert created.status_code == 201, created.text
    # Its two queued runs are hers: no run of her own now, and its 13 pending ones count in her hour.
    response = mallory.post("/api/runs", json=SMALL_RUN)
    assert response.status_code == 429 and "You have 2 runs queued or running" in refusal(response)
    set_quotas(teacher, student_concurrent_runs=8)
    response = mallory.post("/api/campaigns", json={**CAMPAIGN, "iterations": 6})
    assert response.status_code == 429 and "You started 15 runs in the last hour" in refusal(response)
    # Cancelled, its pending items never run: they no longer count.
    assert mallory.post(f"/api/campaigns/{created.json()['campaign_id']}/cancel").status_code == 202
    assert mallory.post("/api/campaigns", json={**CAMPAIGN, "iterations": 18}).status_code == 201
    assert teacher.get("/api/runs").json()["count"] == 3


def test_students_never_fill_the_instructors_queue(classroom):
    """The defect: four student campaigns of 256 runs filled the queue and the
    instructor got 429. Now the class's queued runs are bounded together, and
    the instructor's apart."""
    limits = dataclasses.replace(Limits(), max_queued_runs=4)
    with TestClient(create_app(dataclasses.replace(classroom, limits=limits))) as app_client:
        teacher = instructor(app_client)
        set_quotas(teacher, student_campaigns=1, student_runs_per_hour=200)
        codes = []
        for name in ("m1", "m2", "m3", "m4"):
            student = join(app_client, name)
            codes.append(student.post("/api/campaigns", json={**CAMPAIGN, "iterations": 20,
                                                              "parallel": 2}).status_code)
            codes.append(student.post("/api/runs", json=SMALL_RUN).status_code)
        assert codes == [201, 429, 201, 429, 429, 429, 429, 429]  # 4 queued runs: the class's share
        assert [teacher.post("/api/runs", json=SMALL_RUN).status_code for _ in range(5)] == [201] * 4 + [429]


def test_resuming_a_campaign_is_admitted_like_starting_one(classroom):
    """The defect: resume queued a run while new runs were refused with 507."""
    with TestClient(create_app(classroom)) as app_client:
        teacher = instructor(app_client)
        set_quotas(teacher, student_campaigns=1)
        mallory = join(app_client, "mallory")
        campaign_id = mallory.post("/api/campaigns", json={**CAMPAIGN, "iterations": 4, "parallel": 2}).json()[
            "campaign_id"]
        assert mallory.post(f"/api/campaigns/{campaign_id}/cancel").status_code == 202
        set_quotas(teacher, student_runs_per_hour=5)  # 2 started, 4 would be again
        response = mallory.post(f"/api/campaigns/{campaign_id}/resume")
        assert response.status_code == 429 and "and this would add 4" in refusal(response)
        teacher_campaign = teacher.post("/api/campaigns", json={**CAMPAIGN, "iterations": 2}).json()["campaign_id"]
        assert teacher.post(f"/api/campaigns/{teacher_campaign}/cancel").status_code == 202
        queued = teacher.get("/api/runs", params={"status": "queued"}).json()["count"]
    full = dataclasses.replace(classroom, limits=dataclasses.replace(Limits(), max_database_bytes=1))
    with TestClient(create_app(full)) as app_client:
        teacher = instructor(app_client)
        response = teacher.post(f"/api/campaigns/{teacher_campaign}/resume")
        assert response.status_code == 507 and "(max_database_bytes)" in refusal(response)
        assert teacher.post("/api/runs", json=SMALL_RUN).status_code == 507
        assert teacher.get("/api/runs", params={"status": "queued"}).json()["count"] == queued == 0


def test_a_study_run_is_admitted_for_the_instructor(classroom):
    full = dataclasses.replace(classroom, limits=dataclasses.replace(Limits(), max_database_bytes=1))
    with TestClient(create_app(full)) as app_client:
        response = instructor(app_client).post("/api/studies/claypool2021/runs", json={"quick": True})
        assert response.status_code == 507 and "(max_database_bytes)" in refusal(response)
        assert instructor(app_client).get("/api/campaigns").json()["count"] == 0


def test_the_command_line_is_admitted_for_the_machines_user(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SATLAB_LIMIT_MAX_DATABASE_BYTES", "1")
    monkeypatch.setenv("SATLAB_LIMIT_MAX_DESCRIPTION_CHARS", "10")
    assert satlab_main(["--db", str(tmp_path / "satlab.db"), "run", str(LABS / "geo-ideal.yaml")]) == 2
    assert "characters is more than 10 (max_description_chars)" in capsys.readouterr().err
    monkeypatch.setenv("SATLAB_LIMIT_MAX_DESCRIPTION_CHARS", "2000")
    assert satlab_main(["--db", str(tmp_path / "satlab.db"), "run", str(LABS / "geo-ideal.yaml")]) == 2
    assert "(max_database_bytes)" in capsys.readouterr().err
