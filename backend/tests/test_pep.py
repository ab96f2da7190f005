"""The split-TCP PEP in real runs through the engine (scenario field `pep`):
Fast Open between distributed PEPs saves a round trip to a download's first
byte, the PEPs recover the satellite's losses without the end host's sender
resending, their counters and each hop of a split flow are sampled, stored
and exported, QUIC passes them untouched, and nothing of them is left after
a run that succeeds, fails, is cancelled or whose backend is killed."""

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path
from statistics import median

import pytest

from satlab.engine import runner, topology
from satlab.scenario import load
from satlab.service.export import selection
from satlab.service.provenance import provenance
from satlab.service.store import Store
from satlab.tools import TOOLS_DIR
from tests.conftest import LABS
from tests.isolation import isolated

pytestmark = [pytest.mark.needs_root,
              pytest.mark.skipif(not (TOOLS_DIR / "satlab-pep").exists(),
                                 reason=f"needs {TOOLS_DIR / 'satlab-pep'}: build the codec"),
              pytest.mark.skipif(shutil.which("iptables") is None, reason="needs iptables (the PEP's interception)")]

RTT_MS = 500  # geo-ideal: 250 ms each way
FORWARD_MBPS = 12  # geo-ideal
# What the loaded 2-core host may add to a time measured on the wire.
SLACK_MS = RTT_MS / 4
SMALL = ["flows.0.size_bytes=100000"]
DISTRIBUTED_FAST_OPEN = "pep={mode: distributed, satellite: {fast_open: cookie}}"


def namespaces_of(run_id: str) -> list[str]:
    return [name for name in topology.existing_namespaces() if run_id in name]


def command_of(pid: str) -> str | None:
    """A process's command name, None once it has exited."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except FileNotFoundError:
        return None


def processes_in(name: str, program: str) -> list[int]:
    """The processes running program in namespace name."""
    listed = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
    return [int(pid) for pid in listed if command_of(pid) == program]


def pep_processes(run_id: str) -> list[int]:
    """The satlab-pep processes running in the run's namespaces."""
    return [pid for name in namespaces_of(run_id) for pid in processes_in(name, "satlab-pep")]


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


class WhileRunning:
    """on_event: once the flows run, the run's PEP processes (and whatever
    `then` does with the run id)."""

    def __init__(self, then=lambda run_id: None):
        self.peps: list[int] = []
        self.then = then

    def __call__(self, event):
        if event["type"] == "state" and event["state"] == "running":
            self.peps = pep_processes(event["run_id"])
            self.then(event["run_id"])


def test_fast_open_between_distributed_peps_brings_the_first_byte_a_round_trip_sooner():
    """A 100 kB download over geo-ideal: end to end its first byte comes two
    round trips after its SYN (handshake, request); through distributed PEPs
    with Fast Open, the client's handshake ends at the terminal and the
    request rides in the terminal PEP's SYN: one round trip. Both PEPs ran
    for the run and are gone after it."""
    end_to_end = runner.run(load(LABS / "geo-ideal.yaml", SMALL))
    watch = WhileRunning()
    split = runner.run(load(LABS / "geo-ideal.yaml", [*SMALL, DISTRIBUTED_FAST_OPEN]), watch)
    assert (end_to_end.status, split.status) == ("done", "done"), (end_to_end.error, split.error)
    (direct,), (through,) = end_to_end.flows, split.flows
    assert direct["time_to_first_byte_ms"] == pytest.approx(2 * RTT_MS, abs=SLACK_MS)
    assert direct["time_to_first_byte_ms"] - through["time_to_first_byte_ms"] == pytest.approx(RTT_MS, abs=SLACK_MS)
    # The download time counts from the SYN too: the PEP's round trip saved is in it.
    assert direct["download_time_s"] - through["download_time_s"] > (RTT_MS - SLACK_MS) / 1e3
    assert through["bytes"] >= 100_000 and through["pep_mode"] == "distributed"
    # iperf3's control and data connections, each split in three.
    assert through["pep_connections"] == 2
    assert min(through[f"pep_{segment}_bytes"] for segment in ("client", "satellite", "server")) >= 100_000
    pep = split.iterations[0]["pep"]
    assert [pep[role]["accepted"] for role in ("terminal", "gateway")] == [2, 2]
    assert [pep[role]["finished"] for role in ("terminal", "gateway")] == [2, 2]
    assert len(watch.peps) == 2
    assert not any(alive(pid) for pid in watch.peps)
    assert namespaces_of(split.run_id) == []


