"""A run's fidelity evidence: /proc read on this host, satlink's and the
tunnel's lateness, the verdict, and a real run that carries them."""

import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satlab.engine import capacity, fidelity, runner, topology
from satlab.engine.fidelity import CpuTimes, FidelityRecorder
from satlab.scenario import load
from tests.conftest import LABS

# Burns CPU until its own CPU time reaches argv[1] seconds, says so, then waits for stdin to close.
BURNER = """
import ctypes, os, sys
name = sys.argv[2].encode()
if name:
    ctypes.CDLL(None).prctl(15, ctypes.c_char_p(name), 0, 0, 0)  # PR_SET_NAME: its name in /proc/PID/stat
while sum(os.times()[:2]) < float(sys.argv[1]):
    pass
print("burnt", flush=True)
sys.stdin.read()
"""


def start_burner(cpu_s: float, name: str = "") -> subprocess.Popen[str]:
    burner = subprocess.Popen([sys.executable, "-c", BURNER, str(cpu_s), name], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert burner.stdout is not None and burner.stdout.readline() == "burnt\n"
    return burner


def stop_burner(burner: subprocess.Popen[str]) -> None:
    assert burner.stdin is not None
    burner.stdin.close()
    burner.wait(10)


def test_cpu_times_of_this_host_add_up_to_the_time_that_passed():
    def now() -> tuple[str, float]:
        return Path("/proc/stat").read_text(), float(Path("/proc/uptime").read_text().split()[0])

    first, first_s = now()
    time.sleep(2.0)
    proc_stat, uptime_s = now()
    times, before = fidelity.parse_cpu_times(proc_stat), fidelity.parse_cpu_times(first)
    cpus = sum(1 for line in proc_stat.splitlines() if line.startswith("cpu") and line[3].isdigit())
    # Every CPU's every tick is counted once in the total, so over an interval it grows by that interval on each
    # CPU. (Not since boot: the uptime counts the time a VM was suspended, its CPUs' ticks do not.)
    elapsed_ticks = times.total_ticks - before.total_ticks
    assert elapsed_ticks / fidelity.CLOCK_TICKS_PER_S / cpus == pytest.approx(uptime_s - first_s, rel=0.05)
    assert 0 <= times.steal_ticks < times.total_ticks
    assert 0 < times.idle_ticks < times.total_ticks


def test_parse_cpu_times_leaves_guest_time_out_of_the_total():
    # user nice system idle iowait irq softirq steal guest guest_nice: guest is already in user.
    times = fidelity.parse_cpu_times("cpu  100 10 50 800 20 0 5 15 40 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n")
    assert times == CpuTimes(total_ticks=1000, idle_ticks=820, steal_ticks=15)


def test_parse_cpu_times_without_a_cpu_line_is_refused():
    with pytest.raises(ValueError, match="no cpu line"):
        fidelity.parse_cpu_times("intr 12 3\n")


def test_steal_and_busy_ratios_between_two_readings():
    before, after = CpuTimes(1000, 600, 10), CpuTimes(1200, 700, 40)
    assert fidelity.steal_ratio(before, after) == pytest.approx(30 / 200)
    assert fidelity.busy_ratio(before, after) == pytest.approx(1 - 100 / 200)
    assert fidelity.steal_ratio(before, before) is None


def test_load_average_is_the_one_minute_figure():
    before = os.getloadavg()[0]
    read = fidelity.read_load_avg_1m()
    after = os.getloadavg()[0]
    # The kernel updates it every 5 s: the reading is the one before or the one after (which
    # glibc reads exactly, from sysinfo), to /proc/loadavg's two decimals. /proc rounds by adding
    # FIXED_1 / 200 in integer arithmetic (10 / 2048) and truncating to hundredths, so its figure
    # lies from 0.01 - 10/2048 below the exact load to 10/2048 above it (fs/proc/loadavg.c).
    rounding = 10 / 2048
    assert min(before, after) - (0.01 - rounding) <= read <= max(before, after) + rounding


def test_process_cpu_time_of_this_process_matches_getrusage():
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:
        pass
    usage = resource.getrusage(resource.RUSAGE_SELF)
    read = fidelity.read_process_cpu_s(os.getpid())
    # /proc counts clock ticks (10 ms), getrusage microseconds.
    assert read == pytest.approx(usage.ru_utime + usage.ru_stime, abs=0.05)
    assert read >= 0.3


def test_process_cpu_time_of_a_process_named_with_spaces_and_parentheses():
    burner = start_burner(0.3, "x) (y z")
    try:
        stat = Path(f"/proc/{burner.pid}/stat").read_text()
        assert "(x) (y z)" in stat  # the name a naive split would misread
        assert 0.3 <= fidelity.read_process_cpu_s(burner.pid) < 5
    finally:
        stop_burner(burner)


def test_cpu_model_from_cpuinfo_of_x86_and_arm():
    assert fidelity.cpu_model("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\nflags\t: fpu\n") == \
        "Intel(R) Xeon(R) Processor"
    assert fidelity.cpu_model("processor\t: 0\nBogoMIPS\t: 108.00\n\nModel\t\t: Raspberry Pi 4 Model B\n") == \
        "Raspberry Pi 4 Model B"
    assert fidelity.cpu_model("processor\t: 0\n") is None


def test_host_identity_names_this_host():
    identity = fidelity.host_identity()
    assert identity["host_name"] == socket.gethostname()
    assert identity["kernel"] == os.uname().release
    assert identity["cpu_count"] == os.cpu_count()
    assert identity["cpu_model"]
    assert identity["satlab_version"]


SUMMARY_LINE = {"event": "summary", "t_s": 9.5,
                "ab": {"packets_out": 1671, "lateness_ms": {"p50": 0.01, "p99": 0.22, "max": 3.553, "count": 1671}},
                "ba": {"packets_out": 1856, "lateness_ms": {"p50": 0.02, "p99": 0.33, "max": 2.809, "count": 1856}}}


def test_satlink_lateness_is_the_worst_direction_of_every_link():
    lan = {"ab": {"lateness_ms": {"p50": 0.1, "p99": 1.5, "max": 2.0, "count": 10}}, "ba": {"lateness_ms": None}}
    assert fidelity.satlink_lateness_ms([SUMMARY_LINE]) == (0.33, 3.553)
    assert fidelity.satlink_lateness_ms([SUMMARY_LINE, lan, None]) == (1.5, 3.553)
    # netem's counters carry no lateness; a link nobody used has none either.
    assert fidelity.satlink_lateness_ms([None, {"ab": {"packets_out": 3}, "ba": {"lateness_ms": None}}]) == \
        (None, None)


def test_tunnel_lateness_is_the_worse_endpoint():
    tunnel_0 = {"event": "summary", "lateness_ms": {"p50": 0.02, "p99": 0.4, "max": 12.5, "count": 9000}}
    tunnel_1 = {"event": "summary", "lateness_ms": {"p50": 0.03, "p99": 0.7, "max": 3.0, "count": 800}}
    assert fidelity.tunnel_lateness_ms([tunnel_0, tunnel_1]) == (0.7, 12.5)
    # An endpoint that received nothing has none; a run without a tunnel has no lines.
    assert fidelity.tunnel_lateness_ms([tunnel_0, {"lateness_ms": None}, None]) == (0.4, 12.5)
    assert fidelity.tunnel_lateness_ms([]) == (None, None)


def test_verdict_at_the_lateness_limit():
    assert fidelity.verdict(0.33) == (True, [])
    kept_up, problems = fidelity.verdict(1.0)
    assert kept_up is False
    assert problems == ["satlink's lateness p99 was 1 ms, at or above the 1 ms limit: the host could not keep up"]
    kept_up, problems = fidelity.verdict(None)
    assert kept_up is None and "fidelity unknown" in problems[0]


def test_verdict_judges_the_tunnel_as_it_judges_satlink():
    assert fidelity.verdict(0.33, 0.99) == (True, [])
    # The tunnel late where satlink kept time: the host did not keep up.
    assert fidelity.verdict(0.33, 4.0) == (False, ["swf-tunnel's lateness p99 was 4 ms, at or above the 1 ms limit: "
                                                   "the host could not keep up"])
    kept_up, problems = fidelity.verdict(1.5, 4.0)
    assert kept_up is False and [problem.split("'")[0] for problem in problems] == ["satlink", "swf-tunnel"]
    # Over netem, a late tunnel still says no; one on time cannot say yes for the link.
    assert fidelity.verdict(None, 4.0)[0] is False
    assert fidelity.verdict(None, 0.2)[0] is None


def test_recorder_counts_the_runs_on_the_host_each_second_this_one_included(monkeypatch):
    monkeypatch.setattr(FidelityRecorder, "SAMPLE_INTERVAL_S", 0.05)
    beside = iter([0, 1, 3])  # at the start, then each sample: the last count stays

    def others(run_id):
        assert run_id == "abc123"
        return next(beside, 3)
    with FidelityRecorder(run_id="abc123", others=others) as recorder:
        time.sleep(0.5)
    evidence = recorder.evidence([])
    assert evidence["runs_at_once_max"] == 4
    assert 3.0 < evidence["runs_at_once_mean"] < 4.0
    with FidelityRecorder() as anonymous:  # no run to count beside
        pass
    assert anonymous.evidence([])["runs_at_once_mean"] is None


def test_recorder_keeps_what_each_tool_said_of_its_threads_priority():
    with FidelityRecorder() as recorder:
        recorder.note_ready("link", {"event": "ready", "realtime": True})
        recorder.note_ready("pep.0", {"event": "ready", "listen": 5000})  # says nothing: not counted
        recorder.note_ready("tunnel.0", None)  # stopped before it was ready
    evidence = recorder.evidence([])
    assert (evidence["realtime_threads"], evidence["tool_realtime"]) == (True, {"link": True})
    assert evidence["problems"] == ["satlink measured no lateness (a netem link, or no packet crossed it): "
                                    "fidelity unknown"]
    recorder.note_ready("tunnel.1", {"event": "ready", "realtime": False})
    recorder.note_ready("tunnel.0", {"event": "ready", "realtime": False})
    evidence = recorder.evidence([])
    assert evidence["realtime_threads"] is False
    assert evidence["problems"][-1] == ("the tools tunnel.0, tunnel.1 ran without SCHED_FIFO (the kernel refused it): "
                                        "their forwarding threads shared the CPUs at normal priority")
    with FidelityRecorder() as toolless:  # a netem path: no tool to ask
        pass
    assert toolless.evidence([])["realtime_threads"] is None


def test_recorder_measures_a_busy_process_and_the_host_meanwhile():
    with FidelityRecorder() as recorder:
        burner = start_burner(1.0)
        recorder.read_process_cpu("tunnel.0", burner.pid)
        stop_burner(burner)
        recorder.read_process_cpu("tunnel.0", burner.pid)  # reaped: the earlier reading stays
    evidence = recorder.evidence([])
    assert 1.0 <= evidence["tunnel_cpu_s"] < 3
    assert evidence["process_cpu_s"] == {"tunnel.0": evidence["tunnel_cpu_s"]}
    assert evidence["satlink_cpu_s"] is None
    assert evidence["measured_s"] >= 1.0
    # The burner's CPU time is part of the host's busy time (tick rounding aside).
    cpu_s_available = evidence["measured_s"] * (os.cpu_count() or 1)
    assert evidence["cpu_busy_ratio"] >= 0.9 * evidence["tunnel_cpu_s"] / cpu_s_available
    assert 0 <= evidence["cpu_steal_ratio"] < 1
    assert evidence["load_avg_1m_max"] >= max(evidence["load_avg_1m_start"], evidence["load_avg_1m_end"])
    assert evidence["host_kept_up"] is None


def iteration_evidence(measured_s, steal, p99, kept_up, tunnel_p99=None, realtime=True):
    return {"measured_s": measured_s, "load_avg_1m_start": 1.0, "load_avg_1m_end": 2.0, "load_avg_1m_max": 2.5,
            "cpu_steal_ratio": steal, "cpu_steal_ratio_peak_1s": steal * 2, "cpu_busy_ratio": 0.5,
            "satlink_lateness_p99_ms": p99, "satlink_lateness_max_ms": p99 * 10,
            "tunnel_lateness_p99_ms": tunnel_p99, "tunnel_lateness_max_ms": tunnel_p99 and tunnel_p99 * 10,
            "satlink_cpu_s": 0.1, "tunnel_cpu_s": None, "process_cpu_s": {"link": 0.1},
            "runs_at_once_mean": measured_s / 10, "runs_at_once_max": measured_s // 5, "host_kept_up": kept_up,
            "realtime_threads": realtime, "tool_realtime": {} if realtime is None else {"link": realtime},
            "problems": fidelity.verdict(p99, tunnel_p99)[1]}


def test_run_evidence_takes_the_worst_iteration_and_names_it(tmp_path):
    scenario = load(LABS / "geo-ideal.yaml")
    evidence = fidelity.run_evidence(scenario, [iteration_evidence(10, 0.01, 0.3, True, 0.5),
                                                iteration_evidence(30, 0.05, 1.2, False, 0.1)], tmp_path / "none.json")
    assert evidence["run_kind"] == "kernel_tcp"
    assert evidence["calibration"] is None
    assert evidence["measured_s"] == 40
    assert evidence["cpu_steal_ratio"] == pytest.approx((10 * 0.01 + 30 * 0.05) / 40)
    assert evidence["satlink_lateness_p99_ms"] == 1.2
    assert evidence["satlink_lateness_max_ms"] == 12
    assert (evidence["tunnel_lateness_p99_ms"], evidence["tunnel_lateness_max_ms"]) == (0.5, 5)
    assert evidence["satlink_cpu_s"] == 0.2
    # Runs at once: 1 for 10 s, 3 for 30 s; at most 6.
    assert (evidence["runs_at_once_mean"], evidence["runs_at_once_max"]) == (pytest.approx(2.5), 6)
    assert evidence["realtime_threads"] is True
    assert evidence["host_kept_up"] is False
    assert evidence["problems"] == ["iteration 1: satlink's lateness p99 was 1.2 ms, at or above the 1 ms limit: "
                                    "the host could not keep up"]


def test_run_evidence_says_realtime_only_if_every_iteration_was(tmp_path):
    scenario = load(LABS / "geo-ideal.yaml")

    def realtime(*each):
        iterations = [iteration_evidence(10, 0.01, 0.3, True, realtime=value) for value in each]
        return fidelity.run_evidence(scenario, iterations, tmp_path / "none.json")["realtime_threads"]
    assert (realtime(True, True), realtime(True, False), realtime(True, None), realtime()) == (True, False, None, None)


def test_run_evidence_carries_the_hosts_calibration_or_why_not(tmp_path):
    scenario = load(LABS / "geo-ideal.yaml")
    path = tmp_path / "calibration.json"
    capacity.save(capacity.Calibration(measured_at="2026-11-27T10:00:00+00:00", host={}, parameters={},
                                       kinds={"kernel_tcp": capacity.KindCapacity(max_concurrent=16)}), path)
    evidence = fidelity.run_evidence(scenario, [iteration_evidence(10, 0.01, 0.3, True)], path)
    assert evidence["calibration"] == {"measured_at": "2026-11-27T10:00:00+00:00",
                                       "max_concurrent": {"kernel_tcp": 16}}
    assert evidence["host_kept_up"] is True and evidence["problems"] == []
    path.write_text("{}")
    evidence = fidelity.run_evidence(scenario, [iteration_evidence(10, 0.01, 0.3, True)], path)
    assert evidence["calibration"] is None
    assert evidence["problems"][0].startswith(f"{path} is not a satlab calibration (measured_at: Field required")


@pytest.mark.needs_root
def test_a_run_through_the_tunnel_carries_its_fidelity_evidence():
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.size_bytes=2000000", "tunnel.k=5", "tunnel.z=50"])
    events = []
    result = runner.run(scenario, events.append)
    assert result.status == "done", result.error
    evidence = result.fidelity
    assert evidence is not None
    assert evidence == events[-1]["fidelity"]  # the summary event carries it
    (iteration,) = [outcome["fidelity"] for outcome in result.iterations]
    assert evidence["host"]["host_name"] == socket.gethostname()
    assert evidence["run_kind"] == "tunnel"
    # The whole iteration, its building and teardown included, is measured: more than the download.
    assert evidence["measured_s"] == iteration["measured_s"] > result.flows[0]["download_time_s"]
    # satlink and both tunnel endpoints moved about 2 MB each way and back: some CPU, far from all of it.
    assert set(iteration["process_cpu_s"]) == {"link", "tunnel.0", "tunnel.1"}
    # As root, each tool's forwarding threads got SCHED_FIFO, and said so.
    assert iteration["tool_realtime"] == {"link": True, "tunnel.0": True, "tunnel.1": True}
    assert evidence["realtime_threads"] is True
    assert 0 < evidence["satlink_cpu_s"] < evidence["measured_s"]
    assert 0 < evidence["tunnel_cpu_s"] < 2 * evidence["measured_s"]
    link = result.iterations[0]["link"]
    assert evidence["satlink_lateness_p99_ms"] == max(link["forward"]["lateness_ms"]["p99"],
                                                      link["return"]["lateness_ms"]["p99"])
    assert evidence["satlink_lateness_max_ms"] >= evidence["satlink_lateness_p99_ms"] >= 0
    fec = result.iterations[0]["fec"]
    assert evidence["tunnel_lateness_p99_ms"] == max(fec["forward"]["lateness_ms"]["p99"],
                                                     fec["return"]["lateness_ms"]["p99"])
    assert evidence["tunnel_lateness_max_ms"] >= evidence["tunnel_lateness_p99_ms"] > 0
    assert evidence["host_kept_up"] == (max(evidence["satlink_lateness_p99_ms"], evidence["tunnel_lateness_p99_ms"])
                                        < fidelity.LATENESS_P99_LIMIT_MS)
    assert 0 <= evidence["cpu_steal_ratio"] < 1 and 0 <= evidence["cpu_steal_ratio_peak_1s"] < 1
    assert 0 < evidence["cpu_busy_ratio"] <= 1
    assert evidence["runs_at_once_max"] >= evidence["runs_at_once_mean"] >= 1
    assert [name for name in topology.existing_namespaces() if result.run_id in name] == []
