import pytest

from satlab.engine.plan import FIRST_CROSS_TRAFFIC_PORT, NAME_PREFIX, channel_spec, derive_seed, make_plan
from satlab.scenario import GilbertElliottTime, ScenarioError, load
from tests.conftest import LABS


def optical(*overrides: str):
    return load(LABS / "geo-optical.yaml", list(overrides))


def test_make_plan_is_deterministic():
    assert make_plan(optical(), "a1b2c3", 2) == make_plan(optical(), "a1b2c3", 2)


def test_make_plan_derives_distinct_seeds_per_channel_and_iteration():
    first, second = make_plan(optical(), "a1b2c3", 0), make_plan(optical(), "a1b2c3", 1)
    assert first.seeds["path.forward.channel"] != first.seeds["path.return.channel"]
    assert first.seeds["path.forward.channel"] != second.seeds["path.forward.channel"]
    assert first.seeds["path.forward.channel"] == derive_seed(1, 0, "path.forward.channel")


def test_make_plan_keeps_an_explicit_channel_seed():
    plan = make_plan(optical("path.forward.channel.seed=42"), "a1b2c3")
    assert plan.seeds["path.forward.channel"] == 42
    assert "ge-time:p=0.01573208263276403,q=0.5988023952095809,step_ms=10.0,seed=42" in plan.satellite.args


def test_make_plan_gives_satlink_the_p_and_q_of_measured_statistics():
    # 2.56 % of the time lost in bursts of 16.7 ms on 10 ms steps: q = 10 / 16.7, p = q * 0.0256 / 0.9744.
    plan = make_plan(optical(), "a1b2c3")
    spec = plan.satellite.args[plan.satellite.args.index("--ba-channel") + 1]
    fields = dict(part.split("=") for part in spec.removeprefix("ge-time:").split(","))
    assert set(fields) == {"p", "q", "step_ms", "seed"}
    assert float(fields["q"]) == pytest.approx(0.5988, abs=1e-4)
    assert float(fields["p"]) == pytest.approx(0.01573, abs=1e-5)


def test_make_plan_resolves_buffers_from_the_bdp():
    plan = make_plan(optical(), "a1b2c3")
    # 12 Mbit/s x 500 ms = 750 kB; 3 Mbit/s x 500 ms = 187.5 kB; both x 1.2
    assert plan.bdp_bytes == {"path.forward": 750_000, "path.return": 187_500}
    assert plan.buffers_bytes == {"path.forward": 900_000, "path.return": 225_000}
    args = plan.satellite.args
    assert args[args.index("--ba-buffer-bytes") + 1] == "900000"  # b (gateway) -> a (terminal)


def test_make_plan_sizes_tcp_buffers_for_the_bdp_and_queue_or_as_the_scenario_says():
    # 4 x (750 kB BDP + 900 kB queue) = 6.6 MB, above Linux's 6 MiB default.
    assert make_plan(optical(), "a1b2c3").sysctls["server"]["net.ipv4.tcp_wmem"] == "4096 16384 6600000"
    hosts = make_plan(optical("tcp_buffer_bytes=60000000"), "a1b2c3").sysctls
    assert {hosts[role]["net.ipv4.tcp_rmem"] for role in ("client", "server")} == {"4096 131072 60000000"}


def test_make_plan_names_everything_with_the_run_prefix():
    plan = make_plan(optical(), "a1b2c3")
    assert all(name.startswith(f"{NAME_PREFIX}a1b2c3-") for name in plan.namespaces.values())
    assert len(set(plan.namespaces.values())) == 4
    devices = [plan.satellite.a_dev] + [dev for v in plan.veths for dev in (v.a_dev, v.b_dev)]
    assert all(len(device) <= 15 for device in devices)


def test_make_plan_gives_concurrent_flows_distinct_ports():
    plan = make_plan(optical("flows.0.count=3"), "a1b2c3")
    assert len({flow.port for flow in plan.flows}) == 3


