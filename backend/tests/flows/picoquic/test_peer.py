"""The picoquic peer program between two network namespaces joined by a
veth pair (veth.py), the server's side rate-limited by tbf, so that a 2 MB
download lasts long enough (>= 1.6 s) to check the stats lines' rate; and its
refusals of a bad command line. Needs root, but for the refusals and the
imports.
"""

import itertools
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

import pytest

from tests.flows.picoquic.veth import (
    BACKEND,
    DOWNLOAD_BYTES,
    PORT,
    RATE_MBPS,
    SERVER_ADDRESS,
    STATS_INTERVAL_S,
    VethPath,
    json_lines,
    local_peer_command,
    run_peer,
)


@pytest.mark.needs_root
@pytest.mark.parametrize("cc", ["bbr1", "cubic"])
def test_download_reports_summary_and_stats(veth_path: VethPath, start_server: Any, cc: str) -> None:
    server = start_server(cc)
    client = run_peer(veth_path.client_netns, "client", "--connect", f"{SERVER_ADDRESS}:{PORT}",
                      "--size-bytes", str(DOWNLOAD_BYTES), "--cc", cc, "--flow-id", f"test-{cc}",
                      "--timeout-s", "30")
    assert client.returncode == 0, client.stdout + client.stderr
    *progress, summary = json_lines(client.stdout)
    assert summary["event"] == "summary"
    assert summary["flow"] == f"test-{cc}"
    assert summary["bytes"] == DOWNLOAD_BYTES
    # No faster than the bottleneck allows, and not absurdly slow.
    assert DOWNLOAD_BYTES * 8 / (RATE_MBPS * 1e6) <= summary["download_time_s"] < 10
    assert summary["goodput_mbps"] == pytest.approx(
        DOWNLOAD_BYTES * 8 / summary["download_time_s"] / 1e6, rel=1e-4)
    received = [line["bytes_received"] for line in progress if line["event"] == "stats"]
    assert len(received) >= 10 and received == sorted(received)
    assert received[-1] <= DOWNLOAD_BYTES

    # SIGTERM ends the server cleanly, and its stdout then holds every stats line.
    server.send_signal(signal.SIGTERM)
    remaining_stdout, _ = server.communicate(timeout=10)
    assert server.returncode == 0
    stats = [line for line in json_lines(remaining_stdout) if line["event"] == "stats"]
    assert {line["flow"] for line in stats} == {f"test-{cc}"}
    assert len(stats) >= 10
    assert all(line["cwnd_bytes"] > 0 and line["rtt_ms"] > 0 for line in stats)
    sent = [line["bytes_sent"] for line in stats]
    assert sent == sorted(sent)
    # The last sample precedes the last byte by up to two intervals (~250 kB here).
    assert sent[-1] >= DOWNLOAD_BYTES * 0.8
    # t_s is CLOCK_MONOTONIC, shared with the client: the samples fall inside the download.
    start_s = summary["start_t_s"]
    assert start_s <= stats[0]["t_s"] <= start_s + summary["download_time_s"]
    gaps_s = [b["t_s"] - a["t_s"] for a, b in itertools.pairwise(stats)]
    assert statistics.mean(gaps_s) <= STATS_INTERVAL_S * 1.05
    assert max(gaps_s) <= STATS_INTERVAL_S * 2.5


@pytest.mark.needs_root
def test_client_times_out_without_a_server(veth_path: VethPath) -> None:
    started_s = time.monotonic()
    client = run_peer(veth_path.client_netns, "client", "--connect", f"{SERVER_ADDRESS}:{PORT}",
                      "--size-bytes", "1000", "--cc", "bbr1", "--timeout-s", "1")
    assert client.returncode == 1
    error = json_lines(client.stdout)[-1]
    assert error["event"] == "error"
    assert "--timeout-s" in error["message"] and "0 of 1000 bytes" in error["message"]
    assert time.monotonic() - started_s < 10


@pytest.mark.needs_root
def test_server_refuses_a_taken_port(veth_path: VethPath, start_server: Any) -> None:
    start_server("bbr1")
    second = run_peer(veth_path.server_netns, "server", "--listen", f"{SERVER_ADDRESS}:{PORT}",
                      "--cert", veth_path.cert, "--key", veth_path.key, "--cc", "bbr1")
    assert second.returncode == 1
    [error] = json_lines(second.stdout)
    assert "--listen" in error["message"] and "taken" in error["message"]


@pytest.mark.parametrize(("args", "named"), [
    (["client", "--connect", "10.77.0.1:4433", "--size-bytes", "-5", "--cc", "bbr1"],
     "--size-bytes"),
    (["client", "--connect", "10.77.0.1:4433", "--size-bytes", "5", "--cc", "BBR1"], "--cc"),
    (["client", "--connect", "10.77.0.1", "--size-bytes", "5", "--cc", "bbr1"], "--connect"),
    (["client", "--connect", "10.77.0.1:4433", "--size-bytes", "5"], "--cc"),
    (["client", "--connect", "10.77.0.1:4433", "--size-bytes", "5", "--duration-s", "2", "--cc", "bbr1"],
     "--duration-s"),
    (["client", "--connect", "10.77.0.1:4433", "--duration-s", "2", "--cc", "bbr1",
      "--stream-window-bytes", "1000"], "--stream-window-bytes"),
    (["client", "--connect", "10.77.0.1:4433", "--size-bytes", "5", "--cc", "bbr1", "--direction", "up"],
     "--direction"),
    (["server", "--listen", "10.77.0.1:4433", "--cert", "/nonexistent/cert.pem",
      "--key", "/nonexistent/key.pem", "--cc", "cubic"], "--cert"),
    (["server", "--listen", "10.77.0.1:4433", "--cert", __file__, "--key", __file__,
      "--cc", "cubic", "--stats-interval-ms", "0"], "--stats-interval-ms"),
])
def test_bad_argument_exits_with_a_sentence_naming_it(args: list[str], named: str) -> None:
    result = subprocess.run(local_peer_command(*args),
                            check=False, capture_output=True, text=True, timeout=30, cwd=BACKEND)
    assert result.returncode == 1
    [error] = json_lines(result.stdout)
    assert error["event"] == "error"
    assert named in error["message"]
    assert error["message"][0].isupper() or error["message"].startswith("--")
    assert error["message"].endswith(".")


def test_peer_starts_without_the_scenario_model_or_the_engine() -> None:
    """A peer process starts in each namespace of every QUIC flow: it loads
    aiopquic and the standard library, not pydantic, YAML or the engine."""
    probe = ("import sys, satlab.engine.flows.picoquic.peer; "
             "print(' '.join(sorted(name for name in sys.modules if name.split('.')[0] in ('pydantic', 'yaml') "
             "or name.startswith(('satlab.scenario', 'satlab.engine.plan', 'satlab.engine.flows.base')))))")
    result = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True,
                            timeout=30, cwd=BACKEND)
    assert result.stdout.split() == []
