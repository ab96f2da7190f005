"""What a SIGKILLed backend leaves is swept at its next start (issue 13,
failure 6): a run's work directory (an ngtcp2 download, qlogs, the TLS
private key, created 0600) lives under the run's own directory and goes with
the run. The backend runs in a mount namespace of its own
(tests/isolation.py), so its sweeps see only its runs."""

import json
import signal
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from satlab.engine.wait import wait_until
from satlab.service.runs import INTERRUPTED, INTERRUPTED_LEFT
from tests.isolation import isolated
from tests.test_serve import answers, free_port

SATLAB = str(Path(sys.executable).with_name("satlab"))
# A download long enough to be killed in the middle of: 2 MB at 12 Mbit/s.
NGTCP2 = {"lab": "geo-ideal", "set": ["flows.0={transport: quic-ngtcp2, cc: cubic, size_bytes: 2000000}"]}


def serve(db: Path, port: int, tmpdir: Path) -> subprocess.Popen:
    server = subprocess.Popen(isolated([SATLAB, "--db", str(db), "serve", "--port", str(port)]),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env={"TMPDIR": str(tmpdir), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    wait_until(lambda: answers(port) or server.poll() is not None, 30, "satlab serve to answer")
    assert server.poll() is None, server.stderr.read()
    return server


@pytest.mark.needs_root
def test_a_sigkilled_backends_work_directories_are_swept_at_the_next_start(tmp_path):
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    work_root = tmp_path / "satlab-runs"
    server = serve(tmp_path / "satlab.db", port, tmp_path)
    try:
        run_id = httpx2.post(f"{api}/runs", json=NGTCP2).json()["run_id"]
        key = work_root / run_id / "iteration0" / "flow0" / "key.pem"
        wait_until(lambda: key.exists() and httpx2.get(f"{api}/runs/{run_id}").json()["status"] == "running",
                   30, "the run to be running with its key")
        assert key.stat().st_mode & 0o777 == 0o600
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        assert key.exists()  # what the killed backend left
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    server = serve(tmp_path / "satlab.db", port, tmp_path)
    try:
        assert not (work_root / run_id).exists()
        run = httpx2.get(f"{api}/runs/{run_id}").json()
        assert run["status"] == "failed" and run["error"] == INTERRUPTED
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) in (0, -signal.SIGTERM)


@pytest.mark.needs_root
def test_a_finished_runs_work_directory_and_key_are_gone(tmp_path):
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    server = serve(tmp_path / "satlab.db", port, tmp_path)
    try:
        small = {**NGTCP2, "set": ["flows.0={transport: quic-ngtcp2, cc: cubic, size_bytes: 100000}"]}
        run_id = httpx2.post(f"{api}/runs", json=small).json()["run_id"]
        wait_until(lambda: httpx2.get(f"{api}/runs/{run_id}").json()["status"] not in ("queued", "running"),
                   120, "the run to end")
        assert httpx2.get(f"{api}/runs/{run_id}").json()["status"] == "done"
        assert not (tmp_path / "satlab-runs" / run_id).exists()
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) in (0, -signal.SIGTERM)


# Runs in a private mount namespace: a killed run whose work directory cannot
# be removed (a mount point: busy), then a restart's recovery.
UNREMOVABLE = r"""
import dataclasses, json, subprocess, sys
from satlab.engine import host
from satlab.service.runs import RunManager
from satlab.service.store import Store

with Store(sys.argv[1]) as store:
    store.create_run("ccccc3", {"name": "killed"}, {})
    store.set_run_status("ccccc3", "running")
    work = host.work_dir("ccccc3")
    work.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "satlab-busy", str(work)], check=True)
    try:
        RunManager(store).recover()
        print(json.dumps(dataclasses.asdict(store.get_run("ccccc3"))))
    finally:
        subprocess.run(["umount", str(work)], check=True)
"""


@pytest.mark.needs_root
def test_a_run_whose_leftovers_could_not_be_removed_says_so(tmp_path):
    done = subprocess.run(isolated([sys.executable, "-c", UNREMOVABLE, str(tmp_path / "satlab.db")]),
                          capture_output=True, text=True, timeout=60,
                          env={"TMPDIR": str(tmp_path), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert run["status"] == "failed"
    assert run["error"] == INTERRUPTED_LEFT.format(tmp_path / "satlab-runs" / "ccccc3")
