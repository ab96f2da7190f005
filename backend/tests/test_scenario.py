import pytest
import yaml

from satlab.scenario import Scenario, ScenarioError, apply_override, file_problem, load, validate
from satlab.tcp_congestion import LINUX_TCP_CONGESTION_CONTROLS
from satlab.transports import TRANSPORTS
from tests.conftest import LABS

PRESETS = sorted(LABS.glob("*.yaml"))


def geo_ideal() -> dict:
    return yaml.safe_load((LABS / "geo-ideal.yaml").read_text())


# The presets of Petrou et al.'s path; the others are other studies' (labs/README.md).
PETROU_PRESETS = ("geo-ideal", "geo-optical", "geo-optical-stated", "geo-dvb-train")


@pytest.mark.parametrize("preset", PRESETS, ids=[p.stem for p in PRESETS])
def test_load_preset(preset):
    scenario = load(preset)
    if preset.stem in PETROU_PRESETS:
        assert scenario.flows[0].size_bytes == 20971520
        assert (scenario.path.forward.rate_mbps, scenario.path.return_.rate_mbps) == (12, 3)


def test_load_preset_with_overrides():
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.cc=bbr", "flows.0.hystart=null",
                                              "tunnel.k=5", "tunnel.z=100", "path.forward.delay_ms=300"])
    assert scenario.flows[0].cc == "bbr"
    assert (scenario.tunnel.k, scenario.tunnel.z) == (5, 100)
    assert scenario.path.forward.delay_ms == 300


def test_load_preset_with_a_lan_override():
    scenario = load(LABS / "geo-ideal.yaml", ["path.lan.channel.model=bernoulli", "path.lan.channel.loss=0.01"])
    assert scenario.path.lan.channel.loss == 0.01


