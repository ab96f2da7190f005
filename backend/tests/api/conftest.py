from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from satlab import topology
from satlab.api.main import create_app
from satlab.settings import Settings
from tests.conftest import LABS


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
