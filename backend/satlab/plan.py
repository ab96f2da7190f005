"""Scenario -> plan: every name, address, buffer size, seed and tool argument
of one iteration of a run, decided before anything is created.

The plan is a pure function of (scenario, run id, iteration): the same inputs
give the same plan, so a run can be reproduced from what is stored with it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from satlab.scenario import Channel, Direction, Scenario

# Every namespace of every run starts with this, so that a sweep finds the
# leftovers of a crashed run (and nothing else).
NAME_PREFIX = "satlab-"
MTU = 1500
TUNNEL_PORT = 7000
FIRST_FLOW_PORT = 5201
ROLES = ("client", "terminal", "gateway", "server")


def new_run_id() -> str:
    """A short random id: names only, no experiment randomness depends on it."""
    return secrets.token_hex(3)


def derive_seed(seed: int, iteration: int, place: str) -> int:
    """A uint32 seed for the random draw at `place`, derived from the
    scenario's seed: stable across machines and Python versions."""
    digest = hashlib.sha256(f"{seed}/{iteration}/{place}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def channel_spec(channel: Channel, seed: int) -> str:
    """satlink's --channel text for a channel (codec/README.md, Tools)."""
    fields = channel.model_dump(exclude={"model", "seed"})
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

    @property
    def sender_netns(self) -> str:
        return self.server_netns if self.direction == "download" else self.client_netns


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
    veths: list[dict[str, str]]
    satellite: PlannedLink
    lan: PlannedLink | None
    tunnel: list[PlannedTunnel]
    flows: list[PlannedFlow]
    seeds: dict[str, int]
    buffers_bytes: dict[str, int]  # direction -> drop-tail limit (a packet limit: packets x MTU at most)
    bdp_bytes: dict[str, int]
    base_rtt_ms: float
    hystart: bool | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _bdp_bytes(direction: Direction, rtt_ms: float) -> int:
    return round(direction.rate_mbps * 1e6 / 8 * rtt_ms / 1e3)


def _link_args(ab: Direction, ba: Direction, rtt_ms: float, seeds: dict[str, int],
               ab_name: str, ba_name: str, buffers: dict[str, int]) -> list[str]:
    args = []
    for side, direction, name in (("ab", ab, ab_name), ("ba", ba, ba_name)):
        args += [f"--{side}-rate-mbps", f"{direction.rate_mbps:g}",
                 f"--{side}-delay-ms", f"{direction.delay_ms:g}"]
        if direction.buffer.packets is not None:
            buffers[name] = direction.buffer.packets * MTU  # at most
            args += [f"--{side}-buffer-packets", str(direction.buffer.packets)]
        else:
            limit = direction.buffer.bytes or round(direction.buffer.bdp * _bdp_bytes(direction, rtt_ms))
            buffers[name] = max(limit, MTU)
            args += [f"--{side}-buffer-bytes", str(buffers[name])]
        args += [f"--{side}-channel", channel_spec(direction.channel, seeds[f"{name}.channel"])]
    return args


def make_plan(scenario: Scenario, run_id: str, iteration: int = 0) -> Plan:
    namespaces = {role: f"{NAME_PREFIX}{run_id}-{role[:3]}" for role in ROLES}
    # Addresses exist only inside this run's namespaces, none of which has a
    # link to the host: the range never meets the host's own routes.
    octet = 64 + int(run_id, 16) % 128
    net = f"10.{octet}"
    path = scenario.path
    # The BDP is the satellite link's, as satlink defines it; the LAN adds to the base RTT only.
    rtt_ms = path.forward.delay_ms + path.return_.delay_ms

    def seed_of(place: str, channel: Channel) -> int:
        return channel.seed if channel.seed is not None else derive_seed(scenario.seed, iteration, place)

    seeds = {"path.return.channel": seed_of("path.return.channel", path.return_.channel),
             "path.forward.channel": seed_of("path.forward.channel", path.forward.channel)}
    buffers: dict[str, int] = {}
    # satlink runs in the terminal (a) towards the gateway (b): a -> b is the return direction.
    satellite = PlannedLink(
        namespaces["terminal"], namespaces["gateway"], f"sat{run_id}", f"sat{run_id}",
        f"{net}.1.1/24", f"{net}.1.2/24", MTU,
        _link_args(path.return_, path.forward, rtt_ms, seeds, "path.return", "path.forward", buffers))

    terminal_next, gateway_next = f"{net}.1.2", f"{net}.1.1"
    tunnels = []
    inner_mtu = MTU
    if scenario.tunnel is not None:
        tunnel = scenario.tunnel
        fec = ["--k", str(tunnel.k), "--z", str(tunnel.z), "--flush-ms", f"{tunnel.flush_ms:g}",
               "--protect", tunnel.protect]
        if tunnel.symbol_bytes is not None:
            fec += ["--symbol-bytes", str(tunnel.symbol_bytes)]
            inner_mtu = tunnel.symbol_bytes - 2
        else:
            inner_mtu = MTU - 43
        for role, local, remote, inner in (("terminal", "1.1", "1.2", "3.1"), ("gateway", "1.2", "1.1", "3.2")):
            tunnels.append(PlannedTunnel(namespaces[role], f"fec{run_id}", f"{net}.{inner}/24",
                                         f"{net}.{local}:{TUNNEL_PORT}", f"{net}.{remote}:{TUNNEL_PORT}", fec))
        terminal_next, gateway_next = f"{net}.3.2", f"{net}.3.1"

    lan = None
    veths = []
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
        lan = PlannedLink(namespaces["client"], namespaces["terminal"], f"lan{run_id}", f"lan{run_id}",
                          f"{net}.0.2/24", f"{net}.0.1/24", inner_mtu, args)
    else:
        veths.append({"a_netns": namespaces["client"], "a_dev": f"lan{run_id}", "a_addr": f"{net}.0.2/24",
                      "b_netns": namespaces["terminal"], "b_dev": f"lan{run_id}", "b_addr": f"{net}.0.1/24"})
    veths.append({"a_netns": namespaces["gateway"], "a_dev": f"srv{run_id}", "a_addr": f"{net}.2.1/24",
                  "b_netns": namespaces["server"], "b_dev": f"srv{run_id}", "b_addr": f"{net}.2.2/24"})

    forward_bdp = _bdp_bytes(path.forward, rtt_ms)
    return_bdp = _bdp_bytes(path.return_, rtt_ms)
    # Socket buffers must hold a window of BDP + the queue, with room for the
    # kernel's overhead accounting: 4 x that, and never below Linux's defaults.
    largest = max(forward_bdp + buffers["path.forward"], return_bdp + buffers["path.return"])
    socket_max = max(6 << 20, 4 * largest)
    tcp = {"net.ipv4.tcp_no_metrics_save": "1",
           "net.ipv4.tcp_rmem": f"4096 131072 {socket_max}",
           "net.ipv4.tcp_wmem": f"4096 16384 {socket_max}",
           "net.ipv6.conf.all.disable_ipv6": "1",
           "net.ipv6.conf.default.disable_ipv6": "1"}
    forwarding = {"net.ipv4.ip_forward": "1"}
    sysctls = {role: dict(tcp, **(forwarding if role in ("terminal", "gateway") else {})) for role in ROLES}

    routes = {"client": [["default", "via", f"{net}.0.1"]],
              "server": [["default", "via", f"{net}.2.1"]],
              "terminal": [[f"{net}.2.0/24", "via", terminal_next]],
              "gateway": [[f"{net}.0.0/24", "via", gateway_next]]}
    flows = []
    for group_index, group in enumerate(scenario.flows):
        for _ in range(group.count):
            index = len(flows)
            flows.append(PlannedFlow(index, group_index, group.transport, group.cc, group.size_bytes,
                                     group.duration_s, group.start_s, group.direction,
                                     FIRST_FLOW_PORT + index, namespaces["client"], namespaces["server"],
                                     f"{net}.2.2"))
    return Plan(
        run_id=run_id, iteration=iteration, namespaces=namespaces, subnet=f"{net}.0.0/16",
        addresses={"client": f"{net}.0.2", "terminal": f"{net}.0.1", "server": f"{net}.2.2",
                   "gateway": f"{net}.2.1"},
        routes=routes, sysctls=sysctls,
        # Packets must fit the tunnel's inner MTU: end hosts learn it from their own devices.
        access_mtu=inner_mtu,
        veths=veths, satellite=satellite, lan=lan, tunnel=tunnels, flows=flows, seeds=seeds,
        buffers_bytes=buffers, bdp_bytes={"path.forward": forward_bdp, "path.return": return_bdp},
        base_rtt_ms=rtt_ms + 2 * (path.lan.delay_ms if path.lan else 0), hystart=scenario.hystart)
