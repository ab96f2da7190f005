"""The kernel's own TCP counters in a namespace (what `nstat` shows): how a
channel's losses met TCP's flights. A run's namespaces are new, so their
counters count that iteration only.

- loss_recoveries: fast recoveries entered (SACK or Reno): one per loss
  event that the ACK clock survived;
- rtos: retransmission timeouts: a whole flight lost (or its ACKs), so that
  nothing came back to trigger a fast retransmit;
- dsack_undos: recoveries undone because DSACKs showed every retransmission
  of the episode spurious (the packets had been late, not lost);
- loss_undos: timeouts' window reductions undone the same way;
- full_undos, partial_undos: recoveries undone by timestamps or DSACKs,
  wholly or in part;
- sack_reorders: reordering detected from SACKs (each may raise the
  connection's reordering degree, scenario.TcpStack's max_reordering the
  bound); dsacks_received: DSACK blocks that came back;
- tail_loss_probes, spurious_rtos, lost_retransmits, retransmitted_segments,
  sent_segments: as the kernel counts them (include/uapi/linux/snmp.h).
"""

from __future__ import annotations

from satlab.engine import process

# Our name -> (file, section, the kernel's name).
COUNTERS = {
    "loss_recoveries": [("netstat", "TcpExt", "TCPSackRecovery"), ("netstat", "TcpExt", "TCPRenoRecovery")],
    "rtos": [("netstat", "TcpExt", "TCPTimeouts")],
    "dsack_undos": [("netstat", "TcpExt", "TCPDSACKUndo")],
    "loss_undos": [("netstat", "TcpExt", "TCPLossUndo")],
    "full_undos": [("netstat", "TcpExt", "TCPFullUndo")],
    "partial_undos": [("netstat", "TcpExt", "TCPPartialUndo")],
    "sack_reorders": [("netstat", "TcpExt", "TCPSACKReorder")],
    "dsacks_received": [("netstat", "TcpExt", "TCPDSACKRecv")],
    "tail_loss_probes": [("netstat", "TcpExt", "TCPLossProbes")],
    "spurious_rtos": [("netstat", "TcpExt", "TCPSpuriousRTOs")],
    "lost_retransmits": [("netstat", "TcpExt", "TCPLostRetransmit")],
    "retransmitted_segments": [("snmp", "Tcp", "RetransSegs")],
    "sent_segments": [("snmp", "Tcp", "OutSegs")],
}


def parse(text: str) -> dict[str, dict[str, int]]:
    """/proc/net/netstat or /proc/net/snmp: pairs of lines, `Section: names`
    then `Section: values`, as {section: {name: value}}."""
    sections: dict[str, dict[str, int]] = {}
    lines = [line.split() for line in text.splitlines() if line.strip()]
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names[0] != values[0] or not names[0].endswith(":"):
            continue
        sections[names[0].rstrip(":")] = {name: int(value) for name, value in zip(names[1:], values[1:],
                                                                                  strict=False)
                                          if value.lstrip("-").isdigit()}
    return sections


def counters(netns: str) -> dict[str, int | None]:
    """The counters of the namespace (None where this kernel has no such counter)."""
    files = {name: parse(process.run(["cat", f"/proc/net/{name}"], netns).stdout) for name in ("netstat", "snmp")}
    result: dict[str, int | None] = {}
    for ours, sources in COUNTERS.items():
        found = [files[file].get(section, {}).get(kernel) for file, section, kernel in sources]
        known = [value for value in found if value is not None]
        result[ours] = sum(known) if known else None
    return result
