"""A student is a person whose quotas survive signing in again, whom nobody
else can become by typing their name, and whom the instructor can rename and
remove; sessions end on the server (issue 20, defects 4 and 6).

Runs here never start (max_concurrent_runs=0)."""

import dataclasses
import sqlite3

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from satlab.api.auth import KEYS_COOKIE, SESSION_COOKIE, SIGN_IN_FIRST
from satlab.api.main import create_app
from satlab.service.store import MIGRATIONS
from satlab.settings import Limits
from tests.api.conftest import TOKEN, instructor, join, refusal
from tests.api.test_security import SMALL_RUN


def sign_in(client: TestClient, name: str, key: str | None = None):
    body = {"class_code": client.app.state.auth.class_code, "name": name, **({"key": key} if key else {})}
    return client.post("/api/auth/student", json=body)


def test_signing_in_again_continues_the_student_and_their_quota(app_client):
    """The defect: each sign-in made a new student, and Bob at 429 signed in
    again and got 201."""
    bob = join(app_client, "Bob")
    first = bob.get("/api/auth/me").json()
    limit = Limits().student_concurrent_runs
    assert [bob.post("/api/runs", json=SMALL_RUN).status_code for _ in range(limit + 1)] == [201] * limit + [429]
    again = sign_in(bob, "bob")  # the same browser (it keeps the key), whatever the case
    assert again.status_code == 200, again.text
    assert (again.json()["id"], again.json()["name"]) == (first["id"], "Bob")
    assert bob.post("/api/runs", json=SMALL_RUN).status_code == 429
    assert len(instructor(app_client).get("/api/class/students").json()) == 1


def test_another_person_cannot_take_a_name(app_client):
    """The defect: 18 sign-ins as "mallory" were 18 students with 18 quotas."""
    bob = join(app_client, "bob")
    key = bob.get("/api/auth/me").json()["key"]
    assert key and len(key) == 10
    mallory = TestClient(app_client.app)
    for name in ("bob", "BOB", " bob ", "ｂｏｂ"):
        response = sign_in(mallory, name)
        assert (response.status_code, response.json()["detail"][0]["loc"]) == (409, ["body", "name"]), name
        assert "is taken in this class" in refusal(response)
    assert sign_in(mallory, "bob", key="WRONGKEY12").status_code == 409
    assert mallory.get("/api/auth/me").json()["role"] == "anonymous"
    # Bob on another machine types his key (as the instructor's page shows it, in any case).
    elsewhere = TestClient(app_client.app)
    response = sign_in(elsewhere, "Bob", key=key.lower())
    assert (response.status_code, response.json()["id"]) == (200, bob.get("/api/auth/me").json()["id"])


def test_the_instructor_lists_renames_rekeys_and_removes_students(app_client):
    teacher, ada, bob = instructor(app_client), join(app_client, "ada"), join(app_client, "bob")
    students = teacher.get("/api/class/students").json()
    assert [(student["name"], student["runs"]) for student in students] == [("ada", 0), ("bob", 0)]
    assert all(len(student["key"]) == 10 for student in students)
    ada_id, bob_id = (student["student_id"] for student in students)

    response = teacher.put(f"/api/class/students/{ada_id}", json={"name": "BOB"})
    assert (response.status_code, refusal(response)) == (409, "name: another student is called BOB already.")
    renamed = teacher.put(f"/api/class/students/{ada_id}", json={"name": "Ada L."})
    assert (renamed.status_code, renamed.json()["name"]) == (200, "Ada L.")
    assert ada.get("/api/auth/me").json()["name"] == "Ada L."

    old_key = students[1]["key"]
    new_key = teacher.post(f"/api/class/students/{bob_id}/key").json()["key"]
    assert new_key != old_key
    assert bob.get("/api/auth/me").json()["role"] == "anonymous"  # a new key ends the sessions
    assert sign_in(TestClient(app_client.app), "bob", key=old_key).status_code == 409
    assert sign_in(bob, "bob", key=new_key).status_code == 200

    run_id = bob.post("/api/runs", json=SMALL_RUN).json()["run_id"]
    removed = teacher.delete(f"/api/class/students/{bob_id}")
    assert removed.status_code == 200, removed.text
    assert (bob.get("/api/runs").status_code, refusal(bob.get("/api/runs"))) == (401, SIGN_IN_FIRST)
    assert teacher.get(f"/api/runs/{run_id}").json()["status"] == "cancelled"
    assert [student["name"] for student in teacher.get("/api/class/students").json()] == ["Ada L."]
    assert sign_in(TestClient(app_client.app), "bob").status_code == 200  # the name is free again
    assert teacher.delete(f"/api/class/students/{bob_id}").status_code == 404
    actions = [entry["action"] for entry in teacher.get("/api/audit").json()["data"]]
    assert f"DELETE /api/class/students/{bob_id}: bob" in actions
    assert f"PUT /api/class/students/{ada_id}: ada -> Ada L." in actions


