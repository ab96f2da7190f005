"""The scenario's TCP loss recovery settings: refused per field when out of
range, turned into namespace sysctls the kernel takes per namespace (the
host's own settings untouched)."""

import os
import subprocess

import pytest

from satlab.scenario import ScenarioError, TcpStack, load
from tests.conftest import LABS


def test_tcp_stack_gives_only_the_sysctls_it_sets():
    assert TcpStack().sysctls() == {}
    assert TcpStack(sack=True, dsack=False, recovery=4, reordering=3, max_reordering=3, frto=0).sysctls() == {
        "net.ipv4.tcp_sack": "1", "net.ipv4.tcp_dsack": "0", "net.ipv4.tcp_recovery": "4",
        "net.ipv4.tcp_reordering": "3", "net.ipv4.tcp_max_reordering": "3", "net.ipv4.tcp_frto": "0"}


@pytest.mark.parametrize(("override", "expected"), [
    ("tcp_stack.recovery=8", "tcp_stack.recovery: Input should be less than or equal to 7 (got 8)"),
    ("tcp_stack.frto=3", "tcp_stack.frto: Input should be 0, 1 or 2 (got 3)"),
    ("tcp_stack.dsack=0", "tcp_stack.dsack: Input should be a valid boolean (got 0)"),
    ("tcp_stack.max_reordering=0", "tcp_stack.max_reordering: Input should be greater than or equal to 1 (got 0)"),
    ("tcp_stack={reordering: 10, max_reordering: 3}",
     "tcp_stack: reordering 10 must be <= max_reordering 3: the degree a connection starts with cannot exceed"),
    ("tcp_stack.rack=0", "tcp_stack.rack: is not a known field"),
])
def test_a_tcp_stack_out_of_range_is_refused_naming_its_field(override, expected):
    with pytest.raises(ScenarioError) as refused:
        load(LABS / "geo-ideal.yaml", [override])
    assert any(problem.startswith(expected) for problem in refused.value.problems), refused.value.problems


def _sysctl(key: str, netns: str | None = None) -> str:
    command = ["sysctl", "-n", key]
    return subprocess.run(["ip", "netns", "exec", netns, *command] if netns else command, check=True,
                          capture_output=True, text=True).stdout.strip()


@pytest.mark.needs_root
def test_the_kernel_takes_every_setting_per_namespace_and_the_host_keeps_its_own():
    settings = TcpStack(sack=True, dsack=False, recovery=0, reordering=3, max_reordering=3, frto=0).sysctls()
    host = {key: _sysctl(key) for key in settings}
    netns = f"tcpstack-scenario-{os.getpid()}"
    subprocess.run(["ip", "netns", "add", netns], check=True)
    try:
        subprocess.run(["ip", "netns", "exec", netns, "sysctl", "-qw",
                        *(f"{key}={value}" for key, value in settings.items())], check=True)
        assert {key: _sysctl(key, netns) for key in settings} == settings
        assert {key: _sysctl(key) for key in settings} == host
    finally:
        subprocess.run(["ip", "netns", "delete", netns], check=True)
