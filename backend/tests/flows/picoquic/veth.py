"""Two network namespaces joined by a veth pair, the server's side shaped by
a qdisc, and the picoquic peer's command lines in them. Needs root."""

import itertools
import json
import os
import select
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

BACKEND = Path(__file__).resolve().parents[3]
PEER = ["-m", "satlab.engine.flows.picoquic.peer"]
SERVER_ADDRESS = "10.77.0.1"
CLIENT_ADDRESS = "10.77.0.2"
PORT = 4433
RATE_MBPS = 10
DOWNLOAD_BYTES = 2_000_000
STATS_INTERVAL_S = 0.1

_path_numbers = itertools.count()


@dataclass
class VethPath:
    server_netns: str
    client_netns: str
    cert: str
    key: str


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, text=True)


def make_path(qdisc: list[str]) -> Iterator[VethPath]:
    """Yield the path with a certificate for the server; remove it after."""
    if os.geteuid() != 0:
        pytest.skip("creating network namespaces needs root")
    # veth names are at most 15 characters; pid plus a counter keeps them unique.
    suffix = f"{os.getpid()}x{next(_path_numbers)}"
    server_netns, client_netns = f"satlab-qs-{suffix}", f"satlab-qc-{suffix}"
    server_dev, client_dev = f"qs{suffix}", f"qc{suffix}"
    created: list[str] = []
    try:
        for netns in (server_netns, client_netns):
            run("ip", "netns", "add", netns)
            created.append(netns)
            run("ip", "-n", netns, "link", "set", "lo", "up")
        run("ip", "link", "add", server_dev, "netns", server_netns,
            "type", "veth", "peer", "name", client_dev, "netns", client_netns)
        for netns, dev, address in ((server_netns, server_dev, SERVER_ADDRESS),
                                    (client_netns, client_dev, CLIENT_ADDRESS)):
            run("ip", "-n", netns, "addr", "add", f"{address}/30", "dev", dev)
            run("ip", "-n", netns, "link", "set", dev, "up")
        run("ip", "netns", "exec", server_netns, "tc", "qdisc", "add", "dev", server_dev, "root", *qdisc)
        with tempfile.TemporaryDirectory() as cert_dir:
            cert_line = run_peer(client_netns, "cert", "--out-dir", cert_dir,
                                 "--address", SERVER_ADDRESS)
            assert cert_line.returncode == 0, cert_line.stdout
            yield VethPath(server_netns, client_netns,
                           f"{cert_dir}/cert.pem", f"{cert_dir}/key.pem")
    finally:
        for netns in created:
            subprocess.run(["ip", "netns", "del", netns], check=False, capture_output=True)


def peer_command(netns: str, *args: str) -> list[str]:
    return ["ip", "netns", "exec", netns, *local_peer_command(*args)]


def local_peer_command(*args: str) -> list[str]:
    return [sys.executable, *PEER, *args]


def run_peer(netns: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(peer_command(netns, *args), check=False, capture_output=True, text=True,
                          timeout=60, cwd=BACKEND)


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def read_line(process: subprocess.Popen[str], deadline_s: float) -> dict[str, Any]:
    """The next JSON line of the process's stdout, or a failure at the deadline."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], deadline_s)
    assert ready, f"no line from {process.args!r} within {deadline_s} s"
    line = process.stdout.readline()
    assert line, f"{process.args!r} closed its stdout, exit code {process.poll()}"
    record: dict[str, Any] = json.loads(line)
    return record
