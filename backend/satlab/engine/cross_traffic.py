"""Cross traffic: constant-rate UDP streams (iperf3 -u) across one direction
of the satellite link, competing with the flows; on the return link, with a
download's ACKs. They are not flows: no flow summary, no Jain's index.

The iperf3 client always sends and the server receives: for the forward link
the client runs in the server's namespace. (With --reverse, as a download
flow does, an interrupted sender would be the server, which keeps sending
until the client's goodbye arrives, a round trip after the client's clock
stopped, and rounds its own time down to its last report interval: its rate
would be unknown.)

The engine starts a stream at its offset and stops it at its end or once the
flows are done, by interrupting the client (SIGTERM): the client writes its
report, what it sent and for how long, and tells the server, its goodbye
crossing the link behind the last datagram; the server then writes its
report, what arrived and what was lost (gaps in the datagrams' sequence
numbers).
The stream's data start after iperf3's set-up, about four round trips after
its offset (2 s over GEO); `seconds` is how long it sent.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from satlab.engine.plan import PlannedCrossTraffic
from satlab.engine.process import Child
from satlab.engine.samplers import SocketStats
from satlab.engine.wait import wait_until

SERVER_READY_S = 10.0
# The server ends once the client's goodbye has crossed the link (its queue
# included); past this it is interrupted too, and still writes its report.
SERVER_REPORT_S = 10.0
# How iperf3's reports end when we interrupt it: the normal end here.
INTERRUPTED = ("the client has terminated", "the server has terminated")


class Iperf3CrossTraffic:
    def __init__(self, planned: PlannedCrossTraffic, workdir: Path):
        self.planned = planned
        self.workdir = workdir  # private to this stream, removed after the run
        self.server: Child | None = None
        self.client: Child | None = None

    def start_server(self) -> None:
        """Start the receiving side; return once it accepts connections."""
        planned = self.planned
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.server = Child(["iperf3", "--server", "--one-off", "--bind", planned.receiver_addr,
                             "--port", str(planned.port), "--json", "--logfile", str(self.workdir / "server.json")],
                            planned.receiver_netns, f"iperf3-cross-server-{planned.index}")
        server, listeners = self.server, SocketStats(planned.receiver_netns)
        wait_until(lambda: bool(listeners.run_ss(["-ltnH", "sport", "=", f":{planned.port}"]).strip())
                   or not server.running(), SERVER_READY_S,
                   f"iperf3 server of cross traffic {planned.index} listening on port {planned.port}")
        if not server.running():
            raise RuntimeError(f"iperf3 server of cross traffic {planned.index} exited: {server.stderr_text()}")

    def start(self) -> None:
        """Start the sending side; return at once."""
        planned = self.planned
        # --time 0: until interrupted (iperf3 counts whole seconds only: the engine keeps the time).
        self.client = Child(["iperf3", "--client", planned.receiver_addr, "--port", str(planned.port), "--udp",
                             "--bitrate", f"{planned.rate_mbps:g}M", "--length", str(planned.length_bytes),
                             "--time", "0", "--connect-timeout", "10000",
                             "--json", "--logfile", str(self.workdir / "client.json")],
                            planned.sender_netns, f"iperf3-cross-client-{planned.index}")

    def running(self) -> bool:
        return self.client is not None and self.client.running()

    def stop(self) -> None:
        """Interrupt the sender: both ends then write their reports. Safe to call twice."""
        if self.client is not None:
            self.client.stop()

    def collect(self) -> dict[str, Any]:
        """What was sent and what arrived, once stopped; Mbit/s of UDP payload."""
        planned = self.planned
        row: dict[str, Any] = {
            "index": planned.index, "link": planned.link, "rate_mbps": planned.rate_mbps,
            "start_s": planned.start_s, "started": self.client is not None, "seconds": None,
            "sent_bytes": None, "sent_mbps": None, "received_bytes": None,
            "packets": None, "lost_packets": None, "loss_ratio": None, "error": None}
        if self.client is None:
            return row  # the flows were done before its offset
        assert self.server is not None
        try:
            self.server.process.wait(SERVER_REPORT_S)
        except subprocess.TimeoutExpired:
            self.server.stop()
        try:
            sender, receiver = self._report(self.client, "client"), self._report(self.server, "server")
        except RuntimeError as error:
            return row | {"error": str(error)}
        errors = [report["error"] for report in (sender, receiver)
                  if not report.get("error", INTERRUPTED[0]).endswith(INTERRUPTED)]
        if errors:
            return row | {"error": errors[0]}
        sent = sender.get("end", {}).get("sum_sent", {})
        received = receiver.get("end", {}).get("sum_received", {})
        seconds, sent_bytes = sent.get("seconds"), sent.get("bytes")
        packets, lost = received.get("packets"), received.get("lost_packets")
        # No received_mbps: what was queued at the stop still arrives after the sender's clock
        # stopped, and an interrupted server rounds its own time down to its last report interval.
        return row | {"seconds": seconds, "sent_bytes": sent_bytes,
                      "sent_mbps": sent_bytes * 8 / seconds / 1e6 if sent_bytes is not None and seconds else None,
                      "received_bytes": received.get("bytes"), "packets": packets, "lost_packets": lost,
                      "loss_ratio": lost / packets if packets and lost is not None else None}

    def _report(self, child: Child, side: str) -> dict[str, Any]:
        """The JSON report of one end; RuntimeError saying why there is none."""
        try:
            report: dict[str, Any] = json.loads((self.workdir / f"{side}.json").read_text())
            return report
        except (OSError, json.JSONDecodeError):
            raise RuntimeError(f"iperf3 {side} of cross traffic {self.planned.index} printed no JSON report "
                               f"(exit {child.process.returncode}): {child.stderr_text()}") from None

    def close(self) -> None:
        """Stop every process; safe to call twice and before start."""
        for child in (self.client, self.server):
            if child is not None:
                child.stop()
