"""The interception that hands a namespace's TCP connections to satlab-pep:
iptables TPROXY rules with the socket match, a fwmark rule and a local route
table (codec/README.md, "satlab-pep", Interception). The one definition of
these commands: the engine issues them for a run's PEPs, and the wire tests
(tests/datapath/pep_lab.py) import them from here.

Everything lives in the PEP's namespace, never on the host: a crash that
leaves the rules leaves them in a namespace the run's teardown or the next
sweep deletes, and they go with it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from satlab.engine.process import run

# Where satlab-pep listens in its namespace (--listen, the TPROXY target).
PEP_PORT = 7000
PEP_LISTEN_IP = "127.0.0.1"
# iptables' lock (/run/xtables.lock) is one for the whole host: runs setting
# up at once wait for each other instead of failing.
_MANGLE = ["iptables", "-w", "-t", "mangle"]


@dataclass(frozen=True)
class Interception:
    """TCP arriving on inbound_dev in namespace netns goes to the PEP
    listening on listen_ip:port. mark: the fwmark bit(s) this interception
    owns; table: its local route table; chain: its iptables chain (each
    namespace has its own tables, so these need not differ between runs)."""
    netns: str
    inbound_dev: str
    port: int = PEP_PORT
    listen_ip: str = PEP_LISTEN_IP
    mark: int = 0x1
    table: int = 100
    chain: str = "SATLAB_PEP"

    @property
    def mark_mask(self) -> str:
        return f"{self.mark:#x}/{self.mark:#x}"


def interception_commands(i: Interception) -> list[list[str]]:
    """The commands that set the interception up, in order, to run inside
    i.netns. Packets of a connection the PEP holds (its accepted sockets and
    the ones it opened from the client's address, all IP_TRANSPARENT) are
    marked and delivered locally; a new connection arriving on inbound_dev
    goes to the listener; the mark routes both to the local table."""
    return [
        [*_MANGLE, "-N", i.chain],
        [*_MANGLE, "-A", i.chain, "-m", "socket", "--transparent", "-j", "MARK", "--set-xmark", i.mark_mask],
        [*_MANGLE, "-A", i.chain, "-m", "mark", "--mark", i.mark_mask, "-j", "ACCEPT"],
        [*_MANGLE, "-A", i.chain, "-i", i.inbound_dev, "-p", "tcp", "-j", "TPROXY", "--on-ip", i.listen_ip,
         "--on-port", str(i.port), "--tproxy-mark", i.mark_mask],
        [*_MANGLE, "-I", "PREROUTING", "-p", "tcp", "-j", i.chain],
        ["ip", "rule", "add", "fwmark", i.mark_mask, "lookup", str(i.table)],
        ["ip", "route", "add", "local", "0.0.0.0/0", "dev", "lo", "table", str(i.table)],
    ]


def removal_commands(i: Interception) -> list[list[str]]:
    """The commands that undo interception_commands, in order; each may fail
    harmlessly where its part is absent."""
    return [
        [*_MANGLE, "-D", "PREROUTING", "-p", "tcp", "-j", i.chain],
        [*_MANGLE, "-F", i.chain],
        [*_MANGLE, "-X", i.chain],
        ["ip", "rule", "del", "fwmark", i.mark_mask, "lookup", str(i.table)],
        ["ip", "route", "flush", "table", str(i.table)],
    ]


def interception_left(i: Interception) -> list[str]:
    """What of the interception exists in its namespace (empty: nothing)."""
    left = [line for line in run(["iptables-save", "-t", "mangle"], i.netns).stdout.splitlines()
            if i.chain in line]
    left += [line for line in run(["ip", "rule", "show"], i.netns).stdout.splitlines()
             if f"lookup {i.table}" in line]
    left += run(["ip", "route", "show", "table", str(i.table)], i.netns, check=False).stdout.splitlines()
    return left


def remove_interception(i: Interception) -> None:
    """Undo whatever of the interception exists (all of it, part of it after
    a failed set-up, or nothing); RuntimeError naming what remains, if anything does."""
    for command in removal_commands(i):
        run(command, i.netns, check=False)
    if left := interception_left(i):
        raise RuntimeError(f"The PEP's interception in namespace {i.netns} was not removed: "
                           f"{'; '.join(left)}")


def install_interception(i: Interception) -> None:
    """Set the interception up; on failure, remove what was set up and raise
    RuntimeError naming the command that failed and its error."""
    for command in interception_commands(i):
        done = run(command, i.netns, check=False)
        if done.returncode != 0:
            remove_interception(i)
            raise RuntimeError(f"{' '.join(command)} in namespace {i.netns} failed: {done.stderr.strip()}")


@contextlib.contextmanager
def intercepting(i: Interception) -> Iterator[Interception]:
    """The interception while the body runs, removed after it whatever happens."""
    install_interception(i)
    try:
        yield i
    finally:
        remove_interception(i)
