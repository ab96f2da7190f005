"""Scenario -> plan: every name, address, buffer size, seed and tool argument
of one iteration of a run, decided before anything is created.

The plan is a pure function of (scenario, run id, iteration, and where its
packet captures go): the same inputs give the same plan, so a run can be
reproduced from what is stored with it.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

from satlab.engine.captures import CaptureRoom, PlannedCapture, capture_notes, plan_captures, tool_args
from satlab.engine.netem import PlannedQdisc, netem_link
from satlab.engine.pep.planning import PlannedPep, pep_notes, pep_sysctls, plan_peps, satellite_route_options
from satlab.scenario import (
    MAX_FLOWS,
    TUNNEL_MAX_SYMBOL_BYTES,
    Aqm,
    Channel,
    DelayVariation,
    Direction,
    FlowControl,
    Outage,
    RateTrace,
    Scenario,
)

# Every namespace of every run starts with this, so that a sweep finds the
# leftovers of a crashed run (and nothing else).
NAME_PREFIX = "satlab-"
MTU = 1500
TUNNEL_PORT = 7000
FIRST_FLOW_PORT = 5201
# Right after the last port a flow can have: cross traffic never meets a flow.
FIRST_CROSS_TRAFFIC_PORT = FIRST_FLOW_PORT + MAX_FLOWS
IPV4_UDP_HEADER_BYTES = 28
ROLES = ("client", "terminal", "gateway", "server")


def new_run_id() -> str:
    """A short random id: names only, no experiment randomness depends on it."""
    return secrets.token_hex(3)


def derive_seed(seed: int, iteration: int, place: str) -> int:
    """A uint32 seed for the random draw at `place`, derived from the
    scenario's seed: stable across machines and Python versions."""
    digest = hashlib.sha256(f"{seed}/{iteration}/{place}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def drawn_phase_ms(period_ms: float, seed: int) -> float:
    """An outage's phase drawn from its channel's seed: uniform over the
    period, to the microsecond. Each iteration's channel has its own seed, so
    iterations meet the outages at independent phases."""
    digest = hashlib.sha256(f"{seed}/outage-phase".encode()).digest()
    return math.floor(int.from_bytes(digest[:8], "big") / 2**64 * period_ms * 1000) / 1000


def channel_spec(channel: Channel, seed: int) -> str:
    """satlink's --channel text for a channel (codec/README.md, Tools)."""
    # satlink takes p and q; the statistics they were derived from stay in the scenario.
    fields = channel.model_dump(exclude={"model", "seed", "loss_time_ratio", "mean_burst_ms"}, exclude_none=True)
    if isinstance(channel, Outage) and channel.phase_ms is None:
        fields["phase_ms"] = drawn_phase_ms(channel.period_ms, seed)
    parameters = [f"{name}={value}" for name, value in fields.items()] + [f"seed={seed}"]
    return f"{channel.model}:{','.join(parameters)}"


@dataclass(frozen=True)
class PlannedLink:
    """One satlink process: namespace a (where it runs) to namespace b."""
    a_netns: str
    b_netns: str
    a_dev: str
    b_dev: str
    a_addr: str
    b_addr: str
    mtu: int
    args: list[str]  # link options, per direction (ab = a -> b)


@dataclass(frozen=True)
class PlannedVeth:
    a_netns: str
    a_dev: str
    a_addr: str
    b_netns: str
    b_dev: str
    b_addr: str
    mtu: int
    gso_max_segs: int | None = None  # None: the kernel's default


@dataclass(frozen=True)
class PlannedTunnel:
    netns: str
    dev: str
    inner_addr: str
    local: str
    remote: str
    args: list[str]


@dataclass(frozen=True)
class PlannedFlow:
    index: int
    group: int
    transport: str
    cc: str
    size_bytes: int | None
    duration_s: float | None
    start_s: float
    direction: str
    port: int
    client_netns: str
    server_netns: str
    server_addr: str
    # QUIC only (scenario.FlowGroup): the receiver's windows, None for the
    # transport's default, and the 0-RTT mode.
    connection_window_bytes: int | None = None
    stream_window_bytes: int | None = None
    zero_rtt: str = "off"
    # QUIC only (scenario.Capture): keep the qlogs of both ends, the TLS key log.
    keep_qlog: bool = False
    keep_keylog: bool = False

    @property
    def sender_netns(self) -> str:
        return self.server_netns if self.direction == "download" else self.client_netns


@dataclass(frozen=True)
class PlannedCrossTraffic:
    """A UDP stream from an iperf3 client (the sender) to an iperf3 server (the receiver)."""
    index: int
    link: str  # "return": the client sends to the server; "forward": the server sends to the client
    rate_mbps: float  # of UDP payload (iperf3 --bitrate)
    start_s: float
    end_s: float | None  # None: until the flows are done
    port: int
    length_bytes: int  # UDP payload of a datagram: one IP packet of the access MTU
    sender_netns: str
    receiver_netns: str
    receiver_addr: str


@dataclass(frozen=True)
class Plan:
    run_id: str
    iteration: int
    namespaces: dict[str, str]  # role -> name
    subnet: str
    addresses: dict[str, str]  # "role" or "role.peer" -> address
    routes: dict[str, list[list[str]]]  # role -> `ip route add` argument lists
    sysctls: dict[str, dict[str, str]]  # role -> key -> value
    access_mtu: int  # of the devices beside the satellite link: what the tunnel can carry
    veths: list[PlannedVeth]
    satellite: PlannedLink | None  # satlink; None with link_backend netem
    netem: dict[str, PlannedQdisc]  # link_backend netem: direction -> its qdisc on the satellite veth pair
    lan: PlannedLink | None
    tunnel: list[PlannedTunnel]
    flows: list[PlannedFlow]
    cross_traffic: list[PlannedCrossTraffic]
    seeds: dict[str, int]
    buffers_bytes: dict[str, int]  # direction -> drop-tail limit (a packet limit: packets x MTU at most)
    bdp_bytes: dict[str, int]
    base_rtt_ms: float
    hystart: bool | None
    peps: list[PlannedPep] = field(default_factory=list)  # the split-TCP PEP's processes (engine/pep)
    captures: list[PlannedCapture] = field(default_factory=list)  # scenario.capture.packets (engine/captures)
    notes: list[str] = field(default_factory=list)  # what the run will not do as one might expect, and why

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _bdp_bytes(direction: Direction, rtt_ms: float) -> int:
    return round(direction.rate_mbps * 1e6 / 8 * rtt_ms / 1e3)


def _buffer_bytes(direction: Direction, rtt_ms: float) -> int:
    """The drop-tail limit in bytes (a packet limit: packets x MTU at most)."""
    if direction.buffer.packets is not None:
        return direction.buffer.packets * MTU
    if direction.buffer.bytes is not None:
        return max(direction.buffer.bytes, MTU)
    assert direction.buffer.bdp is not None  # the model holds exactly one of the three
    limit = round(direction.buffer.bdp * _bdp_bytes(direction, rtt_ms))
    return max(limit, MTU)


def _shaping_args(side: str, direction: Direction, seeds: dict[str, int], name: str,
                  buffer_bytes: int) -> list[str]:
    """satlink's AQM, delay variation and rate trace options of one direction
    (codec/README.md, satlink)."""
    args = []
    if (aqm := direction.aqm) is not None:
        threshold_bytes = aqm.threshold_bytes
        if threshold_bytes is None:
            assert aqm.threshold_ratio is not None  # the model holds exactly one of the two
            threshold_bytes = round(aqm.threshold_ratio * buffer_bytes)
        args += [f"--{side}-aqm-threshold-bytes", str(threshold_bytes), f"--{side}-aqm-drop-ratio",
                 str(aqm.drop_ratio), f"--{side}-aqm-seed", str(seeds[f"{name}.aqm"])]
    variation = direction.delay_variation
    if variation is not None and variation.bins is not None:
        args += [f"--{side}-delay-bins", ",".join(f"{b.weight}:{b.low_ms}:{b.high_ms}" for b in variation.bins),
                 f"--{side}-delay-step-ms", str(variation.step_ms),
                 f"--{side}-delay-seed", str(seeds[f"{name}.delay_variation"])]
    traces: list[tuple[str, DelayVariation | RateTrace | None]] = [("delay", variation),
                                                                    ("rate", direction.rate_trace)]
    for kind, trace in traces:
        if trace is not None and trace.file is not None:
            args += [f"--{side}-{kind}-trace", str(trace.file)]
            if trace.trace_period_ms > 0:
                args += [f"--{side}-{kind}-trace-period-ms", str(trace.trace_period_ms)]
    return args


def _link_args(ab: Direction, ba: Direction, seeds: dict[str, int], ab_name: str, ba_name: str,
               buffers: dict[str, int]) -> list[str]:
    args = []
    for side, direction, name in (("ab", ab, ab_name), ("ba", ba, ba_name)):
        args += [f"--{side}-rate-mbps", f"{direction.rate_mbps:g}",
                 f"--{side}-delay-ms", f"{direction.delay_ms:g}"]
        if direction.frame_ms is not None:
            args += [f"--{side}-frame-ms", f"{direction.frame_ms:g}"]
        if direction.buffer.packets is not None:
            args += [f"--{side}-buffer-packets", str(direction.buffer.packets)]
        else:
            args += [f"--{side}-buffer-bytes", str(buffers[name])]
        args += [f"--{side}-channel", channel_spec(direction.channel, seeds[f"{name}.channel"])]
        args += _shaping_args(side, direction, seeds, name, buffers[name])
    return args


def make_plan(scenario: Scenario, run_id: str, iteration: int = 0, capture_room: CaptureRoom | None = None) -> Plan:
    """capture_room: where the iteration's packet captures go (None: none are written)."""
    namespaces = {role: f"{NAME_PREFIX}{run_id}-{role[:3]}" for role in ROLES}
    # Addresses exist only inside this run's namespaces, none of which has a
    # link to the host: the range never meets the host's own routes.
    octet = 64 + int(run_id, 16) % 128
    net = f"10.{octet}"
    path = scenario.path
    captures = plan_captures(scenario, capture_room)
    # The BDP is the satellite link's, as satlink defines it; the LAN adds to the base RTT only.
    rtt_ms = path.forward.delay_ms + path.return_.delay_ms

    def seed_of(place: str, drawing: Channel | Aqm | DelayVariation) -> int:
        return drawing.seed if drawing.seed is not None else derive_seed(scenario.seed, iteration, place)

    seeds = {"path.return.channel": seed_of("path.return.channel", path.return_.channel),
             "path.forward.channel": seed_of("path.forward.channel", path.forward.channel)}
    # The AQM's and the delay distribution's draws, where a direction has them.
    for name, direction in (("path.return", path.return_), ("path.forward", path.forward)):
        if direction.aqm is not None:
            seeds[f"{name}.aqm"] = seed_of(f"{name}.aqm", direction.aqm)
        if direction.delay_variation is not None and direction.delay_variation.model == "distribution":
            seeds[f"{name}.delay_variation"] = seed_of(f"{name}.delay_variation", direction.delay_variation)
    buffers = {"path.forward": _buffer_bytes(path.forward, rtt_ms), "path.return": _buffer_bytes(path.return_, rtt_ms)}
    veths: list[PlannedVeth] = []
    # netem takes whatever reaches it for one packet: a TCP sender's 64 kB GSO
    # segment would cross the veths whole and meet one loss draw and one place
    # in the limit. With netem, senders hand over MTU-sized packets.
    gso_max_segs = 1 if path.link_backend == "netem" else None
    satellite, netem = None, {}
    if path.link_backend == "satlink":
        # satlink runs in the terminal (a) towards the gateway (b): a -> b is the return direction.
        satellite = PlannedLink(
            namespaces["terminal"], namespaces["gateway"], f"sat{run_id}", f"sat{run_id}",
            f"{net}.1.1/24", f"{net}.1.2/24", MTU,
            [*_link_args(path.return_, path.forward, seeds, "path.return", "path.forward", buffers),
             "--loss-rule", path.loss_rule, *tool_args(captures, "link")])
    else:
        veths.append(PlannedVeth(namespaces["terminal"], f"sat{run_id}", f"{net}.1.1/24",
                                 namespaces["gateway"], f"sat{run_id}", f"{net}.1.2/24", MTU, gso_max_segs))
        netem = netem_link(path, namespaces, f"sat{run_id}", buffers, MTU)

    terminal_next, gateway_next = f"{net}.1.2", f"{net}.1.1"
    client_addr, server_addr = f"{net}.0.2", f"{net}.2.2"
    tunnels = []
    inner_mtu = MTU
    if scenario.tunnel is not None:
        tunnel = scenario.tunnel
        fec = ["--k", str(tunnel.k), "--z", str(tunnel.z), "--flush-ms", f"{tunnel.flush_ms:g}",
               "--protect", tunnel.protect]
        if tunnel.delivery == "in-order":
            fec += ["--delivery", "in-order", *(["--hold-ms", f"{tunnel.hold_ms:g}"] if tunnel.hold_ms else [])]
        if tunnel.symbol_bytes is not None:
            fec += ["--symbol-bytes", str(tunnel.symbol_bytes)]
            inner_mtu = tunnel.symbol_bytes - 2
        else:
            inner_mtu = TUNNEL_MAX_SYMBOL_BYTES - 2  # swf-tunnel's symbol size from the path MTU
        # The downstream end (the forward direction's decoder) first.
        if tunnel.span == "satellite":
            ends = (("terminal", "1.1", "1.2", "3.1"), ("gateway", "1.2", "1.1", "3.2"))
            terminal_next, gateway_next = f"{net}.3.2", f"{net}.3.1"
        else:
            # On the hosts themselves: client and server address each other by the
            # tunnel's inner addresses, so everything they exchange crosses it, the
            # LAN segment included; its outer datagrams take the ordinary routes.
            ends = (("client", "0.2", "2.2", "3.1"), ("server", "2.2", "0.2", "3.2"))
            client_addr, server_addr = f"{net}.3.1", f"{net}.3.2"
        for index, (role, local, remote, inner) in enumerate(ends):
            tunnels.append(PlannedTunnel(namespaces[role], f"fec{run_id}", f"{net}.{inner}/24",
                                         f"{net}.{local}:{TUNNEL_PORT}", f"{net}.{remote}:{TUNNEL_PORT}",
                                         [*fec, *tool_args(captures, f"tunnel.{index}")]))
    # The devices beside the satellite link carry the tunnel's inner packets
    # when it spans the satellite only, its outer datagrams when it spans the path.
    access_mtu = MTU if scenario.tunnel is not None and scenario.tunnel.span == "end-to-end" else inner_mtu

    lan = None
    if path.lan is not None:
        lan_seeds = {f"path.lan.{side}.channel": seed_of(f"path.lan.{side}.channel", path.lan.channel)
                     for side in ("up", "down")}
        seeds.update(lan_seeds)
        # satlink runs in the client (a) towards the terminal (b): a -> b is up.
        args = ["--delay-ms", f"{path.lan.delay_ms:g}",
                "--ab-channel", channel_spec(path.lan.channel, lan_seeds["path.lan.up.channel"]),
                "--ba-channel", channel_spec(path.lan.channel, lan_seeds["path.lan.down.channel"])]
        if path.lan.rate_mbps is not None:
            args += ["--rate-mbps", f"{path.lan.rate_mbps:g}"]
        args += ["--loss-rule", path.loss_rule, *tool_args(captures, "lan")]
        lan = PlannedLink(namespaces["client"], namespaces["terminal"], f"lan{run_id}", f"lan{run_id}",
                          f"{net}.0.2/24", f"{net}.0.1/24", access_mtu, args)
    else:
        veths.append(PlannedVeth(namespaces["client"], f"lan{run_id}", f"{net}.0.2/24",
                                 namespaces["terminal"], f"lan{run_id}", f"{net}.0.1/24", access_mtu, gso_max_segs))
    veths.append(PlannedVeth(namespaces["gateway"], f"srv{run_id}", f"{net}.2.1/24",
                             namespaces["server"], f"srv{run_id}", f"{net}.2.2/24", access_mtu, gso_max_segs))

    forward_bdp = _bdp_bytes(path.forward, rtt_ms)
    return_bdp = _bdp_bytes(path.return_, rtt_ms)
    # Socket buffers must hold a window of BDP + the queue, with room for the
    # kernel's overhead accounting: 4 x that, and never below Linux's defaults
    # (unless the scenario gives the hosts' own, tcp_buffer_bytes).
    largest = max(forward_bdp + buffers["path.forward"], return_bdp + buffers["path.return"])
    socket_max = scenario.tcp_buffer_bytes or max(6 << 20, 4 * largest)
    tcp = {"net.ipv4.tcp_no_metrics_save": "1",
           "net.ipv4.tcp_rmem": f"4096 131072 {socket_max}",
           "net.ipv4.tcp_wmem": f"4096 16384 {socket_max}",
           "net.ipv6.conf.all.disable_ipv6": "1",
           "net.ipv6.conf.default.disable_ipv6": "1"}
    forwarding = {"net.ipv4.ip_forward": "1"}
    # The scenario's TCP loss recovery in every namespace: wherever TCP ends (the hosts, a PEP).
    tcp.update(scenario.tcp_stack.sysctls() if scenario.tcp_stack is not None else {})
    sysctls = {role: dict(tcp, **(forwarding if role in ("terminal", "gateway") else {}),
                          **pep_sysctls(scenario.pep, role)) for role in ROLES}

    routes = {"client": [["default", "via", f"{net}.0.1"]],
              "server": [["default", "via", f"{net}.2.1"]],
              "terminal": [[f"{net}.2.0/24", "via", terminal_next,
                            *satellite_route_options(scenario.pep, "terminal")]],
              "gateway": [[f"{net}.0.0/24", "via", gateway_next, *satellite_route_options(scenario.pep, "gateway")]]}
    flows: list[PlannedFlow] = []
    for group_index, group in enumerate(scenario.flows):
        windows = group.flow_control or FlowControl()
        for _ in range(group.count):
            index = len(flows)
            flows.append(PlannedFlow(index, group_index, group.transport, group.cc, group.size_bytes,
                                     group.duration_s, group.start_s, group.direction,
                                     FIRST_FLOW_PORT + index, namespaces["client"], namespaces["server"],
                                     server_addr,
                                     windows.connection_bytes, windows.stream_bytes, group.zero_rtt,
                                     scenario.capture.qlog, scenario.capture.keylog))
    addresses = {"client": client_addr, "terminal": f"{net}.0.1", "server": server_addr, "gateway": f"{net}.2.1"}
    cross_traffic = []
    for index, cross in enumerate(scenario.cross_traffic):
        sender, receiver = ("client", "server") if cross.link == "return" else ("server", "client")
        cross_traffic.append(PlannedCrossTraffic(
            index, cross.link, cross.rate_mbps, cross.start_s,
            cross.start_s + cross.duration_s if cross.duration_s is not None else None,
            FIRST_CROSS_TRAFFIC_PORT + index, inner_mtu - IPV4_UDP_HEADER_BYTES,
            namespaces[sender], namespaces[receiver], addresses[receiver]))
    return Plan(
        run_id=run_id, iteration=iteration, namespaces=namespaces, subnet=f"{net}.0.0/16",
        addresses=addresses, routes=routes, sysctls=sysctls,
        access_mtu=access_mtu,
        veths=veths, satellite=satellite, netem=netem, lan=lan, tunnel=tunnels, flows=flows,
        cross_traffic=cross_traffic, seeds=seeds,
        buffers_bytes=buffers, bdp_bytes={"path.forward": forward_bdp, "path.return": return_bdp},
        base_rtt_ms=rtt_ms + 2 * (path.lan.delay_ms if path.lan else 0), hystart=scenario.hystart,
        # TCP from the clients arrives at the gateway on the device its route to them takes.
        peps=plan_peps(scenario.pep, namespaces, f"lan{run_id}",
                       f"fec{run_id}" if scenario.tunnel is not None and scenario.tunnel.span == "satellite"
                       else f"sat{run_id}"),
        captures=captures, notes=pep_notes(scenario) + capture_notes(scenario))