# (override, the start of the error: the dotted field and what is wrong)
BAD_INPUTS = [
    ("path.forward.rate_mbps=0", "path.forward.rate_mbps: Input should be greater than 0"),
    ("path.return.delay_ms=-1", "path.return.delay_ms: Input should be greater than or equal to 0"),
    ("path.forward.rate_mbps=fast", "path.forward.rate_mbps: Input should be a valid number"),
    # Linux's every one, whatever this host's kernel runs (that is satlab.engine.preflight's question).
    ("flows.0.cc=tahoe", "flows.0.cc: is not a congestion control of tcp; allowed: "
                         f"{', '.join(LINUX_TCP_CONGESTION_CONTROLS)} (got 'tahoe')"),
    ("flows.0.size_bytes=1000000000000", "flows.0.size_bytes: Input should be less than or equal to"),
    ("flows.0.colour=red", "flows.0.colour: is not a known field"),
    ("flows.0.transport=sctp", "flows.0.transport: Input should be 'tcp', 'quic-picoquic' or 'quic-ngtcp2'"),
    ("flows.0.duration_s=10", "flows.0: give exactly one of size_bytes or duration_s"),
    ("path.forward.frame_ms=0", "path.forward.frame_ms: Input should be greater than or equal to 0.001"),
    ("path={forward: {rate_mbps: 12, delay_ms: 250, frame_ms: 10}, return: {rate_mbps: 3, delay_ms: 250}, "
     "link_backend: netem}", "path.forward.frame_ms: netem cannot send frames; use link_backend satlink"),
    # A mapping reads as the person wrote it, not as a Python dict.
    ("tunnel={k: 10, z: 5}", "tunnel: k must be <= z (a repair covers the last z sources), got k=10 z=5 "
                             "(got {k: 10, z: 5})"),
    ("tunnel.k=50", "tunnel.z: Field required"),
    ("path.forward.buffer.bytes=100000", "path.forward.buffer: give exactly one of bytes, packets or bdp"),
    ("path.forward.channel.model=rain", "path.forward.channel: model must be one of"),
    ("path.forward.channel.loss=0.5", "path.forward.channel: model must be one of bernoulli, "),
    ("path.forward.channel={model: perfect, loss: 0.5}", "path.forward.channel.loss: is not a known field"),
    ("path.link_backend=tc", "path.link_backend: Input should be 'satlink' or 'netem'"),
    ("seed=-3", "seed: Input should be greater than or equal to 0"),
    ("flows.0.flow_control={stream_bytes: 1000000}",
     "flows.0.flow_control: tcp has no QUIC flow-control windows; give null"),
    ("flows.0.zero_rtt=on", "flows.0.zero_rtt: tcp cannot run zero_rtt on; allowed: off"),
    ("flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000, zero_rtt: always}",
     "flows.0.zero_rtt: Input should be 'off', 'on' or 'bdp'"),
    ("flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000, flow_control: {stream_bytes: 1199}}",
     "flows.0.flow_control.stream_bytes: Input should be greater than or equal to 1200"),
    ("flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000, flow_control: {connection_bytes: 2147483648}}",
     "flows.0.flow_control.connection_bytes: Input should be less than or equal to 1073741824"),
    ("flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000, flow_control: {window: 1000000}}",
     "flows.0.flow_control.window: is not a known field"),
    ("cross_traffic=[{rate_mbps: 0}]", "cross_traffic.0.rate_mbps: Input should be greater than 0"),
    ("cross_traffic=[{rate_mbps: 10001}]", "cross_traffic.0.rate_mbps: Input should be less than or equal to 10000"),
    ("cross_traffic=[{rate_mbps: 1, link: sideways}]", "cross_traffic.0.link: Input should be 'return' or 'forward'"),
    ("cross_traffic=[{rate_mbps: 1, start_s: -1}]",
     "cross_traffic.0.start_s: Input should be greater than or equal to 0"),
    ("cross_traffic=[{rate_mbps: 1, duration_s: 0}]", "cross_traffic.0.duration_s: Input should be greater than 0"),
    ("cross_traffic=[{rate_mbps: 1, duration_s: 3601}]",
     "cross_traffic.0.duration_s: Input should be less than or equal to 3600"),
    ("cross_traffic=[{rate_mbps: 1, port: 5000}]", "cross_traffic.0.port: is not a known field"),
    ("cross_traffic=[{link: return}]", "cross_traffic.0.rate_mbps: Field required"),
    (f"cross_traffic=[{', '.join(['{rate_mbps: 1}'] * 9)}]", "cross_traffic: List should have at most 8 items"),
    ("path.forward.channel={model: ge-time, step_ms: 10, p: 0.1}",
     "path.forward.channel.q: is required (or give loss_time_ratio and mean_burst_ms)"),
    ("path.forward.channel={model: ge-time, step_ms: 10, loss_time_ratio: 0.02}",
     "path.forward.channel.mean_burst_ms: give loss_time_ratio and mean_burst_ms together"),
    ("path.forward.channel={model: ge-time, step_ms: 10, loss_time_ratio: 0.02, mean_burst_ms: 5}",
     "path.forward.channel.mean_burst_ms: must be >= step_ms (10.0): a burst lasts at least one step (got 5)"),
    ("path.forward.channel={model: ge-time, step_ms: 10, loss_time_ratio: 0.6, mean_burst_ms: 10}",
     "path.forward.channel.loss_time_ratio: with mean_burst_ms 10.0 needs p = 1.5 > 1 per step"),
    ("path.forward.channel={model: ge-time, step_ms: 10, loss_time_ratio: 1, mean_burst_ms: 20}",
     "path.forward.channel.loss_time_ratio: Input should be less than 1"),
    ("path.forward.channel={model: ge-time, step_ms: 10, loss_time_ratio: 0.02, mean_burst_ms: 20, q: 0.9}",
     "path.forward.channel.q: is 0.9 but loss_time_ratio and mean_burst_ms give 0.5"),
]


