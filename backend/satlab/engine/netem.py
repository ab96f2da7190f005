"""The satellite link as the kernel's netem qdiscs (`link.backend: netem`),
for cross-checking satlink where the kernel has sch_netem: what netem can
express of a direction, and its `tc` arguments."""

from __future__ import annotations

import math
from dataclasses import dataclass

from satlab.scenario import Bernoulli, Channel, Direction, GilbertElliottPacket, Perfect, SatellitePath

ETHERNET_HEADER_BYTES = 14


@dataclass(frozen=True)
class PlannedQdisc:
    """A qdisc on a device's egress: `tc` + args, in netns."""
    netns: str
    dev: str
    args: list[str]


def _percent(probability: float) -> str:
    return f"{probability * 100:.12g}%"


def netem_loss_args(channel: Channel) -> list[str]:
    """netem's `loss` option for a channel. Bernoulli: `loss random P`.
    Gilbert-Elliott per packet: `loss gemodel p r 1-h 1-k`, where netem's p
    and r are the good -> bad and bad -> good transitions (libswf's p and q),
    1-h the loss in the bad state (loss_bad) and 1-k the loss in the good
    state (loss_good); both decide a packet's loss in the state it arrives
    in, then move (sch_netem.c loss_gilb_ell; codec/src/channel.c). tc turns
    1-h into the kernel's h itself. netem draws from the kernel's generator:
    the plan's seeds do not reach it (iproute2 < 6.5 has no `seed`)."""
    match channel:
        case Perfect():
            return []
        case Bernoulli(loss=loss):
            return ["loss", "random", _percent(loss)]
        case GilbertElliottPacket(p=p, q=q, loss_good=loss_good, loss_bad=loss_bad):
            return ["loss", "gemodel", _percent(p), _percent(q), _percent(loss_bad), _percent(loss_good)]
    raise ValueError(f"netem cannot express channel model {channel.model}; use link_backend satlink")


def netem_limit_packets(direction: Direction, buffer_bytes: int, mtu: int) -> int:
    """netem's limit counts packets, and the packets it holds while they
    propagate count too: the buffer as full-size packets, ceil(bytes / mtu),
    plus the full-size packets the delay holds at the rate. A queue of small
    packets (ACKs) therefore holds fewer bytes than satlink's."""
    propagating_bytes = direction.rate_mbps * 1e6 / 8 * direction.delay_ms / 1e3
    return math.ceil(buffer_bytes / mtu) + math.ceil(propagating_bytes / mtu)


def netem_qdisc_args(dev: str, direction: Direction, buffer_bytes: int, mtu: int) -> list[str]:
    """`tc` arguments that make dev's egress one direction of the satellite link."""
    return ["qdisc", "add", "dev", dev, "root", "netem",
            "limit", str(netem_limit_packets(direction, buffer_bytes, mtu)),
            "delay", f"{direction.delay_ms:g}ms",
            # netem times Ethernet frames; rate_mbps is of IP packets, as satlink's.
            "rate", f"{direction.rate_mbps:g}mbit", str(-ETHERNET_HEADER_BYTES),
            *netem_loss_args(direction.channel)]


def netem_link(path: SatellitePath, namespaces: dict[str, str], dev: str,
               buffers: dict[str, int], mtu: int) -> dict[str, PlannedQdisc]:
    """The forward direction leaves through the gateway's end of the veth
    pair, the return direction through the terminal's."""
    return {"path.forward": PlannedQdisc(namespaces["gateway"], dev,
                                         netem_qdisc_args(dev, path.forward, buffers["path.forward"], mtu)),
            "path.return": PlannedQdisc(namespaces["terminal"], dev,
                                        netem_qdisc_args(dev, path.return_, buffers["path.return"], mtu))}
