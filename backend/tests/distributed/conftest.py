"""A real redis-server for the tests: on a free loopback port, requiring a
password generated for it, its files in a temporary directory, stopped by
its PID afterwards."""

import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from satlab.distributed import connection
from satlab.distributed.messages import RunRequest
from satlab.scenario import load
from tests.conftest import LABS

START_DEADLINE_S = 10.0


@dataclass(frozen=True)
class RedisServer:
    port: int
    password: str
    log: Path

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"


def free_loopback_port() -> int:
    """A port nobody listens on now (the kernel's choice for a socket bound to port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server (Debian's redis-server package; make deps installs it)")
    server = RedisServer(free_loopback_port(), secrets.token_hex(24), tmp_path / "redis.log")
    # The configuration goes through stdin: the password is on no command line and in no file.
    config = (f"bind 127.0.0.1\nport {server.port}\nrequirepass {server.password}\ndir {tmp_path}\n"
              f"logfile {server.log}\nsave \"\"\nappendonly no\n")
    process = subprocess.Popen(["redis-server", "-"], stdin=subprocess.PIPE, text=True)
    assert process.stdin is not None
    process.stdin.write(config)
    process.stdin.close()
    try:
        deadline = time.monotonic() + START_DEADLINE_S
        while True:
            try:
                connection.connect(server.url).close()
                break
            except connection.BrokerUnavailable:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = server.log.read_text() if server.log.exists() else ""
                    pytest.fail(f"redis-server did not answer within {START_DEADLINE_S} s: {log}")
                time.sleep(0.05)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def redis_client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    client = connection.connect(redis_server.url)
    yield client
    client.close()


def run_request() -> RunRequest:
    """A valid request: the GEO ideal path through an S(5,100) tunnel."""
    return RunRequest("a1b2c3", "campaign-7:12", 1, load(LABS / "geo-ideal.yaml", ["tunnel.k=5", "tunnel.z=100"]),
                      256 << 20)