def test_every_linux_congestion_control_makes_a_valid_scenario_whatever_this_host_runs():
    for cc in LINUX_TCP_CONGESTION_CONTROLS:
        assert load(LABS / "geo-ideal.yaml", [f"flows.0.cc={cc}", "flows.0.hystart=null"]).flows[0].cc == cc


def test_the_transports_a_flow_may_name_are_the_registrys_in_the_schema_too():
    transport = Scenario.model_json_schema()["$defs"]["FlowGroup"]["properties"]["transport"]
    assert transport["enum"] == list(TRANSPORTS)


def test_validate_ge_time_from_measured_statistics():
    # The optical channel of the study: 2.56 % of the time lost, bursts of 16.7 ms, 10 ms steps.
    channel = load(LABS / "geo-optical.yaml").path.forward.channel
    assert channel.q == pytest.approx(10 / 16.7)
    assert channel.p / (channel.p + channel.q) == pytest.approx(0.0256)
    stored = load(LABS / "geo-optical.yaml").model_dump(mode="json", by_alias=True)
    assert validate(stored).path.forward.channel == channel


@pytest.mark.parametrize(("override", "expected"), BAD_INPUTS, ids=[o for o, _ in BAD_INPUTS])
def test_validate_scenario_rejects_bad_input(override, expected):
    data = geo_ideal()
    apply_override(data, override)
    with pytest.raises(ScenarioError) as error:
        validate(data)
    assert any(problem.startswith(expected) for problem in error.value.problems), error.value.problems


def test_validate_tunnel_rejects_k_above_z():
    data = geo_ideal()
    data["tunnel"] = {"k": 20, "z": 10}
    with pytest.raises(ScenarioError, match=r"^tunnel: k must be <= z .* got k=20 z=10"):
        validate(data)


def test_validate_flows_rejects_hystart_for_bbr():
    data = geo_ideal()
    data["flows"][0]["cc"] = "bbr"
    with pytest.raises(ScenarioError, match="^flows.0.hystart: applies to transport tcp with cc cubic only"):
        validate(data)


def test_validate_outage_rejects_duration_beyond_period():
    data = geo_ideal()
    data["path"]["forward"]["channel"] = {"model": "outage", "period_ms": 10, "duration_ms": 20}
    with pytest.raises(ScenarioError, match=r"^path.forward.channel: duration_ms \+ jitter_ms must be <= period_ms"):
        validate(data)


def test_validate_quic_accepts_its_own_congestion_controls():
    data = geo_ideal()
    data["flows"][0].update(transport="quic-picoquic", cc="bbr1", hystart=None)
    assert validate(data).flows[0].cc == "bbr1"


def test_apply_override_rejects_a_missing_list_item():
    expected = r"flows.3: no such list item \(the list has 1; index 1 appends one\)"
    with pytest.raises(ScenarioError, match=expected):
        apply_override(geo_ideal(), "flows.3.cc=bbr")


def test_apply_override_appends_past_the_end_of_a_list():
    data = geo_ideal()
    apply_override(data, "flows.1.cc=bbr")
    apply_override(data, "flows.1.size_bytes=1000")
    assert data["flows"][1] == {"cc": "bbr", "size_bytes": 1000}


def test_apply_override_rejects_text_without_value():
    with pytest.raises(ScenarioError, match="expected dotted.path=value"):
        apply_override(geo_ideal(), "flows.0.cc")


def test_load_rejects_a_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match="cannot read the scenario file"):
        load(tmp_path / "absent.yaml")


def test_validate_cross_traffic_defaults_to_the_return_link_from_the_start_until_the_flows_end():
    data = geo_ideal()
    data["cross_traffic"] = [{"rate_mbps": 2.5}]
    (cross,) = validate(data).cross_traffic
    assert (cross.link, cross.rate_mbps, cross.start_s, cross.duration_s) == ("return", 2.5, 0, None)


