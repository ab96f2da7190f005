"""GET /api/runs/{id}/export and GET /api/campaigns/{id}/export: the same
exports as `satlab export`, with their refusals as sentences."""

import io
import tempfile
import zipfile

import pyarrow.parquet as pq
import pytest

from satlab.service.export import RunTable
from satlab.service.store import Store
from tests.api.conftest import refusal
from tests.test_store import PROVENANCE, SCENARIO, run_result, sample_event


@pytest.fixture
def stored(settings, client):
    """A finished run a1b2c3 and a running one b2c3d4, in the app's store
    (after its start, which takes a run left running for one a dead process left)."""
    with Store(settings.db_path) as store:
        store.create_run("a1b2c3", SCENARIO, PROVENANCE)
        store.add_sample(sample_event("a1b2c3", t_s=0.1))
        store.finish_run("a1b2c3", run_result("a1b2c3"))
        store.create_run("b2c3d4", SCENARIO, PROVENANCE)
        store.set_run_status("b2c3d4", "running")
    return settings


def test_export_a_runs_summary_as_csv_and_parquet(stored, client):
    answer = client.get("/api/runs/a1b2c3/export")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == 'attachment; filename="satlab-a1b2c3-summary.csv"'
    assert answer.text.startswith("run_id,name,iteration,flow,")
    parquet = client.get("/api/runs/a1b2c3/export", params={"what": "summaries", "format": "parquet"})
    assert parquet.status_code == 200 and parquet.headers["content-type"] == "application/vnd.apache.parquet"
    assert pq.read_table(io.BytesIO(parquet.content)).schema.metadata[b"satlab.run_id"] == b"a1b2c3"


def test_export_everything_of_a_run_as_an_archive(stored, client):
    answer = client.get("/api/runs/a1b2c3/export", params={"what": "all", "format": "csv"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert names == ["flow-samples.csv", "link-samples.csv", "tunnel-samples.csv", "pep-samples.csv", "summary.csv",
                     "scenario.json", "manifest.json"]


def test_each_table_of_a_runs_archive_is_also_its_own_csv(stored, client):
    archive = zipfile.ZipFile(io.BytesIO(client.get("/api/runs/a1b2c3/export", params={"what": "all"}).content))
    tables = [name.removesuffix(".csv") for name in archive.namelist() if name.endswith(".csv")]
    assert sorted(tables) == sorted(RunTable)
    for kind in tables:
        answer = client.get(f"/api/runs/a1b2c3/csv/{kind}")
        assert answer.status_code == 200, kind
        assert answer.text == archive.read(f"{kind}.csv").decode(), kind
    campaign = client.get("/api/runs/a1b2c3/csv/campaign")  # a campaign's table is the campaign route's
    assert campaign.status_code == 422 and campaign.json()["detail"][0]["loc"] == ["path", "kind"]


def test_export_refusals_are_sentences(stored, client):
    unknown = client.get("/api/runs/ffffff/export")
    assert (unknown.status_code, refusal(unknown)) == (404, "Run not found")
    running = client.get("/api/runs/b2c3d4/export", params={"what": "all"})
    assert running.status_code == 409
    assert refusal(running) == ("Run b2c3d4 is running: only a finished run can be exported; wait for it to end, "
                                "or cancel it.")
    no_qlog = client.get("/api/runs/a1b2c3/export", params={"what": "qlog"})
    assert no_qlog.status_code == 404 and refusal(no_qlog).startswith("Run a1b2c3 kept no qlog files")
    bad = client.get("/api/runs/a1b2c3/export", params={"what": "everything", "format": "xlsx"})
    assert bad.status_code == 422
    assert {tuple(problem["loc"]) for problem in bad.json()["detail"]} == {("query", "what"), ("query", "format")}
    assert refusal(client.get("/api/campaigns/nope/export")) == "Campaign not found"


def test_a_client_that_closes_mid_download_leaves_nothing_on_disk(stored, client, tmp_path, monkeypatch):
    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))
    with client.stream("GET", "/api/runs/a1b2c3/export", params={"what": "all", "format": "parquet"}) as answer:
        assert answer.status_code == 200
        next(answer.iter_bytes())
        assert list(spool.iterdir()) == []  # the export is spooled into a file without a name
    assert list(spool.iterdir()) == []


def test_the_export_routes_are_documented(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/runs/{run_id}/export", "/api/campaigns/{campaign_id}/export"):
        route = paths[path]["get"]
        assert {parameter["name"] for parameter in route["parameters"]} >= {"what", "format"}
        assert {"200", "404", "409"} <= set(route["responses"])
