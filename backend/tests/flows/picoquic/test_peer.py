"""The picoquic peer between two network namespaces joined by a veth pair.

veth_path: the server's side rate-limited by tbf, so that a 2 MB download
lasts long enough (>= 1.6 s) to check the stats lines' rate. Uploads,
durations, windows and 0-RTT run through the engine over satlink, a 200 ms
RTT at 10 Mbit/s. Needs root.
"""

import itertools
import json
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from satlab.engine import runner
from satlab.engine.flows.base import FlowResult, FlowSample
from satlab.engine.flows.picoquic.peer import PicoquicFlow, Request, count_qlog, parse_request
from satlab.engine.plan import PlannedFlow
from satlab.scenario import validate

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


@pytest.fixture
def veth_path() -> Iterator[VethPath]:
    """The server's side rate-limited by tbf, no delay."""
    yield from make_path(["tbf", "rate", f"{RATE_MBPS}mbit", "burst", "16kb", "limit", "125000"])


def make_path(qdisc: list[str]) -> Iterator[VethPath]:
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


def planned_flow(path: VethPath | None = None, **changes: Any) -> PlannedFlow:
    flow = PlannedFlow(index=3, group=0, transport="quic-picoquic", cc="bbr1",
                       size_bytes=DOWNLOAD_BYTES, duration_s=None, start_s=0.0,
                       direction="download", port=PORT,
                       client_netns=path.client_netns if path else "absent-client",
                       server_netns=path.server_netns if path else "absent-server",
                       server_addr=SERVER_ADDRESS)
    return replace(flow, **changes)


def drive(flow: PicoquicFlow, deadline_s: float = 30) -> tuple[FlowResult, list[FlowSample]]:
    """Run a flow the way the engine does, sampling every STATS_INTERVAL_S."""
    samples = []
    try:
        flow.setup()
        flow.start_server()
        flow.start_client()
        deadline = time.monotonic() + deadline_s
        while not flow.done():
            assert time.monotonic() < deadline, f"the flow did not finish within {deadline_s} s"
            sample = flow.sample()
            if sample is not None:
                samples.append(sample)
            time.sleep(STATS_INTERVAL_S)  # the engine's sampling period
        result = flow.collect()
    finally:
        flow.stop()
    assert result.error is None, result.error
    return result, samples


@pytest.mark.needs_root
def test_picoquic_flow_drives_a_download(veth_path: VethPath, tmp_path: Path) -> None:
    result, samples = drive(PicoquicFlow(planned_flow(veth_path), tmp_path))
    assert result.bytes == DOWNLOAD_BYTES
    assert result.download_time_s is not None
    assert result.download_time_s >= DOWNLOAD_BYTES * 8 / (RATE_MBPS * 1e6)
    assert len(samples) >= 5
    assert all(sample.cwnd_bytes and sample.rtt_ms for sample in samples)
    acked = [sample.bytes_acked for sample in samples if sample.bytes_acked is not None]
    assert acked == sorted(acked) and 0 < acked[-1] <= DOWNLOAD_BYTES
    # The receiver (the client) acknowledged ~1,400 packets of data, in ACK
    # frames counted from its qlog, which is deleted once counted.
    assert 0 < result.details["ack_frames_sent"] <= result.details["receiver_packets_sent"]
    assert not list(tmp_path.glob("qlog-*/*"))


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


@pytest.mark.parametrize(("request_bytes", "named"), [
    (b"20971520", "JSON object"),
    (b'{"flow": "1", "size_bytes": 0}', "size_bytes"),
    (b'{"flow": "1", "size_bytes": true}', "size_bytes"),
    (b'{"size_bytes": 5}', "flow"),
    (b'{"flow": "1", "size_bytes": 5, "until_t_s": 9.0}', "exactly one"),
    (b'{"flow": "1", "size_bytes": 5, "direction": "sideways"}', "direction"),
    (b"\xff", "not JSON"),
])
def test_server_refuses_a_bad_request_with_a_sentence(request_bytes: bytes, named: str) -> None:
    with pytest.raises(RuntimeError, match=named):
        parse_request(request_bytes)


