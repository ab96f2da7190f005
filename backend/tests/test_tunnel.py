"""The tunnel's key: one for both endpoints of a run, another for every run,
never on a command line; the endpoints authenticate with it."""

import contextlib
import time
from pathlib import Path

import pytest

from satlab.engine import links, topology, tunnel
from satlab.engine.plan import make_plan, new_run_id
from satlab.engine.process import run
from satlab.scenario import load
from tests.conftest import LABS


def tunnelled_plan(run_id: str):
    return make_plan(load(LABS / "geo-ideal.yaml", ["tunnel.k=5", "tunnel.z=100"]), run_id)


def test_a_runs_endpoints_share_a_key_that_no_other_run_has():
    first, second = tunnelled_plan("a1b2c3"), tunnelled_plan("d4e5f6")
    keys = {tunnel.tunnel_key(endpoint) for endpoint in first.tunnel}
    assert len(keys) == 1 and len(next(iter(keys))) == 64
    assert keys.isdisjoint(tunnel.tunnel_key(endpoint) for endpoint in second.tunnel)


@pytest.mark.needs_root
def test_endpoints_authenticate_with_the_key_and_no_command_line_shows_it():
    plan = tunnelled_plan(new_run_id())
    key = tunnel.tunnel_key(plan.tunnel[0])
    with topology.run_lock(plan.run_id), topology.namespaces(plan), contextlib.ExitStack() as stack:
        link = links.start_link(plan.satellite, "satlink")
        stack.callback(link.stop)
        endpoints = []
        for index, endpoint in enumerate(plan.tunnel):
            endpoints.append(tunnel.start_endpoint(endpoint, f"swf-tunnel-{index}"))
            stack.callback(endpoints[-1].stop)
        for child in endpoints:
            assert child.events["ready"]["authenticated"] is True
            # ip netns exec has exec'd swf-tunnel: this is its command line.
            assert key not in Path(f"/proc/{child.process.pid}/cmdline").read_text()
        gateway_inner = plan.tunnel[1].inner_addr.split("/")[0]
        run(["python3", "-c", "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)"
             f".sendto(bytes(100), ('{gateway_inner}', 9))"], netns=plan.tunnel[0].netns)
        deadline = time.monotonic() + 10
        while not (endpoints[1].latest and endpoints[1].latest["rx"]["sources"] >= 1):
            assert time.monotonic() < deadline, endpoints[1].latest
            time.sleep(0.05)
        rx = endpoints[1].latest["rx"]
    assert rx["unauthenticated"] == 0 and rx["malformed"] == 0