LOSSY_PATH = [
    # A short satellite hop that loses 2 % from gateway to terminal.
    "path.forward={rate_mbps: 20, delay_ms: 10, channel: {model: bernoulli, loss: 0.02}}",
    "path.return={rate_mbps: 20, delay_ms: 10}",
    "flows.0={transport: tcp, cc: cubic, size_bytes: 4000000}",
]


def test_losses_on_the_satellite_are_recovered_by_the_gateway_pep_not_by_the_server():
    """A 4 MB download over a forward link that loses 2 %: end to end the
    server recovers from what the link lost; through distributed PEPs the
    gateway PEP's socket across the satellite resends it, and the server
    never enters loss recovery (its segment to the gateway is a veth of
    microseconds, where a tail loss probe may fire at a scheduling hiccup of
    the loaded host: those are all it resends)."""
    end_to_end = runner.run(load(LABS / "geo-ideal.yaml", LOSSY_PATH))
    split = runner.run(load(LABS / "geo-ideal.yaml", [*LOSSY_PATH, "pep={mode: distributed}"]))
    assert (end_to_end.status, split.status) == ("done", "done"), (end_to_end.error, split.error)
    (direct,), (through,) = end_to_end.flows, split.flows
    drops = [run.iterations[0]["link"]["forward"]["drops_channel"] for run in (end_to_end, split)]
    # iperf3 counts its data connection's resends; the link may also lose its control connection's.
    assert direct["retransmissions"] >= 0.8 * drops[0] > 0
    assert end_to_end.iterations[0]["tcp_stack"]["server"]["loss_recoveries"] > 0
    server = split.iterations[0]["tcp_stack"]["server"]
    assert (server["loss_recoveries"], server["rtos"]) == (0, 0)
    assert through["retransmissions"] <= server["retransmitted_segments"] <= server["tail_loss_probes"]
    assert through["pep_satellite_retransmissions"] >= drops[1] > 0
    assert through["pep_satellite_bytes"] >= 4_000_000


SEGMENTS = ("client", "satellite", "server")


def exported_table(store: Store, run_id: str, name: str) -> list[dict[str, str]]:
    """One table of the run's samples as `satlab export run ID --what samples` writes it (CSV)."""
    out = io.BytesIO()
    selection.export_run(store, run_id, "samples", "csv").write(out)
    return list(csv.DictReader(io.StringIO(zipfile.ZipFile(out).read(f"{name}.csv").decode())))


