"""The netem link backend: its tc arguments, its counters, the topology that
carries it, and a real run where the kernel has sch_netem."""

import json
from dataclasses import replace

import pytest

from satlab.engine import host, runner, topology
from satlab.engine.flows.tcp_iperf3 import Iperf3Flow
from satlab.engine.netem import netem_loss_args
from satlab.engine.plan import make_plan, new_run_id
from satlab.engine.process import run
from satlab.engine.samplers import parse_netem_stats
from satlab.engine.wait import wait_until
from satlab.scenario import Bernoulli, GilbertElliottPacket, GilbertElliottTime, Perfect, ScenarioError, load
from tests.conftest import LABS

needs_netem = pytest.mark.skipif(not host.has_netem(), reason="the kernel has no sch_netem")


def netem(*overrides: str):
    return load(LABS / "geo-ideal.yaml", ["path.link_backend=netem", *overrides])


def test_make_plan_puts_forward_on_the_gateway_and_return_on_the_terminal():
    plan = make_plan(netem(), "a1b2c3")
    forward, return_ = plan.netem["path.forward"], plan.netem["path.return"]
    assert (forward.netns, forward.dev) == (plan.namespaces["gateway"], "sata1b2c3")
    assert (return_.netns, return_.dev) == (plan.namespaces["terminal"], "sata1b2c3")
    # Limits: the 1.2 x BDP buffer in 1500-byte packets, plus what 250 ms of delay holds at the rate:
    # 900 kB -> 600 + 250 packets forward, 225 kB -> 150 + 63 return.
    assert forward.args == ["qdisc", "add", "dev", "sata1b2c3", "root", "netem", "limit", "850",
                            "delay", "250ms", "rate", "12mbit", "-14"]
    assert return_.args == ["qdisc", "add", "dev", "sata1b2c3", "root", "netem", "limit", "213",
                            "delay", "250ms", "rate", "3mbit", "-14"]


@pytest.mark.parametrize(("buffer", "limit"), [("{bytes: 100000}", "317"),  # ceil(100000 / 1500) + 250
                                               ("{packets: 100}", "350"),
                                               ("{bdp: 0.5}", "500")])  # 375 kB = 250 packets, + 250
def test_make_plan_counts_each_buffer_kind_in_netem_packets(buffer, limit):
    args = make_plan(netem(f"path.forward.buffer={buffer}"), "a1b2c3").netem["path.forward"].args
    assert args[args.index("limit") + 1] == limit


def test_make_plan_gives_netem_fractional_rates_and_delays():
    args = make_plan(netem("path.forward.rate_mbps=2.5", "path.forward.delay_ms=12.5"), "a1b2c3").netem[
        "path.forward"].args
    assert args[args.index("delay"):] == ["delay", "12.5ms", "rate", "2.5mbit", "-14"]


def test_make_plan_with_netem_replaces_satlink_by_a_veth_pair_of_mtu_sized_packets():
    plan = make_plan(netem("tunnel.k=5", "tunnel.z=100"), "a1b2c3")
    assert plan.satellite is None
    pair = plan.veths[0]
    assert (pair.a_netns, pair.b_netns) == (plan.namespaces["terminal"], plan.namespaces["gateway"])
    assert (pair.a_addr, pair.b_addr, pair.mtu) == ("10.131.1.1/24", "10.131.1.2/24", 1500)
    assert [v.mtu for v in plan.veths[1:]] == [1441, 1441]  # the tunnel's inner MTU beside the link
    assert {v.gso_max_segs for v in plan.veths} == {1}


def test_make_plan_with_netem_keeps_the_lan_segment_on_satlink():
    plan = make_plan(netem("path.lan.delay_ms=5"), "a1b2c3")
    assert plan.lan is not None and plan.satellite is None
    assert [v.a_netns for v in plan.veths] == [plan.namespaces["terminal"], plan.namespaces["gateway"]]


@pytest.mark.parametrize(("channel", "loss"), [
    (Perfect(), []),
    (Bernoulli(model="bernoulli", loss=0.01), ["loss", "random", "1%"]),
    # netem's order is p, r, 1-h (loss in the bad state), 1-k (loss in the good state)
    (GilbertElliottPacket(model="ge-packet", p=0.01, q=0.167, loss_good=0.001, loss_bad=0.9),
     ["loss", "gemodel", "1%", "16.7%", "90%", "0.1%"]),
    (GilbertElliottPacket(model="ge-packet", p=0.25, q=0.5), ["loss", "gemodel", "25%", "50%", "100%", "0%"]),
])
def test_netem_loss_args_express_each_supported_channel(channel, loss):
    assert netem_loss_args(channel) == loss


def test_make_plan_appends_the_loss_to_the_netem_arguments():
    args = make_plan(netem("path.return.channel={model: bernoulli, loss: 0.005}"), "a1b2c3").netem["path.return"].args
    assert args[-3:] == ["loss", "random", "0.5%"]


def test_netem_loss_args_reject_a_channel_netem_cannot_express():
    with pytest.raises(ValueError, match="netem cannot express channel model ge-time"):
        netem_loss_args(GilbertElliottTime(model="ge-time", p=0.1, q=0.2, step_ms=10))


