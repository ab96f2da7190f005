import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from tests.flows.picoquic.veth import (
    BACKEND,
    PORT,
    RATE_MBPS,
    SERVER_ADDRESS,
    STATS_INTERVAL_S,
    VethPath,
    make_path,
    peer_command,
    read_line,
)


@pytest.fixture
def veth_path() -> Iterator[VethPath]:
    """The server's side rate-limited by tbf, no delay."""
    yield from make_path(["tbf", "rate", f"{RATE_MBPS}mbit", "burst", "16kb", "limit", "125000"])


@pytest.fixture
def start_server(veth_path: VethPath) -> Iterator[Any]:
    servers: list[subprocess.Popen[str]] = []

    def start(cc: str) -> subprocess.Popen[str]:
        server = subprocess.Popen(
            peer_command(veth_path.server_netns, "server",
                         "--listen", f"{SERVER_ADDRESS}:{PORT}", "--cert", veth_path.cert,
                         "--key", veth_path.key, "--cc", cc,
                         "--stats-interval-ms", str(STATS_INTERVAL_S * 1000)),
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=BACKEND,
        )
        servers.append(server)
        assert read_line(server, deadline_s=10)["event"] == "listening"
        return server

    yield start
    for server in servers:
        if server.poll() is None:
            server.kill()
            server.wait()