def test_validate_scenario_has_no_cross_traffic_by_default():
    assert validate(geo_ideal()).cross_traffic == []


NETEM_INEXPRESSIBLE = [{"model": "ge-time", "p": 0.01, "q": 0.167, "step_ms": 10},
                       {"model": "outage", "period_ms": 258, "duration_ms": 15.5},
                       {"model": "trace", "file": "losses.txt"}]


@pytest.mark.parametrize("direction", ["forward", "return"])
@pytest.mark.parametrize("channel", NETEM_INEXPRESSIBLE, ids=[c["model"] for c in NETEM_INEXPRESSIBLE])
def test_validate_netem_rejects_a_channel_it_cannot_express(direction, channel):
    data = geo_ideal()
    data["path"]["link_backend"] = "netem"
    data["path"][direction]["channel"] = channel
    with pytest.raises(ScenarioError) as error:
        validate(data)
    assert error.value.problems == [f"path.{direction}.channel: netem cannot express this loss model; "
                                    f"use link_backend satlink (got {channel['model']!r})"]
    data["path"]["link_backend"] = "satlink"
    assert validate(data).path.link_backend == "satlink"


def test_validate_netem_names_both_directions_it_cannot_express():
    data = geo_ideal()
    data["path"]["link_backend"] = "netem"
    data["path"]["forward"]["channel"] = NETEM_INEXPRESSIBLE[0]
    data["path"]["return"]["channel"] = NETEM_INEXPRESSIBLE[1]
    with pytest.raises(ScenarioError) as error:
        validate(data)
    assert [problem.split(":")[0] for problem in error.value.problems] == ["path.forward.channel",
                                                                          "path.return.channel"]


def test_validate_netem_accepts_bernoulli_ge_packet_and_any_lan_channel():
    data = geo_ideal()
    data["path"]["link_backend"] = "netem"
    data["path"]["forward"]["channel"] = {"model": "ge-packet", "p": 0.01, "q": 0.2}
    data["path"]["return"]["channel"] = {"model": "bernoulli", "loss": 0.01}
    data["path"]["lan"] = {"channel": NETEM_INEXPRESSIBLE[0]}  # the LAN segment stays satlink
    assert validate(data).path.forward.channel.model == "ge-packet"


def test_load_resolves_trace_files_beside_the_scenario_file(tmp_path):
    scenario_file = tmp_path / "traced.yaml"
    scenario_file.write_text((LABS / "geo-ideal.yaml").read_text())
    scenario = load(scenario_file, ["path.forward.channel={model: trace, file: outages.txt}"])
    assert scenario.path.forward.channel.file == tmp_path / "outages.txt"


def test_apply_override_creates_a_list_for_index_0():
    data = yaml.safe_load((LABS / "geo-ideal.yaml").read_text())
    apply_override(data, "cross_traffic.0.rate_mbps=2.5")
    assert validate(data).cross_traffic[0].rate_mbps == 2.5


def test_validate_picoquic_uploads_for_a_duration_with_windows_and_0rtt():
    data = geo_ideal()
    data["flows"] = [{"transport": "quic-picoquic", "cc": "cubic", "direction": "upload", "duration_s": 30,
                      "flow_control": {"stream_bytes": 65536}, "zero_rtt": "bdp"}]
    flow = validate(data).flows[0]
    assert (flow.direction, flow.duration_s, flow.zero_rtt) == ("upload", 30, "bdp")
    assert flow.flow_control is not None
    assert (flow.flow_control.connection_bytes, flow.flow_control.stream_bytes) == (None, 65536)


def test_validate_quic_defaults_to_no_0rtt_and_the_transport_windows():
    data = geo_ideal()
    data["flows"][0].update(transport="quic-picoquic", cc="bbr1", hystart=None)
    flow = validate(data).flows[0]
    assert (flow.flow_control, flow.zero_rtt) == (None, "off")


