import csv
from dataclasses import replace
from typing import Any

import pytest

from satlab.engine.flows.base import FlowResult, FlowSample
from satlab.engine.plan import PlannedFlow
from satlab.engine.summary import (
    FlowSeries,
    TimedSample,
    convergence_window_s,
    fec_summary,
    flow_series,
    flow_summary,
    goodput_mbps,
    iteration_flow_metrics,
    jain_index,
    latecomer_convergence_s,
    phase_summary,
    power,
)
from tests.test_samplers import RECORDED


def test_jain_index_of_equal_shares_is_one():
    assert jain_index([3.0, 3.0, 3.0]) == pytest.approx(1.0)


def test_jain_index_of_one_greedy_flow_is_one_over_n():
    assert jain_index([8.0, 0.0, 0.0, 0.0]) == pytest.approx(0.25)


def test_jain_index_of_unequal_shares():
    assert jain_index([1.0, 2.0, 3.0]) == pytest.approx(36 / 42)


def test_jain_index_without_throughput_is_none():
    assert jain_index([]) is None
    assert jain_index([0.0, 0.0]) is None


def test_goodput_of_20_mib_in_17_84_s():
    assert goodput_mbps(20971520, 17.84) == pytest.approx(9.404, abs=1e-3)
    assert goodput_mbps(100, None) is None


def test_power_divides_goodput_by_rtt_in_seconds():
    assert power(10.0, 500.0) == pytest.approx(20.0)
    assert power(None, 500.0) is None


def test_fec_summary_counts_residual_loss_over_source_packets():
    line = {"rx": {"sources": 900, "repairs": 200, "lost": 100, "recovered": 90,
                   "decoding_delay_ms": None}}
    fec = fec_summary(line)
    assert (fec["recovered"], fec["residual_loss"]) == (90, pytest.approx(0.01))
    assert (fec["held"], fec["hold_timeouts"], fec["hold_delay_ms"]) == (None, None, None)


def test_fec_summary_of_an_in_order_tunnel_says_how_long_it_held_packets():
    delay = {"p50": 40.0, "p99": 180.0, "max": 200.0, "count": 51}
    line = {"rx": {"sources": 900, "repairs": 200, "lost": 100, "recovered": 90, "decoding_delay_ms": None,
                   "held": 51, "hold_timeouts": 2, "hold_delay_ms": delay}}
    assert {key: fec_summary(line)[key] for key in ("held", "hold_timeouts", "hold_delay_ms")} == {
        "held": 51, "hold_timeouts": 2, "hold_delay_ms": delay}


# Figures over time, on sample series at the engine's 10 Hz: recorded ones
# (tests/recorded, see test_samplers.py) and synthetic ones of known shape.
GEO_FORWARD_MBPS = 12.0
GEO_BASE_RTT_MS = 500.0


def planned(index: int = 0, group: int = 0, start_s: float = 0.0, size_bytes: int | None = 2_000_000,
            direction: str = "download") -> PlannedFlow:
    return PlannedFlow(index, group, "tcp", "cubic", size_bytes, None if size_bytes else 60.0, start_s, direction,
                       5201 + index, "satlab-t-cli", "satlab-t-ser", "10.64.2.2")


def recorded_samples(name: str) -> list[TimedSample]:
    with (RECORDED / f"goodput-{name}.csv").open() as file:
        rows = list(csv.DictReader(line for line in file if not line.startswith("#")))
    return [(float(row["t_s"]), FlowSample(bytes_acked=int(row["delivered_bytes"]), rtt_ms=float(row["rtt_ms"])))
            for row in rows]


def synthetic(rates_mbps: list[tuple[float, float]], start_s: float, end_s: float, rtt_ms: float = 500.0,
              retransmissions_at: dict[float, int] | None = None) -> list[TimedSample]:
    """Samples every 100 ms from start_s to end_s of a flow delivering at
    rates_mbps[i][1] from time rates_mbps[i][0] on; cumulative retransmissions
    stepping up at the given times."""
    samples, delivered, retransmitted = [], 0.0, 0
    ticks = round((end_s - start_s) * 10)
    for tick in range(ticks + 1):
        t_s = start_s + tick / 10
        if tick:
            rate = next(rate for since, rate in reversed(rates_mbps) if since <= t_s - 0.05)
            delivered += rate * 1e6 / 8 / 10
        retransmitted = max([count for at, count in (retransmissions_at or {}).items() if at <= t_s], default=0)
        samples.append((t_s, FlowSample(bytes_acked=round(delivered), rtt_ms=rtt_ms,
                                        retransmissions=retransmitted)))
    return samples


def series_of(samples: list[TimedSample], **flow: Any) -> FlowSeries:
    # Synthetic flows start their data at the start the scenario gives them.
    return flow_series(planned(**flow), samples, GEO_FORWARD_MBPS, planned(**flow).start_s, GEO_FORWARD_MBPS)


