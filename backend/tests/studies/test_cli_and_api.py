"""satlab study list | run | report, and /api/studies, as a user runs them."""

import json
import subprocess
import time

import pytest
from fastapi.testclient import TestClient

from satlab.api.main import create_app
from satlab.service.store import Store
from tests.api.conftest import client, settings  # noqa: F401 (fixtures)
from tests.conftest import LABS
from tests.studies.test_report import store_study_run, study_like
from tests.test_cli import SATLAB


def test_study_list_names_each_recipe():
    done = subprocess.run(SATLAB + ["study", "list"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "petrou2022  When BBR beats FEC coded CUBIC flows over SATCOM  (32 published figures, 13 checks)" in (
        done.stdout.splitlines())
    assert {line.split()[0] for line in done.stdout.splitlines()} >= {"martin2022", "kuhn2021", "claypool2021"}


def test_study_run_of_an_unknown_study_or_level_exits_2(tmp_path):
    db = str(tmp_path / "satlab.db")
    done = subprocess.run(SATLAB + ["--db", db, "study", "run", "nosuch"], capture_output=True, text=True)
    assert (done.returncode, done.stderr.strip()) == (
        2, "satlab: there is no study 'nosuch' (studies: claypool2021, kuhn2021, martin2022, petrou2022, quic-vs-pep)")
    done = subprocess.run(SATLAB + ["--db", db, "study", "run", "petrou2022", "--only", "tunnel=S(3,100)"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "only.tunnel: 'S(3,100)' is not a level" in done.stderr


def test_study_report_prints_the_table_and_the_checks(tmp_path):
    db = tmp_path / "satlab.db"
    with Store(db) as store:
        store_study_run(store, "c1", lambda levels, iteration, flow: study_like(levels), iterations=1)
    done = subprocess.run(SATLAB + ["--db", str(db), "study", "report", "petrou2022"], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert ("one-flow       ideal      none  tcp-cubic          1      none           flow_download_time_s  median"
            "     17.84 sd 0.34  17.84 [17.84-17.84] sd -  1  1.00   ±5 %" in done.stdout)
    assert "[holds] fec-never-helps-bbr" in done.stdout
    # One iteration of the one-flow experiment: Table I's other rows and the five-flow checks are not measured.
    assert "24 of 32 published figures in band (24 measured); checks: 9 hold, 0 fail, 4 unknown" in done.stdout
    report = json.loads(subprocess.run(SATLAB + ["--db", str(db), "study", "report", "petrou2022", "--json"],
                                       capture_output=True, text=True, timeout=30).stdout)
    assert report["summary"]["checks_held"] == 9


@pytest.mark.needs_root
def test_study_run_quick_runs_the_smoke_configurations_and_reports_them(tmp_path):
    db = str(tmp_path / "satlab.db")
    done = subprocess.run(SATLAB + ["--db", db, "study", "run", "petrou2022", "--quick", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    campaign = json.loads(done.stdout)
    assert (campaign["status"], campaign["progress"]["done"]) == ("done", 5)
    report = json.loads(subprocess.run(SATLAB + ["--db", db, "study", "report", "petrou2022", "--json"],
                                       capture_output=True, text=True, timeout=30).stdout)
    assert report["quick"] is True
    measured = {tuple(row["configuration"].values()): row for row in report["rows"]
                if row["satlab"] is not None and row["statistic"] == "median"}
    assert set(measured) == {("one-flow", "ideal", "none", transport, "1", tunnel)
                             for transport in ("tcp-cubic", "picoquic-bbr") for tunnel in ("none", "S(5,100)")} | {
        ("no-fec-tunnel", "ideal", "none", "tcp-cubic", "1", "no-fec-tunnel")}
    # Real 20 MiB downloads on the ideal path (how close they come is the full report's business).
    assert all(0.5 < row["ratio"] < 2 for row in measured.values())


def test_get_studies_lists_each_with_its_published_figures(client):  # noqa: F811
    studies = client.get("/api/studies").json()
    petrou = next(study for study in studies["data"] if study["id"] == "petrou2022")
    assert petrou["axes"]["tunnel"] == ["none", "S(10,100)", "S(5,100)", "S(2,100)", "S(20,100)", "S(50,100)",
                                        "no-fec-tunnel"]
    assert len(petrou["published"]) == 32 and len(petrou["checks"]) == 13
    assert petrou["has_shipped_report"] == (LABS / "studies" / "petrou2022" / "report.json").is_file()


def test_get_studies_describes_experiments_and_metrics(client):  # noqa: F811
    martin = client.get("/api/studies/martin2022").json()
    assert list(martin["experiments"]) == ["bulk", "fairness", "latecomers", "upload-ngtcp2", "upload-picoquic"]
    assert martin["experiments"]["upload-picoquic"]["axes"] == {
        "download": ["picoquic-bbr1", "picoquic-cubic"], "upload": ["picoquic-bbr1", "picoquic-cubic"],
        "uplink": ["20", "2"]}
    assert martin["experiments"]["latecomers"]["quick"] is None
    assert martin["experiments"]["bulk"]["quick"] == {"download": ["ngtcp2-bbr1", "picoquic-bbr1"], "loss": ["0"]}
    assert martin["metrics"] == ["download_goodput_mbps", "jain_index", "steady_mean_rtt_ms",
                                 "latecomer_convergence_s", "latecomer_goodput_mbps", "ack_frames_sent"]
    assert martin["published"][0]["configuration"]["experiment"] == "upload-ngtcp2"
    assert client.get("/api/studies/claypool2021").json()["experiments"] == {}
    petrou = client.get("/api/studies/petrou2022").json()
    assert {entry["iterations"] for entry in petrou["configurations"]} == {10, 5}


def test_get_study_gives_the_shipped_report_or_null(client):  # noqa: F811
    study = client.get("/api/studies/petrou2022").json()
    shipped = LABS / "studies" / "petrou2022" / "report.json"
    assert study["shipped_report"] == (json.loads(shipped.read_text()) if shipped.is_file() else None)


def test_get_unknown_study_is_404(client):  # noqa: F811
    response = client.get("/api/studies/nosuch")
    assert (response.status_code, response.json()["detail"]) == (
        404, [{"loc": ["request"], "msg": "Study not found", "type": "not_found"}])


def test_post_study_run_with_an_unknown_level_is_422_naming_the_field(client):  # noqa: F811
    response = client.post("/api/studies/petrou2022/runs", json={"only": {"tunnel": ["S(3,100)"]}})
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "only", "tunnel"]
    assert problem["msg"].startswith("only.tunnel: 'S(3,100)' is not a level")
    assert client.get("/api/studies/petrou2022/runs").json()["count"] == 0


def test_post_study_run_refuses_unknown_fields(client):  # noqa: F811
    response = client.post("/api/studies/petrou2022/runs", json={"quick": True, "fast": True})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "fast"]


def test_get_report_and_csv_from_stored_study_runs(settings):  # noqa: F811
    with Store(settings.db_path) as store:
        store_study_run(store, "c1", lambda levels, iteration, flow: study_like(levels), iterations=2)
    with TestClient(create_app(settings)) as api:
        report = api.get("/api/studies/petrou2022/report").json()
        assert (report["summary"]["in_band"], report["summary"]["checks_held"]) == (24, 9)
        # What the report adds for the page: a check's reason, its kind of comparison and explanation, a
        # row's standard deviations and runs.
        check = next(check for check in report["checks"] if check["id"] == "bbr-within-seconds-of-ideal")
        assert (check["compare"], check["reason"][:28]) == ("difference", "The study's largest gap, 23.")
        assert check["comparisons"][0]["difference"] is not None and "explanation" in check
        row = report["rows"][0]
        assert (row["published_std"], row["runs"]) == (0.34, 2) and row["satlab_std"] == 0.0
        assert api.get("/api/studies/petrou2022/runs").json()["data"][0]["campaign_id"] == "c1"
        assert api.get("/api/studies/petrou2022/report", params={"campaign": "nope"}).json()["detail"] == [
            {"loc": ["request"], "msg": "No run of study petrou2022 with campaign id nope.", "type": "not_found"}]
        csv_response = api.get("/api/studies/petrou2022/report.csv")
        assert csv_response.headers["content-type"].startswith("text/csv")
        assert csv_response.text.splitlines()[0].startswith(
            "experiment,channel,wifi,transport,flows,tunnel,statistic,published_flow_download_time_s,"
            "satlab_flow_download_time_s")


@pytest.mark.needs_root
def test_post_study_run_quick_runs_a_campaign_of_the_study(client):  # noqa: F811
    response = client.post("/api/studies/petrou2022/runs",
                           json={"quick": True, "only": {"transport": ["tcp-cubic"], "tunnel": ["none"]}})
    assert response.status_code == 201, response.text
    campaign = response.json()
    # The quick run narrowed to one configuration (the CLI's test runs all five): CUBIC on the ideal path
    # without FEC. The no-fec-tunnel experiment has no configuration with tunnel none, so it is not run.
    assert (campaign["study"], campaign["study_quick"], campaign["progress"]["total"]) == ("petrou2022", True, 1)
    deadline = time.monotonic() + 240
    while client.get(f"/api/campaigns/{campaign['campaign_id']}").json()["status"] == "running":
        assert time.monotonic() < deadline, "the quick study run did not finish in 240 s"
        time.sleep(0.5)
    report = client.get("/api/studies/petrou2022/report").json()
    assert report["quick"] and report["summary"]["measured"] == 1
