"""satlink processes: the satellite link and the optional LAN segment."""

from __future__ import annotations

from satlab.engine.plan import PlannedLink
from satlab.engine.process import JsonLineChild, start_ready
from satlab.tools import tool


def start_link(link: PlannedLink, name: str) -> JsonLineChild:
    """Start satlink in namespace a towards b; returns once its devices are up."""
    args = [tool("satlink"), "--a-dev", link.a_dev, "--b-netns", link.b_netns, "--b-dev", link.b_dev,
            "--a-addr", link.a_addr, "--b-addr", link.b_addr, "--mtu", str(link.mtu), *link.args]
    return start_ready(args, link.a_netns, name)
