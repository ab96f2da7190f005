"""PicoquicFlow: satlab's flow contract over two picoquic peers, each a
process (`python -m satlab.engine.flows.picoquic.peer`) in its namespace.
What a flow measures, and why: README.md beside this file."""

from __future__ import annotations

import shutil
import sys
from typing import Any

from satlab.engine.flows.base import Flow, FlowFile, FlowResult, FlowSample
from satlab.engine.flows.picoquic.protocol import PeerError
from satlab.engine.flows.picoquic.qlog import QlogCounts, count_qlog
from satlab.engine.flows.tls import endpoint, make_self_signed_cert
from satlab.engine.process import JsonLineChild

PEER_MODULE = "satlab.engine.flows.picoquic.peer"
SERVER_READY_S = 10.0
# A 0-RTT warm-up ("on") transfers this little: it gets a session ticket, and
# stays in slow start, so that picoquic remembers no bandwidth from it.
WARM_UP_BYTES = 1000
WARM_UP_TIMEOUT_S = 60.0
# A "bdp" warm-up sends for this long in the flow's direction: long enough for
# slow start to end (picoquic remembers a bandwidth only then) on any lab
# path: 10 RTTs of 650 ms take cwnd from 15 kB past 15 MB.
WARM_UP_BDP_S = 10.0
# A guard against a download that never ends; a GEO path with heavy loss may
# take minutes (Linux CUBIC needs ~300 s at 1 % loss), picoquic less.
CLIENT_TIMEOUT_S = 900.0