# `tc -s -j qdisc show dev X` on a netem qdisc holding 3 packets (backlog in frames, 14-byte headers)
NETEM_STATS = json.dumps([{
    "kind": "netem", "handle": "8001:", "root": True, "refcnt": 2,
    "options": {"limit": 850, "delay": {"delay": 0.25, "jitter": 0, "correlation": 0},
                "rate": {"rate": 1500000, "packetoverhead": -14, "cellsize": 0, "celloverhead": 0},
                "ecn": False, "gap": 0},
    "bytes": 1514 * 100 + 66 * 10, "packets": 110, "drops": 7, "overlimits": 0, "requeues": 0,
    "backlog": 1514 * 3, "qlen": 3}])


def test_parse_netem_stats_uses_satlinks_names_for_ip_bytes():
    assert parse_netem_stats(NETEM_STATS) == {
        "packets_in": 120, "packets_out": 110, "bytes_out": 1500 * 100 + 52 * 10,
        "in_flight_packets": 3, "in_flight_bytes": 4500, "drops": 7}


def test_parse_netem_stats_ignores_a_root_qdisc_that_is_not_netem():
    noqueue = [{"kind": "noqueue", "handle": "0:", "root": True, "refcnt": 2, "options": {}, "bytes": 0,
                "packets": 0, "drops": 0, "overlimits": 0, "requeues": 0, "backlog": 0, "qlen": 0}]
    assert parse_netem_stats(json.dumps(noqueue)) is None


@pytest.mark.skipif(host.has_netem(), reason="the kernel has sch_netem")
def test_run_refuses_netem_without_sch_netem_before_creating_anything():
    run_id = new_run_id()
    with pytest.raises(ScenarioError) as error:
        runner.run(netem(), run_id=run_id)
    assert ("path.link_backend: netem cannot run on this host: the kernel has no sch_netem "
            "(tc's network emulator qdisc); use satlink" in error.value.problems)
    assert [name for name in topology.existing_namespaces() if run_id in name] == []


@pytest.mark.needs_root
def test_tc_parses_the_netem_arguments_of_every_supported_channel_and_buffer():
    scenarios = [netem("path.forward.buffer={packets: 100}", "path.forward.rate_mbps=2.5",
                       "path.forward.channel={model: bernoulli, loss: 0.005}"),
                 netem("path.forward.buffer={bytes: 100000}", "path.forward.delay_ms=12.5",
                       "path.return.channel={model: ge-packet, p: 0.01, q: 0.167, loss_good: 0.001, loss_bad: 0.9}")]
    plan = make_plan(load(LABS / "geo-ideal.yaml"), new_run_id())
    scratch = plan.namespaces["client"]
    with topology.run_lock(plan.run_id), topology.namespaces(plan):
        for scenario in scenarios:
            for qdisc in make_plan(scenario, plan.run_id).netem.values():
                args = ["lo" if arg == qdisc.dev else arg for arg in qdisc.args]
                done = run(["tc", *args], scratch, check=False)
                # tc parses the options before it asks the kernel: a kernel without sch_netem is the
                # only refusal left (tc exits 1 with "What is ...?" on an option it cannot parse).
                assert done.returncode == 0 or "Specified qdisc kind is unknown" in done.stderr, done.stderr
                run(["tc", "qdisc", "del", "dev", "lo", "root"], scratch, check=False)


@pytest.mark.needs_root
def test_namespaces_build_the_netem_link_and_route_across_it(tmp_path):
    # pfifo stands in for netem (which this kernel may lack): the veth pair, its addresses, the
    # routes, the segmentation settings and the tc commands are the netem plan's own.
    plan = make_plan(netem("flows.0.size_bytes=300000"), new_run_id())
    plan = replace(plan, netem={direction: replace(qdisc, args=[*qdisc.args[:qdisc.args.index("netem")],
                                                                "pfifo", "limit", "1000"])
                                for direction, qdisc in plan.netem.items()})
    flow = Iperf3Flow(plan.flows[0], tmp_path)
    with topology.run_lock(plan.run_id), topology.namespaces(plan):
        try:
            topology.add_routes(plan)
            (sender,) = json.loads(run(["ip", "-d", "-j", "link", "show", f"srv{plan.run_id}"],
                                       plan.namespaces["server"]).stdout)
            assert (sender["mtu"], sender["gso_max_segs"]) == (1500, 1)
            flow.start_server()
            flow.start_client()
            wait_until(flow.done, 20, "a 300 kB download across the veth pair")
            assert flow.collect().bytes >= 300_000
        finally:
            flow.stop()
        for direction, qdisc in plan.netem.items():
            (shown,) = json.loads(run(["tc", "-s", "-j", "qdisc", "show", "dev", qdisc.dev], qdisc.netns).stdout)
            assert (shown["kind"], shown["packets"] > 0) == ("pfifo", True), direction
    assert [name for name in topology.existing_namespaces() if plan.run_id in name] == []


@pytest.mark.needs_root
@needs_netem
def test_run_downloads_2mb_over_netem_geo_ideal():
    result = runner.run(netem("flows.0.size_bytes=2000000"))
    assert result.status == "done", result.error
    (flow,) = result.flows
    assert flow["bytes"] >= 2_000_000
    # As over satlink: 1.33 s at 12 Mbit/s at least, and slow start over a 500 ms RTT takes seconds more.
    assert 2.0 < flow["download_time_s"] < 15.0
    assert flow["mean_rtt_ms"] >= 500
    link = result.iterations[0]["link"]
    assert link["forward"]["bytes_out"] >= 2_000_000
    assert link["return"]["packets_out"] > 0
    assert [name for name in topology.existing_namespaces() if result.run_id in name] == []