def test_startup_ends_when_the_live_goodput_first_reaches_90_percent_of_the_bottleneck():
    # 3 Mbit/s for 2 s, then 6, then the whole link (12) from 4 s to 10 s; RTT 500 ms.
    samples = synthetic([(0, 3.0), (2, 6.0), (4, 12.0)], 0.0, 10.0,
                        retransmissions_at={1.0: 2, 6.0: 5})
    phases = phase_summary(series_of(samples))
    # Over the last 500 ms the goodput first reaches 10.8 Mbit/s at 4.5 s (a whole RTT at 12 Mbit/s).
    assert phases["startup_s"] == pytest.approx(4.5)
    # (2 s x 3 + 2 s x 6 + 0.5 s x 12) Mbit over 4.5 s, then 12 Mbit/s.
    assert phases["startup_goodput_mbps"] == pytest.approx(24 / 4.5)
    assert phases["steady_goodput_mbps"] == pytest.approx(12.0)
    assert (phases["startup_retransmissions"], phases["steady_retransmissions"]) == (2, 3)
    assert phases["startup_mean_rtt_ms"] == phases["steady_mean_rtt_ms"] == pytest.approx(500.0)


def test_startup_counts_from_the_flows_start_not_from_its_first_sample():
    # Started at 3 s, first sampled at 3.2 s (its connection's set-up), the whole link from 3.5 s.
    samples = synthetic([(3.0, 0.0), (3.5, 12.0)], 3.0, 6.0)[2:]
    phases = phase_summary(series_of(samples, start_s=3.0))
    assert phases["startup_s"] == pytest.approx(1.0)  # a whole RTT of 500 ms at 12 Mbit/s by 4 s
    assert phases["startup_goodput_mbps"] == pytest.approx(6.0)


def test_a_flow_that_never_reaches_90_percent_is_all_startup():
    # The recorded 5 MB CUBIC run through S(5,100) on the optical channel: at most 9.4 Mbit/s of the 12.
    phases = phase_summary(series_of(recorded_samples("geo-optical-S5-100-tcp-cubic-5MB")))
    assert phases["startup_s"] is None
    assert phases["steady_goodput_mbps"] is phases["steady_mean_rtt_ms"] is phases["steady_retransmissions"] is None
    # The whole flow: its 5 MB over the 9.6 s to its last sample, though 2.4 MB of them came in one
    # cumulative ACK at the end (which the goodput curve would spread over 1.6 s more).
    assert phases["startup_goodput_mbps"] == pytest.approx(5_111_808 * 8 / 9.600115 / 1e6)


def test_startup_of_a_recorded_picoquic_bbr1_download():
    series = series_of(recorded_samples("geo-ideal-picoquic-bbr1-2MB"))
    phases = phase_summary(series)
    first_at_90 = next(p.t_s for p in series.points if p.goodput_mbps and p.goodput_mbps >= 10.8)
    assert phases["startup_s"] == pytest.approx(first_at_90) == pytest.approx(3.4, abs=0.01)
    assert phases["steady_mean_rtt_ms"] > phases["startup_mean_rtt_ms"]  # the queue it built


def test_a_sample_without_a_delivered_count_counts_in_the_rtt_not_in_the_goodput():
    # A QUIC receiver that has not reported yet: the sender's RTT is there, the delivered count is not.
    samples = [(0.1, FlowSample(rtt_ms=800.0)), *synthetic([(0.2, 12.0)], 0.2, 2.0, rtt_ms=450.0)]
    series = series_of(samples)
    # No goodput without a count; at the first count, none yet since the start (nothing delivered by 0.2 s).
    assert [point.goodput_mbps for point in series.points[:2]] == [None, 0.0]
    row = flow_summary(planned(), FlowResult(2_000_000, 2.0, 0), series, 0)
    assert row["mean_rtt_ms"] == pytest.approx((800 + 19 * 450) / 20)
    # The whole link from 0.2 s on: the window of the last RTT (450 ms) reaches back to the silent
    # start until 0.65 s, so the first sample at 90 % of the link is at 0.7 s.
    assert row["startup_s"] == pytest.approx(0.7)


def test_flow_summary_gives_link_utilisation_of_the_flows_direction():
    samples = synthetic([(0, 3.0)], 0.0, 2.0)
    row = flow_summary(planned(direction="upload"), FlowResult(1_000_000, 4.0, 0),
                       flow_series(planned(direction="upload"), samples, 3.0, 0.0, 3.0), 0)
    assert (row["direction"], row["bottleneck_mbps"]) == ("upload", 3.0)
    assert row["link_utilisation_ratio"] == pytest.approx(2.0 / 3.0)


def two_flows(late_rate_mbps: float) -> list[FlowSeries]:
    """An elephant alone on the 12 Mbit/s link for 10 s, then a latecomer
    (from 10 s) that reaches late_rate_mbps 2 s after its start, the
    elephant making room, until both end at 30 s."""
    elephant = synthetic([(0, 12.0), (10, 12.0 - late_rate_mbps / 2), (12, 12.0 - late_rate_mbps)], 0.0, 30.0)
    late = synthetic([(10, late_rate_mbps / 2), (12, late_rate_mbps)], 10.0, 30.0)
    return [series_of(elephant, size_bytes=None), series_of(late, index=1, group=1, start_s=10.0)]


