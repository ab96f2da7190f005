"""satlab run / cleanup / doctor as a user runs them."""

import csv
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from satlab.engine import host, topology
from satlab.service.store import Store
from tests.conftest import LABS
from tests.test_store import sample_event

SATLAB = [str(Path(sys.executable).with_name("satlab"))]


def satlab_namespaces() -> set[str]:
    return {name for name in topology.existing_namespaces() if name.startswith("satlab-")}


BAD = [
    (["--set", "path.forward.rate_mbps=0"], "path.forward.rate_mbps"),
    (["--set", "path.return.delay_ms=-5"], "path.return.delay_ms"),
    (["--set", "flows.0.cc=tahoe"], "flows.0.cc: is not a congestion control of tcp"),
    (["--set", "tunnel.k=200", "--set", "tunnel.z=100"], "tunnel: k must be <= z"),
    (["--set", "flows.0.size_bytes=99999999999999"], "flows.0.size_bytes"),
    (["--set", "path.forward.speed=3"], "path.forward.speed: is not a known field"),
    (["--set", "path.forward.rate_mbps=[1, 2]"], "path.forward.rate_mbps: Input should be a valid number"),
]


@pytest.mark.needs_root
@pytest.mark.parametrize(("arguments", "field"), BAD, ids=[f for _, f in BAD])
def test_run_with_bad_input_exits_2_naming_the_field_and_creates_nothing(arguments, field):
    before = satlab_namespaces()
    done = subprocess.run(SATLAB + ["run", str(LABS / "geo-ideal.yaml"), *arguments],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert field in done.stderr
    assert done.stdout == ""
    assert satlab_namespaces() == before


def test_run_of_a_missing_file_exits_2(tmp_path):
    done = subprocess.run(SATLAB + ["run", str(tmp_path / "nothing.yaml")], capture_output=True, text=True)
    assert done.returncode == 2
    assert "cannot read the scenario file" in done.stderr


@pytest.mark.needs_root
def test_run_json_prints_the_summary_last():
    done = subprocess.run(SATLAB + ["run", str(LABS / "geo-ideal.yaml"), "--set", "flows.0.size_bytes=2000000",
                                    "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    (flow,) = summary["flows"]
    assert flow["download_time_s"] > 0
    assert flow["goodput_mbps"] == pytest.approx(flow["bytes"] * 8 / flow["download_time_s"] / 1e6)
    assert "running" in done.stderr


def run_until_running(signum: int) -> tuple[str, subprocess.Popen]:
    """Start the geo-ideal preset, send signum once it runs; returns its run id and process."""
    run = subprocess.Popen(SATLAB + ["run", str(LABS / "geo-ideal.yaml")], stderr=subprocess.PIPE, text=True)
    try:
        for line in run.stderr:
            if line.rstrip().endswith("running (iteration 0)"):
                os.kill(run.pid, signum)
                run.wait(60)
                return line.split()[2], run
        pytest.fail("the run never reached the running state")
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


@pytest.mark.needs_root
def test_run_interrupted_exits_130_and_removes_everything():
    run_id, run = run_until_running(signal.SIGINT)
    assert run.returncode == 130
    assert not {name for name in satlab_namespaces() if run_id in name}


@pytest.mark.needs_root
def test_cleanup_removes_what_a_killed_run_left():
    run_id, _ = run_until_running(signal.SIGKILL)
    left = {name for name in satlab_namespaces() if run_id in name}
    assert len(left) == 4
    done = subprocess.run(SATLAB + ["cleanup"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert all(name in done.stdout for name in left)
    assert not {name for name in satlab_namespaces() if run_id in name}


def test_doctor_lists_the_host_capabilities():
    done = subprocess.run(SATLAB + ["doctor"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    assert "link_backends:" in done.stdout and "transports:" in done.stdout
    assert 'tcp_congestion_controls: {"available": ' in done.stdout


def write_campaign(tmp_path: Path, **changes) -> Path:
    spec = {"name": "cli", "scenario": "geo-ideal.yaml",
            "set": {"flows.0.size_bytes": 200_000, "flows.0.hystart": None},
            "matrix": {"flows.0.cc": ["cubic", "bbr"]}, "iterations": 1, "parallel": 2, "seed": 5, **changes}
    path = tmp_path / "campaign.yaml"
    path.write_text(json.dumps(spec))  # JSON is YAML
    return path


def test_campaign_with_a_bad_matrix_exits_2_naming_the_entry(tmp_path):
    file = write_campaign(tmp_path, matrix={"flows.0.cc": ["cubic", "tahoe"]})
    done = subprocess.run(SATLAB + ["campaign", str(file)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "flows.0.cc=tahoe" in done.stderr


@pytest.mark.needs_root
def test_campaign_shows_progress_and_exports_a_row_per_run(tmp_path):
    db = str(tmp_path / "satlab.db")
    done = subprocess.run(SATLAB + ["--db", db, "campaign", str(write_campaign(tmp_path)), "--json"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "2/2 runs: 2 done, 0 failed" in done.stderr
    campaign = json.loads(done.stdout)
    assert campaign["status"] == "done"
    assert not (host.LOCK_DIR / f"campaign-{campaign['campaign_id']}.lock").exists()  # its claim is gone
    out = tmp_path / "results.csv"
    exported = subprocess.run(SATLAB + ["--db", db, "export", "campaign", campaign["campaign_id"], "-o", str(out)],
                              capture_output=True, text=True, timeout=30)
    assert exported.returncode == 0, exported.stderr
    rows = list(csv.DictReader(out.open()))
    assert sorted(row["flows.0.cc"] for row in rows) == ["bbr", "cubic"]
    listing = subprocess.run(SATLAB + ["--db", db, "runs", "--campaign", campaign["campaign_id"]],
                             capture_output=True, text=True, timeout=30)
    assert listing.stdout.count(" done ") == 2


def test_export_of_an_unknown_run_exits_2(tmp_path):
    done = subprocess.run(SATLAB + ["--db", str(tmp_path / "satlab.db"), "export", "summary", "ffffff"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "ffffff" in done.stderr


@pytest.mark.needs_root
def test_campaign_interrupted_exits_130_and_resumes(tmp_path):
    db = str(tmp_path / "satlab.db")
    file = write_campaign(tmp_path, matrix={"flows.0.cc": ["cubic", "bbr", "reno"]}, parallel=1)
    campaign = subprocess.Popen(SATLAB + ["--db", db, "campaign", str(file)], stderr=subprocess.PIPE, text=True)
    try:
        for line in campaign.stderr:
            if "1/3 runs" in line:
                campaign.send_signal(signal.SIGINT)
                break
        rest = campaign.stderr.read()
        assert campaign.wait(60) == 130
    finally:
        if campaign.poll() is None:
            campaign.kill()
            campaign.wait()
    campaign_id = line.split()[1]
    assert f"satlab campaign --resume {campaign_id}" in rest
    resumed = subprocess.run(SATLAB + ["--db", db, "campaign", "--resume", campaign_id, "--json"],
                             capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["progress"]["done"] == 3


def test_export_into_a_reader_that_stops_early_exits_quietly(tmp_path):
    db = tmp_path / "satlab.db"
    with Store(db) as store:
        store.create_run("abc123", {"name": "piped"}, {})
        for tick in range(3000):  # far more CSV than a pipe holds
            store.add_sample(sample_event("abc123", t_s=tick / 10))
    export = subprocess.Popen(SATLAB + ["--db", str(db), "export", "flow-samples", "abc123"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert export.stdout.readline().startswith("run_id,")
    export.stdout.close()  # what `| head -1` does
    assert export.wait(30) == 128 + signal.SIGPIPE
    assert "Traceback" not in export.stderr.read()
