"""PicoquicFlow, driven as the engine drives it: over a veth pair
(veth.py), and through the engine over satlink, a 200 ms RTT at 10 Mbit/s:
uploads, durations, windows and 0-RTT. Needs root.
"""

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from satlab.engine import runner
from satlab.engine.flows.base import FlowResult, FlowSample
from satlab.engine.flows.picoquic.flow import PicoquicFlow
from satlab.engine.plan import PlannedFlow
from satlab.scenario import validate
from tests.flows.picoquic.veth import DOWNLOAD_BYTES, PORT, RATE_MBPS, SERVER_ADDRESS, STATS_INTERVAL_S, VethPath


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
