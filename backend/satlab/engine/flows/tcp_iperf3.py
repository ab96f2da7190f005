"""Kernel TCP through iperf3: the server in the server namespace, the client
in the client namespace; a download is iperf3's reverse mode (-R: the server
sends). The congestion control is chosen per socket (-C): a namespace cannot
switch its default to cubic (EPERM), and the client passes -C to the server.

download_time_s runs from the data connection's SYN to its last byte, like
the QUIC peers' (a request, then the response). iperf3's own receiver clock
(sum_received.seconds, kept as details.transfer_time_s) starts later: when
its TEST_START message arrives, which iperf3 sends once the data connection
is up and its cookie has arrived, and with which the sender starts sending.
For a download, the data connection's SYN to the first byte of data is
measured on the client's wire (satlab.engine.first_byte: the kernel's
timestamps; details.time_to_first_byte_ms), and download_time_s is that
plus the receiver's clock, which starts with that first byte. End to end it
is two round trips (SYN/SYN-ACK, then cookie -> TEST_START and the data);
through a split-TCP PEP it is whatever the PEPs make of it, which no
socket of the client can tell. For an upload (or a download whose first
byte the watch missed), the first byte and the receiver's clock meet two
round trips after the SYN for a download, one and a half for an upload (the
receiver, the server, starts its clock when it sends TEST_START); the round
trip is the receiving socket's own, as its kernel measured it from the
handshake (details.handshake_rtt_ms, read through ss while the transfer
runs; a receiver sends no data, so nothing updates it later). Through a PEP
that socket's handshake ended at the PEP: an upload's time then misses the
round trips across the satellite. details.wall_time_s is the client
process's whole life.
"""

from __future__ import annotations

import json
from pathlib import Path

from satlab.engine.first_byte import FirstByteWatch
from satlab.engine.flows.base import ClientProcessFlow, FlowResult, FlowSample
from satlab.engine.plan import PlannedFlow
from satlab.engine.process import Child
from satlab.engine.samplers import DataConnection, SocketStats
from satlab.engine.wait import wait_until

SERVER_READY_S = 10.0
# The client's connections to the flow's port, in order: iperf3's control connection, then its data connection.
DATA_CONNECTION_INDEX = 1
# The client port of flow i's data connection (--cport) is DATA_PORT_BASE + i: below the kernel's
# ephemeral range (32768-60999 by default), where the control connection's port comes from, so
# the data connection is told from the control one by its port alone.
DATA_PORT_BASE = 20000
_stats: dict[str, SocketStats] = {}  # per namespace: flows sharing it share its ss calls


def _stats_for(netns: str) -> SocketStats:
    return _stats.setdefault(netns, SocketStats(netns))


