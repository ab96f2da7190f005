"""Kernel TCP through iperf3: the server in the server namespace, the client
in the client namespace; a download is iperf3's reverse mode (-R: the server
sends). The congestion control is chosen per socket (-C): a namespace cannot
switch its default to cubic (EPERM), and the client passes -C to the server.

download_time_s is iperf3's own receiver time (sum_received.seconds): from
the test start, once the data connection is established, to the last byte.
It leaves out the connection set-up (one RTT for the handshake, and the
control exchange); details.wall_time_s is the client's whole life.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from satlab.flows.base import Flow, FlowResult, FlowSample
from satlab.plan import PlannedFlow
from satlab.process import Child
from satlab.samplers import DataConnection, SocketStats
from satlab.wait import wait_until

SERVER_READY_S = 10.0
_stats: dict[str, SocketStats] = {}  # per namespace: flows sharing it share its ss calls


def _stats_for(netns: str) -> SocketStats:
    return _stats.setdefault(netns, SocketStats(netns))


class Iperf3Flow(Flow):
    def __init__(self, planned: PlannedFlow, workdir: Path):
        super().__init__(planned, workdir)
        self.server: Child | None = None
        self.client: Child | None = None
        self._client_started = 0.0
        self._client_ended: float | None = None
        self._data: DataConnection | None = None
        self._report = workdir / "client.json"

    def start_server(self) -> None:
        flow = self.planned
        # Reports go to files: a long run's JSON would fill a pipe nobody reads
        # until the end, and block iperf3.
        self.server = Child(["iperf3", "--server", "--one-off", "--bind", flow.server_addr,
                             "--port", str(flow.port), "--json", "--logfile", str(self.workdir / "server.json")],
                            flow.server_netns, f"iperf3-server-{flow.index}")
        listeners = SocketStats(flow.server_netns)
        wait_until(lambda: self._listening(listeners) or not self.server.running(), SERVER_READY_S,
                   f"iperf3 server of flow {flow.index} listening on port {flow.port}")
        if not self.server.running():
            raise RuntimeError(f"iperf3 server of flow {flow.index} exited: {self.server.stderr_text()}")

    def _listening(self, stats: SocketStats) -> bool:
        out = stats.run_ss(["-ltnH", "sport", "=", f":{self.planned.port}"])
        return bool(out.strip())

    def start_client(self) -> None:
        flow = self.planned
        amount = (["--bytes", str(flow.size_bytes)] if flow.size_bytes is not None
                  else ["--time", f"{flow.duration_s:g}"])
        self.client = Child(["iperf3", "--client", flow.server_addr, "--port", str(flow.port),
                             "--congestion", flow.cc, "--json", "--logfile", str(self._report),
                             "--connect-timeout", "10000", *amount,
                             *(["--reverse"] if flow.direction == "download" else [])],
                            flow.client_netns, f"iperf3-client-{flow.index}")
        self._client_started = time.monotonic()

    def done(self) -> bool:
        if self.client is None or self.client.running():
            return False
        if self._client_ended is None:
            self._client_ended = time.monotonic()
        return True

    def sample(self) -> FlowSample | None:
        if self._data is None:
            self._data = DataConnection(_stats_for(self.planned.sender_netns), self.planned.port)
        sock = self._data.socket()
        if sock is None:
            return None
        cwnd, mss = sock.number("cwnd"), sock.number("mss")
        return FlowSample(bytes_acked=int(sock.number("bytes_acked") or 0),
                          cwnd_bytes=int(cwnd * mss) if cwnd is not None and mss is not None else None,
                          rtt_ms=sock.number("rtt"), retransmissions=sock.retransmissions)

    def collect(self) -> FlowResult:
        assert self.client is not None
        try:
            report = json.loads(self._report.read_text())
        except (OSError, json.JSONDecodeError):
            return FlowResult(0, None, None, error=f"iperf3 client of flow {self.planned.index} printed no "
                              f"JSON report (exit {self.client.process.returncode}): {self.client.stderr_text()}")
        end = report.get("end", {})
        received, sent = end.get("sum_received", {}), end.get("sum_sent", {})
        details = {"sender_cc": end.get("sender_tcp_congestion"),
                   "receiver_cc": end.get("receiver_tcp_congestion"),
                   "wall_time_s": (self._client_ended or time.monotonic()) - self._client_started}
        return FlowResult(bytes=int(received.get("bytes", 0)),
                          download_time_s=received.get("seconds"),
                          retransmissions=sent.get("retransmits"),
                          error=report.get("error"), details=details)

    def stop(self) -> None:
        for child in (self.client, self.server):
            if child is not None:
                child.stop()
        _stats.pop(self.planned.sender_netns, None)
