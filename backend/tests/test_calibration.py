"""Calibration: the search for the largest k, the judgement of a step, and a
quick real calibration of every kind."""

import socket
import time

import pytest

from satlab.engine import calibration, capacity, fidelity, topology
from satlab.engine.calibration import CalibrationParameters, Step, largest_holding


@pytest.mark.parametrize("most", [1, 2, 5, 16])
def test_largest_holding_finds_every_threshold_measuring_each_k_once(most):
    for threshold in range(1, most + 1):
        tried: list[int] = []

        def holds(k: int, threshold: int = threshold, tried: list[int] = tried) -> bool:
            tried.append(k)
            return k <= threshold

        assert largest_holding(holds, most) == threshold
        assert len(tried) == len(set(tried)) and 1 not in tried and all(k <= most for k in tried)


def test_largest_holding_doubles_then_bisects():
    tried: list[int] = []
    assert largest_holding(lambda k: tried.append(k) or k <= 11, 16) == 11
    assert tried == [2, 4, 8, 16, 12, 10, 11]


def test_reference_scenarios_are_of_their_kind_and_share_hystart():
    parameters = CalibrationParameters()
    for kind in capacity.RUN_KINDS:
        scenario = calibration.reference_scenario(kind, parameters)
        assert capacity.run_kind(scenario) == kind
        assert scenario.flows[0].size_bytes == parameters.size_bytes
        assert scenario.path.forward.rate_mbps == 12 and scenario.path.forward.delay_ms == 250
    tcp = calibration.reference_scenario("kernel_tcp", parameters)
    tunnel = calibration.reference_scenario("tunnel", parameters)
    assert tcp.hystart is tunnel.hystart is False  # the TCP kinds may run together
    assert calibration.reference_scenario("quic", parameters).hystart is None
    # Only the tunnel's path loses packets: its decoder works only then.
    assert tunnel.path.forward.channel.model == "bernoulli" and tunnel.path.forward.channel.loss == 0.027
    assert tcp.path.forward.channel.model == "perfect"
    assert calibration.reference_scenario("quic", parameters).path.forward.channel.model == "perfect"


def step(times_s, lateness_p99_ms=0.2, failures=(), tunnel_lateness_p99_ms=None):
    return Step(len(times_s) + len(failures), list(times_s), lateness_p99_ms, 1.0, 0.01, list(failures),
                tunnel_lateness_p99_ms)


def test_a_step_holds_within_the_tolerance_and_under_the_lateness_limit():
    parameters = CalibrationParameters()
    assert calibration.step_problems(step([10.1, 10.15, 9.9]), 10.0, parameters) == []
    assert calibration.step_problems(step([10.1, 10.3, 10.4]), 10.0, parameters) == [
        "the median download took 10.300 s, +3.0% from the lone run's 10.000 s (tolerance ±2%)"]
    assert calibration.step_problems(step([10.0, 10.0], lateness_p99_ms=1.0), 10.0, parameters) == [
        "satlink's lateness p99 reached 1 ms (limit 1 ms)"]
    # A tunnel endpoint late where satlink kept time: the step does not hold either.
    assert calibration.step_problems(step([10.0], tunnel_lateness_p99_ms=0.9), 10.0, parameters) == []
    assert calibration.step_problems(step([10.0], tunnel_lateness_p99_ms=2.5), 10.0, parameters) == [
        "swf-tunnel's lateness p99 reached 2.5 ms (limit 1 ms)"]
    assert calibration.step_problems(step([10.0], failures=["run abc: boom"]), 10.0, parameters) == [
        "run abc: boom"]


def test_busy_loops_keep_a_cpu_busy_and_stop():
    with calibration.busy_loops(1) as (loop,):
        deadline = time.monotonic() + 10
        while fidelity.read_process_cpu_s(loop.process.pid) < 0.2:
            assert time.monotonic() < deadline, "the busy loop used no CPU"
            time.sleep(0.05)
    assert not loop.running()


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_quick_calibration_of_every_kind(tmp_path):
    steps: list[dict] = []
    measured = calibration.calibrate(CalibrationParameters.quick(), on_step=steps.append)
    assert measured.host["host_name"] == socket.gethostname()
    assert set(measured.kinds) | set(measured.unavailable) == set(capacity.RUN_KINDS)
    assert "kernel_tcp" in measured.kinds and "tunnel" in measured.kinds
    for kind, kind_capacity in measured.kinds.items():
        evidence = kind_capacity.evidence
        assert evidence["reference"]["size_bytes"] == 1_000_000
        (lone,) = evidence["lone"]
        assert lone["concurrent"] == 1 and lone["failures"] == []
        assert evidence["lone_median_download_time_s"] == lone["median_download_time_s"] > 0
        assert evidence["lone_spread_ratio"] == 0  # one lone run
        # The tunnel's reference loses packets and its tunnel rebuilt them; the other kinds have no tunnel.
        assert (lone["tunnel_recovered"] > 0) if kind == "tunnel" else lone["tunnel_recovered"] is None
        if not evidence["lone_kept_up"]:
            assert kind_capacity.max_concurrent == 1 and evidence["steps"] == []
            continue
        (pair,) = evidence["steps"]  # the quick calibration tries 2 at once, no more
        assert pair["concurrent"] == 2
        assert len(pair["download_times_s"]) + len(pair["failures"]) == 2
        assert pair["lateness_p99_ms"] is not None and pair["load_avg_1m_max"] >= 0
        assert kind_capacity.max_concurrent == (1 if pair["problems"] else 2)
    assert [(s["kind"], s["concurrent"]) for s in steps] == [
        (kind, step["concurrent"]) for kind, kind_capacity in measured.kinds.items()
        for step in [*kind_capacity.evidence["lone"], *kind_capacity.evidence["steps"]]]
    path = tmp_path / "calibration.json"
    capacity.save(measured, path)
    assert capacity.load(path) == measured
    assert [name for name in topology.existing_namespaces() if "calibration" in name] == []