def test_make_plan_routes_through_the_tunnel_with_its_mtu():
    plan = make_plan(optical("tunnel.k=5", "tunnel.z=100"), "a1b2c3")
    assert [t.netns for t in plan.tunnel] == [plan.namespaces["terminal"], plan.namespaces["gateway"]]
    assert plan.access_mtu == 1500 - 43 - 16  # headers, length prefix and the key's tag
    inner_gateway = plan.tunnel[1].inner_addr.split("/")[0]
    assert plan.routes["terminal"][0][-1] == inner_gateway


def test_make_plan_puts_a_lan_link_between_client_and_terminal():
    plan = make_plan(optical("path.lan.channel.model=bernoulli", "path.lan.channel.loss=0.01"), "a1b2c3")
    assert (plan.lan.a_netns, plan.lan.b_netns) == (plan.namespaces["client"], plan.namespaces["terminal"])
    assert plan.seeds["path.lan.up.channel"] != plan.seeds["path.lan.down.channel"]
    assert [v.a_netns for v in plan.veths] == [plan.namespaces["gateway"]]


def test_channel_spec_names_every_parameter():
    assert channel_spec(GilbertElliottTime(model="ge-time", p=0.5, q=0.25, step_ms=10), 7) == \
        "ge-time:p=0.5,q=0.25,step_ms=10.0,seed=7"


def test_make_plan_gives_the_lan_link_the_tunnel_mtu_and_leaves_the_bdp_alone():
    plan = make_plan(optical("tunnel.k=5", "tunnel.z=100", "tunnel.symbol_bytes=1202",
                             "path.lan.delay_ms=5"), "a1b2c3")
    assert plan.lan.mtu == plan.access_mtu == 1200
    assert plan.satellite.mtu == 1500
    assert plan.bdp_bytes["path.forward"] == 750_000
    assert plan.base_rtt_ms == 510


def test_make_plan_gives_the_veths_the_access_mtu_and_leaves_gso_alone_with_satlink():
    plan = make_plan(optical("tunnel.k=5", "tunnel.z=100"), "a1b2c3")
    assert [(v.mtu, v.gso_max_segs) for v in plan.veths] == [(1441, None), (1441, None)]
    assert plan.netem == {}


def test_make_plan_gives_cross_traffic_its_own_ports_after_every_flow_port():
    plan = make_plan(optical("flows.0.count=16", "cross_traffic=[{rate_mbps: 1}, {link: forward, rate_mbps: 2, "
                             "start_s: 5, duration_s: 10}]"), "a1b2c3")
    flow_ports = {flow.port for flow in plan.flows}
    first, second = plan.cross_traffic
    assert {first.port, second.port}.isdisjoint(flow_ports)
    assert min(first.port, second.port) == FIRST_CROSS_TRAFFIC_PORT > max(flow_ports)
    assert (first.link, first.start_s, first.end_s) == ("return", 0, None)
    assert (second.link, second.rate_mbps, second.start_s, second.end_s) == ("forward", 2, 5, 15)
    # The iperf3 client always sends: for the forward link it runs beside the server.
    assert (first.sender_netns, first.receiver_netns, first.receiver_addr) == (
        plan.namespaces["client"], plan.namespaces["server"], plan.addresses["server"])
    assert (second.sender_netns, second.receiver_netns, second.receiver_addr) == (
        plan.namespaces["server"], plan.namespaces["client"], plan.addresses["client"])


def test_make_plan_sizes_cross_traffic_datagrams_to_the_access_mtu():
    assert make_plan(optical("cross_traffic=[{rate_mbps: 1}]"), "a1b2c3").cross_traffic[0].length_bytes == 1472
    tunnelled = make_plan(optical("cross_traffic=[{rate_mbps: 1}]", "tunnel.k=5", "tunnel.z=100"), "a1b2c3")
    assert tunnelled.cross_traffic[0].length_bytes == 1441 - 28


def test_make_plan_gives_satlink_the_frame_period_of_a_direction():
    plan = make_plan(optical("path.forward.frame_ms=10"), "a1b2c3")
    assert plan.satellite.args[plan.satellite.args.index("--ba-frame-ms") + 1] == "10"
    assert "--ab-frame-ms" not in plan.satellite.args  # the return link sends packet by packet