def test_a_split_downloads_pep_counters_and_hops_are_sampled_stored_and_exported(tmp_path):
    """A 2 MB download through distributed PEPs: every tick has the PEP's
    counters of the flow; each segment's bytes never fall and end at the
    summary's figure; the gateway PEP holds bytes while the server's hop
    outruns the satellite; the flow's samples say which hop each describes,
    the client's own (a LAN's round trip) beside the satellite's (the GEO
    path's), each with the goodput of its own links; the store keeps them
    all and the CSV export carries them."""
    events: list[dict] = []
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.size_bytes=2000000", "pep={mode: distributed}"])
    result = runner.run(scenario, events.append)
    assert result.status == "done", result.error
    (flow,) = result.flows
    samples = [event for event in events if event["type"] == "sample"]
    rows = [row for event in samples for row in event["pep"]]
    assert len(rows) >= 10 and {row["flow"] for row in rows} == {0}
    for segment in SEGMENTS:
        sent = [row[f"{segment}_bytes"] for row in rows if row[f"{segment}_bytes"] is not None]
        assert sent == sorted(sent), f"{segment}: its bytes fell"
        assert sent[-1] == flow[f"pep_{segment}_bytes"] >= 2_000_000
    assert max(row["gateway_buffer_bytes"] for row in rows) > 0
    hops = [row for event in samples for row in event["flows"]]
    assert {row["hop"] for row in hops} == set(SEGMENTS)
    rtt_ms = {segment: median(row["rtt_ms"] for row in hops if row["hop"] == segment and row["rtt_ms"])
              for segment in SEGMENTS}
    assert rtt_ms["client"] < RTT_MS / 10 < RTT_MS <= rtt_ms["satellite"]
    assert max(row["bytes_acked"] for row in hops if row["hop"] == "client") > 1_000_000
    # Each hop metered at the links it crosses: the satellite's never above its 12 Mbit/s, the server's
    # (no emulated link) faster while it fills the gateway PEP's buffer.
    peak_mbps = {segment: max(row["goodput_mbps"] or 0 for row in hops if row["hop"] == segment)
                 for segment in SEGMENTS}
    assert peak_mbps["satellite"] <= FORWARD_MBPS < peak_mbps["server"]
    assert flow["mean_rtt_ms"] < RTT_MS / 10  # the summary's figures over time are the client's connection's

    with Store(tmp_path / "satlab.db") as store:
        store.create_run(result.run_id, scenario.model_dump(mode="json", by_alias=True), provenance())
        for event in samples:
            store.add_sample(event)
        assert store.finish_run(result.run_id, result.to_dict())
        assert len(store.pep_samples(result.run_id)) == len(rows)
        pep_csv = exported_table(store, result.run_id, "pep-samples")
        flows_csv = exported_table(store, result.run_id, "flow-samples")
    assert len(pep_csv) == len(rows)
    assert [int(pep_csv[-1][f"{segment}_bytes"]) for segment in SEGMENTS] == [
        flow[f"pep_{segment}_bytes"] for segment in SEGMENTS]
    assert {"terminal_buffer_bytes", "gateway_buffer_bytes", "satellite_retransmissions_packets"} <= set(pep_csv[0])
    assert {row["hop"] for row in flows_csv} == set(SEGMENTS)


def test_quic_passes_the_peps_untouched_and_the_plan_says_so():
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 200000}",
                                              "pep={mode: distributed}"])
    events: list[dict] = []
    result = runner.run(scenario, events.append)
    assert result.status == "done", result.error
    (flow,) = result.flows
    assert flow["bytes"] == 200_000
    assert flow["pep_connections"] == 0
    samples = [event for event in events if event["type"] == "sample"]
    assert {row["hop"] for event in samples for row in event["flows"]} == {"end-to-end"}
    assert [row for event in samples for row in event["pep"]] == []
    iteration = result.iterations[0]
    assert [iteration["pep"][role]["accepted"] for role in ("terminal", "gateway")] == [0, 0]
    (note,) = iteration["plan"]["notes"]
    assert note.startswith("flows.0: quic-picoquic is QUIC, over UDP: it passes the PEP untouched")


