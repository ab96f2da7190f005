"""Cross traffic: UDP streams beside the flows, planned, run and reported."""

import pytest

from satlab.engine import runner, topology
from satlab.engine.cross_traffic import Iperf3CrossTraffic
from satlab.engine.plan import make_plan
from satlab.scenario import load
from tests.conftest import LABS

DOWNLOAD_1MB = ["flows.0.size_bytes=1000000"]


def test_collect_reports_a_stream_whose_offset_never_came(tmp_path):
    scenario = load(LABS / "geo-ideal.yaml", ["cross_traffic=[{rate_mbps: 1, start_s: 600}]"])
    row = Iperf3CrossTraffic(make_plan(scenario, "a1b2c3").cross_traffic[0], tmp_path).collect()
    assert row["started"] is False
    assert (row["sent_bytes"], row["loss_ratio"], row["error"]) == (None, None, None)


@pytest.mark.needs_root
def test_run_with_udp_cross_traffic_on_the_return_link_reports_it_apart_from_the_flows():
    without = runner.run(load(LABS / "geo-ideal.yaml", DOWNLOAD_1MB))
    events = []
    scenario = load(LABS / "geo-ideal.yaml", [*DOWNLOAD_1MB, "cross_traffic=[{link: return, rate_mbps: 2.5}]"])
    with_cross = runner.run(scenario, events.append)
    assert [without.status, with_cross.status] == ["done", "done"], [without.error, with_cross.error]
    assert without.iterations[0]["cross_traffic"] == []
    (flow,) = with_cross.flows  # the stream is no flow: not in the flows, nor in Jain's index
    assert flow["bytes"] >= 1_000_000
    assert with_cross.iterations[0]["jain_index"] is None
    (cross,) = with_cross.iterations[0]["cross_traffic"]
    assert (cross["link"], cross["started"], cross["error"]) == ("return", True, None)
    assert cross["sent_mbps"] == pytest.approx(2.5, rel=0.05)
    # 2.5 Mbit/s beside the ACKs fit in 3 Mbit/s: whatever was lost, most arrived.
    assert cross["received_bytes"] > 0.9 * cross["sent_bytes"]
    assert 0 <= cross["loss_ratio"] < 0.05
    # It crossed the return link: satlink carried its datagrams there, beside the ACKs.
    returned = [run.iterations[0]["link"]["return"]["bytes_out"] for run in (without, with_cross)]
    assert returned[1] - returned[0] > cross["received_bytes"]
    running = [sample["cross_traffic"] for sample in events if sample["type"] == "sample"]
    assert running[0] == [{"index": 0, "running": True}] and running[-1] == running[0]
    for run in (without, with_cross):
        assert [name for name in topology.existing_namespaces() if run.run_id in name] == []