def viasat(*overrides: str):
    return load(LABS / "geo-viasat.yaml", list(overrides))


def option_value(args: list[str], option: str) -> str:
    return args[args.index(option) + 1]


def test_make_plan_gives_satlink_the_aqm_threshold_in_bytes_of_the_buffer():
    args = make_plan(viasat(), "a1b2c3").satellite.args
    # Half of the forward link's 36 MB (b = gateway -> a = terminal).
    assert option_value(args, "--ba-aqm-threshold-bytes") == "18000000"
    assert option_value(args, "--ba-aqm-drop-ratio") == "0.25"
    assert "--ab-aqm-threshold-bytes" not in args
    explicit = make_plan(viasat("path.forward.aqm={threshold_bytes: 1000000, drop_ratio: 0.1}"), "a1b2c3")
    assert option_value(explicit.satellite.args, "--ba-aqm-threshold-bytes") == "1000000"


def test_make_plan_gives_satlink_the_delay_bins_of_a_distribution():
    args = make_plan(viasat(), "a1b2c3").satellite.args
    assert option_value(args, "--ba-delay-bins") == "49.5:0.0:37.0,49.5:37.0:65.0,0.1:65.0:940.0,0.001:1140.0:1640.0"
    assert option_value(args, "--ba-delay-step-ms") == "1000.0"
    assert "--ab-delay-bins" not in args


def test_make_plan_derives_the_seeds_of_the_aqm_and_the_delay_as_a_channels():
    first, second = make_plan(viasat(), "a1b2c3", 0), make_plan(viasat(), "a1b2c3", 1)
    for place, option in (("path.forward.aqm", "--ba-aqm-seed"), ("path.forward.delay_variation", "--ba-delay-seed")):
        assert first.seeds[place] == derive_seed(1, 0, place) != second.seeds[place]
        assert option_value(first.satellite.args, option) == str(first.seeds[place])
    assert first.seeds["path.forward.aqm"] != first.seeds["path.forward.delay_variation"]
    assert "path.return.aqm" not in first.seeds  # only where a direction draws
    kept = make_plan(viasat("path.forward.aqm.seed=7", "path.forward.delay_variation.seed=8"), "a1b2c3")
    assert (kept.seeds["path.forward.aqm"], kept.seeds["path.forward.delay_variation"]) == (7, 8)


def test_make_plan_gives_satlink_the_delay_and_rate_traces(tmp_path):
    plan = make_plan(optical(f"path.forward.delay_variation={{model: trace, file: {tmp_path}/delay.txt, "
                             "trace_period_ms: 900}",
                             f"path.return.rate_trace={{file: {tmp_path}/rate.txt}}"), "a1b2c3")
    args = plan.satellite.args
    assert option_value(args, "--ba-delay-trace") == f"{tmp_path}/delay.txt"
    assert option_value(args, "--ba-delay-trace-period-ms") == "900.0"
    assert option_value(args, "--ab-rate-trace") == f"{tmp_path}/rate.txt"
    assert "--ab-rate-trace-period-ms" not in args  # the last rate holds
    assert "path.forward.delay_variation" not in plan.seeds  # a trace draws nothing


def channel_fields(plan, option: str) -> dict[str, str]:
    spec = plan.satellite.args[plan.satellite.args.index(option) + 1]
    return dict(part.split("=") for part in spec.partition(":")[2].split(","))


def test_an_outages_phase_is_drawn_per_iteration_uniformly_over_its_period_unless_fixed():
    dvb = load(LABS / "geo-dvb-train.yaml")
    phases = [float(channel_fields(make_plan(dvb, "a1b2c3", iteration), "--ba-channel")["phase_ms"])
              for iteration in range(200)]
    assert all(0 <= phase < 258 for phase in phases)
    assert len(set(phases)) == 200
    # Uniform: each quarter of the period holds about a quarter of 200 draws (binomial sd 6.1).
    quarters = [sum(1 for phase in phases if q * 64.5 <= phase < (q + 1) * 64.5) for q in range(4)]
    assert all(50 - 4 * 6.1 < count < 50 + 4 * 6.1 for count in quarters), quarters
    assert phases[3] == float(channel_fields(make_plan(dvb, "d4e5f6", 3), "--ba-channel")["phase_ms"])
    fixed = load(LABS / "geo-dvb-train.yaml", ["path.forward.channel.phase_ms=12.5"])
    assert {channel_fields(make_plan(fixed, "a1b2c3", i), "--ba-channel")["phase_ms"] for i in range(5)} == {"12.5"}