class Iperf3Flow(ClientProcessFlow):
    def __init__(self, planned: PlannedFlow, workdir: Path):
        super().__init__(planned, workdir)
        self.server: Child | None = None
        self._data: DataConnection | None = None
        self._handshake_rtt_ms: float | None = None
        self._sender_min_rtt_ms: float | None = None
        self._report = workdir / "client.json"
        self._first_byte: FirstByteWatch | None = None

    def start_server(self) -> None:
        flow = self.planned
        # Reports go to files: a long run's JSON would fill a pipe nobody reads
        # until the end, and block iperf3.
        self.server = server = Child(["iperf3", "--server", "--one-off", "--bind", flow.server_addr, "--port",
                                      str(flow.port), "--json", "--logfile", str(self.workdir / "server.json")],
                                     flow.server_netns, f"iperf3-server-{flow.index}")
        listeners = SocketStats(flow.server_netns)
        wait_until(lambda: self._listening(listeners) or not server.running(), SERVER_READY_S,
                   f"iperf3 server of flow {flow.index} listening on port {flow.port}")
        if not server.running():
            raise RuntimeError(f"iperf3 server of flow {flow.index} exited: {server.stderr_text()}")

    def _listening(self, stats: SocketStats) -> bool:
        out = stats.run_ss(["-ltnH", "sport", "=", f":{self.planned.port}"])
        return bool(out.strip())

    @property
    def data_port(self) -> int:
        return DATA_PORT_BASE + self.planned.index

    def start_client(self) -> None:
        flow = self.planned
        # Both directions: the data connection's SYN is the flow's time origin; a download's watch
        # also times its first byte.
        self._first_byte = FirstByteWatch(flow.client_netns, flow.port, DATA_CONNECTION_INDEX,
                                          syn_only=flow.direction == "upload")
        self._first_byte.start()
        amount = (["--bytes", str(flow.size_bytes)] if flow.size_bytes is not None
                  else ["--time", f"{flow.duration_s:g}"])
        self.start_client_process(["iperf3", "--client", flow.server_addr, "--port", str(flow.port),
                                   "--cport", str(self.data_port),
                                   "--congestion", flow.cc, "--json", "--logfile", str(self._report),
                                   "--connect-timeout", "10000", *amount,
                                   *(["--reverse"] if flow.direction == "download" else [])],
                                  f"iperf3-client-{flow.index}")

    def data_client_port(self) -> int | None:
        return self.data_port

    def data_started_at(self) -> float | None:
        """The data connection's SYN on the client's wire (the kernel's
        timestamp), on the monotonic clock."""
        syn_ns = self._first_byte.syn_ns if self._first_byte is not None else None
        return None if syn_ns is None else syn_ns / 1e9

    def sample(self) -> FlowSample | None:
        if self._data is None:
            self._data = DataConnection(_stats_for(self.planned.sender_netns), self.planned.port, self.data_port)
        sock = self._data.socket()
        if sock is None:
            return None
        if self._handshake_rtt_ms is None:
            self._handshake_rtt_ms = self._receiver_rtt_ms()
        self._sender_min_rtt_ms = sock.number("minrtt") or self._sender_min_rtt_ms
        cwnd, mss = sock.number("cwnd"), sock.number("mss")
        return FlowSample(bytes_acked=int(sock.number("bytes_acked") or 0),
                          cwnd_bytes=int(cwnd * mss) if cwnd is not None and mss is not None else None,
                          rtt_ms=sock.number("rtt"), retransmissions=sock.retransmissions)

    def _receiver_rtt_ms(self) -> float | None:
        """The receiving data socket's RTT (its handshake's: a receiver sends
        no data), once the data connection exists."""
        flow = self.planned
        receiver_netns = flow.client_netns if flow.direction == "download" else flow.server_netns
        data = DataConnection(_stats_for(receiver_netns), flow.port, self.data_port).socket()
        return None if data is None else data.number("rtt")

    def collect(self) -> FlowResult:
        assert self.client is not None
        try:
            report = json.loads(self._report.read_text())
        except (OSError, json.JSONDecodeError):
            return FlowResult(0, None, None, error=f"iperf3 client of flow {self.planned.index} printed no "
                              f"JSON report (exit {self.client.process.returncode}): {self.client.stderr_text()}")
        end = report.get("end", {})
        received, sent = end.get("sum_received", {}), end.get("sum_sent", {})
        transfer_s = received.get("seconds")
        # A transfer over before the sampler saw the receiving socket: the sender's
        # minimum RTT stands in (the handshake met an empty queue, as a first flow's does).
        handshake_rtt_ms = self._handshake_rtt_ms or self._sender_min_rtt_ms
        round_trips = 2.0 if self.planned.direction == "download" else 1.5
        first_byte_ms = None
        if self._first_byte is not None:
            self._first_byte.stop()
            first_byte_ms = self._first_byte.first_byte_ms
        if transfer_s and first_byte_ms is not None:
            download_time_s = transfer_s + first_byte_ms / 1e3
        elif transfer_s and handshake_rtt_ms:
            download_time_s = transfer_s + round_trips * handshake_rtt_ms / 1e3
        else:
            download_time_s = None
        details = {"sender_cc": end.get("sender_tcp_congestion"),
                   "receiver_cc": end.get("receiver_tcp_congestion"),
                   "transfer_time_s": transfer_s, "handshake_rtt_ms": handshake_rtt_ms,
                   "handshake_rtt_measured": self._handshake_rtt_ms is not None,
                   "wall_time_s": self.wall_time_s,
                   **({"time_to_first_byte_ms": first_byte_ms} if self.planned.direction == "download" else {})}
        return FlowResult(bytes=int(received.get("bytes", 0)), download_time_s=download_time_s,
                          retransmissions=sent.get("retransmits"),
                          error=report.get("error"), details=details)

    def stop(self) -> None:
        if self._first_byte is not None:
            self._first_byte.stop()
        for child in (self.client, self.server):
            if child is not None:
                child.stop()
        _stats.pop(self.planned.client_netns, None)
        _stats.pop(self.planned.server_netns, None)
