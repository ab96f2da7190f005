"""A run's fidelity evidence: whether the host kept up with it.

Runs that share a CPU measure the host as much as the path, so each
iteration records, beside its results, what the host did meanwhile: its
load average and CPU steal (from /proc), how many runs shared the host
(admitted by any satlab process: satlab.engine.host_runs), the CPU time of the run's own
tools (satlink, swf-tunnel, from /proc/<pid>/stat), and the lateness of
the path's userspace hops, each from the histogram the tool keeps over its
whole life and prints in its summary line: satlink's (how long after its
due time each packet left the emulated link; for a packet due with the one
before it, after that one's write) and swf-tunnel's (how long
each datagram waited in the endpoint's socket after the kernel received
it, and how long after its deadline each flush or hold timer fired); and
whether those tools' forwarding threads ran under SCHED_FIFO, as their
ready lines say (a container may be refused it: see compose.yaml). The
verdict rests on the lateness, the figures that say the emulated path
itself was late: a p99 at or above LATENESS_P99_LIMIT_MS, of either, means
the host could not keep up. A tunnel's endpoints run in user space beside
everything else, so they fall behind before satlink does.

A run's evidence (run_evidence) adds who measured: the host's name,
kernel, CPU model, satlab's version and this host's calibration.
"""

from __future__ import annotations

import contextlib
import os
import platform
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import TracebackType
from typing import Any

from satlab.engine import capacity, host_runs
from satlab.scenario import Scenario

PROC = Path("/proc")
# A lateness p99 (satlink's or a tunnel endpoint's) at or above this: the emulated path was late,
# the host did not keep up.
LATENESS_P99_LIMIT_MS = 1.0
CLOCK_TICKS_PER_S = os.sysconf("SC_CLK_TCK")
# Tools whose CPU time the evidence adds up by kind: runner names them link, lan, tunnel.0, tunnel.1.
SATLINK_NAMES = ("link", "lan")
TUNNEL_PREFIX = "tunnel."


@dataclass(frozen=True)
class CpuTimes:
    """The host's CPUs' time since boot, all CPUs together, in clock ticks."""
    total_ticks: int
    idle_ticks: int  # idle and waiting for I/O
    steal_ticks: int  # runnable, but the hypervisor ran someone else


def parse_cpu_times(proc_stat: str) -> CpuTimes:
    """The `cpu` line of /proc/stat: user nice system idle iowait irq softirq
    steal guest guest_nice. guest and guest_nice are already counted in user
    and nice, so the total stops at steal."""
    for line in proc_stat.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            user, nice, system, idle, iowait, irq, softirq, steal = (int(value) for value in fields[1:9])
            return CpuTimes(user + nice + system + idle + iowait + irq + softirq + steal, idle + iowait, steal)
    raise ValueError("/proc/stat has no cpu line")


def parse_load_avg_1m(proc_loadavg: str) -> float:
    """The 1-minute load average, first of /proc/loadavg's fields."""
    return float(proc_loadavg.split()[0])


def parse_process_cpu_s(proc_pid_stat: str) -> float:
    """User + system CPU time of a process from /proc/<pid>/stat, in seconds.
    Its name (field 2) is in parentheses and may hold spaces and
    parentheses itself, so the fields are counted after the last ')':
    state is field 3, utime field 14, stime field 15 (proc(5))."""
    after_name = proc_pid_stat.rpartition(")")[2].split()
    utime, stime = int(after_name[11]), int(after_name[12])
    return (utime + stime) / CLOCK_TICKS_PER_S


def cpu_model(proc_cpuinfo: str) -> str | None:
    """The first CPU's model as /proc/cpuinfo names it (x86: model name; some ARM kernels: Model)."""
    for line in proc_cpuinfo.splitlines():
        key, colon, value = line.partition(":")
        if colon and key.strip() in ("model name", "Model"):
            return value.strip()
    return None


def read_cpu_times(proc: Path = PROC) -> CpuTimes:
    return parse_cpu_times((proc / "stat").read_text())


def read_load_avg_1m(proc: Path = PROC) -> float:
    return parse_load_avg_1m((proc / "loadavg").read_text())


def read_process_cpu_s(pid: int, proc: Path = PROC) -> float:
    """The process's CPU time so far; FileNotFoundError once it has been reaped."""
    return parse_process_cpu_s((proc / str(pid) / "stat").read_text())


