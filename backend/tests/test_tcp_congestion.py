"""Which TCP congestion controls a kernel runs: fake /proc files and module
trees (the detection takes their paths), and this host's own."""

from pathlib import Path

import pytest

from satlab import tcp_congestion
from satlab.engine import preflight
from satlab.scenario import ScenarioError, load
from satlab.tcp_congestion import LINUX_TCP_CONGESTION_CONTROLS, KernelCongestionControls, detect
from satlab.tcp_congestion import load as load_cc
from tests.conftest import LABS


def kernel(tmp_path: Path, available: str, modules: list[str] | None) -> KernelCongestionControls:
    """A kernel whose /proc lists `available` and whose module tree (None:
    none at all) holds these files."""
    proc = tmp_path / "tcp_available_congestion_control"
    proc.write_text(available + "\n")
    modules_dir = tmp_path / "lib" / "modules" / "6.1.0-test"
    for module in modules or []:
        path = modules_dir / "kernel" / "net" / "ipv4" / module
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    return detect(proc, modules_dir if modules is not None else tmp_path / "absent")


def test_detect_reads_the_kernels_list_and_its_loadable_modules(tmp_path):
    detected = kernel(tmp_path, "reno cubic", ["tcp_hybla.ko.xz", "tcp_vegas.ko", "tcp_cubic.ko.zst",
                                               "tcp_diag.ko", "nf_conntrack.ko"])
    assert detected.available == ("reno", "cubic")
    # Loaded already: not loadable; tcp_diag is no congestion control.
    assert detected.loadable == ("hybla", "vegas")
    assert detected.runnable(LINUX_TCP_CONGESTION_CONTROLS) == ("cubic", "reno", "hybla", "vegas")
    assert detected.problem("hybla") is None
    assert detected.to_dict()["missing"] == [name for name in LINUX_TCP_CONGESTION_CONTROLS
                                             if name not in ("cubic", "reno", "hybla", "vegas")]


def test_a_congestion_control_neither_built_in_nor_a_module_is_refused_with_the_reason(tmp_path):
    detected = kernel(tmp_path, "reno bbr cubic", ["tcp_vegas.ko"])
    assert detected.problem("hybla") == ("hybla is not available on this host: the kernel has neither it built "
                                         "in nor the module tcp_hybla")
    assert load_cc("hybla", detected) == detected.problem("hybla")
    assert load_cc("bbr", detected) is None  # built in: nothing to load


def test_a_kernel_without_a_module_directory_runs_its_built_in_ones_only(tmp_path):
    detected = kernel(tmp_path, "reno bbr cubic", None)
    assert detected.loadable == ()
    assert detected.problem("htcp") == ("htcp is not available on this host: the kernel has neither it built in "
                                        f"nor the module tcp_htcp, and there is no {tmp_path / 'absent'}")


def test_loading_a_module_that_does_not_load_says_why(tmp_path):
    # modprobe for real: on a host without the module (or without modprobe) it fails, and the reason is kept.
    absent = KernelCongestionControls(("reno",), ("hybla",), tmp_path)
    problem = load_cc("hybla", absent)
    assert problem is not None and problem.startswith("hybla needs the module tcp_hybla, ")


def test_this_hosts_kernel_runs_its_listed_ones_and_refuses_a_missing_one():
    host = tcp_congestion.host_kernel()
    assert host is tcp_congestion.host_kernel()  # detected once per process
    assert list(host.available) == Path(tcp_congestion.AVAILABLE).read_text().split()
    assert {"reno", "cubic"} <= set(host.available)
    missing = [name for name in LINUX_TCP_CONGESTION_CONTROLS if host.problem(name)]
    if not missing:
        pytest.skip("this host's kernel runs every Linux TCP congestion control")
    # A valid scenario everywhere: the host's kernel is preflight's question.
    scenario = load(LABS / "geo-ideal.yaml", [f"flows.0.cc={missing[0]}", "flows.0.hystart=null"])
    with pytest.raises(ScenarioError) as refused:
        preflight.check(scenario)
    (problem,) = [problem for problem in refused.value.problems if problem.startswith("flows.0.cc: ")]
    assert problem.startswith(f"flows.0.cc: {missing[0]} is not available on this host: the kernel has neither it "
                              f"built in nor the module tcp_{missing[0]}")
    assert problem.endswith(f"allowed: {', '.join(host.runnable(LINUX_TCP_CONGESTION_CONTROLS))} "
                            f"(got '{missing[0]}')")
