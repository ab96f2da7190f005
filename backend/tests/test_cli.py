"""satlab run / cleanup / doctor as a user runs them."""

import csv
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from satlab import cli
from satlab.engine import fidelity, host, topology
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


@pytest.mark.host_wide
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


@pytest.mark.host_wide
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


def run_campaign(tmp_path: Path, db: str) -> subprocess.CompletedProcess[str]:
    """write_campaign's campaign, really run into db (root), --json: it must end well."""
    done = subprocess.run(SATLAB + ["--db", db, "campaign", str(write_campaign(tmp_path)), "--json"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return done


def test_campaign_with_a_bad_matrix_exits_2_naming_the_entry(tmp_path):
    file = write_campaign(tmp_path, matrix={"flows.0.cc": ["cubic", "tahoe"]})
    done = subprocess.run(SATLAB + ["campaign", str(file)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "flows.0.cc=tahoe" in done.stderr


@pytest.mark.needs_root
def test_campaign_shows_progress_and_exports_a_row_per_run(tmp_path):
    db = str(tmp_path / "satlab.db")
    done = run_campaign(tmp_path, db)
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


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_campaign_redo_unfaithful_runs_again_only_the_runs_whose_host_did_not_keep_up(tmp_path):
    db = str(tmp_path / "satlab.db")
    campaign_id = json.loads(run_campaign(tmp_path, db).stdout)["campaign_id"]
    with Store(db) as store:
        items = store.campaign_items(campaign_id)
        unfaithful = items[1].run_id
        # What satlink's lateness says of a run whose host was taken away (CPU steal) mid-run.
        with store._write() as write:
            write.execute("UPDATE runs SET host_kept_up = 0 WHERE run_id = ?", (unfaithful,))
        # The other run too, if this host did not keep up with it (a loaded machine).
        redone = {item.item_index for item in store.unfaithful_items(campaign_id)}
    assert 1 in redone
    redo = subprocess.run(SATLAB + ["--db", db, "campaign", "--redo-unfaithful", campaign_id, "--json"],
                          capture_output=True, text=True, timeout=180)
    assert redo.returncode == 0, redo.stderr
    assert f"campaign {campaign_id}: running again {len(redone)} of its runs whose host did not keep up" in redo.stderr
    assert json.loads(redo.stdout)["progress"] == {"total": 2, "pending": 0, "running": 0, "done": 2, "failed": 0,
                                                   "cancelled": 0}
    with Store(db) as store:
        after = store.campaign_items(campaign_id)
        for before, now in zip(items, after, strict=True):
            assert (now.run_id != before.run_id) == (before.item_index in redone)
        assert after[1].run_id is not None and store.get_run(after[1].run_id).status == "done"
        # The unfaithful run stays, with its evidence and its campaign.
        old = store.get_run(unfaithful)
        assert (old.campaign_id, old.host_kept_up) == (campaign_id, False)
        # Only a new run whose own host did not keep up (a loaded machine) would be redone again.
        left = [item.run_id for item in store.unfaithful_items(campaign_id)]
        assert unfaithful not in left
    again = subprocess.run(SATLAB + ["--db", db, "campaign", "--redo-unfaithful", campaign_id],
                           capture_output=True, text=True, timeout=180)
    assert again.returncode == 0 and f"running again {len(left)} of its runs" in again.stderr
    unknown = subprocess.run(SATLAB + ["--db", db, "campaign", "--redo-unfaithful", "c0ffee"],
                             capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and "--redo-unfaithful: there is no campaign 'c0ffee'" in unknown.stderr


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_redo_rounds_run_again_the_runs_whose_host_did_not_keep_up_until_the_rounds_end(tmp_path, monkeypatch,
                                                                                        capsys):
    # A limit no host meets (lateness is never below 0 ms): every run is unfaithful, so each round redoes both.
    monkeypatch.setattr(fidelity, "LATENESS_P99_LIMIT_MS", 0.0)
    monkeypatch.setattr(cli, "_signalled", threading.Event)  # pytest keeps its signal handlers
    db = str(tmp_path / "satlab.db")
    argv = ["--db", db, "campaign", str(write_campaign(tmp_path)), "--redo-unfaithful-rounds", "2", "--json"]
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    campaign = json.loads(out)
    assert (campaign["status"], campaign["progress"]["done"]) == ("done", 2)
    for round_ in (1, 2):
        assert f"running again 2 of its runs whose host did not keep up (round {round_} of 2)" in err
    assert "round 3" not in err
    with Store(db) as store:
        listed, _ = store.list_runs(campaign_id=campaign["campaign_id"])
        runs = [store.get_run(run.run_id) for run in listed]
        kept = {item.run_id for item in store.campaign_items(campaign["campaign_id"])}
    # Each item ran three times; every run stays stored, the items hold the last.
    assert len(runs) == 6 and all(run and run.status == "done" and run.host_kept_up is False for run in runs)
    assert kept <= {run.run_id for run in runs} and len(kept) == 2
    # Fewer at once next time: --parallel 1 bounds the runs done again (the campaign says 2).
    assert cli.main(["--db", db, "campaign", "--redo-unfaithful", campaign["campaign_id"], "--parallel", "1"]) == 0
    with Store(db) as store:
        redone = sorted((store.get_run(item.run_id) for item in store.campaign_items(campaign["campaign_id"])),
                        key=lambda run: run.started_at)
    assert not kept & {run.run_id for run in redone}
    assert redone[0].finished_at <= redone[1].started_at


def test_a_signal_that_comes_inside_a_store_transaction_is_acted_on_after_it(tmp_path):
    """Ctrl-C while the main thread reads the store: what the signal asks
    (cancelling, which writes the store) runs once the read is over, not
    inside it, where it would wait for the store's lock the main thread holds."""
    acted: list[str] = []
    before = {signum: signal.getsignal(signum) for signum in (*cli.STOP_SIGNALS, signal.SIGALRM)}

    def waited_for_itself(*_: object) -> None:
        raise TimeoutError("the main thread waited for the store's lock it held")
    signal.signal(signal.SIGALRM, waited_for_itself)  # a lock's wait is interrupted by a signal's exception
    signal.alarm(10)
    try:
        with Store(tmp_path / "satlab.db") as store:
            signalled = cli._signalled()

            def condition() -> bool:
                with store._read():
                    if not signalled.is_set() and not acted:
                        os.kill(os.getpid(), signal.SIGINT)  # handled before the read ends
                        time.sleep(0.05)
                return bool(acted)

            def cancel() -> None:
                with store._write():  # the lock the read held when the signal came
                    acted.append("cancelled")
            cli._wait(condition, signalled, cancel)
    finally:
        signal.alarm(0)
        for signum, handler in before.items():
            signal.signal(signum, handler)
    assert acted == ["cancelled"]


def test_export_of_an_unknown_run_exits_2(tmp_path):
    done = subprocess.run(SATLAB + ["--db", str(tmp_path / "satlab.db"), "export", "summary", "ffffff"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "ffffff" in done.stderr


@pytest.mark.needs_root
def test_campaign_interrupted_exits_130_and_resumes_elsewhere_from_its_record(tmp_path):
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
    # Another machine: a new database, given the campaign's record.
    record, other = tmp_path / "record.jsonl", str(tmp_path / "other.db")
    recorded = subprocess.run(SATLAB + ["--db", db, "record", campaign_id, "-o", str(record)],
                              capture_output=True, text=True, timeout=60)
    assert recorded.returncode == 0 and f"campaign {campaign_id}, 1 items done" in recorded.stderr, recorded.stderr
    restored = subprocess.run(SATLAB + ["--db", other, "restore", str(record)], capture_output=True, text=True,
                              timeout=60)
    assert restored.returncode == 0, restored.stderr
    assert (f"1 of 3 items done, 2 runs; run the 2 left with: satlab campaign --resume {campaign_id}"
            in restored.stderr)
    resumed = subprocess.run(SATLAB + ["--db", other, "campaign", "--resume", campaign_id, "--json"],
                             capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["progress"]["done"] == 3
    with Store(db) as first, Store(other) as second:
        (kept,) = [item.run_id for item in first.campaign_items(campaign_id) if item.status == "done"]
        # The run done before the stop is that run here, not run again: its result and summaries whole.
        assert kept in {item.run_id for item in second.campaign_items(campaign_id)}
        assert second.get_run(kept) == first.get_run(kept)
        assert second.flow_summaries(kept)[0].download_time_s > 0
    # Its configurations side by side, there: each done once, kept or counted late.
    compared = subprocess.run(SATLAB + ["--db", other, "compare", campaign_id, "--json"], capture_output=True,
                              text=True, timeout=60)
    assert compared.returncode == 0, compared.stderr
    configurations = json.loads(compared.stdout)
    assert [entry["parameters"]["flows.0.cc"] for entry in configurations] == ["cubic", "bbr", "reno"]
    for entry in configurations:
        assert entry["done"] == 1
        assert entry["metrics"]["download_time_s"]["n"] == 1 - entry["host_not_kept_up"]


@pytest.mark.needs_root
def test_a_campaign_whose_process_was_killed_mid_run_resumes_and_runs_that_item_again(tmp_path):
    db = str(tmp_path / "satlab.db")
    file = write_campaign(tmp_path, matrix={"flows.0.cc": ["cubic", "bbr"]}, parallel=1)
    campaign = subprocess.Popen(SATLAB + ["--db", db, "campaign", str(file)], stderr=subprocess.PIPE, text=True)
    try:
        for line in campaign.stderr:
            if "1/2 runs" in line:  # the first is done, the second running: a machine switched off now
                campaign.kill()
                break
    finally:
        campaign.kill()
        campaign.wait()
    campaign_id = line.split()[1]
    with Store(db) as store:
        killed = store.campaign_items(campaign_id)[1].run_id
    resumed = subprocess.run(SATLAB + ["--db", db, "campaign", "--resume", campaign_id, "--json"],
                             capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["progress"] == {"total": 2, "pending": 0, "running": 0, "done": 2, "failed": 0,
                                                      "cancelled": 0}
    with Store(db) as store:
        second = store.campaign_items(campaign_id)[1]
        assert second.run_id != killed and second.status == "done"
        orphan = store.get_run(killed)
        assert orphan is not None and orphan.status == "failed" and "stopped before it finished" in (orphan.error or "")
    assert not {name for name in satlab_namespaces() if killed in name}


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


def stored_runs(db: Path) -> None:
    """A finished run d0d0d0 and a running one e1e1e1."""
    with Store(db) as store:
        store.create_run("d0d0d0", {"name": "exported", "seed": 7}, {"satlab": "0.1.0", "kernel": "6.18"})
        store.add_sample(sample_event("d0d0d0", t_s=0.1))
        store.finish_run("d0d0d0", {"run_id": "d0d0d0", "status": "done", "error": None, "flows": [],
                                    "iterations": []})
        store.create_run("e1e1e1", {"name": "running"}, {})
        store.set_run_status("e1e1e1", "running")


def test_export_run_writes_an_archive_with_a_manifest(tmp_path):
    db = tmp_path / "satlab.db"
    stored_runs(db)
    out = tmp_path / "d0d0d0.zip"
    done = subprocess.run(SATLAB + ["--db", str(db), "export", "run", "d0d0d0", "--what", "all", "--format", "parquet",
                                    "-o", str(out)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    manifest = json.loads(zipfile.ZipFile(out).read("manifest.json"))
    assert [file["name"] for file in manifest["files"]] == [
        "flow-samples.parquet", "link-samples.parquet", "tunnel-samples.parquet", "pep-samples.parquet",
        "summary.parquet", "scenario.json"]
    assert manifest["provenance"]["seed"] == 7
    assert sorted(path.name for path in tmp_path.iterdir() if not path.name.startswith("satlab.db")) == [
        "d0d0d0.zip"]
    csv_out = subprocess.run(SATLAB + ["--db", str(db), "export", "run", "d0d0d0"], capture_output=True, text=True,
                             timeout=60)
    assert csv_out.returncode == 0 and csv_out.stdout.startswith("run_id,name,iteration,flow,")


@pytest.mark.parametrize(("kind", "run_id", "sentence"), [
    ("run", "ffffff", "satlab: export run ffffff: There is no run 'ffffff' in "),
    ("run", "e1e1e1", "satlab: export run e1e1e1: Run e1e1e1 is running: only a finished run can be exported"),
    ("campaign", "ffffff", "satlab: export campaign ffffff: There is no campaign 'ffffff' in "),
])
def test_export_refused_exits_2_with_a_sentence_and_writes_nothing(tmp_path, kind, run_id, sentence):
    db = tmp_path / "satlab.db"
    stored_runs(db)
    out = tmp_path / "out.zip"
    done = subprocess.run(SATLAB + ["--db", str(db), "export", kind, run_id, "--what", "all", "-o", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(sentence)
    assert not out.exists() and not [path for path in tmp_path.iterdir() if "partial" in path.name]


def test_every_command_takes_db_after_its_name_too(tmp_path):
    """Issue 18: `satlab serve --db PATH` failed although the README says every command takes --db."""
    listed = subprocess.run([*SATLAB, "runs", "--db", str(tmp_path / "after.db")], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert (tmp_path / "after.db").is_file()
    studies = subprocess.run([*SATLAB, "study", "list", "--db", str(tmp_path / "nested.db")],
                             capture_output=True, text=True)
    assert studies.returncode == 0, studies.stderr

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    serve = subprocess.Popen([*SATLAB, "serve", "--db", str(tmp_path / "serve.db"), "--host", "127.0.0.1",
                              "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        answered = None
        while answered is None and time.monotonic() < deadline and serve.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/auth/me", timeout=1) as response:
                    answered = response.status
            except OSError:
                time.sleep(0.1)
        assert answered == 200, serve.stderr.read() if serve.poll() is not None else "no answer within 30 s"
        assert (tmp_path / "serve.db").is_file()
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=30)
