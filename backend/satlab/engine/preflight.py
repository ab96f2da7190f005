"""What this host can run, checked before a run touches the system: root,
the native tools, each transport's programs, the kernel's TCP congestion
controls (the flows' and the PEP's) and netem, iptables for a PEP, the trace
files a scenario names, Hystart's parameter.

A scenario is valid or not whatever the machine (satlab.scenario); whether
this host can run it is asked here, by the engine before it creates
anything and by the service before it queues a run. Every problem names
its field, as the scenario's own refusals do.
"""

from __future__ import annotations

import os
import shutil

from satlab import tcp_congestion
from satlab.engine import host
from satlab.scenario import FlowGroup, Scenario, ScenarioError, file_problem, shorten
from satlab.tools import TOOLS_DIR


def check(scenario: Scenario) -> None:
    """ScenarioError listing every part of scenario this host cannot run, one
    sentence per problem, each starting with its field; nothing is created."""
    problems = []
    if os.geteuid() != 0:
        problems.append("runs need root (they create network namespaces and TUN devices): start satlab as root")
    if scenario.path.link_backend == "netem" and (problem := host.link_backend_problem("netem")):
        problems.append(f"path.link_backend: netem cannot run on this host: {problem}; use satlink")
    tools = []
    if scenario.path.link_backend == "satlink" or scenario.path.lan is not None:
        tools.append("satlink")
    if scenario.tunnel is not None:
        tools.append("swf-tunnel")
    if scenario.pep is not None:
        tools.append("satlab-pep")
        if shutil.which("iptables") is None:
            problems.append("pep: needs iptables (its interception is iptables TPROXY rules in the run's "
                            "namespaces), which is not installed")
        for where, cc in (("pep.satellite.cc", scenario.pep.satellite.cc), ("pep.ground.cc", scenario.pep.ground.cc)):
            if (problem := _kernel_congestion_control_problem(cc)) is not None:
                problems.append(f"{where}: {problem}")
    for name in tools:
        if not (TOOLS_DIR / name).exists():
            problems.append(f"{TOOLS_DIR / name} does not exist: build the codec (cmake -S codec -B build/codec "
                            "-G Ninja && cmake --build build/codec) or set SATLAB_TOOLS_DIR")
    for index, group in enumerate(scenario.flows):
        if (problem := host.transport_problem(group.transport)) is not None:
            problems.append(f"flows.{index}.transport: {group.transport} cannot run on this host: {problem}")
        elif (problem := _congestion_control_problem(group)) is not None:
            problems.append(f"flows.{index}.cc: {problem}")
    if scenario.cross_traffic and shutil.which("iperf3") is None:
        problems.append("cross_traffic: needs iperf3, which is not installed")
    for where, part in scenario.files():
        if part.file is None or not part.file.is_file():
            problems.append(f"{where}.file: {part.file} is not a readable file")
        elif problem := file_problem(part):
            problems.append(f"{where}.file: {problem}")
    if scenario.hystart is not None and not host.HYSTART.exists():
        problems.append(f"flows: hystart needs {host.HYSTART}, which this kernel lacks")
    if problems:
        raise ScenarioError(problems)


def _congestion_control_problem(group: FlowGroup) -> str | None:
    """Why this host's kernel cannot run a kernel TCP flow group's congestion
    control, or None. Other transports bring their own."""
    return _kernel_congestion_control_problem(group.cc) if group.transport == "tcp" else None


def _kernel_congestion_control_problem(cc: str) -> str | None:
    """Why this host's kernel cannot run the TCP congestion control cc (one
    it neither has nor can load; as root, one whose module does not load),
    naming those it can, or None."""
    kernel = tcp_congestion.host_kernel()  # detected once per process
    if (problem := kernel.problem(cc)) is not None:
        runnable = kernel.runnable(tcp_congestion.LINUX_TCP_CONGESTION_CONTROLS)
        return f"{problem}; allowed: {', '.join(runnable)} (got {shorten(cc)})"
    return tcp_congestion.load(cc, kernel) if os.geteuid() == 0 else None