@pytest.mark.parametrize("who", ["student", "instructor"])
def test_signing_out_ends_the_session_on_the_server(app_client, who):
    """The defect: the cookie still worked after POST /api/auth/logout."""
    client = join(app_client, "ada") if who == "student" else instructor(app_client)
    cookie = client.cookies[SESSION_COOKIE]
    assert client.get("/api/runs").status_code == 200
    assert client.post("/api/auth/logout").status_code == 200
    replay = TestClient(app_client.app, cookies={SESSION_COOKIE: cookie})
    assert (replay.get("/api/runs").status_code, refusal(replay.get("/api/runs"))) == (401, SIGN_IN_FIRST)
    assert replay.get("/api/auth/me").json()["role"] == "anonymous"
    with pytest.raises(WebSocketDenialResponse) as denied, replay.websocket_connect("/api/events"):
        pass
    assert denied.value.status_code == 401


def test_signing_in_again_ends_the_browsers_previous_session(app_client):
    ada = join(app_client, "ada")
    before = ada.cookies[SESSION_COOKIE]
    assert sign_in(ada, "ada").status_code == 200
    assert ada.cookies[SESSION_COOKIE] != before
    assert TestClient(app_client.app, cookies={SESSION_COOKIE: before}).get("/api/runs").status_code == 401


def test_a_new_instructor_token_ends_every_session(classroom):
    with TestClient(create_app(classroom)) as app_client:
        cookies = [join(app_client, "ada").cookies[SESSION_COOKIE], instructor(app_client).cookies[SESSION_COOKIE]]
    with TestClient(create_app(dataclasses.replace(classroom, instructor_token=TOKEN + "-new"))) as app_client:
        for cookie in cookies:
            assert TestClient(app_client.app, cookies={SESSION_COOKIE: cookie}).get("/api/runs").status_code == 401


def test_the_key_cookie_goes_to_the_sign_in_routes_only(app_client):
    response = sign_in(TestClient(app_client.app), "ada")
    cookie = next(header for header in response.headers.get_list("set-cookie") if header.startswith(KEYS_COOKIE))
    assert "Path=/api/auth" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie


NAMES = {
    "a NUL": "ada\0", "a line feed": "ada\nadmin", "a carriage return": "ada\r", "a tab": "a\tb",
    "a bidi override": "\u202eada", "a zero-width joiner": "a\u200db", "HTML": "<b>ada</b>",
    "a script": "<script>alert(1)</script>", "only spaces": "   ",
}


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_a_name_is_printable_text(app_client, name):
    response = sign_in(TestClient(app_client.app), name)
    assert (response.status_code, response.json()["detail"][0]["loc"]) == (422, ["body", "name"]), response.text
    assert refusal(response).startswith("name: ")


def test_a_name_is_of_bounded_length_and_tidied(app_client):
    response = sign_in(TestClient(app_client.app), "x" * 41)
    assert (response.status_code, refusal(response)) == (422, "name: 41 characters is more than 40 (max_name_chars).")
    response = sign_in(TestClient(app_client.app), "  Zoë   Ng  ")
    assert (response.status_code, response.json()["name"]) == (200, "Zoë Ng")
    teacher = instructor(app_client)
    student_id = response.json()["id"]
    response = teacher.put(f"/api/class/students/{student_id}", json={"name": "Zoë\u202e"})
    assert (response.status_code, response.json()["detail"][0]["loc"]) == (422, ["body", "name"])


def test_students_of_before_are_kept_with_a_key_each(classroom):
    """A database of before issue 20: names were not unique, nobody had a key."""
    version = next(index for index, script in enumerate(MIGRATIONS) if "CREATE TABLE sessions" in script)
    db = sqlite3.connect(classroom.db_path)
    for script in MIGRATIONS[:version]:
        db.executescript(script)
    db.execute(f"PRAGMA user_version = {version}")
    db.executemany("INSERT INTO students (student_id, name, joined_at) VALUES (?, ?, ?)",
                   [("s1", "Bob", 1.0), ("s2", "bob", 2.0), ("s3", "Ada", 3.0)])
    db.commit()
    db.close()
    with TestClient(create_app(classroom)) as app_client:
        students = instructor(app_client).get("/api/class/students").json()
        assert [student["name"] for student in students] == ["Bob", "bob", "Ada"]
        assert len({student["key"] for student in students}) == 3
        assert sign_in(TestClient(app_client.app), "BOB").status_code == 409
        response = sign_in(TestClient(app_client.app), "bob", key=students[0]["key"].lower())
        assert (response.status_code, response.json()["id"]) == (200, "s1")  # the first Bob keeps the name
