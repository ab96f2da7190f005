"""swf-tunnel endpoints: the FEC tunnel between terminal and gateway."""

from __future__ import annotations

from satlab.plan import PlannedTunnel
from satlab.process import JsonLineChild
from satlab.tools import tool

READY_TIMEOUT_S = 10.0


def start_endpoint(endpoint: PlannedTunnel, name: str) -> JsonLineChild:
    """Start one endpoint; returns once its TUN device is up."""
    args = [tool("swf-tunnel"), "--dev", endpoint.dev, "--addr", endpoint.inner_addr,
            "--local", endpoint.local, "--remote", endpoint.remote, *endpoint.args]
    child = JsonLineChild(args, netns=endpoint.netns, name=name)
    try:
        child.wait_event("ready", READY_TIMEOUT_S)
    except BaseException:
        child.stop()
        raise
    return child
