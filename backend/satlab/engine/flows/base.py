"""The contract every transport implements (Pantheon style).

The engine drives a flow through: setup() -> start_server() -> (at the
flow's start offset) start_client() -> done() polled at the sampling rate,
with sample() for live metrics -> collect() -> stop() (always, also after a
failure). The server is the side that listens; for a download it is the
sender (the "receiver first, sender second" of Pantheon, by role rather than
by direction: the listening side always starts first).

A flow's processes run in plan.client_netns / plan.server_netns; start them
with satlab.engine.process (they die with the backend) and stop them in stop().
"""

from __future__ import annotations

import importlib
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from satlab.engine.plan import PlannedFlow
from satlab.engine.process import Child
from satlab.transports import TRANSPORTS


@dataclass
class FlowSample:
    """Live metrics of the sending side; None where the transport has no such figure."""
    bytes_acked: int | None = None
    cwnd_bytes: int | None = None
    rtt_ms: float | None = None
    retransmissions: int | None = None  # cumulative, packets
    delivery_rate_mbps: float | None = None


@dataclass(frozen=True)
class FlowFile:
    """A file of the flow's work directory worth keeping after the run (a
    qlog, a TLS key log): the name to keep it under, and whether it is
    compressed already (gzip). The engine hands it to the run's kept files
    (satlab.engine.artifacts) after collect(), then deletes it."""
    name: str
    path: Path
    kind: Literal["qlog", "keylog"]
    compressed: bool = False


@dataclass
class FlowResult:
    bytes: int  # delivered to the receiving application
    download_time_s: float | None  # see the implementation for where the clock starts
    retransmissions: int | None
    error: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


class Flow(ABC):
    def __init__(self, planned: PlannedFlow, workdir: Path):
        self.planned = planned
        self.workdir = workdir  # private to this flow, removed after the run
        # What collect() leaves to keep (planned.keep_qlog, keep_keylog): the engine takes it from there.
        self.files: list[FlowFile] = []
        # When the engine called start_client(), on time.monotonic()'s clock.
        self.client_started_at: float | None = None

    def setup(self) -> None:  # noqa: B027 (optional: most transports need nothing)
        """Prepare what the processes need (certificates, files); default nothing."""

    @abstractmethod
    def start_server(self) -> None:
        """Start the listening side; return once it accepts connections."""

    @abstractmethod
    def start_client(self) -> None:
        """Start the connecting side; return at once."""

    @abstractmethod
    def done(self) -> bool:
        """True once the transfer is over (successfully or not)."""

    @abstractmethod
    def sample(self) -> FlowSample | None:
        """Live metrics now, or None before the connection exists."""

    def data_started_at(self) -> float | None:
        """When the flow's data connection sent its first packet, on
        time.monotonic()'s clock; None while unknown (before it, or when the
        transport cannot tell). The iteration's clock and every figure of the
        flow are measured from it. By default the client's start: a
        transport without a control connection opens its data connection at once."""
        return self.client_started_at

    def data_client_port(self) -> int | None:
        """The client's port of the flow's data connection where the
        transport fixes it (iperf3's --cport), which tells that connection
        apart in a PEP's lines; None where it does not."""
        return None

    @abstractmethod
    def collect(self) -> FlowResult:
        """The result, once done()."""

    @abstractmethod
    def stop(self) -> None:
        """Stop every process of the flow; safe to call twice and before start."""


class ClientProcessFlow(Flow):
    """A flow that is over when its client process exits (iperf3, ngtcp2's
    gtlsclient); it times that process's whole life (details.wall_time_s)."""

    def __init__(self, planned: PlannedFlow, workdir: Path):
        super().__init__(planned, workdir)
        self.client: Child | None = None
        self._client_started = 0.0
        self._client_ended: float | None = None

    def start_client_process(self, args: list[str], name: str) -> None:
        self.client = Child(args, self.planned.client_netns, name)
        self._client_started = time.monotonic()

    def done(self) -> bool:
        if self.client is None or self.client.running():
            return False
        if self._client_ended is None:
            self._client_ended = time.monotonic()
        return True

    @property
    def wall_time_s(self) -> float:
        return (self._client_ended or time.monotonic()) - self._client_started


def flow_class(transport: str) -> type[Flow]:
    """The implementation of `transport` (a key of TRANSPORTS), imported now;
    ImportError names what this host lacks."""
    module, _, name = TRANSPORTS[transport].implementation.partition(":")
    implementation: type[Flow] = getattr(importlib.import_module(module), name)
    return implementation