def kill_in(run_id: str, role: str, program: str) -> None:
    """SIGKILL the program (its comm) running in the run's namespace of role."""
    (name,) = [name for name in namespaces_of(run_id) if name.endswith(f"-{role[:3]}")]
    matching = processes_in(name, program)
    assert matching, f"no {program} in {name}"
    for pid in matching:
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("how", ["a flow fails", "a PEP dies", "cancelled"])
def test_nothing_of_the_peps_is_left_after_a_run_that_does_not_succeed(how):
    """The iperf3 server killed (the flow fails, the iteration ends as
    usual), the terminal PEP killed (the engine raises mid-run) or the run
    cancelled: the status says so (a PEP's interception left behind would
    make the teardown fail instead), and no PEP process or namespace remains."""
    cancel = runner.CancelToken()
    then = {"a flow fails": lambda run_id: kill_in(run_id, "server", "iperf3"),
            "a PEP dies": lambda run_id: kill_in(run_id, "terminal", "satlab-pep"),
            "cancelled": lambda run_id: cancel.cancel()}[how]
    watch = WhileRunning(then)
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.size_bytes=2000000", DISTRIBUTED_FAST_OPEN])
    result = runner.run(scenario, watch, cancel)
    expected = {"a flow fails": ("failed", "iteration 0 flow 0: "),
                "a PEP dies": ("failed", "satlab-pep-terminal exited -9"),
                "cancelled": ("cancelled", "the run was cancelled")}[how]
    assert result.status == expected[0]
    assert result.error is not None and result.error.startswith(expected[1]), result.error
    assert len(watch.peps) == 2
    assert not any(alive(pid) for pid in watch.peps)
    assert namespaces_of(result.run_id) == []


# Runs in a private mount namespace (tests/isolation.py): a backend running a
# run with PEPs is killed; its PEPs die with it, the rules stay in the run's
# namespaces until the next start's sweep deletes them.
KILLED_BACKEND = r"""
import json, os, signal, subprocess, sys
from pathlib import Path
from satlab.engine import topology
from satlab.engine.wait import wait_until

RUN = '''
from satlab.engine import runner
from satlab.scenario import load
runner.run(load(sys.argv[1], ["pep={mode: distributed}"]))
'''
backend = subprocess.Popen([sys.executable, "-c", "import sys\n" + RUN, sys.argv[1]])

def command_of(pid):
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except FileNotFoundError:  # it exited
        return None

def peps():
    found = []
    for name in topology.existing_namespaces():
        for pid in subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split():
            if command_of(pid) == "satlab-pep":
                found.append((name, int(pid)))
    return found

def rules(name):
    return "SATLAB_PEP" in subprocess.run(["ip", "netns", "exec", name, "iptables-save", "-t", "mangle"],
                                          capture_output=True, text=True).stdout

try:
    wait_until(lambda: len(peps()) == 2 and all(rules(name) for name, _ in peps()), 60, "two PEPs intercepting")
    running = peps()
    inodes = {os.stat(f"/run/netns/{name}").st_ino for name, _ in running}
    backend.send_signal(signal.SIGKILL)
    backend.wait(10)
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for _, pid in running), 10, "the PEPs to die")
    rules_after_kill = [rules(name) for name, _ in running]
    swept = topology.sweep()
    in_use = set()
    for ns in Path("/proc").glob("[0-9]*/ns/net"):
        try:
            in_use.add(ns.stat().st_ino)
        except OSError:
            pass
    print(json.dumps({"rules_after_kill": rules_after_kill, "swept": sorted(swept),
                      "namespaces_of_the_peps": sorted({name for name, _ in running}),
                      "left": topology.existing_namespaces(), "namespaces_in_use": sorted(inodes & in_use)}))
finally:
    if backend.poll() is None:
        backend.kill()
"""


@pytest.mark.host_wide
def test_after_the_backend_is_killed_the_peps_die_and_the_sweep_takes_their_rules(tmp_path):
    done = subprocess.run(isolated([sys.executable, "-c", KILLED_BACKEND, str(LABS / "geo-ideal.yaml")]),
                          capture_output=True, text=True, timeout=120,
                          env={"TMPDIR": str(tmp_path), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["rules_after_kill"] == [True, True]  # the rules stayed in the namespaces...
    assert set(found["namespaces_of_the_peps"]) <= set(found["swept"])  # ...which the sweep deleted
    assert found["left"] == []
    assert found["namespaces_in_use"] == []  # no process holds them: the kernel frees them, rules and all
