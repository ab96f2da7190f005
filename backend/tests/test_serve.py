"""satlab serve as a user starts it: a SIGKILL of the backend during a run
leaves nothing behind once it starts again."""

import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from satlab.engine import host, topology
from satlab.engine.wait import wait_until
from satlab.service.runs import INTERRUPTED
from satlab.service.store import Store

SATLAB = str(Path(sys.executable).with_name("satlab"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(db: Path, port: int) -> subprocess.Popen:
    server = subprocess.Popen([SATLAB, "--db", str(db), "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: answers(port) or server.poll() is not None, 30, "satlab serve to answer")
    assert server.poll() is None, server.stderr.read()
    return server


def answers(port: int) -> bool:
    try:
        return httpx2.get(f"http://127.0.0.1:{port}/api/capabilities").status_code == 200
    except httpx2.TransportError:
        return False


def run_processes(run_id: str) -> list[str]:
    """PIDs of processes still inside the run's namespaces."""
    return [pid for name in topology.existing_namespaces() if run_id in name
            for pid in subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()]


def start_running(port: int) -> str:
    """Start the geo-ideal preset through the API; its run id once its processes run."""
    api = f"http://127.0.0.1:{port}/api"
    run_id = httpx2.post(f"{api}/runs", json={"lab": "geo-ideal"}).json()["run_id"]
    wait_until(lambda: httpx2.get(f"{api}/runs/{run_id}").json()["status"] == "running"
               and len(run_processes(run_id)) >= 3, 30, "the run to be running")
    return run_id


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_serve_after_a_sigkill_during_a_run_leaves_nothing_behind(tmp_path):
    hystart_before = host.HYSTART.read_text()
    port = free_port()
    server = serve(tmp_path / "satlab.db", port)
    try:
        run_id = start_running(port)
        assert host.HYSTART.read_text().strip() == "0"  # geo-ideal turns Hystart off
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        # The run's children die with the backend (PR_SET_PDEATHSIG); the namespaces stay until the next start.
        wait_until(lambda: not run_processes(run_id), 10, "the run's processes to die with the backend")
        assert any(run_id in name for name in topology.existing_namespaces())
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    server = serve(tmp_path / "satlab.db", port)
    try:
        assert not [name for name in topology.existing_namespaces() if run_id in name]
        assert not (host.RUN_LOCK_DIR / f"hystart-{run_id}").exists()
        assert host.HYSTART.read_text() == hystart_before
        run = httpx2.get(f"http://127.0.0.1:{port}/api/runs/{run_id}").json()
        assert run["status"] == "failed" and run["error"] == INTERRUPTED
    finally:
        server.send_signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then re-raises the signal for the exit status.
        assert server.wait(30) in (0, -signal.SIGTERM)


@pytest.mark.needs_root
def test_serve_stopped_during_a_run_cancels_it_and_removes_everything(tmp_path):
    port = free_port()
    server = serve(tmp_path / "satlab.db", port)
    try:
        run_id = start_running(port)
        server.send_signal(signal.SIGTERM)
        assert server.wait(60) in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert not [name for name in topology.existing_namespaces() if run_id in name]
    with Store(tmp_path / "satlab.db") as store:
        assert store.get_run(run_id).status == "cancelled"