def test_validate_zero_rtt_reads_yaml_on_and_off():
    # YAML 1.1 reads a bare on / off as a boolean.
    data = geo_ideal()
    apply_override(data, "flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000, zero_rtt: on}")
    assert validate(data).flows[0].zero_rtt == "on"
    apply_override(data, "flows.0.zero_rtt=off")
    assert validate(data).flows[0].zero_rtt == "off"


# Satellite gateway shaping: the AQM, a delay that varies, a rate trace (satlink only).
SHAPING_BAD_INPUTS = [
    ("path.forward.aqm={drop_ratio: 0.25}",
     "path.forward.aqm: give exactly one of threshold_bytes or threshold_ratio (of the buffer)"),
    ("path.forward.aqm={threshold_bytes: 1000, threshold_ratio: 0.5, drop_ratio: 0.25}",
     "path.forward.aqm: give exactly one of threshold_bytes or threshold_ratio (of the buffer)"),
    ("path.forward.aqm={threshold_ratio: 1, drop_ratio: 0.25}",
     "path.forward.aqm.threshold_ratio: Input should be less than 1"),
    ("path.forward.aqm={threshold_ratio: 0.5, drop_ratio: 1.5}",
     "path.forward.aqm.drop_ratio: Input should be less than or equal to 1"),
    ("path.forward={rate_mbps: 144, delay_ms: 280, buffer: {bytes: 36000000}, "
     "aqm: {threshold_bytes: 36000000, drop_ratio: 0.25}}",
     "path.forward.aqm: threshold_bytes must be below the buffer's 36000000 bytes, or the AQM never acts"),
    ("path.forward.delay_variation={model: gauss}",
     "path.forward.delay_variation.model: Input should be 'distribution' or 'trace'"),
    ("path.forward.delay_variation={model: distribution, step_ms: 1000}",
     "path.forward.delay_variation.bins: is required with model distribution"),
    ("path.forward.delay_variation={model: distribution, bins: [{weight: 1, low_ms: 0, high_ms: 65}]}",
     "path.forward.delay_variation.step_ms: is required with model distribution"),
    ("path.forward.delay_variation={model: distribution, bins: [], step_ms: 10}",
     "path.forward.delay_variation.bins: List should have at least 1 item"),
    ("path.forward.delay_variation={model: distribution, bins: [{weight: 1, low_ms: 65, high_ms: 0}], step_ms: 10}",
     "path.forward.delay_variation.bins.0.high_ms: must be >= low_ms (65.0)"),
    ("path.forward.delay_variation={model: distribution, bins: [{weight: 0, low_ms: 0, high_ms: 1}], step_ms: 10}",
     "path.forward.delay_variation.bins.0.weight: Input should be greater than 0"),
    ("path.forward.delay_variation={model: trace, file: delay.txt, step_ms: 10}",
     "path.forward.delay_variation.step_ms: applies to model distribution only"),
    ("path.forward.delay_variation={model: distribution, bins: [{weight: 1, low_ms: 0, high_ms: 1}], step_ms: 10, "
     "file: delay.txt}", "path.forward.delay_variation.file: applies to model trace only"),
    ("path.forward.delay_variation={model: trace}", "path.forward.delay_variation.file: is required with model trace"),
    ("path.return.rate_trace={trace_period_ms: 1000}", "path.return.rate_trace.file: Field required"),
    ("path.return.rate_trace={file: rate.txt, trace_period_ms: -1}",
     "path.return.rate_trace.trace_period_ms: Input should be greater than or equal to 0"),
]


@pytest.mark.parametrize(("override", "expected"), SHAPING_BAD_INPUTS, ids=[o for o, _ in SHAPING_BAD_INPUTS])
def test_validate_shaping_rejects_bad_input(override, expected):
    data = geo_ideal()
    apply_override(data, override)
    with pytest.raises(ScenarioError) as error:
        validate(data)
    assert any(problem.startswith(expected) for problem in error.value.problems), error.value.problems


