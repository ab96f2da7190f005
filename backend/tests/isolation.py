"""A command in a mount namespace of its own, where /run/netns and /run/satlab
are empty: it sees and sweeps only the network namespaces and locks it makes
itself, never those of other satlab processes on the host. (The kernel's
network namespaces are the host's; only their names are private. Whatever
the command leaves goes with its mount namespace: a netns lives on while a
process runs in it, so the command must end what it starts.)"""

from __future__ import annotations

PRIVATE_DIRS = ("/run/netns", "/run/satlab")


def isolated(argv: list[str]) -> list[str]:
    """argv run in a private mount namespace with fresh PRIVATE_DIRS."""
    mounts = " && ".join(f"mkdir -p {path} && mount -t tmpfs satlab-isolated {path}" for path in PRIVATE_DIRS)
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", f'{mounts} && exec "$@"', "isolated",
            *argv]