# A client's qlog as picoquic 1.1.53 writes it (abridged, verbatim lines): an
# event per line, each frame of a packet on a line of its own.
CLIENT_QLOG = b"""{ "qlog_version": "draft-00", "title": "picoquic", "traces": [
"events": [
[420, "transport", "parameters_set", {
    "owner": "local",
    "initial_max_data" : 16777216}],
[931, "transport", "packet_sent", { "packet_type": "initial", "header": { "packet_size": 415 }, "frames": [{
    "frame_type": "ping"}, {
    "frame_type": "crypto", "offset": 0, "length": 380}]}],
[1399, "transport", "packet_sent", { "packet_type": "0RTT", "header": { "packet_size": 37 }, "frames": [{
    "frame_type": "stream", "id": 0, "offset": 0, "length": 5, "fin": true , "begins_with": "68656c6c6f"}]}],
[2756, "transport", "packet_received", { "packet_type": "initial", "header": { "packet_size": 158 }, "frames": [{
    "frame_type": "ack", "ack_delay": 123, "acked_ranges": [[108889, 108889]], "ect0": 1, "ect1": 0, "ce": 0}, {
    "frame_type": "crypto", "offset": 0, "length": 90}]}],
[210931, "transport", "packet_received", { "packet_type": "1RTT", "header": { "packet_size": 1236 }, "frames": [{
    "frame_type": "stream", "id": 0, "offset": 0, "length": 1200}]}],
[211000, "transport", "packet_sent", { "packet_type": "1RTT", "header": { "packet_size": 40 }, "frames": [{
    "frame_type": "ack_frequency", "sequence_number": 1}, {
    "frame_type": "ack", "ack_delay": 3, "acked_ranges": [[0, 1]]}]}],
[412931, "transport", "packet_received", { "packet_type": "1RTT", "header": { "packet_size": 1236 }, "frames": [{
    "frame_type": "stream", "id": 0, "offset": 1200, "length": 1200, "fin": true}]}],
[413000, "transport", "packet_sent", { "packet_type": "1RTT", "header": { "packet_size": 40 }, "frames": [{
    "frame_type": "ack", "ack_delay": 3, "acked_ranges": [[0, 2]]}]}]]}]}
"""


def test_count_qlog_counts_what_the_end_sent(tmp_path: Path) -> None:
    path = tmp_path / "cid.client.qlog"
    path.write_bytes(CLIENT_QLOG)
    counts = count_qlog(path)
    # Four packets sent, one in 0-RTT; two ACK frames among their frames (not
    # ACK_FREQUENCY, not the ACK the server sent).
    assert (counts.packets_sent, counts.zero_rtt_packets_sent, counts.ack_frames_sent) == (4, 1, 2)
    # The first packet left at 931 us; stream data came at 210,931 and 412,931 us.
    assert counts.time_to_first_byte_ms == 210.0
    assert counts.transfer_time_s == 0.412


def test_server_reads_a_request() -> None:
    request = parse_request(Request("f1", "upload", None, 12.5).encode().rstrip(b"\n"))
    assert (request.flow, request.direction, request.size_bytes, request.until_t_s, request.warm_up) == (
        "f1", "upload", None, 12.5, False)


# ---------------------------------------------------------------- over a GEO-like path

# The engine's path by satlink: DELAY_MS each way at RATE_MBPS, buffers of one BDP.
DELAY_MS = 100
RTT_S = 2 * DELAY_MS / 1000
BDP_BYTES = int(RATE_MBPS * 1e6 / 8 * RTT_S)  # 250 kB