class PicoquicFlow(Flow):
    """satlab's flow contract over the two peers: the server in
    server_netns, the client in client_netns, whatever the direction.
    zero_rtt: start_server() also runs a warm-up client to completion, not
    measured. What bytes, download_time_s, the samples and the details are:
    README.md, "What a flow measures"."""

    server: JsonLineChild | None = None
    client: JsonLineChild | None = None

    def setup(self) -> None:
        flow = self.planned
        self._cert, self._key = make_self_signed_cert(str(self.workdir), flow.server_addr)
        self._qlog_dirs = {role: self.workdir / f"qlog-{role}" for role in ("server", "client")}
        for directory in self._qlog_dirs.values():
            directory.mkdir()
        self._ticket_file = str(self.workdir / "session-tickets.bin")
        self._keylog = self.workdir / "tls-keylog.txt"
        self._receiver = "client" if flow.direction == "download" else "server"

    def _common_args(self) -> list[str]:
        """What every peer of the flow takes: its congestion control, and the
        scenario's windows (without them, the peer's defaults)."""
        flow = self.planned
        args = ["--cc", flow.cc]
        if flow.connection_window_bytes is not None:
            args += ["--connection-window-bytes", str(flow.connection_window_bytes)]
        if flow.stream_window_bytes is not None:
            args += ["--stream-window-bytes", str(flow.stream_window_bytes)]
        return args

    def _qlog_args(self, role: str, needed: bool) -> list[str]:
        """A qlog for role's end: its count is needed, or the scenario keeps both ends'."""
        return ["--qlog-dir", str(self._qlog_dirs[role])] if needed or self.planned.keep_qlog else []

    def start_server(self) -> None:
        flow = self.planned
        qlog = self._qlog_args("server", self._receiver == "server")
        self.server = JsonLineChild(
            peer_command("server", "--listen", endpoint(flow.server_addr, flow.port),
                         "--cert", self._cert, "--key", self._key, *self._common_args(), *qlog),
            flow.server_netns, f"picoquic-server-{flow.index}",
        )
        try:
            self.server.wait_event("listening", SERVER_READY_S)
        except RuntimeError as error:
            raise PeerError(self._error_of(self.server) or str(error)) from None
        if flow.zero_rtt != "off":
            self._warm_up()

    def _transfer_args(self) -> list[str]:
        flow = self.planned
        amount = (["--size-bytes", str(flow.size_bytes)] if flow.size_bytes is not None
                  else ["--duration-s", f"{flow.duration_s:g}"])
        return [*amount, "--direction", flow.direction,
                "--timeout-s", str(CLIENT_TIMEOUT_S + (flow.duration_s or 0))]

    def _warm_up(self) -> None:
        flow = self.planned
        transfer = (["--duration-s", f"{WARM_UP_BDP_S:g}", "--direction", flow.direction]
                    if flow.zero_rtt == "bdp" else ["--size-bytes", str(WARM_UP_BYTES)])
        warm_up = JsonLineChild(
            peer_command("client", "--connect", endpoint(flow.server_addr, flow.port), *transfer,
                         *self._common_args(), "--flow-id", str(flow.index), "--warm-up",
                         "--timeout-s", str(WARM_UP_TIMEOUT_S),
                         "--ticket-file", self._ticket_file),
            flow.client_netns, f"picoquic-warm-up-{flow.index}",
        )
        try:
            warm_up.process.wait()
        finally:
            warm_up.stop()
        if "summary" not in warm_up.events:
            raise PeerError(f"Flow {flow.index}: the 0-RTT warm-up connection failed: "
                            f"{self._error_of(warm_up) or warm_up.stderr_text()}")

    def start_client(self) -> None:
        flow = self.planned
        qlog = self._qlog_args("client", self._receiver == "client" or flow.zero_rtt != "off")
        tickets = ["--ticket-file", self._ticket_file] if flow.zero_rtt != "off" else []
        # The client's secrets decrypt both directions of the measured connection.
        keylog = ["--keylog-file", str(self._keylog)] if flow.keep_keylog else []
        self.client = JsonLineChild(
            peer_command("client", "--connect", endpoint(flow.server_addr, flow.port),
                         *self._transfer_args(), *self._common_args(),
                         "--flow-id", str(flow.index), *qlog, *tickets, *keylog),
            flow.client_netns, f"picoquic-client-{flow.index}",
        )

    def done(self) -> bool:
        return self.client is not None and not self.client.running()

    def _ends(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """The latest stats lines of (sender, receiver)."""
        server = self.server.latest if self.server is not None else None
        client = self.client.latest if self.client is not None else None
        return (server, client) if self.planned.direction == "download" else (client, server)

    def sample(self) -> FlowSample | None:
        sender, receiver = self._ends()
        if sender is None:
            return None
        return FlowSample(
            # What the receiving application has received: QUIC's goodput.
            bytes_acked=receiver["bytes_received"] if receiver is not None else None,
            cwnd_bytes=sender["cwnd_bytes"],
            rtt_ms=sender["rtt_ms"],
            retransmissions=sender["lost_packets"],
        )

    def collect(self) -> FlowResult:
        assert self.client is not None and self.server is not None
        self.client.stop()  # it has exited: this joins its line reader
        self.server.stop()  # so that picoquic closes its qlog
        sender, receiver = self._ends()
        lost_packets = sender["lost_packets"] if sender is not None else None
        summary = self.client.events.get("summary")
        if summary is None:
            error = self._error_of(self.client) or (
                f"The picoquic client of flow {self.planned.index} exited "
                f"{self.client.process.returncode} without a summary: {self.client.stderr_text()}"
            )
            received = receiver["bytes_received"] if receiver is not None else 0
            self._leave_files()
            return FlowResult(received, None, lost_packets, error=error)
        receiving, client = self._read_qlogs(summary["initial_cid"])
        self._leave_files()
        download_time_s = summary["download_time_s"]
        details: dict[str, Any] = {
            "ack_frames_sent": receiving.ack_frames_sent if receiving else None,
            "receiver_packets_sent": receiving.packets_sent if receiving else None,
        }
        if self.planned.direction == "download":
            details["time_to_first_byte_ms"] = receiving.time_to_first_byte_ms if receiving else None
            if self.planned.size_bytes is not None and receiving and receiving.transfer_time_s is not None:
                download_time_s = round(receiving.transfer_time_s, 6)
        if self.planned.zero_rtt != "off":
            details["session_resumed"] = summary["session_resumed"]
            details["zero_rtt_packets_sent"] = client.zero_rtt_packets_sent if client else None
        return FlowResult(summary["bytes"], download_time_s, lost_packets, details=details)

    def _read_qlogs(self, initial_cid: str) -> tuple[QlogCounts | None, QlogCounts | None]:
        """The measured connection's qlog counts: (the receiver's, the client's)."""
        def counts(role: str) -> QlogCounts | None:
            path = self._qlog_dirs[role] / f"{initial_cid}.{role}.qlog"
            return count_qlog(path) if path.is_file() else None

        receiver = counts(self._receiver)
        return receiver, receiver if self._receiver == "client" else counts("client")

    def _leave_files(self) -> None:
        """The qlogs (each connection's, by end and initial connection ID) and
        the key log for the engine to keep, as the scenario asks; the qlogs
        only counted are deleted now (they take ~0.3 MB per MB received)."""
        if self.planned.keep_qlog:
            self.files += [FlowFile(f"picoquic-{role}-{path.name.removesuffix(f'.{role}.qlog')}.qlog", path, "qlog")
                           for role, directory in self._qlog_dirs.items() for path in sorted(directory.glob("*.qlog"))]
        else:
            for directory in self._qlog_dirs.values():
                shutil.rmtree(directory, ignore_errors=True)
        if self.planned.keep_keylog and self._keylog.is_file():
            self.files.append(FlowFile("tls-keylog.txt", self._keylog, "keylog"))

    def stop(self) -> None:
        for child in (self.client, self.server):
            if child is not None:
                child.stop()

    @staticmethod
    def _error_of(child: JsonLineChild) -> str | None:
        error = child.events.get("error")
        return error["message"] if error is not None else None


def peer_command(role: str, *args: str) -> list[str]:
    return [sys.executable, "-m", PEER_MODULE, role, *args]
