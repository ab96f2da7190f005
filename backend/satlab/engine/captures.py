"""Packet captures with each packet's fate (scenario capture.packets): what
the plan asks satlink and swf-tunnel to write, and what the engine does
with the files once those tools have stopped.

satlink writes a pcapng per direction of the satellite link and of the LAN
segment (every packet that arrived, with its fate: delivered, buffer-drop,
aqm-drop, channel-loss...; codec/tools/link_capture.h), swf-tunnel one of
the datagrams each endpoint sends and one of those it receives (source,
repair, rebuilt, given-up, rejected...; codec/tools/tunnel_capture.h), into
the iteration's work directory. With link_backend netem there is no satlink
and so no capture of the satellite link.

Each file's cap is a share of the run's cap on its kept files, so that the
captures of every iteration fit in it even uncompressed (gzip leaves room
for the qlogs beside them): a long run's capture stops at its own cap, a
valid file whose last line says so, instead of being refused whole when it
is kept. A direction that carries the flows' data (or cross traffic) gets
twice the share of one that carries only their acknowledgements.

Once the tools have stopped, a link's two directions are merged into one
file (pcapng_merge: Wireshark decrypts a QUIC connection only from both
ways), and so are what each tunnel direction's encoder sent and its decoder
received; each kept file gets the iteration's QUIC TLS key logs as a
Decryption Secrets Block (pcapng_secrets) and goes to the run's kept files
(artifacts.ArtifactSink: whole or not at all). A capture that stopped at
its cap or missed records is said in a sentence (the sink's incomplete).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from satlab.engine import pcapng_merge
from satlab.engine.artifacts import ArtifactSink
from satlab.engine.pcapng_secrets import inject_tls_secrets
from satlab.scenario import Scenario

# The least a file's share may be: room for its headers, its closing blocks
# and some packets (the tools refuse less than 4096 bytes).
MIN_FILE_BYTES = 64 << 10
DATA_WEIGHT, ACK_WEIGHT = 2, 1
DIRECTORY = "captures"


@dataclass(frozen=True)
class PlannedCapture:
    """One pcapng file a tool writes, and where it is kept."""
    name: str  # e.g. satellite-forward.pcapng
    path: str  # where the tool writes it, in the iteration's work directory
    tool: str  # whose summary line has its figures: "link", "lan", "tunnel.0", "tunnel.1" (the runner's names)
    side: str  # which part of that line: satlink's "ab" or "ba", swf-tunnel's "tx" or "rx"
    direction: str  # of the path: "forward" (towards the client) or "return"
    kept_in: str  # the file it is merged into, kept as iteration<N>/<kept_in>.gz, e.g. satellite.pcapng
    interface: str  # its packets' interface there (its other interfaces: interface-name, e.g. forward-events)
    snap_bytes: int
    max_bytes: int


@dataclass(frozen=True)
class CaptureRoom:
    """Where an iteration's captures go and the run's cap on its kept files
    (the ArtifactSink's max_bytes) that they share."""
    directory: Path
    run_cap_bytes: int


def _files(scenario: Scenario) -> list[tuple[str, str, str, str, str, str]]:
    """(name, tool, side, direction, kept_in, interface) of each capture an
    iteration writes. satlink's a is the terminal (satellite link) or the
    client (LAN), so its ab is the return direction; the first tunnel
    endpoint is the forward direction's decoder (plan.make_plan), so it
    receives forward and sends return. A link's two directions are kept in
    one file (a QUIC connection is decrypted from both ways), and so are
    what a tunnel direction's encoder sent and its decoder received (which
    losses it repaired)."""
    files = []
    if scenario.path.link_backend == "satlink":
        files += [("satellite-forward.pcapng", "link", "ba", "forward", "satellite.pcapng", "forward"),
                  ("satellite-return.pcapng", "link", "ab", "return", "satellite.pcapng", "return")]
    if scenario.path.lan is not None:
        files += [("lan-down.pcapng", "lan", "ba", "forward", "lan.pcapng", "down"),
                  ("lan-up.pcapng", "lan", "ab", "return", "lan.pcapng", "up")]
    if scenario.tunnel is not None:
        files += [("tunnel-forward-sent.pcapng", "tunnel.1", "tx", "forward", "tunnel-forward.pcapng", "sent"),
                  ("tunnel-forward-received.pcapng", "tunnel.0", "rx", "forward", "tunnel-forward.pcapng",
                   "received"),
                  ("tunnel-return-sent.pcapng", "tunnel.0", "tx", "return", "tunnel-return.pcapng", "sent"),
                  ("tunnel-return-received.pcapng", "tunnel.1", "rx", "return", "tunnel-return.pcapng",
                   "received")]
    return files


def _weight(scenario: Scenario, direction: str) -> int:
    """A direction's weight in the run's cap: more packets cross it when it carries data."""
    data = {"forward" if group.direction == "download" else "return" for group in scenario.flows}
    data |= {cross.link for cross in scenario.cross_traffic}
    return DATA_WEIGHT if direction in data else ACK_WEIGHT


def plan_captures(scenario: Scenario, room: CaptureRoom | None) -> list[PlannedCapture]:
    """The iteration's captures (none unless capture.packets and a room)."""
    if not scenario.capture.packets or room is None:
        return []
    files = _files(scenario)
    weights = [_weight(scenario, direction) for _, _, _, direction, _, _ in files]
    unit_bytes = room.run_cap_bytes / (scenario.iterations * sum(weights)) if files else 0.0
    shares = [unit_bytes * weight for weight in weights]
    # swf-tunnel takes one cap for both of its files: each gets the mean of their shares.
    for tool in dict.fromkeys(tool for _, tool, *_ in files if tool.startswith("tunnel.")):
        mine = [index for index, (_, owner, *_) in enumerate(files) if owner == tool]
        mean = sum(shares[index] for index in mine) / len(mine)
        for index in mine:
            shares[index] = mean
    return [PlannedCapture(name, str(room.directory / DIRECTORY / name), tool, side, direction, kept_in, interface,
                           scenario.capture.snap_bytes, max(MIN_FILE_BYTES, int(share)))
            for (name, tool, side, direction, kept_in, interface), share in zip(files, shares, strict=True)]


def capture_notes(scenario: Scenario) -> list[str]:
    """What the plan explains of a scenario's captures: a netem link has none."""
    if scenario.capture.packets and scenario.path.link_backend == "netem":
        return ["capture.packets: the satellite link is netem's (link_backend netem), which captures nothing; "
                "only the LAN segment and the tunnel, if the run has them, are captured"]
    return []


def tool_args(captures: list[PlannedCapture], tool: str) -> list[str]:
    """satlink's or swf-tunnel's options for tool's captures ([]: none).
    satlink takes each option per direction; swf-tunnel one snap length and
    one cap for both of its files (plan_captures gave them the same)."""
    mine = [capture for capture in captures if capture.tool == tool]
    if not mine:
        return []
    if tool.startswith("tunnel."):
        return [*(arg for capture in mine for arg in (f"--{capture.side}-capture", capture.path)),
                "--capture-snap-bytes", str(mine[0].snap_bytes), "--capture-max-bytes", str(mine[0].max_bytes)]
    return [arg for capture in mine for arg in (f"--{capture.side}-capture", capture.path,
                                                 f"--{capture.side}-capture-snap-bytes", str(capture.snap_bytes),
                                                 f"--{capture.side}-capture-max-bytes", str(capture.max_bytes))]


def make_directory(captures: list[PlannedCapture]) -> None:
    """Create the directory the tools write the captures into."""
    for directory in {Path(capture.path).parent for capture in captures}:
        directory.mkdir(parents=True, exist_ok=True)


def _figures(capture: PlannedCapture, line: dict[str, Any] | None) -> tuple[dict[str, Any] | None, dict[str, int]]:
    """The capture's statistics and the counters of the side it captured,
    from its tool's summary line (None, {}: the tool printed none)."""
    if line is None:
        return None, {}
    if capture.tool.startswith("tunnel."):
        stats, part = line["capture"][capture.side], line[capture.side]
    else:
        stats, part = line[capture.side]["capture"], line[capture.side]
    return stats, {key: value for key, value in part.items() if type(value) is int}


def _shortfalls(name: str, capture: PlannedCapture, stats: dict[str, Any]) -> list[str]:
    """A sentence for each way the capture misses records of its side."""
    sentences = []
    where = f"{name}, interface {capture.interface},"
    if stats["stopped"] and stats["error"] is None:
        sentences.append(f"{where} stopped at its cap of {capture.max_bytes} bytes after {stats['records']} records; "
                         f"{stats['after_stop']} later were not captured (each capture's cap is its share of the "
                         "run's, capture.max_bytes)")
    elif stats["stopped"]:
        sentences.append(f"{where} stopped after {stats['records']} records: {stats['error']}; "
                         f"{stats['after_stop']} later were not captured")
    if stats["queue_full"]:
        sentences.append(f"{where} misses {stats['queue_full']} records: its writer fell behind and its queue was "
                         "full (a loaded host)")
    return sentences


def keep(captures: list[PlannedCapture], summaries: dict[str, dict[str, Any] | None], keylog: bytes,
         sink: ArtifactSink, iteration: int) -> list[dict[str, Any]]:
    """Merge the captures the stopped tools left into their kept files, embed
    keylog (the iteration's QUIC TLS secrets, b"" for none) into each, hand
    them to sink, and delete them; what each capture holds and the counters
    of the side it captured, for the iteration's result."""
    report = []
    for kept_in in dict.fromkeys(capture.kept_in for capture in captures):
        parts = [capture for capture in captures if capture.kept_in == kept_in]
        name = f"iteration{iteration}/{kept_in}"
        sources = [(Path(capture.path), capture.interface) for capture in parts if Path(capture.path).exists()]
        kept = None
        if sources:
            merged = Path(parts[0].path).with_name(f"merged-{kept_in}")
            pcapng_merge.merge(sources, merged)
            if keylog:
                embedded = merged.with_name(f"secrets-{kept_in}")
                inject_tls_secrets(merged, keylog, embedded)
                merged.unlink()
                merged = embedded
            kept = sink.keep(name, merged, "pcapng")
            merged.unlink()
            for path, _ in sources:
                path.unlink()
        for capture in parts:
            stats, counters = _figures(capture, summaries.get(capture.tool))
            if stats is not None:
                sink.incomplete += _shortfalls(name, capture, stats)
            report.append({"name": name, "kept_as": kept.name if kept is not None else None,
                           "interface": capture.interface, "tool": capture.tool, "side": capture.side,
                           "direction": capture.direction, "snap_bytes": capture.snap_bytes,
                           "max_bytes": capture.max_bytes, "secrets_embedded": bool(keylog) and kept is not None,
                           "capture": stats, "counters": counters})
    return report