def test_a_latecomer_converges_once_its_goodput_stays_near_its_fair_share():
    flows = two_flows(late_rate_mbps=6.0)
    window_s = convergence_window_s(GEO_BASE_RTT_MS)
    assert window_s == 2.0  # 4 round trips of 500 ms
    # Over 2 s windows its goodput is 3 + 3 x (t - 12) / 2 ... within 20 % of 6 (>= 4.8) from t = 13.2 s.
    assert latecomer_convergence_s(flows[1], flows, window_s) == pytest.approx(3.2)
    metrics = iteration_flow_metrics(flows, GEO_BASE_RTT_MS)
    assert [m["latecomer"] for m in metrics] == [False, True]
    assert metrics[0]["latecomer_convergence_s"] is None
    assert metrics[1]["latecomer_convergence_s"] == pytest.approx(3.2)


def test_a_latecomer_that_stays_far_from_its_fair_share_never_converges():
    flows = two_flows(late_rate_mbps=2.0)
    assert latecomer_convergence_s(flows[1], flows, 2.0) is None


def test_a_latecomer_that_leaves_its_fair_share_again_converges_only_after_its_last_excursion():
    elephant = synthetic([(0, 6.0)], 0.0, 30.0)
    late = synthetic([(5, 6.0), (15, 1.0), (16, 6.0)], 5.0, 30.0)
    flows = [series_of(elephant), series_of(late, index=1, group=1, start_s=5.0)]
    # The dip at 15-16 s leaves the band while the 2 s window holds it: from 15.5 to 17.6 s.
    assert latecomer_convergence_s(flows[1], flows, 2.0) == pytest.approx(17.6 - 5.0)


def test_a_flow_of_the_other_direction_is_no_peer_of_a_latecomer():
    flows = two_flows(late_rate_mbps=6.0)
    upload = replace(flows[0], direction="upload")
    assert iteration_flow_metrics([upload, flows[1]], GEO_BASE_RTT_MS)[1]["latecomer"] is False


def test_short_flows_beside_a_long_one_are_labelled():
    elephant = series_of(synthetic([(0, 10.0)], 0.0, 30.0), size_bytes=None)
    mouse = series_of(synthetic([(2, 2.0)], 2.0, 4.0), index=1, group=1, start_s=2.0, size_bytes=500_000)
    same_group = series_of(synthetic([(0, 2.0)], 0.0, 3.0), index=2, group=0, size_bytes=500_000)
    metrics = iteration_flow_metrics([elephant, mouse, same_group], GEO_BASE_RTT_MS)
    assert [m["short_beside_long"] for m in metrics] == [False, True, False]


def test_a_recorded_run_is_measured_from_its_data_connection_first_packet():
    """Issue 18: a 2 MB run reported a download time of 4.765 s and a start-up of 6.5 s, its samples
    starting with 0.8-2.7 s of iperf3's control connection. A 10 MB run recorded on the clock of its
    data connection's SYN (tests/recorded/origin-*.csv, the engine's samples and figures)."""
    with (RECORDED / "origin-geo-ideal-tcp-cubic-10MB.csv").open() as file:
        lines = file.readlines()
    engine = dict(field.split("=") for field in lines[1].lstrip("# ").split())
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    samples = [(float(row["t_s"]), FlowSample(bytes_acked=int(row["acked_bytes"]), rtt_ms=float(row["rtt_ms"]),
                                              retransmissions=int(row["retransmissions"]))) for row in rows]
    series = flow_series(planned(size_bytes=10_000_000), samples, GEO_FORWARD_MBPS, 0.0, GEO_FORWARD_MBPS)
    startup_s = phase_summary(series)["startup_s"]
    # The store keeps each tick's time, the engine the moment it read the socket: within a tick.
    assert startup_s == pytest.approx(float(engine["startup_s"]), abs=0.1)
    assert max(startup_s, float(engine["startup_s"])) <= float(engine["download_time_s"])
    # The first sample is of the data connection: the sender's socket is established a round trip and
    # a half after the client's SYN (the clock's origin), the count starts at 0 and never steps back.
    first_t_s, first = samples[0]
    assert first_t_s >= 1.5 * GEO_BASE_RTT_MS / 1e3 - 0.01
    assert first.bytes_acked == 0
    counts = [sample.bytes_acked or 0 for _, sample in samples]
    assert counts == sorted(counts)
    # On the former clock the first samples were the control connection's: 2 bytes, then the data's 0.
    former = [sample.bytes_acked or 0 for _, sample in recorded_samples("geo-ideal-tcp-cubic-2MB")]
    assert former != sorted(former)


def test_a_short_flow_scheduled_with_a_long_one_is_beside_it_whichever_connection_opened_first():
    # Both scheduled at 0 s; the long flow's data connection opened 5 ms after the short one's.
    elephant = replace(series_of(synthetic([(0, 10.0)], 0.0, 30.0), size_bytes=None), start_s=0.005)
    mouse = series_of(synthetic([(0, 2.0)], 0.0, 4.0), index=1, group=1, size_bytes=500_000)
    metrics = iteration_flow_metrics([mouse, elephant], GEO_BASE_RTT_MS)
    assert [m["short_beside_long"] for m in metrics] == [True, False]
