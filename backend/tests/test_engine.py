"""Real experiments: namespaces, satlink, swf-tunnel and iperf3, a few MB each."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from satlab import tcp_congestion
from satlab.engine import host, runner, topology
from satlab.engine.plan import new_run_id
from satlab.scenario import ScenarioError, load
from tests.conftest import LABS

pytestmark = pytest.mark.needs_root

SMALL = ["flows.0.size_bytes=2000000"]


def namespaces_of(run_id: str) -> list[str]:
    return [name for name in topology.existing_namespaces() if run_id in name]


@pytest.mark.host_wide
def test_run_downloads_2mb_over_geo_ideal_and_restores_hystart():
    hystart_before = host.HYSTART.read_text()
    events = []
    result = runner.run(load(LABS / "geo-ideal.yaml", SMALL), events.append)
    assert result.status == "done", result.error
    (flow,) = result.flows
    assert flow["bytes"] >= 2_000_000
    assert flow["sender_cc"] == "cubic"
    # 2 MB need at least 1.33 s at 12 Mbit/s, and slow start over a 500 ms RTT takes seconds more.
    assert 2.0 < flow["download_time_s"] < 15.0
    assert flow["mean_rtt_ms"] >= 500
    samples = [e for e in events if e["type"] == "sample"]
    assert len(samples) >= 10 * flow["download_time_s"] * 0.8  # at least ~10 Hz
    assert any(s["flows"] and s["flows"][0]["cwnd_bytes"] for s in samples)
    assert events[-1]["type"] == "summary"
    assert result.iterations[0]["link"]["forward"]["drops_channel"] == 0
    assert host.HYSTART.read_text() == hystart_before
    assert namespaces_of(result.run_id) == []


def test_run_through_the_tunnel_recovers_channel_losses():
    scenario = load(LABS / "geo-ideal.yaml", SMALL + [
        "path.forward.channel.model=bernoulli", "path.forward.channel.loss=0.02",
        "tunnel.k=5", "tunnel.z=50", "path.lan.delay_ms=1"])
    result = runner.run(scenario)
    assert result.status == "done", result.error
    assert result.flows[0]["bytes"] >= 2_000_000
    forward = result.iterations[0]["fec"]["forward"]
    assert result.iterations[0]["link"]["forward"]["drops_channel"] > 0
    assert forward["recovered"] > 0
    assert forward["residual_loss"] < 0.005
    assert namespaces_of(result.run_id) == []


def test_run_latecomer_flows_over_a_lossy_lan():
    scenario = load(LABS / "geo-ideal.yaml", [
        "flows.0.size_bytes=500000", "flows.0.count=2",
        "flows.1={transport: tcp, cc: cubic, size_bytes: 500000, start_s: 3}",
        "path.lan.channel.model=bernoulli", "path.lan.channel.loss=0.01"])
    events = []
    result = runner.run(scenario, events.append)
    assert result.status == "done", result.error
    assert [flow["bytes"] >= 500_000 for flow in result.flows] == [True] * 3
    assert [flow["sender_cc"] for flow in result.flows] == ["cubic"] * 3
    first_sample_of = {}
    for event in events:
        if event["type"] == "sample":
            for flow in event["flows"]:
                first_sample_of.setdefault(flow["flow"], event["t_s"])
    assert first_sample_of[2] >= 3 > first_sample_of[0]
    iteration = result.iterations[0]
    assert 0 < iteration["jain_index"] <= 1
    assert [flow["latecomer"] for flow in result.flows] == [False, False, True]
    lan = iteration["lan"]
    assert lan["forward"]["drops_channel"] + lan["return"]["drops_channel"] > 0


def test_run_an_upload_beside_a_download_on_the_thin_return_link():
    # 12/3 Mbit/s GEO: the upload fills the 3 Mbit/s return link, where the download's ACKs queue behind it.
    scenario = load(LABS / "geo-ideal.yaml", [
        "flows.0.size_bytes=3000000",
        "flows.1={transport: tcp, cc: cubic, duration_s: 10, direction: upload}"])
    result = runner.run(scenario)
    assert result.status == "done", result.error
    download, upload = result.flows
    assert (download["direction"], upload["direction"]) == ("download", "upload")
    assert (download["bottleneck_mbps"], upload["bottleneck_mbps"]) == (12.0, 3.0)
    assert download["bytes"] >= 3_000_000
    assert 1.0 < upload["goodput_mbps"] < 3.0
    assert 0.3 < upload["link_utilisation_ratio"] < 1.0
    # 500 ms of propagation, plus up to 600 ms of return queue (1.2 BDP at 3 Mbit/s) behind the upload.
    assert download["mean_rtt_ms"] > 650 and download["startup_mean_rtt_ms"] > 600
    assert download["short_beside_long"] and not upload["short_beside_long"]
    assert not download["latecomer"] and not upload["latecomer"]  # each alone in its direction
    assert namespaces_of(result.run_id) == []


def test_run_cancelled_while_running_leaves_no_namespace():
    cancel = runner.CancelToken()
    while_running: list[str] = []

    def on_event(event):
        if event["type"] == "state" and event["state"] == "running":
            while_running.extend(namespaces_of(event["run_id"]))
            cancel.cancel()

    result = runner.run(load(LABS / "geo-ideal.yaml"), on_event, cancel)
    assert len(while_running) == 4
    assert result.status == "cancelled"
    assert namespaces_of(result.run_id) == []


def test_run_its_time_limit_stops_fails_keeping_what_its_flow_had_taken(monkeypatch):
    # The real limit is 60 s + 100 x the time at the bottleneck rate; 3 s stops a 20 MB download in its start-up.
    monkeypatch.setattr(runner, "_time_limit_s", lambda plan, scenario: 3.0)
    result = runner.run(load(LABS / "geo-ideal.yaml", ["flows.0.size_bytes=20000000"]))
    assert (result.status, result.error) == ("failed", "the flows did not finish within 3 s")
    assert result.timed_out is not None
    (flow,) = result.timed_out.pop("flows")
    assert result.timed_out == {"iteration": 0, "limit_s": 3.0}
    assert (flow["flow"], flow["direction"], flow["finished"]) == (0, "download", False)
    # From its first data packet, after iperf3's control connection (a few RTTs of 0.5 s), to the limit.
    assert 0.1 < flow["download_time_at_least_s"] < 3.0
    assert 0 < flow["bytes_acked"] < 20_000_000  # in slow start: a few initial windows
    # The stopped iteration keeps its fidelity evidence: satlink had stopped and printed its lateness.
    assert result.fidelity is not None and result.fidelity["iterations"] == 1
    assert result.fidelity["satlink_lateness_p99_ms"] is not None
    assert result.fidelity["host_kept_up"] is not None
    assert namespaces_of(result.run_id) == []


def test_run_with_a_congestion_control_the_kernel_lacks_is_refused_naming_the_flow():
    kernel = tcp_congestion.host_kernel()
    missing = next(name for name in tcp_congestion.LINUX_TCP_CONGESTION_CONTROLS if kernel.problem(name))
    scenario = load(LABS / "geo-ideal.yaml", SMALL)
    # A scenario validated elsewhere (a stored one, a host with more modules) still meets this host's kernel.
    scenario.flows[0] = scenario.flows[0].model_copy(update={"cc": missing})
    run_id = new_run_id()
    with pytest.raises(ScenarioError) as refused:
        runner.run(scenario, run_id=run_id)
    (problem,) = refused.value.problems
    assert problem.startswith(f"flows.0.cc: {kernel.problem(missing)}; allowed: ")
    assert f"{missing} is not available on this host" in str(refused.value)
    assert namespaces_of(run_id) == []


@pytest.mark.host_wide
def test_run_two_at_once_without_interference():
    hystart_before = host.HYSTART.read_text()
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.size_bytes=1000000"])
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(runner.run, [scenario, scenario]))
    assert [r.status for r in results] == ["done", "done"], [r.error for r in results]
    assert results[0].run_id != results[1].run_id
    assert [r.flows[0]["bytes"] >= 1_000_000 for r in results] == [True, True]
    assert host.HYSTART.read_text() == hystart_before
    assert namespaces_of(results[0].run_id) == namespaces_of(results[1].run_id) == []


def test_run_starts_and_stops_cross_traffic_on_the_engines_clock():
    scenario = load(LABS / "geo-ideal.yaml", [
        "flows.0.size_bytes=1000000",
        "cross_traffic=[{link: forward, rate_mbps: 1, start_s: 0.5, duration_s: 2.5}]"])
    events = []
    result = runner.run(scenario, events.append)
    assert result.status == "done", result.error
    samples = [event for event in events if event["type"] == "sample"]
    running = [sample["t_s"] for sample in samples if sample["cross_traffic"][0]["running"]]
    # Running from its offset to its end, give or take a tick late; the flow went on without it.
    assert 0.5 <= running[0] < 1.0 and 2.5 < running[-1] < 3.0
    assert running == [sample["t_s"] for sample in samples if 0.5 <= sample["t_s"] <= running[-1]]
    assert samples[-1]["t_s"] > 3.5
    (cross,) = result.iterations[0]["cross_traffic"]
    # iperf3's set-up (about four round trips) comes out of its 2.5 s.
    assert 0 < cross["seconds"] < 2.5
    assert cross["sent_mbps"] == pytest.approx(1, rel=0.1)
    assert cross["error"] is None
    assert namespaces_of(result.run_id) == []
