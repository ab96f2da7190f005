"""swf-tunnel endpoints: the FEC tunnel between terminal and gateway.

The two endpoints of a run authenticate every datagram with a key they share
(swf-tunnel --key-file), so that a datagram forged from the other endpoint's
address reaches neither the decoder nor the TUN. The key is HMAC-SHA-256 of
the tunnel's identity (its device name, which holds the run id, and its two
UDP endpoints) under a secret this process draws at start-up: fresh and
unpredictable for every run, the same for both endpoints without any state
kept here, and never stored with the run (plans are). It never appears on a
command line and never touches a disk: each endpoint reads it from a pipe
that only this process holds, opened as /proc/<this pid>/fd/<n>, before its
ready line; a crash leaves nothing of it behind.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

from satlab.engine.plan import PlannedTunnel
from satlab.engine.process import JsonLineChild, start_ready
from satlab.tools import tool

_SECRET = secrets.token_bytes(32)


def tunnel_key(endpoint: PlannedTunnel) -> str:
    """The key (64 hex digits) that both endpoints of endpoint's tunnel share."""
    identity = "|".join([endpoint.dev, *sorted((endpoint.local, endpoint.remote))])
    return hmac.new(_SECRET, identity.encode(), hashlib.sha256).hexdigest()


def start_endpoint(endpoint: PlannedTunnel, name: str) -> JsonLineChild:
    """Start one endpoint; returns once its TUN device is up."""
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, tunnel_key(endpoint).encode())
        os.close(write_fd)
        write_fd = -1
        args = [tool("swf-tunnel"), "--dev", endpoint.dev, "--addr", endpoint.inner_addr,
                "--local", endpoint.local, "--remote", endpoint.remote,
                "--key-file", f"/proc/{os.getpid()}/fd/{read_fd}", *endpoint.args]
        return start_ready(args, endpoint.netns, name)
    finally:
        os.close(read_fd)
        if write_fd != -1:
            os.close(write_fd)