def test_validate_netem_refuses_the_aqm_a_varying_delay_and_a_rate_trace():
    data = geo_ideal()
    data["path"]["link_backend"] = "netem"
    data["path"]["forward"]["aqm"] = {"threshold_ratio": 0.5, "drop_ratio": 0.25}
    data["path"]["forward"]["delay_variation"] = {"model": "trace", "file": "delay.txt"}
    data["path"]["return"]["rate_trace"] = {"file": "rate.txt"}
    with pytest.raises(ScenarioError) as error:
        validate(data)
    assert error.value.problems == [
        "path.forward.aqm: netem has no AQM; use link_backend satlink (got {threshold_ratio: 0.5, drop_ratio: 0.25})",
        "path.forward.delay_variation: netem cannot vary the delay without reordering or from a trace; use "
        "link_backend satlink (got {model: 'trace', file: 'delay.txt'})",
        "path.return.rate_trace: netem cannot change its rate over time; use link_backend satlink "
        "(got {file: 'rate.txt'})"]


def test_load_geo_viasat_models_the_claypool_path():
    """The Viasat-2 figures: 144 Mbit/s down, a 36 MB queue whose AQM acts
    above half of it, and RTT = 560 ms + the forward link's extra delay."""
    path = load(LABS / "geo-viasat.yaml").path
    assert (path.forward.rate_mbps, path.forward.buffer.bytes) == (144, 36_000_000)
    assert (path.forward.aqm.threshold_ratio, path.forward.aqm.drop_ratio) == (0.5, 0.25)
    assert path.forward.delay_ms + path.return_.delay_ms == 560
    bins = path.forward.delay_variation.bins
    rtt_ranges = [(560 + b.low_ms, 560 + b.high_ms) for b in bins]
    assert rtt_ranges == [(560, 597), (597, 625), (625, 1500), (1700, 2200)]
    total = sum(b.weight for b in bins)
    assert (bins[0].weight + bins[1].weight) / total == pytest.approx(0.99, abs=0.01)
    assert bins[0].weight == bins[1].weight  # split at the 597 ms median
    assert path.return_.delay_variation is None and path.return_.aqm is None


def test_delay_and_rate_traces_are_files_of_the_scenario_resolved_beside_it(tmp_path):
    (tmp_path / "rate.txt").write_text("0 12\n1000 2  # a fade\n")
    (tmp_path / "delay.txt").write_text("0 10\n500 40\n")
    scenario_file = tmp_path / "faded.yaml"
    scenario_file.write_text((LABS / "geo-ideal.yaml").read_text())
    scenario = load(scenario_file, ["path.forward.rate_trace={file: rate.txt}",
                                    "path.return.delay_variation={model: trace, file: delay.txt}"])
    files = dict(scenario.files())
    assert set(files) == {"path.forward.rate_trace", "path.return.delay_variation"}
    assert files["path.forward.rate_trace"].file == tmp_path / "rate.txt"
    assert [file_problem(part) for part in files.values()] == [None, None]


@pytest.mark.parametrize(("text", "problem"), [
    ("", "has no \"t_ms rate_mbps\" line"),
    ("5 12\n", "line 1 is not a step"),  # must start at t_ms 0
    ("0 12\n0 6\n", "line 2 is not a step"),  # forward in time
    ("0 0\n", "line 1 is not a step"),  # a rate above 0
    ("0 12 7\n", "line 1 is not a step"),
])
def test_a_rate_trace_satlink_would_refuse_is_refused_before_the_run(tmp_path, text, problem):
    (tmp_path / "rate.txt").write_text(text)
    scenario = load(LABS / "geo-ideal.yaml", [f"path.forward.rate_trace={{file: {tmp_path / 'rate.txt'}}}"])
    assert problem in (file_problem(dict(scenario.files())["path.forward.rate_trace"]) or "")