def steal_ratio(before: CpuTimes, after: CpuTimes) -> float | None:
    """The share of the CPUs' time stolen between two readings (None if no tick passed)."""
    elapsed = after.total_ticks - before.total_ticks
    return (after.steal_ticks - before.steal_ticks) / elapsed if elapsed > 0 else None


def busy_ratio(before: CpuTimes, after: CpuTimes) -> float | None:
    """The share of the CPUs' time spent neither idle nor waiting for I/O between two readings."""
    elapsed = after.total_ticks - before.total_ticks
    return 1 - (after.idle_ticks - before.idle_ticks) / elapsed if elapsed > 0 else None


def host_identity(proc: Path = PROC) -> dict[str, Any]:
    """Who measures: the host, its kernel and CPU, and satlab's version."""
    try:
        model = cpu_model((proc / "cpuinfo").read_text())
    except OSError:
        model = None
    try:
        version: str | None = metadata.version("satlab")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        version = None
    return {"host_name": socket.gethostname(), "kernel": platform.release(),
            "cpu_model": model or platform.processor() or None, "cpu_count": os.cpu_count(),
            "satlab_version": version}


def worst_lateness_ms(latenesses: Iterable[Mapping[str, Any] | None]) -> tuple[float | None, float | None]:
    """The largest lateness p99 and the largest lateness, in ms, over
    histograms as the tools print them ({"p50", "p99", "max", "count"}, or
    null where nothing was measured); (None, None) if none was."""
    measured = [lateness for lateness in latenesses if lateness]
    if not measured:
        return None, None
    return max(float(lateness["p99"]) for lateness in measured), max(float(lateness["max"]) for lateness in measured)


def satlink_lateness_ms(summary_lines: Iterable[Mapping[str, Any] | None]) -> tuple[float | None, float | None]:
    """The worst direction's lateness over satlink summary lines (each {"ab":
    {..., "lateness_ms": {...} or null}, "ba": {...}}; None for a link
    without one, such as netem's)."""
    return worst_lateness_ms((line or {}).get(direction, {}).get("lateness_ms")
                             for line in summary_lines for direction in ("ab", "ba"))


def tunnel_lateness_ms(summary_lines: Iterable[Mapping[str, Any] | None]) -> tuple[float | None, float | None]:
    """The worst endpoint's lateness over swf-tunnel summary lines (each
    {..., "lateness_ms": {...} or null}; None for an endpoint without one)."""
    return worst_lateness_ms((line or {}).get("lateness_ms") for line in summary_lines)


def verdict(satlink_p99_ms: float | None, tunnel_p99_ms: float | None = None) -> tuple[bool | None, list[str]]:
    """Whether the host kept up (None: unknown), and why not in sentences:
    it did not if either lateness p99 reached the limit; without satlink's
    (a netem link), nothing says whether the link kept time."""
    problems = [f"{tool}'s lateness p99 was {p99:g} ms, at or above the {LATENESS_P99_LIMIT_MS:g} ms limit: "
                "the host could not keep up"
                for tool, p99 in (("satlink", satlink_p99_ms), ("swf-tunnel", tunnel_p99_ms))
                if p99 is not None and p99 >= LATENESS_P99_LIMIT_MS]
    if problems:
        return False, problems
    if satlink_p99_ms is None:
        return None, ["satlink measured no lateness (a netem link, or no packet crossed it): fidelity unknown"]
    return True, []


