"""A run as the API lists and gives it says who queued it (`owner`), whether
the class sees it (`shared`) and where it came from (`origin`: the page or
tool of a lone run, recorded when it is queued; a campaign's or study's run
comes from it). The instructor sees every owner; a student, only their own
(issue 18, defect 8).

Runs here never start (max_concurrent_runs=0): they wait in the queue."""

import sqlite3

import pytest
from fastapi.testclient import TestClient

from satlab.api.main import create_app
from satlab.service.store import MIGRATIONS, Store
from tests.api.conftest import instructor, join, refusal
from tests.api.test_security import SMALL_RUN

INSTRUCTOR_OWNER = {"id": "instructor", "name": "instructor"}


def listed(client: TestClient, run_id: str) -> dict:
    """The run as GET /api/runs lists it to client."""
    (run,) = [run for run in client.get("/api/runs").json()["data"] if run["run_id"] == run_id]
    return run


def test_the_instructor_sees_whose_each_run_is_and_whether_the_class_sees_it(app_client):
    ada, teacher = join(app_client, "Ada"), instructor(app_client)
    ada_id = ada.get("/api/auth/me").json()["id"]
    adas = ada.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    teachers = teacher.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    assert (listed(teacher, adas)["owner"], listed(teacher, adas)["shared"]) == ({"id": ada_id, "name": "Ada"}, False)
    assert (listed(teacher, teachers)["owner"], listed(teacher, teachers)["shared"]) == (INSTRUCTOR_OWNER, False)

    assert teacher.post(f"/api/runs/{adas}/share").status_code == 200
    assert listed(teacher, adas)["shared"] is True
    assert teacher.get(f"/api/runs/{adas}").json()["shared"] is True
    assert teacher.post(f"/api/runs/{adas}/share", params={"shared": "false"}).status_code == 200
    assert listed(teacher, adas)["shared"] is False


def test_a_student_sees_the_owner_of_their_own_runs_only(app_client):
    ada, bob, teacher = join(app_client, "Ada"), join(app_client, "Bob"), instructor(app_client)
    bob_id = bob.get("/api/auth/me").json()["id"]
    adas = ada.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    bobs = bob.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    assert teacher.post(f"/api/runs/{adas}/share").status_code == 200

    assert bob.get("/api/runs").json()["count"] == 2  # his own and the shared one
    assert (listed(bob, bobs)["owner"], listed(bob, bobs)["shared"]) == ({"id": bob_id, "name": "Bob"}, False)
    assert (listed(bob, adas)["owner"], listed(bob, adas)["shared"]) == (None, True)
    assert bob.get(f"/api/runs/{adas}").json()["owner"] is None
    with bob.websocket_connect(f"/api/runs/{adas}/stream") as stream:
        snapshot = stream.receive_json()
    assert (snapshot["type"], snapshot["run"]["owner"], snapshot["run"]["shared"]) == ("run", None, True)
    # Sharing and deleting are the instructor's: the student is offered neither.
    for response in (bob.post(f"/api/runs/{bobs}/share"), bob.delete(f"/api/runs/{bobs}")):
        assert (response.status_code, refusal(response)) == (
            403, "Only the instructor may do this; you are signed in as a student.")


def test_a_removed_students_runs_stay_theirs_by_id(app_client):
    ada, teacher = join(app_client, "Ada"), instructor(app_client)
    ada_id = ada.get("/api/auth/me").json()["id"]
    adas = ada.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    assert teacher.delete(f"/api/class/students/{ada_id}").status_code == 200
    assert listed(teacher, adas)["owner"] == {"id": ada_id, "name": f"a removed student ({ada_id})"}


@pytest.mark.parametrize(("body", "origin"), [
    ({**SMALL_RUN, "page": "experiments"}, {"kind": "experiments", "name": None, "lab": "geo-ideal"}),
    ({**SMALL_RUN, "page": "sheet", "sheet": "loss-is-not-congestion"},
     {"kind": "sheet", "name": "loss-is-not-congestion", "lab": "geo-ideal"}),
    (SMALL_RUN, {"kind": "api", "name": None, "lab": "geo-ideal"}),
], ids=["experiments", "sheet", "api"])
def test_a_run_records_the_page_it_was_queued_from(app_client, body, origin):
    teacher = instructor(app_client)
    created = teacher.post("/api/runs", json=body).json()
    assert created["origin"] == origin
    assert teacher.get(f"/api/runs/{created['run_id']}").json()["origin"] == origin
    assert listed(teacher, created["run_id"])["origin"] == origin


