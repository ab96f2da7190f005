"""The hosts' TCP loss recovery: the few kernel settings a scenario may
change, in every namespace of its run (the client, the server, and the
terminal and gateway where a PEP ends TCP). Each is a per-namespace sysctl:
the host's own settings never change, and a run's namespaces start from the
kernel's defaults, not from the host's. None leaves a setting at that default.

What they decide (Documentation/networking/ip-sysctl.rst):
- sack: selective acknowledgements (RFC 2018); default on.
- dsack: duplicate SACKs (RFC 2883), which tell the sender a retransmission
  was spurious (the packet was late, not lost), so that it undoes the
  window reduction; default on.
- recovery: RACK's flags (a bit mask): 1 detects losses by time (RACK),
  2 keeps its reordering window static, 4 stops using the duplicate-ACK
  threshold as well; 0: losses by duplicate ACKs only; default 1.
- reordering: the reordering degree a connection starts with (duplicate
  ACKs before a fast retransmit); default 3.
- max_reordering: how far reordering it has seen may raise that degree;
  default 300.
- frto: F-RTO (RFC 5682), which tells a spurious timeout from a real one;
  0 off, 1 basic, 2 with SACK; default 2.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from satlab.scenario.base import Strict

# The kernel clamps reordering degrees to this (TCP_MAX_REORDERING in include/net/tcp.h).
MAX_REORDERING = 300


class TcpStack(Strict):
    sack: bool | None = None
    dsack: bool | None = None
    recovery: int | None = Field(default=None, ge=0, le=7)
    reordering: int | None = Field(default=None, ge=1, le=MAX_REORDERING)
    max_reordering: int | None = Field(default=None, ge=1, le=MAX_REORDERING)
    frto: Literal[0, 1, 2] | None = None

    @model_validator(mode="after")
    def _reordering_within_its_bound(self) -> TcpStack:
        if self.reordering is not None and self.max_reordering is not None and self.reordering > self.max_reordering:
            raise ValueError(f"reordering {self.reordering} must be <= max_reordering {self.max_reordering}: "
                             "the degree a connection starts with cannot exceed the one it may reach")
        return self

    def sysctls(self) -> dict[str, str]:
        """The namespace sysctls that set what the scenario gives (none for None)."""
        values = {"net.ipv4.tcp_sack": self.sack, "net.ipv4.tcp_dsack": self.dsack,
                  "net.ipv4.tcp_recovery": self.recovery, "net.ipv4.tcp_reordering": self.reordering,
                  "net.ipv4.tcp_max_reordering": self.max_reordering, "net.ipv4.tcp_frto": self.frto}
        return {key: str(int(value)) for key, value in values.items() if value is not None}