def test_satlink_decides_losses_by_overlap_unless_the_scenario_says_start():
    assert make_plan(optical(), "a1b2c3").satellite.args[-2:] == ["--loss-rule", "overlap"]
    assert make_plan(optical("path.loss_rule=start"), "a1b2c3").satellite.args[-2:] == ["--loss-rule", "start"]
    with pytest.raises(Exception, match="path.loss_rule"):
        optical("path.loss_rule=sometimes")


def test_an_end_to_end_tunnel_ends_on_the_client_and_the_server_which_address_each_other_through_it():
    wifi = ["path.lan={channel: {model: bernoulli, loss: 0.01}}", "tunnel.k=2", "tunnel.z=100"]
    satellite = make_plan(optical(*wifi), "a1b2c3")
    end_to_end = make_plan(optical(*wifi, "tunnel.span=end-to-end"), "a1b2c3")
    roles = {netns: role for role, netns in satellite.namespaces.items()}
    assert [roles[end.netns] for end in satellite.tunnel] == ["terminal", "gateway"]
    assert [roles[end.netns] for end in end_to_end.tunnel] == ["client", "server"]
    (inner_client, inner_server) = (end.inner_addr.split("/")[0] for end in end_to_end.tunnel)
    assert (end_to_end.addresses["client"], end_to_end.addresses["server"]) == (inner_client, inner_server)
    assert {flow.server_addr for flow in end_to_end.flows} == {inner_server}
    assert {flow.server_addr for flow in satellite.flows} == {satellite.addresses["server"]} != {inner_server}
    # The tunnel's outer datagrams cross the LAN whole: it keeps the path MTU.
    assert (satellite.lan.mtu, end_to_end.lan.mtu) == (satellite.access_mtu, 1500)
    assert satellite.access_mtu < 1500


def test_make_plan_sets_the_scenarios_tcp_stack_in_every_namespace():
    plan = make_plan(optical("tcp_stack={dsack: false, recovery: 0, max_reordering: 3}"), "a1b2c3")
    wanted = {"net.ipv4.tcp_dsack": "0", "net.ipv4.tcp_recovery": "0", "net.ipv4.tcp_max_reordering": "3"}
    assert all(wanted.items() <= plan.sysctls[role].items() for role in plan.namespaces)
    # What the scenario leaves out stays the kernel's: no key at all.
    assert "net.ipv4.tcp_sack" not in plan.sysctls["server"]
    assert not any(key in make_plan(optical(), "a1b2c3").sysctls["server"] for key in wanted)


def test_make_plan_asks_both_tunnel_ends_for_in_order_delivery_only_when_the_scenario_does():
    immediate = make_plan(optical("tunnel={k: 10, z: 100}"), "a1b2c3")
    assert all("--delivery" not in end.args for end in immediate.tunnel)
    in_order = make_plan(optical("tunnel={k: 10, z: 100, delivery: in-order, hold_ms: 150}"), "a1b2c3")
    assert all(end.args[-4:] == ["--delivery", "in-order", "--hold-ms", "150"] for end in in_order.tunnel)
    default_hold = make_plan(optical("tunnel={k: 10, z: 100, delivery: in-order}"), "a1b2c3")
    assert all(end.args[-2:] == ["--delivery", "in-order"] for end in default_hold.tunnel)


def test_a_hold_time_without_in_order_delivery_is_refused():
    with pytest.raises(ScenarioError) as refused:
        optical("tunnel={k: 10, z: 100, hold_ms: 150}")
    assert refused.value.problems == ["tunnel.hold_ms: applies to delivery in-order only (an immediate tunnel holds "
                                      "nothing); give null (got 150)"]
