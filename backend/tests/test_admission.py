"""Admission by cost: what may start beside what runs, without touching the host."""

from fractions import Fraction

import pytest

from satlab.engine import admission
from satlab.engine.admission import Decision, Demand
from satlab.engine.capacity import Calibration, KindCapacity
from satlab.scenario import load
from tests.conftest import LABS

CALIBRATION = Calibration(measured_at="2026-11-27T10:00:00+00:00", host={}, parameters={},
                          kinds={"kernel_tcp": KindCapacity(max_concurrent=16),
                                 "tunnel": KindCapacity(max_concurrent=8),
                                 "quic": KindCapacity(max_concurrent=3)})
TCP, TUNNEL, QUIC = Demand("kernel_tcp", False), Demand("tunnel", False), Demand("quic", None)


def test_a_kind_fills_the_host_up_to_its_calibrated_count():
    assert admission.decide(QUIC, [QUIC, QUIC], CALIBRATION) == Decision(True)
    refused = admission.decide(QUIC, [QUIC, QUIC, QUIC], CALIBRATION)
    assert refused == Decision(False, "the running runs take 100% of this host and a quic run takes 33% "
                                      "(this host runs 3 at once faithfully)")
    assert admission.decide(TCP, [TCP] * 15, CALIBRATION).admitted
    assert not admission.decide(TCP, [TCP] * 16, CALIBRATION).admitted


def test_kinds_mix_by_their_costs():
    # 1/3 + 4/8 = 5/6 taken: a sixth left, which two kernel TCP runs (1/16 each) fit and a tunnel run (1/8) too.
    running = [QUIC, TUNNEL, TUNNEL, TUNNEL, TUNNEL]
    assert admission.used(running, CALIBRATION) == Fraction(5, 6)
    assert admission.decide(TUNNEL, running, CALIBRATION).admitted
    assert admission.decide(TCP, [*running, TCP], CALIBRATION).admitted
    assert not admission.decide(QUIC, running, CALIBRATION).admitted
    # Exactly full is allowed: three thirds add up to 1 without rounding.
    assert admission.decide(QUIC, [QUIC, QUIC], CALIBRATION).admitted


def test_a_quic_run_weighs_one_unit_per_quic_flow():
    five = Demand("quic", None, 5)  # five picoquic flows: five one-flow runs' work
    assert admission.cost(five, CALIBRATION) == Fraction(5, 3)
    assert admission.decide(five, [], CALIBRATION).admitted  # an idle host still takes it, alone
    refused = admission.decide(five, [TCP], CALIBRATION)
    assert refused == Decision(False, "the running runs take 6% of this host and a quic run of 5 QUIC flows (one "
                                      "run's share each) takes 167% (this host runs 3 at once faithfully)")
    two = Demand("quic", None, 2)
    assert admission.decide(QUIC, [two], CALIBRATION).admitted
    assert not admission.decide(two, [two], CALIBRATION).admitted


def test_runs_with_opposite_hystart_never_share_a_host_whatever_the_room():
    hystart_on = Demand("kernel_tcp", True)
    refused = admission.decide(hystart_on, [TCP], CALIBRATION)
    assert refused == Decision(False, "it needs CUBIC's Hystart on and a running run needs it off: Hystart is "
                                      "host-wide, so the two never run together")
    assert not admission.decide(hystart_on, [TCP], None).admitted
    # The same setting, or a run that leaves Hystart alone, shares.
    assert admission.decide(hystart_on, [hystart_on, QUIC], CALIBRATION).admitted
    assert admission.decide(QUIC, [hystart_on, TCP], CALIBRATION).admitted


def test_an_idle_host_takes_one_run_of_any_cost():
    lone = Calibration(measured_at="x", host={}, parameters={}, kinds={"quic": KindCapacity(max_concurrent=1)})
    assert admission.decide(QUIC, [], lone).admitted
    assert admission.decide(TUNNEL, [], lone).admitted


def test_a_kind_the_calibration_lacks_runs_alone():
    partial = Calibration(measured_at="x", host={}, parameters={}, kinds={"kernel_tcp": KindCapacity(max_concurrent=4)})
    assert admission.decide(QUIC, [], partial).admitted
    refused = admission.decide(QUIC, [TCP], partial)
    assert refused == Decision(False, "the running runs take 25% of this host and a quic run takes 100% "
                                      "(this host's calibration lacks the kind, so it runs alone)")
    assert not admission.decide(TCP, [QUIC], partial).admitted


def test_without_a_calibration_only_the_upper_bound_counts():
    assert admission.decide(QUIC, [QUIC] * 7, None).admitted
    assert admission.decide(QUIC, [QUIC] * 7, None, max_runs=8).admitted
    assert admission.decide(QUIC, [QUIC] * 8, None, max_runs=8) == Decision(
        False, "8 runs are running, the most allowed at once (parallel: 8)")


def test_the_upper_bound_applies_with_a_calibration_too():
    assert not admission.decide(TCP, [TCP] * 4, CALIBRATION, max_runs=4).admitted


@pytest.mark.parametrize(("overrides", "expected"), [
    ([], Demand("kernel_tcp", False)),
    (["tunnel.k=5", "tunnel.z=100"], Demand("tunnel", False)),
    (["flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000000}"], Demand("quic", None)),
    # Five QUIC flows weigh five; TCP flows beside them (the kernel's) nothing more.
    (["flows=[{transport: quic-picoquic, cc: bbr1, size_bytes: 1000000, count: 5}, {size_bytes: 1000000}]"],
     Demand("quic", None, 5)),
    (["flows.0.count=5", "tunnel.k=5", "tunnel.z=100"], Demand("tunnel", False)),
])
def test_demand_of_a_scenario(overrides, expected):
    assert admission.demand(load(LABS / "geo-ideal.yaml", overrides)) == expected
