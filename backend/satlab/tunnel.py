"""swf-tunnel endpoints: the FEC tunnel between terminal and gateway."""

from __future__ import annotations

from satlab.plan import PlannedTunnel
from satlab.process import JsonLineChild, start_ready
from satlab.tools import tool


def start_endpoint(endpoint: PlannedTunnel, name: str) -> JsonLineChild:
    """Start one endpoint; returns once its TUN device is up."""
    args = [tool("swf-tunnel"), "--dev", endpoint.dev, "--addr", endpoint.inner_addr,
            "--local", endpoint.local, "--remote", endpoint.remote, *endpoint.args]
    return start_ready(args, endpoint.netns, name)
