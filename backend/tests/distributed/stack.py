"""A real deployment on this host for the tests: redis-server (the
redis_server fixture), `satlab serve` with SATLAB_BROKER_URL, and `satlab
worker`s, each with its name and lock directory, every process started and
stopped by its PID."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from satlab.distributed import connection, workers
from satlab.engine import capacity
from satlab.engine.capacity import Calibration, KindCapacity
from satlab.engine.wait import wait_until
from tests.distributed.conftest import RedisServer, free_loopback_port

SATLAB = str(Path(sys.executable).with_name("satlab"))
START_DEADLINE_S = 60.0


def calibration(at_once: int) -> Calibration:
    """A host's calibration as `satlab worker --calibrate` saves it, allowing at_once runs of each kind."""
    return Calibration(measured_at="2026-11-27T10:00:00+00:00", host={}, parameters={},
                       kinds={kind: KindCapacity(max_concurrent=at_once) for kind in capacity.RUN_KINDS})


@dataclass
class Stack:
    redis: RedisServer
    directory: Path
    port: int = field(default_factory=free_loopback_port)
    server: subprocess.Popen[str] | None = None
    workers: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    generations: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        capacity.save(calibration(4), self.calibration_path)

    @property
    def db(self) -> Path:
        return self.directory / "satlab.db"

    @property
    def calibration_path(self) -> Path:
        return self.directory / "calibration.json"

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def environment(self, **more: str) -> dict[str, str]:
        return {**os.environ, "SATLAB_BROKER_URL": self.redis.url, "SATLAB_CALIBRATION": str(self.calibration_path),
                "SATLAB_DB": str(self.db), **more}

    def _log(self, name: str) -> Any:
        generation = self.generations[name] = self.generations.get(name, 0) + 1
        return open(self.directory / f"{name}-{generation}.log", "w")  # noqa: SIM115 (the process owns it)

    def start_server(self) -> None:
        self.server = subprocess.Popen([SATLAB, "--db", str(self.db), "serve", "--port", str(self.port)],
                                       env=self.environment(), stdout=subprocess.DEVNULL, stderr=self._log("server"),
                                       text=True)
        wait_until(lambda: self._answers() or self.server is None or self.server.poll() is not None,
                   START_DEADLINE_S, "satlab serve to answer")
        assert self.server.poll() is None, self.log("server")

    def _answers(self) -> bool:
        try:
            return httpx2.get(f"{self.api}/workers", timeout=5).status_code == 200
        except httpx2.TransportError:
            return False

    def stop_server(self, how: signal.Signals = signal.SIGTERM) -> None:
        assert self.server is not None
        self.server.send_signal(how)
        self.server.wait(90)
        self.server = None

    def start_worker(self, name: str) -> None:
        locks = self.directory / f"locks-{name}"
        self.workers[name] = subprocess.Popen([SATLAB, "worker", "--name", name], env=self.environment(
            SATLAB_LOCK_DIR=str(locks)), stdout=subprocess.DEVNULL, stderr=self._log(name), text=True)
        client = connection.connect(self.redis.url)
        try:
            process = self.workers[name]
            wait_until(lambda: self._registered(client, name, process.pid) or process.poll() is not None,
                       START_DEADLINE_S, f"worker {name} to announce itself")
        finally:
            client.close()
        assert self.workers[name].poll() is None, self.log(name)

    @staticmethod
    def _registered(client: Any, name: str, pid: int) -> bool:
        record = workers.read_record(client, name)
        return record is not None and record.pid == pid

    def stop_worker(self, name: str, how: signal.Signals = signal.SIGTERM) -> None:
        process = self.workers.pop(name)
        process.send_signal(how)
        process.wait(90)

    def log(self, name: str) -> str:
        return (self.directory / f"{name}-{self.generations.get(name, 1)}.log").read_text()

    def close(self) -> None:
        for name in list(self.workers):
            self.stop_worker(name)
        if self.server is not None:
            self.stop_server()
