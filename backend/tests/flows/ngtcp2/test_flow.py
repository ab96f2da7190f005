"""QUIC through ngtcp2's example programs, run for real: over loopback (no
root) or the engine's GEO path (root): 12 Mbit/s forward, 3 Mbit/s return,
RTT 500 ms.
"""

import socket
from dataclasses import replace
from pathlib import Path

import pytest

from satlab.engine import runner, topology
from satlab.engine.flows.ngtcp2.flow import DURATION_GRACE_S, Ngtcp2Flow
from satlab.engine.flows.ngtcp2.programs import CLIENT_PROGRAM, INSTALL_HINT, SERVER_PROGRAM
from satlab.engine.host import program
from satlab.engine.plan import PlannedFlow
from satlab.scenario import ScenarioError, load
from satlab.transports import TRANSPORTS
from tests.conftest import LABS

NGTCP2_MISSING = f"needs {CLIENT_PROGRAM} and {SERVER_PROGRAM}: {INSTALL_HINT}"
needs_ngtcp2 = pytest.mark.skipif(program(CLIENT_PROGRAM) is None or program(SERVER_PROGRAM) is None,
                                  reason=NGTCP2_MISSING)


def planned_flow(**changes: object) -> PlannedFlow:
    """A flow over the host's loopback (no namespace) on a UDP port that is free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    flow = PlannedFlow(index=2, group=0, transport="quic-ngtcp2", cc="cubic", size_bytes=2_000_000,
                       duration_s=None, start_s=0.0, direction="download", port=port,
                       client_netns="", server_netns="", server_addr="127.0.0.1")
    return replace(flow, **changes)


def test_scenario_refuses_zero_rtt_bdp_for_ngtcp2() -> None:
    with pytest.raises(ScenarioError, match="flows.0.zero_rtt: .*cannot run zero_rtt bdp; allowed: off, on"):
        load(LABS / "geo-ideal.yaml", [*NGTCP2_2MB, "flows.0.zero_rtt=bdp"])


@needs_ngtcp2
def test_ngtcp2_flow_refuses_zero_rtt_bdp_past_validation(tmp_path: Path) -> None:
    flow = Ngtcp2Flow(planned_flow(zero_rtt="bdp"), tmp_path)
    with pytest.raises(RuntimeError, match="quic-ngtcp2 runs zero_rtt off or on, not 'bdp'"):
        flow.setup()
    flow.stop()


@needs_ngtcp2
@pytest.mark.parametrize("cc", TRANSPORTS["quic-ngtcp2"].congestion_controls)
def test_ngtcp2_server_accepts_each_registered_congestion_control(tmp_path: Path, cc: str) -> None:
    flow = Ngtcp2Flow(planned_flow(cc=cc), tmp_path)
    try:
        flow.setup()
        flow.start_server()  # gtlsserver exits at once on a --cc it does not know
        assert flow.server is not None and flow.server.running()
    finally:
        flow.stop()


@needs_ngtcp2
def test_ngtcp2_flow_reports_a_short_response_as_an_error(tmp_path: Path) -> None:
    """A server that serves at most 1000 bytes answers /2000000 with a 404 page,
    and the client exits 0: the byte count alone tells the failure."""
    small = Ngtcp2Flow(planned_flow(size_bytes=1000), tmp_path / "small")
    large = Ngtcp2Flow(replace(small.planned, size_bytes=2_000_000), tmp_path / "large")
    for flow in (small, large):
        flow.workdir.mkdir()
    try:
        small.setup()
        small.start_server()
        large.setup()
        large.start_client()  # on small's port: large has no server of its own
        assert large.client is not None
        large.client.process.wait(30)
        assert large.done()
        result = large.collect()
    finally:
        small.stop()
        large.stop()
    assert result.download_time_s is None
    assert result.bytes < 1000
    assert result.error is not None
    assert result.error.startswith(f"The ngtcp2 client of flow 2 received {result.bytes} of 2000000 bytes "
                                   "(the client exited 0: ")


# ---------------------------------------------------------------- real runs


# A response's HEADERS frame, and 5 bytes per 16 KiB DATA frame: 2 MB take 615.
HTTP3_FRAMING_BYTES = 1000
GEO_RTT_S = 0.5
GEO_FORWARD_BYTES_PER_S = 12e6 / 8
GEO_RETURN_BYTES_PER_S = 3e6 / 8
NGTCP2_2MB = ["flows.0.transport=quic-ngtcp2", "flows.0.cc=cubic", "flows.0.hystart=null",
              "flows.0.size_bytes=2000000"]


def namespaces_of(run_id: str) -> list[str]:
    return [name for name in topology.existing_namespaces() if run_id in name]


def processes_of(run_id: str) -> list[str]:
    """Command lines naming the run: its namespaces (satlink) or its work directory (the flows' programs)."""
    marker = f"satlab-{run_id}-".encode()
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes()
        except OSError:  # it exited meanwhile
            continue
        if marker in text:
            found.append(text.replace(b"\0", b" ").decode(errors="replace"))
    return found




@needs_ngtcp2
@pytest.mark.needs_root
def test_run_downloads_2mb_with_ngtcp2_over_geo_ideal() -> None:
    events: list[dict] = []
    result = runner.run(load(LABS / "geo-ideal.yaml", NGTCP2_2MB), events.append)
    assert result.status == "done", result.error
    (flow,) = result.flows
    assert flow["bytes"] == 2_000_000
    # 2 MB need 1.33 s at 12 Mbit/s, after the handshake's round trip of 500 ms;
    # slow start over that RTT adds a few seconds more.
    assert 2_000_000 * 8 / 12e6 + 0.5 <= flow["download_time_s"] < 15
    assert flow["download_time_s"] <= flow["wall_time_s"]
    assert isinstance(flow["retransmissions"], int)
    assert flow["mean_rtt_ms"] >= 500
    live = [sample for event in events if event["type"] == "sample" for sample in event["flows"]]
    received = [sample["bytes_acked"] for sample in live if sample["bytes_acked"] is not None]
    assert len(received) >= 10 and received == sorted(received)
    assert 0 < received[-1] <= 2_000_000 + HTTP3_FRAMING_BYTES
    assert 0 < flow["ack_frames_sent"] <= flow["receiver_packets_sent"]
    assert any(sample["cwnd_bytes"] and sample["rtt_ms"] and sample["rtt_ms"] >= 500 for sample in live)
    assert namespaces_of(result.run_id) == []
    assert processes_of(result.run_id) == []


@needs_ngtcp2
@pytest.mark.needs_root
def test_run_with_an_ngtcp2_server_that_cannot_start_fails_with_a_sentence() -> None:
    scenario = load(LABS / "geo-ideal.yaml", NGTCP2_2MB)
    # Past validation on purpose: only gtlsserver itself can refuse it.
    scenario.flows[0] = scenario.flows[0].model_copy(update={"cc": "vegas"})
    result = runner.run(scenario)
    assert result.status == "failed"
    assert result.error is not None
    assert result.error.startswith("The ngtcp2 server of flow 0 exited 1 instead of listening on ")
    assert "cc: specify cubic, reno, bbr, or bbr2" in result.error
    assert namespaces_of(result.run_id) == []
    assert processes_of(result.run_id) == []


def live_samples(events: list[dict], flow: int = 0) -> list[tuple[float, dict]]:
    """(t_s, sample) of one flow, in order."""
    return [(event["t_s"], sample) for event in events if event["type"] == "sample"
            for sample in event["flows"] if sample["flow"] == flow]


def run_ngtcp2(*overrides: str) -> tuple[list[dict], list[dict]]:
    """The flows' summaries and the events of a run on geo-ideal, which must succeed and leave nothing behind."""
    events: list[dict] = []
    result = runner.run(load(LABS / "geo-ideal.yaml", ["flows.0.transport=quic-ngtcp2", "flows.0.hystart=null",
                                                       *overrides]), events.append)
    assert result.status == "done", result.error
    assert namespaces_of(result.run_id) == []
    assert processes_of(result.run_id) == []
    return result.flows, events


@needs_ngtcp2
@pytest.mark.needs_root
def test_run_uploads_500kb_with_ngtcp2_over_geo_ideal() -> None:
    (flow,), events = run_ngtcp2("flows.0.cc=bbr", "flows.0.size_bytes=500000", "flows.0.direction=upload")
    assert flow["bytes"] == 500_000
    # Over the 3 Mbit/s return link: its request and body leave after the
    # handshake's round trip and arrive half a round trip after the last is sent.
    assert 500_000 / GEO_RETURN_BYTES_PER_S + 1.5 * GEO_RTT_S <= flow["download_time_s"] < 15
    assert flow["download_time_s"] <= flow["wall_time_s"]
    assert flow["mean_rtt_ms"] >= 500
    # The receiver is the server: about one ACK frame for every two of the ~360 data packets.
    assert 500_000 / 1500 / 4 < flow["ack_frames_sent"] <= flow["receiver_packets_sent"]
    live = live_samples(events)
    received = [sample["bytes_acked"] for _, sample in live if sample["bytes_acked"] is not None]
    assert len(received) >= 10 and received == sorted(received)
    assert 0 < received[-1] <= 500_000 + HTTP3_FRAMING_BYTES
    # The sender's figures: the client's cwnd and RTT, over the 500 ms path.
    assert any(sample["cwnd_bytes"] and sample["rtt_ms"] and sample["rtt_ms"] >= 500 for _, sample in live)


@needs_ngtcp2
@pytest.mark.needs_root
@pytest.mark.parametrize(("direction", "link_bytes_per_s"), [("download", GEO_FORWARD_BYTES_PER_S),
                                                             ("upload", GEO_RETURN_BYTES_PER_S)],
                         ids=["download", "upload"])
def test_run_with_ngtcp2_for_a_duration_ends_near_it(direction: str, link_bytes_per_s: float) -> None:
    (flow,), events = run_ngtcp2("flows.0.size_bytes=null", "flows.0.duration_s=3", f"flows.0.direction={direction}")
    assert flow["download_time_s"] == 3
    # Nothing arrives before the handshake's round trip; slow start moves ~100 kB in the next ones.
    assert 50_000 < flow["bytes"] <= link_bytes_per_s * (3 - GEO_RTT_S)
    assert 3 <= flow["wall_time_s"] <= 3 + DURATION_GRACE_S + 1
    assert flow["ack_frames_sent"] > 0
    # The samples went as far as the bytes counted within the duration, and stopped soon after.
    live = live_samples(events)
    assert max(sample["bytes_acked"] for _, sample in live) >= flow["bytes"]
    assert live[-1][0] - live[0][0] <= 3 + DURATION_GRACE_S + 1


@needs_ngtcp2
@pytest.mark.needs_root
def test_run_with_an_ngtcp2_window_below_the_bdp_caps_goodput_at_half_a_window_per_rtt() -> None:
    """100 kB against a BDP of 750 kB. ngtcp2 0.12 grants more credit only once
    more than half the window is consumed since its last grant (strictly), so
    a sender that used up the window gets half of it per round trip."""
    window_bytes = 100_000
    windows = f"{{connection_bytes: {window_bytes}, stream_bytes: {window_bytes}}}"
    (flow,), events = run_ngtcp2("flows.0.size_bytes=null", "flows.0.duration_s=5", f"flows.0.flow_control={windows}")
    rtt_s = flow["mean_rtt_ms"] / 1000
    # The steady state: from the first window's worth on.
    steady = [(t_s, sample["bytes_acked"]) for t_s, sample in live_samples(events)
              if sample["bytes_acked"] is not None and sample["bytes_acked"] >= window_bytes]
    (start_s, start_bytes), (end_s, end_bytes) = steady[0], steady[-1]
    assert end_s - start_s >= 4 * rtt_s
    steady_bytes_per_s = (end_bytes - start_bytes) / (end_s - start_s)
    assert 0.7 <= steady_bytes_per_s / (window_bytes / 2 / rtt_s) <= 1.3
    assert flow["goodput_mbps"] < window_bytes / 2 / rtt_s * 8 / 1e6
    assert flow["ack_frames_sent"] > 0


@needs_ngtcp2
@pytest.mark.needs_root
def test_run_with_ngtcp2_0rtt_resumes_and_saves_about_a_round_trip() -> None:
    """The same 50 kB download twice on one path, the second (after the first
    is over) resuming a warm-up's session and sending its request in 0-RTT."""
    flows, _ = run_ngtcp2("flows.0.size_bytes=50000",
                          "flows.1={transport: quic-ngtcp2, cc: cubic, size_bytes: 50000, zero_rtt: 'on', start_s: 3}")
    full, resumed = flows
    assert "zero_rtt_accepted" not in full
    assert resumed["zero_rtt_accepted"] is True
    assert full["download_time_s"] < 3  # over before the resumed one starts
    # Not quite a whole round trip: without an address validation token the
    # server's first flight stays within 3 x the client's first one.
    assert 0.6 * GEO_RTT_S <= full["download_time_s"] - resumed["download_time_s"] <= 1.2 * GEO_RTT_S