def run_over_path(*flows: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Run picoquic flows through the engine; (flow rows, live samples)."""
    direction = {"rate_mbps": RATE_MBPS, "delay_ms": DELAY_MS}
    scenario = validate({"name": "picoquic-test", "path": {"forward": direction, "return": direction},
                         "flows": [{"transport": "quic-picoquic", "cc": "bbr1", **flow} for flow in flows]})
    events: list[dict[str, Any]] = []
    result = runner.run(scenario, events.append)
    assert result.status == "done", result.error
    samples = [sample for event in events if event["type"] == "sample" for sample in event["flows"]]
    return result.flows, samples


@pytest.mark.needs_root
def test_picoquic_uploads_measured_on_the_client() -> None:
    size_bytes = 1_000_000
    [flow], samples = run_over_path({"direction": "upload", "size_bytes": size_bytes})
    assert flow["direction"] == "upload" and flow["bytes"] == size_bytes
    # The bottleneck and the handshake's round trip at least; slow start adds a few.
    assert size_bytes * 8 / (RATE_MBPS * 1e6) + RTT_S <= flow["download_time_s"] < 10
    # The sender's (the client's) path: its RTT spans the path's two delays.
    assert samples and all(sample["rtt_ms"] >= 2 * DELAY_MS and sample["cwnd_bytes"] for sample in samples)
    # bytes_acked is what the server's application received.
    received = [sample["bytes_acked"] for sample in samples if sample["bytes_acked"] is not None]
    assert received == sorted(received) and 0 < received[-1] <= size_bytes
    # The receiver is the server: its qlog counts its ACK frames.
    assert 0 < flow["ack_frames_sent"] <= flow["receiver_packets_sent"]


@pytest.mark.needs_root
def test_picoquic_runs_for_a_duration_both_ways() -> None:
    duration_s = 2.0
    rows, _ = run_over_path({"direction": "download", "duration_s": duration_s},
                            {"direction": "upload", "duration_s": duration_s, "start_s": duration_s + 1})
    for flow in rows:
        assert flow["download_time_s"] == pytest.approx(duration_s, abs=0.05)
        # What got through in duration_s: not more than the bottleneck carries,
        # and well above nothing (BBR reaches the rate after ~1 s).
        assert 0.3 * RATE_MBPS <= flow["goodput_mbps"] <= RATE_MBPS


@pytest.mark.needs_root
def test_a_stream_window_below_the_bdp_caps_goodput() -> None:
    # A power of two: aiopquic's receive ring, whose free space is the window
    # it grants, rounds a window up to one.
    window_bytes = 1 << 16  # a quarter of the BDP
    window_mbps = window_bytes * 8 / RTT_S / 1e6  # 2.6 Mbit/s
    duration_s = 3.0
    windows = [{"stream_bytes": window_bytes}, {"connection_bytes": window_bytes}, None]
    rows, _ = run_over_path(*({"duration_s": duration_s, "start_s": index * (duration_s + 1),
                               "flow_control": flow_control} for index, flow_control in enumerate(windows)))
    stream_capped, connection_initial, free = (flow["goodput_mbps"] for flow in rows)
    # At most a window per RTT; the handshake's RTT counts in duration_s too.
    assert 0.5 * window_mbps <= stream_capped <= window_mbps
    # Well above it without the window (7.6 Mbit/s on a quiet host, 4.2 on a loaded one).
    assert free > 1.4 * window_mbps
    # picoquic widens the connection window as data arrives (its MAX_DATA
    # auto-tuning): connection_bytes is an initial value that caps nothing.
    assert connection_initial > 1.4 * window_mbps


def first_measured_cwnd(samples: list[dict[str, Any]], flow: int) -> int:
    """The sender's cwnd at its first RTT sample: until then picoquic reports
    its initial guess of 250 ms, above this path's RTT."""
    return next(sample["cwnd_bytes"] for sample in samples
                if sample["flow"] == flow and sample["rtt_ms"] < 240)


@pytest.mark.needs_root
def test_zero_rtt_saves_a_round_trip_and_bdp_seeds_the_window() -> None:
    # 10 kB fit in picoquic's initial window: the time is round trips.
    # The last two differ only in bdp: 1 MB, long enough to be sampled.
    seeded = {"size_bytes": 1_000_000, "cc": "cubic"}
    rows, samples = run_over_path({"size_bytes": 10_000, "zero_rtt": "off"},
                                  {"size_bytes": 10_000, "zero_rtt": "on", "start_s": 2.0},
                                  {**seeded, "zero_rtt": "on", "start_s": 4.0},
                                  {**seeded, "zero_rtt": "bdp", "start_s": 8.0})
    off, on, resumed_large, bdp = rows
    assert "session_resumed" not in off
    for resumed in (on, resumed_large, bdp):
        # The request went out in 0-RTT packets of a resumed session...
        assert resumed["session_resumed"] is True and resumed["zero_rtt_packets_sent"] >= 1
    # ... so the first byte came one RTT after the first packet instead of two,
    # and the whole download one RTT sooner (both from the client's qlog; on a
    # loaded host picoquic's thread runs late too: by up to half an RTT here).
    rtt_ms = RTT_S * 1000
    assert on["time_to_first_byte_ms"] >= rtt_ms and off["time_to_first_byte_ms"] >= 2 * rtt_ms
    assert off["time_to_first_byte_ms"] - on["time_to_first_byte_ms"] == pytest.approx(rtt_ms, rel=0.5)
    assert off["download_time_s"] - on["download_time_s"] == pytest.approx(RTT_S, rel=0.5)
    # bdp: the warm-up left slow start; at its first RTT sample the measured
    # connection's window (unlike the same flow's without bdp) jumps to the
    # bandwidth-delay product it remembered.
    assert first_measured_cwnd(samples, flow=3) >= BDP_BYTES / 2
    assert first_measured_cwnd(samples, flow=2) < BDP_BYTES / 4
