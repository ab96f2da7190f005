"""The PEP's part of a run's plan (satlab.engine.plan): each satlab-pep
process with its options and the device its interception watches, the
initial windows on the routes across the satellite, the namespaces' Fast
Open setting, and what the plan says of the flows a PEP cannot split.

Pure, like the plan: a function of the scenario and the names the plan chose.
"""

from __future__ import annotations

from dataclasses import dataclass

from satlab.scenario import Pep, PepGround, Scenario

# net.ipv4.tcp_fastopen: bit 0x1 lets a namespace's sockets connect with
# Fast Open (the terminal PEP), 0x2 accept it (the gateway PEP).
FAST_OPEN_SYSCTL = {"net.ipv4.tcp_fastopen": "3"}
QUIC_UNTOUCHED = ("flows.{index}: {transport} is QUIC, over UDP: it passes the PEP untouched (the PEP splits "
                  "TCP connections only, and QUIC's encrypted headers leave a proxy nothing to act on)")
UPLOAD_BUFFERED = ("flows.{index}: an iperf3 upload ends when its sender has written its bytes, and through a PEP "
                   "the terminal PEP takes them at the speed of the LAN: the test ends long before the server has "
                   "them, so the flow's bytes and time say little of the upload")
TUNNELLED = ("pep: the tunnel spans end to end, so every flow crosses the terminal and the gateway inside its UDP "
             "datagrams: the PEP splits nothing (as with a VPN)")


@dataclass(frozen=True)
class PlannedPep:
    """One satlab-pep process: role terminal or gateway, in namespace netns,
    intercepting the TCP connections that arrive on inbound_dev."""
    role: str
    netns: str
    inbound_dev: str
    args: list[str]  # satlab-pep's options beyond --role and --listen


def _segment_args(side: str, segment: PepGround) -> list[str]:
    args = [f"--{side}-congestion", segment.cc]
    if segment.sndbuf_bytes is not None:
        args += [f"--{side}-sndbuf-bytes", str(segment.sndbuf_bytes)]
    if segment.rcvbuf_bytes is not None:
        args += [f"--{side}-rcvbuf-bytes", str(segment.rcvbuf_bytes)]
    return args


def plan_peps(pep: Pep | None, namespaces: dict[str, str], terminal_inbound_dev: str,
              gateway_inbound_dev: str) -> list[PlannedPep]:
    """The PEP processes, the gateway's first. terminal_inbound_dev: the
    terminal's device toward the client; gateway_inbound_dev: the gateway's
    device the client subnet's route takes (the satellite link's, or the
    tunnel's)."""
    if pep is None:
        return []
    args = [*_segment_args("sat", pep.satellite), *_segment_args("ground", pep.ground),
            "--sat-fastopen", pep.satellite.fast_open, "--pipe-bytes", str(pep.pipe_bytes)]
    inbound = {"terminal": terminal_inbound_dev, "gateway": gateway_inbound_dev}
    return [PlannedPep(role, namespaces[role], inbound[role], args)
            for role in ("gateway", "terminal") if role in pep.roles]


def satellite_route_options(pep: Pep | None, role: str) -> list[str]:
    """What `ip route add` takes beyond destination and gateway on role's
    route across the satellite (the terminal's toward the servers, the
    gateway's toward the clients): the satellite segment's initial windows,
    where a PEP runs in role. A route attribute, not a socket option: it
    applies to the PEP's sockets on that segment, both opened and accepted."""
    if pep is None or role not in pep.roles:
        return []
    options = []
    if pep.satellite.initcwnd_packets is not None:
        options += ["initcwnd", str(pep.satellite.initcwnd_packets)]
    if pep.satellite.initrwnd_packets is not None:
        options += ["initrwnd", str(pep.satellite.initrwnd_packets)]
    return options


def pep_sysctls(pep: Pep | None, role: str) -> dict[str, str]:
    """The sysctls role's namespace needs for its PEP."""
    if pep is None or role not in pep.roles or pep.satellite.fast_open == "off":
        return {}
    return dict(FAST_OPEN_SYSCTL)


def splits(scenario: Scenario, transport: str) -> bool:
    """Whether the scenario's PEPs split the connections of a flow of this
    transport: TCP's, unless a tunnel spanning end to end carries them past."""
    return (scenario.pep is not None and transport == "tcp"
            and not (scenario.tunnel is not None and scenario.tunnel.span == "end-to-end"))


def pep_notes(scenario: Scenario) -> list[str]:
    """What the plan explains of a scenario with a PEP: the flows it cannot split."""
    if scenario.pep is None:
        return []
    if scenario.tunnel is not None and scenario.tunnel.span == "end-to-end":
        return [TUNNELLED]
    return [(QUIC_UNTOUCHED if group.transport != "tcp" else UPLOAD_BUFFERED).format(index=index,
                                                                                     transport=group.transport)
            for index, group in enumerate(scenario.flows) if group.transport != "tcp" or group.direction == "upload"]
