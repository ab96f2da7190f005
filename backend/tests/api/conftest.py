import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from satlab.api.main import create_app
from satlab.engine import topology
from satlab.settings import Settings
from tests.conftest import LABS

TOKEN = "a-token-for-tests-only"


def as_described(events: TypeAdapter, event: dict) -> dict:
    """event as its model (api.models.events) describes it: equal to event
    when the model knows every field it has."""
    return events.dump_python(events.validate_python(event), mode="json", exclude_unset=True)


def refusal(response) -> str:
    """The sentences of a refusal, checked to be in the API's one shape
    (satlab.api.errors): a 4xx or 507 whose detail lists problems, each
    with a loc, a msg and a type."""
    assert 400 <= response.status_code < 500 or response.status_code == 507, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail, detail
    for problem in detail:
        assert set(problem) == {"loc", "msg", "type"}, problem
        assert isinstance(problem["loc"], list) and problem["loc"], problem
        assert isinstance(problem["msg"], str) and isinstance(problem["type"], str), problem
    return "; ".join(problem["msg"] for problem in detail)


def satlab_namespaces() -> set[str]:
    return {name for name in topology.existing_namespaces() if name.startswith("satlab-")}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    frontend = tmp_path / "dist"
    frontend.mkdir()
    (frontend / "index.html").write_text("<!doctype html><title>satlab</title>")
    return Settings(db_path=tmp_path / "satlab.db", labs_dir=LABS, frontend_dir=frontend, max_concurrent_runs=2)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture
def classroom(settings: Settings) -> Settings:
    """A server for a class: sign-in required, runs queue and never start."""
    return dataclasses.replace(settings, instructor_token=TOKEN, open_access=False, max_concurrent_runs=0,
                               allowed_hosts=("testserver",))


@pytest.fixture
def app_client(classroom: Settings) -> Iterator[TestClient]:
    """Anonymous; `join` gives more clients of the same app."""
    with TestClient(create_app(classroom)) as client:
        yield client


def join(app_client: TestClient, who: str) -> TestClient:
    client = TestClient(app_client.app)
    if who == "instructor":
        response = client.post("/api/auth/instructor", json={"token": TOKEN})
    else:
        code = app_client.app.state.auth.class_code  # what the instructor's page shows
        response = client.post("/api/auth/student", json={"class_code": code.lower(), "name": who})
    assert response.status_code == 200, response.text
    return client


def instructor(app_client: TestClient) -> TestClient:
    return join(app_client, "instructor")