class FidelityRecorder:
    """Watches the host while an iteration runs (a context manager): load
    and CPU times at its start and end, and every SAMPLE_INTERVAL_S in a
    thread (the highest load, the worst second of steal, how many runs the
    host had admitted, this one included); the run's tools'
    CPU time when the runner reports them (read_process_cpu, just before it
    stops each: once reaped, a process's times are gone)."""

    SAMPLE_INTERVAL_S = 1.0

    def __init__(self, proc: Path = PROC, run_id: str | None = None,
                 others: Callable[[str], int] = host_runs.others):
        """run_id: the run's, to count the runs beside it each second (others:
        how many runs besides it the host has admitted); None: not counted."""
        self.proc = proc
        self.run_id, self._others = run_id, others
        self._runs_at_once: list[int] = []  # this run and those beside it, each second
        self.process_cpu_s: dict[str, float] = {}
        self.realtime: dict[str, bool] = {}  # by tool: whether its forwarding threads got SCHED_FIFO
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_s = self._end_s = 0.0
        self._load_start = self._load_end = self._load_max = 0.0
        self._cpu_start = self._cpu_end = CpuTimes(0, 0, 0)
        self._steal_peak: float | None = None

    def __enter__(self) -> FidelityRecorder:
        self._start_s = time.monotonic()
        self._load_start = self._load_max = read_load_avg_1m(self.proc)
        self._cpu_start = read_cpu_times(self.proc)
        self._count_runs()
        self._thread = threading.Thread(target=self._watch, name="fidelity", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._end_s = time.monotonic()
        self._load_end = read_load_avg_1m(self.proc)
        self._load_max = max(self._load_max, self._load_end)
        self._cpu_end = read_cpu_times(self.proc)

    def _watch(self) -> None:
        last = self._cpu_start
        while not self._stop.wait(self.SAMPLE_INTERVAL_S):
            self._load_max = max(self._load_max, read_load_avg_1m(self.proc))
            now = read_cpu_times(self.proc)
            if (ratio := steal_ratio(last, now)) is not None:
                self._steal_peak = ratio if self._steal_peak is None else max(self._steal_peak, ratio)
            last = now
            self._count_runs()

    def _count_runs(self) -> None:
        if self.run_id is not None:
            self._runs_at_once.append(1 + self._others(self.run_id))

    def read_process_cpu(self, name: str, pid: int) -> None:
        """Record the CPU time of the run's tool `name` (process pid) so far;
        one that has already exited and been reaped keeps its earlier reading."""
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            self.process_cpu_s[name] = read_process_cpu_s(pid, self.proc)

    def note_ready(self, name: str, ready: Mapping[str, Any] | None) -> None:
        """Record whether the run's tool `name` got SCHED_FIFO for its
        forwarding threads, as its ready line says (satlink's and
        swf-tunnel's say; a tool that does not is not counted). Without it
        they share the CPUs at normal priority, and their lateness says how
        much that cost."""
        if isinstance(realtime := (ready or {}).get("realtime"), bool):
            self.realtime[name] = realtime

    def evidence(self, satlink_summaries: Iterable[Mapping[str, Any] | None],
                 tunnel_summaries: Iterable[Mapping[str, Any] | None] = ()) -> dict[str, Any]:
        """The iteration's evidence, once the recorder has exited, given the
        summary lines of its satlink and swf-tunnel processes."""
        p99, maximum = satlink_lateness_ms(satlink_summaries)
        tunnel_p99, tunnel_maximum = tunnel_lateness_ms(tunnel_summaries)
        kept_up, problems = verdict(p99, tunnel_p99)
        if normal := sorted(name for name, realtime in self.realtime.items() if not realtime):
            problems.append(f"the tools {', '.join(normal)} ran without SCHED_FIFO (the kernel refused it): "
                            "their forwarding threads shared the CPUs at normal priority")
        satlink = [s for name, s in self.process_cpu_s.items() if name in SATLINK_NAMES]
        tunnel = [s for name, s in self.process_cpu_s.items() if name.startswith(TUNNEL_PREFIX)]
        return {"measured_s": self._end_s - self._start_s,
                "load_avg_1m_start": self._load_start, "load_avg_1m_end": self._load_end,
                "load_avg_1m_max": self._load_max,
                "cpu_steal_ratio": steal_ratio(self._cpu_start, self._cpu_end),
                "cpu_steal_ratio_peak_1s": self._steal_peak,
                "cpu_busy_ratio": busy_ratio(self._cpu_start, self._cpu_end),
                "satlink_lateness_p99_ms": p99, "satlink_lateness_max_ms": maximum,
                "tunnel_lateness_p99_ms": tunnel_p99, "tunnel_lateness_max_ms": tunnel_maximum,
                "satlink_cpu_s": _total(satlink), "tunnel_cpu_s": _total(tunnel),
                "process_cpu_s": dict(self.process_cpu_s),
                "runs_at_once_mean": statistics.fmean(counts) if (counts := self._runs_at_once) else None,
                "runs_at_once_max": max(counts) if counts else None,
                "realtime_threads": _every(self.realtime.values()), "tool_realtime": dict(self.realtime),
                "host_kept_up": kept_up, "problems": problems}


def _every(verdicts: Iterable[bool | None]) -> bool | None:
    """False if any verdict is, True if all are (and there is one), else unknown (None)."""
    seen = list(verdicts)
    return False if False in seen else True if seen and all(seen) else None


def _largest(values: Iterable[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return max(present) if present else None


def _total(values: Iterable[float | None]) -> float | None:
    """The sum of CPU times, to the millisecond (they count clock ticks: a sum of floats would show 0.16999)."""
    present = [value for value in values if value is not None]
    return round(sum(present), 3) if present else None


def _time_weighted(iterations: list[dict[str, Any]], key: str) -> float | None:
    """The iterations' figure `key` over their whole time (each weighs its measured_s)."""
    pairs = [(iteration[key], iteration["measured_s"]) for iteration in iterations if iteration.get(key) is not None]
    seconds = sum(weight for _, weight in pairs)
    return sum(ratio * weight for ratio, weight in pairs) / seconds if seconds > 0 else None


def _calibration(path: Path) -> tuple[dict[str, Any] | None, list[str]]:
    """This host's calibration as a run's evidence carries it, or why there is none to carry."""
    try:
        calibration = capacity.load(path)
    except (OSError, ValueError) as error:
        return None, [str(error)]
    return (calibration.summary(), []) if calibration is not None else (None, [])


def run_evidence(scenario: Scenario, iterations: list[dict[str, Any]],
                 calibration_path: Path = capacity.CALIBRATION_PATH) -> dict[str, Any]:
    """A run's evidence from its iterations' (the evidence of each, in
    order): who measured, with which calibration (the one at
    calibration_path, if any), and the iterations' figures together: the
    worst lateness and load, steal and busy CPU over their whole time,
    their tools' CPU time added up. The host kept up if it did in every
    iteration; it did not if it failed in any; else it is unknown (None);
    so with the tools' SCHED_FIFO (realtime_threads)."""
    calibration, calibration_problems = _calibration(calibration_path)
    return {"host": host_identity(), "run_kind": capacity.run_kind(scenario), "calibration": calibration,
            "iterations": len(iterations),
            "measured_s": sum(iteration["measured_s"] for iteration in iterations),
            "load_avg_1m_start": iterations[0]["load_avg_1m_start"] if iterations else None,
            "load_avg_1m_end": iterations[-1]["load_avg_1m_end"] if iterations else None,
            "load_avg_1m_max": _largest(iteration["load_avg_1m_max"] for iteration in iterations),
            "cpu_steal_ratio": _time_weighted(iterations, "cpu_steal_ratio"),
            "cpu_steal_ratio_peak_1s": _largest(iteration["cpu_steal_ratio_peak_1s"] for iteration in iterations),
            "cpu_busy_ratio": _time_weighted(iterations, "cpu_busy_ratio"),
            "satlink_lateness_p99_ms": _largest(iteration["satlink_lateness_p99_ms"] for iteration in iterations),
            "satlink_lateness_max_ms": _largest(iteration["satlink_lateness_max_ms"] for iteration in iterations),
            "tunnel_lateness_p99_ms": _largest(iteration["tunnel_lateness_p99_ms"] for iteration in iterations),
            "tunnel_lateness_max_ms": _largest(iteration["tunnel_lateness_max_ms"] for iteration in iterations),
            "lateness_p99_limit_ms": LATENESS_P99_LIMIT_MS,
            "satlink_cpu_s": _total(iteration["satlink_cpu_s"] for iteration in iterations),
            "tunnel_cpu_s": _total(iteration["tunnel_cpu_s"] for iteration in iterations),
            "runs_at_once_mean": _time_weighted(iterations, "runs_at_once_mean"),
            "runs_at_once_max": _largest(iteration.get("runs_at_once_max") for iteration in iterations),
            "realtime_threads": _every(iteration.get("realtime_threads") for iteration in iterations),
            "host_kept_up": _every(iteration["host_kept_up"] for iteration in iterations),
            "problems": calibration_problems + [f"iteration {index}: {problem}"
                                                for index, iteration in enumerate(iterations)
                                                for problem in iteration["problems"]]}
