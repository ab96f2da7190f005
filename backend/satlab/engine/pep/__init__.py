"""The split-TCP PEP of a run (scenario field `pep`, satlab/scenario/pep.py):

    interception.py  the iptables TPROXY rules, fwmark rule and local route
                     table that hand TCP connections to satlab-pep, and their
                     removal (the one definition: tests/datapath imports it)
    planning.py      the plan's part: the processes, the initial windows on
                     the routes, Fast Open, the notes on QUIC
    proxies.py       running them for an iteration: interception, processes,
                     their lines, teardown
    segments.py      the hops a PEP cuts a flow's path into, and each one's
                     ends: the one vocabulary of summaries and samples
    metrics.py       a flow's counters from the PEPs' lines: bytes and
                     retransmissions per segment, buffer and pipe occupancy
                     (live, every tick, and in the summary)
    hops.py          a split flow's samples on the hops where a PEP sends

The package imports only the interception here, so that the plan (pure) can
import planning without the processes.
"""

from satlab.engine.pep.interception import (
    PEP_LISTEN_IP,
    PEP_PORT,
    Interception,
    install_interception,
    intercepting,
    interception_commands,
    interception_left,
    removal_commands,
    remove_interception,
)

__all__ = ["PEP_LISTEN_IP", "PEP_PORT", "Interception", "install_interception", "intercepting",
           "interception_commands", "interception_left", "removal_commands", "remove_interception"]
