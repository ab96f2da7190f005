"""What one student's run may ask for, from its scenario alone
(satlab.service.scenario_quotas): every flow's end bounded, a size-bound
flow's from the slowest link it crosses (issue 20, defect 3)."""

import math

import pytest

from satlab.scenario import validate
from satlab.service.scenario_quotas import WIRE_PER_PAYLOAD, best_case_end_s, bottleneck, problems
from satlab.settings import Limits

PATH = {"forward": {"rate_mbps": 12, "delay_ms": 250}, "return": {"rate_mbps": 3, "delay_ms": 250}}


def scenario(flows, **more):
    return validate({"path": PATH, "flows": flows, **more})


def seconds(size_bytes: float, rate_mbps: float) -> float:
    return size_bytes * WIRE_PER_PAYLOAD * 8 / (rate_mbps * 1e6)


def test_a_download_ends_at_best_when_its_bytes_crossed_the_forward_link():
    end_s, narrowest, left_mbps = best_case_end_s(scenario([{"size_bytes": 15_000_000, "start_s": 10}]), False)
    assert (narrowest.field, left_mbps) == ("path.forward.rate_mbps", 12)
    assert end_s == pytest.approx(10 + seconds(15_000_000, 12))


def test_flows_of_a_direction_share_it_after_the_latest_start_and_the_duration_bound_ones():
    flows = [{"size_bytes": 1_000_000, "count": 4}, {"size_bytes": 2_000_000, "start_s": 5},
             {"duration_s": 30}, {"size_bytes": 10_000_000, "direction": "upload"}]
    end_s, _, _ = best_case_end_s(scenario(flows), False)
    assert end_s == pytest.approx(5 + 30 + seconds(6_000_000, 12))
    end_s, narrowest, _ = best_case_end_s(scenario(flows), True)
    assert narrowest.field == "path.return.rate_mbps" and end_s == pytest.approx(seconds(10_000_000, 3))


def test_the_lan_cross_traffic_and_the_tunnel_take_their_share():
    lan = scenario([{"size_bytes": 1_000_000}], path={**PATH, "lan": {"rate_mbps": 2}})
    assert bottleneck(lan, False).field == "path.lan.rate_mbps"
    crossed = scenario([{"size_bytes": 1_000_000}], cross_traffic=[{"link": "forward", "rate_mbps": 9}])
    assert best_case_end_s(crossed, False)[2] == pytest.approx(3)
    assert best_case_end_s(crossed, True)[0] == 0.0  # no upload
    tunnelled = scenario([{"size_bytes": 1_000_000}], tunnel={"k": 5, "z": 50})
    assert best_case_end_s(tunnelled, False)[2] == pytest.approx(10)
    full = scenario([{"size_bytes": 1}], cross_traffic=[{"link": "forward", "rate_mbps": 12}])
    assert math.isinf(best_case_end_s(full, False)[0])
    assert "the cross traffic leaves its downloads no capacity" in problems(full, Limits())[0].sentence


def test_a_rate_traces_lowest_rate_bounds_the_time(tmp_path):
    trace = tmp_path / "rates.txt"
    trace.write_text("0 12\n1000 0.5\n2000 12\n")
    traced = scenario([{"size_bytes": 1_000_000}],
                      path={**PATH, "forward": {**PATH["forward"], "rate_trace": {"file": str(trace)}}})
    narrowest = bottleneck(traced, False)
    assert (narrowest.field, narrowest.rate_mbps) == ("path.forward.rate_trace", 0.5)
    assert best_case_end_s(traced, False)[0] == pytest.approx(seconds(1_000_000, 0.5))


def test_what_a_student_may_not_run_is_named_with_its_quota():
    limits = Limits()
    found = problems(scenario([{"size_bytes": 50_000_000}], path={**PATH, "forward": {"rate_mbps": 0.001,
                                                                                      "delay_ms": 250}}), limits)
    assert [problem.field for problem in found] == ["flows.0"]
    assert found[0].sentence.startswith("flows.0: its downloads' bytes over the slowest link "
                                        "(path.forward.rate_mbps: 0.001 Mbit/s left for them) end at ")
    assert found[0].sentence.endswith("later than a student's flow may (120 s, student_flow_duration_s)")
    assert problems(scenario([{"size_bytes": 1_000_000}]), limits) == []
    late = problems(scenario([{"size_bytes": 1_000_000}], cross_traffic=[{"rate_mbps": 1, "start_s": 200}]), limits)
    assert [problem.field for problem in late] == ["cross_traffic.0"]