def test_a_run_of_a_scenario_of_its_own_records_no_preset(app_client):
    teacher = instructor(app_client)
    scenario = teacher.get("/api/labs/geo-ideal").json()["scenario"]
    created = teacher.post("/api/runs", json={"scenario": scenario, "set": SMALL_RUN["set"], "page": "experiments"})
    assert created.json()["origin"] == {"kind": "experiments", "name": None, "lab": None}


BAD_ORIGINS = [
    ({"page": "sheet"}, ["body", "sheet"], "give a lab sheet's id with page sheet, and only then"),
    ({"page": "experiments", "sheet": "fairness"}, ["body", "sheet"],
     "give a lab sheet's id with page sheet, and only then"),
    ({"page": "sheet", "sheet": "nowhere"}, ["body", "sheet"],
     "sheet: there is no lab sheet 'nowhere'; the sheets are: sliding-window, channels, loss-is-not-congestion, "
     "start-up, fairness, why-operators-split-tcp"),
    ({"page": "fec"}, ["body", "page"], "page: Input should be 'experiments' or 'sheet'"),
]


@pytest.mark.parametrize(("origin", "loc", "sentence"), BAD_ORIGINS, ids=["no-sheet", "sheet-of-no-sheet-page",
                                                                          "unknown-sheet", "unknown-page"])
def test_an_origin_that_names_no_page_or_sheet_is_422_naming_the_field_and_queues_nothing(app_client, origin, loc,
                                                                                          sentence):
    teacher = instructor(app_client)
    response = teacher.post("/api/runs", json={**SMALL_RUN, **origin})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == loc
    assert sentence in refusal(response)
    assert teacher.get("/api/runs").json()["count"] == 0


def test_a_campaigns_runs_come_from_it_and_are_its_owners(app_client):
    teacher = instructor(app_client)
    campaign = {"name": "sizes", "scenario": "geo-ideal", "matrix": {"flows.0.size_bytes": [100_000, 200_000]},
                "parallel": 2}
    campaign_id = teacher.post("/api/campaigns", json=campaign).json()["campaign_id"]
    runs = teacher.get("/api/runs", params={"campaign_id": campaign_id}).json()["data"]
    assert len(runs) == 2
    for run in runs:
        assert run["origin"] == {"kind": "campaign", "name": "sizes", "lab": "geo-ideal"}
        assert (run["owner"], run["shared"]) == (INSTRUCTOR_OWNER, False)


def test_a_study_campaigns_runs_come_from_the_study(classroom):
    with Store(classroom.db_path) as store:
        store.create_campaign("c1", "petrou2022-quick", {"name": "petrou2022-quick", "scenario": {"name": "inline"}},
                              [], study="petrou2022")
        store.create_run("000001", {"name": "petrou2022-quick-c0-i0"}, {}, "c1", 0)
    with TestClient(create_app(classroom)) as app_client:
        assert listed(instructor(app_client), "000001")["origin"] == {"kind": "study", "name": "petrou2022",
                                                                      "lab": None}


def test_runs_queued_before_origins_were_recorded_say_so(classroom):
    """A database of before: its lone run's origin is not known (null); a
    campaign's run still comes from its campaign."""
    version = next(index for index, script in enumerate(MIGRATIONS) if "ADD COLUMN origin TEXT" in script)
    db = sqlite3.connect(classroom.db_path)
    for script in MIGRATIONS[:version]:
        db.executescript(script)
    db.execute(f"PRAGMA user_version = {version}")
    db.execute("INSERT INTO campaigns (campaign_id, name, status, spec_json, created_at) VALUES "
               "('c1', 'sweep', 'done', '{\"name\": \"sweep\", \"scenario\": \"geo-optical.yaml\"}', 1.0)")
    db.executemany("INSERT INTO runs (run_id, name, status, scenario_json, provenance_json, campaign_id, created_at) "
                   "VALUES (?, ?, 'done', '{}', '{}', ?, 2.0)", [("0000a1", "geo-ideal", None),
                                                                   ("0000b2", "sweep-c0-i0", "c1")])
    db.commit()
    db.close()
    with TestClient(create_app(classroom)) as app_client:
        teacher = instructor(app_client)
        assert (listed(teacher, "0000a1")["origin"], listed(teacher, "0000a1")["owner"]) == (None, None)
        assert listed(teacher, "0000b2")["origin"] == {"kind": "campaign", "name": "sweep", "lab": "geo-optical"}
