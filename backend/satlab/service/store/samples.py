"""Samples: an engine "sample" event (ten a second per run) as the rows the
store keeps, per flow and hop, per link direction, per tunnel direction and,
through a split-TCP PEP, per flow. The one place that knows the counters
satlink and swf-tunnel print, and how their sides (a -> b) map to
directions. The live stream sends these same rows, so a run looks the same
live and stored.

Counters of satlink and swf-tunnel are cumulative since the tool started (at
the start of each iteration), the PEP's since its connection started;
packets unless the name says bytes; `t_s` counts from the iteration's first
sample.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import dataclass
from typing import Any, Literal

from satlab.engine.pep.segments import Hop
from satlab.service.store.database import Database, decoded, insert, require_run


@dataclass(frozen=True, slots=True)
class FlowSampleRow:
    """One connection of a flow: its data sender's socket. `hop` says which
    connection (satlab.engine.pep.segments): `end-to-end` unless a PEP splits
    the flow; then one row per hop sampled, `client` (client - terminal PEP),
    `satellite` (with a gateway PEP alone: client - gateway PEP) and `server`
    (gateway PEP - server); the first of a flow's hops is the connection its
    client sees."""
    iteration: int
    t_s: float
    flow: int
    hop: Hop
    bytes_acked: int | None
    goodput_mbps: float | None
    cwnd_bytes: int | None
    rtt_ms: float | None
    retransmissions: int | None  # packets, since the flow started
    delivery_rate_mbps: float | None


@dataclass(frozen=True, slots=True)
class LinkSampleRow:
    """One direction of the satellite link or of the LAN (netem fills only
    some counters, and counts its drops in `drops` only)."""
    iteration: int
    t_s: float
    link: Literal["satellite", "lan"]
    direction: Literal["forward", "return", "down", "up"]
    queue_bytes: int | None
    in_flight_packets: int | None
    packets_in: int | None
    bytes_in: int | None
    packets_out: int | None
    bytes_out: int | None
    drops_buffer: int | None  # every drop of the queue, the AQM's included
    drops_aqm: int | None  # the AQM's part of drops_buffer
    drops_channel: int | None
    drops_overflow: int | None
    drops: int | None  # every drop, whatever its cause
    lateness_p99_ms: float | None
    lateness_max_ms: float | None


@dataclass(frozen=True, slots=True)
class TunnelSampleRow:
    """One direction of the FEC tunnel: the tx counters of its sending
    endpoint, the rx counters of its receiving one (packets)."""
    iteration: int
    t_s: float
    direction: Literal["forward", "return"]
    tx_plain: int | None
    tx_sources: int | None
    tx_repairs: int | None
    tx_flush_repairs: int | None
    rx_plain: int | None
    rx_sources: int | None
    rx_repairs: int | None
    rx_lost: int | None
    rx_recovered: int | None
    rx_unrecovered: int | None
    rx_malformed: int | None
    rx_rejected: int | None  # datagrams held and not believed
    rx_unauthenticated: int | None  # datagrams whose tag did not verify
    rx_decoding_delay_p99_ms: float | None
    rx_decoding_delay_max_ms: float | None
    # How late the receiving endpoint was over the interval (its datagrams' waits, its timers).
    rx_lateness_p99_ms: float | None
    rx_lateness_max_ms: float | None


@dataclass(frozen=True, slots=True)
class PepSampleRow:
    """One flow split by PEPs (satlab.engine.pep.metrics): per segment, the
    bytes its data sender got acknowledged (or, where an end host sends, the
    PEP received) and the packets it resent, cumulative; per PEP, what it
    holds of the data's direction (its receiving socket's unread bytes, its
    pipes, its sending socket's unacknowledged bytes) and the pipes' part.
    A gateway PEP alone has no client segment and no terminal PEP (null)."""
    iteration: int
    t_s: float
    flow: int
    client_bytes: int | None
    client_retransmissions: int | None
    satellite_bytes: int | None
    satellite_retransmissions: int | None
    server_bytes: int | None
    server_retransmissions: int | None
    terminal_buffer_bytes: int | None
    terminal_pipe_bytes: int | None
    gateway_buffer_bytes: int | None
    gateway_pipe_bytes: int | None


@dataclass(frozen=True, slots=True)
class SampleRows:
    """What one sample event stores, or every sample of a run, by kind."""
    flows: tuple[FlowSampleRow, ...]
    links: tuple[LinkSampleRow, ...]
    tunnel: tuple[TunnelSampleRow, ...]
    pep: tuple[PepSampleRow, ...]

    def to_dict(self) -> dict[str, list[dict[str, Any]]]:
        """JSON-ready, as GET /api/runs/{id}/samples and the stream send them."""
        return {kind: [dataclasses.asdict(row) for row in getattr(self, kind)] for kind in SAMPLE_TABLES}


SampleRow = FlowSampleRow | LinkSampleRow | TunnelSampleRow | PepSampleRow
# SampleRows' kinds -> their tables and row types; GET .../samples and the live stream use the same kinds.
SAMPLE_TABLES: dict[str, tuple[str, type[SampleRow], str]] = {
    "flows": ("flow_samples", FlowSampleRow, "iteration, t_s, flow, hop"),
    "links": ("link_samples", LinkSampleRow, "iteration, t_s, link DESC, direction"),
    "tunnel": ("tunnel_samples", TunnelSampleRow, "iteration, t_s, direction"),
    "pep": ("pep_samples", PepSampleRow, "iteration, t_s, flow"),
}

FLOW_SAMPLE_FIELDS = ("bytes_acked", "goodput_mbps", "cwnd_bytes", "rtt_ms", "retransmissions",
                      "delivery_rate_mbps")
# The PEP's counters of a flow, by the names the engine gives them (satlab.engine.pep.metrics.flow_counters).
PEP_SAMPLE_FIELDS = tuple(field.name for field in dataclasses.fields(PepSampleRow)
                          if field.name not in ("iteration", "t_s", "flow"))
# satlink's per-direction counters, by the names it prints (codec/README.md, Tools).
LINK_COUNTERS = ("queue_bytes", "in_flight_packets", "packets_in", "bytes_in", "packets_out", "bytes_out",
                 "drops_buffer", "drops_aqm", "drops_channel", "drops_overflow")
# (sample key, link column, satlink side -> direction). The satellite satlink
# runs from the terminal (a) to the gateway (b); the LAN one from the client
# (a) to the terminal (b).
LINKS: tuple[tuple[str, Literal["satellite", "lan"], dict[str, Literal["forward", "return", "down", "up"]]], ...] = (
    ("link", "satellite", {"ba": "forward", "ab": "return"}),
    ("lan", "lan", {"ba": "down", "ab": "up"}))
# swf-tunnel's counters, by the names it prints: tx of the sending endpoint, rx of the receiving one.
TUNNEL_TX = ("plain", "sources", "repairs", "flush_repairs")
TUNNEL_RX = ("plain", "sources", "repairs", "lost", "recovered", "unrecovered", "malformed", "rejected",
             "unauthenticated")


def _percentile(histogram: dict[str, Any] | None, key: str) -> float | None:
    return None if histogram is None else histogram.get(key)


def _all_drops(counters: dict[str, Any]) -> int | None:
    """Every packet the link dropped: netem counts them together, satlink by cause."""
    if "drops" in counters:
        return int(counters["drops"])
    causes = [counters[name] for name in ("drops_buffer", "drops_channel", "drops_overflow") if name in counters]
    return sum(causes) if causes else None


def sample_rows(event: dict[str, Any]) -> SampleRows:
    """One engine "sample" event as the rows the store keeps (without
    run_id): per flow and hop (a flow without one is end to end); per link
    and direction (satlink's a->b / b->a named forward, return, up, down);
    per tunnel direction (the sending endpoint's tx and the receiving one's
    rx counters); per flow split by PEPs. Keys the store does not know are
    ignored."""
    iteration, t_s = event["iteration"], event["t_s"]
    flows = tuple(FlowSampleRow(iteration=iteration, t_s=t_s, flow=flow["flow"], hop=flow.get("hop", "end-to-end"),
                                **{name: flow.get(name) for name in FLOW_SAMPLE_FIELDS})
                  for flow in event.get("flows") or ())
    pep = tuple(PepSampleRow(iteration=iteration, t_s=t_s, flow=row["flow"],
                             **{name: row.get(name) for name in PEP_SAMPLE_FIELDS})
                for row in event.get("pep") or ())
    links = []
    for event_key, link, directions in LINKS:
        stats = event.get(event_key)
        for side, direction in directions.items():
            counters = (stats or {}).get(side)
            if counters is None:
                continue
            lateness = counters.get("lateness_ms")
            links.append(LinkSampleRow(iteration=iteration, t_s=t_s, link=link, direction=direction,
                                       **{name: counters.get(name) for name in LINK_COUNTERS},
                                       drops=_all_drops(counters),
                                       lateness_p99_ms=_percentile(lateness, "p99"),
                                       lateness_max_ms=_percentile(lateness, "max")))
    tunnel = []
    endpoints: list[dict[str, Any] | None] = event.get("tunnel") or []
    if len(endpoints) == 2:
        terminal, gateway = endpoints
        # The terminal's endpoint receives the forward direction, the gateway's the return.
        ends: tuple[tuple[Literal["forward", "return"], dict[str, Any] | None, dict[str, Any] | None], ...] = (
            ("forward", gateway, terminal), ("return", terminal, gateway))
        for tunnel_direction, sender, receiver in ends:
            if sender is None and receiver is None:
                continue
            tx = (sender or {}).get("tx") or {}
            rx = (receiver or {}).get("rx") or {}
            delay, lateness = rx.get("decoding_delay_ms"), (receiver or {}).get("lateness_ms")
            tunnel.append(TunnelSampleRow(iteration=iteration, t_s=t_s, direction=tunnel_direction,
                                          **{f"tx_{name}": tx.get(name) for name in TUNNEL_TX},
                                          **{f"rx_{name}": rx.get(name) for name in TUNNEL_RX},
                                          rx_decoding_delay_p99_ms=_percentile(delay, "p99"),
                                          rx_decoding_delay_max_ms=_percentile(delay, "max"),
                                          rx_lateness_p99_ms=_percentile(lateness, "p99"),
                                          rx_lateness_max_ms=_percentile(lateness, "max")))
    return SampleRows(flows, tuple(links), tuple(tunnel), pep)


class SampleTables(Database):
    """The store's part for samples (a mixin of store.Store)."""

    def add_sample(self, event: dict[str, Any]) -> SampleRows:
        """Store one engine "sample" event as rows (see sample_rows), and return them."""
        rows = self._add_sample(event, once=False)
        assert rows is not None
        return rows

    def add_sample_once(self, event: dict[str, Any]) -> SampleRows | None:
        """add_sample, unless the run has a sample at the event's iteration and
        time already (an event read again from the workers' stream after a
        restart): None then, and nothing is stored."""
        return self._add_sample(event, once=True)

    def _add_sample(self, event: dict[str, Any], once: bool) -> SampleRows | None:
        run_id = event["run_id"]
        rows = sample_rows(event)
        with self._write() as db:
            require_run(db, run_id)
            if once and any(db.execute(f"SELECT 1 FROM {table} WHERE run_id = ? AND iteration = ? AND t_s = ? "
                                       "LIMIT 1", (run_id, event["iteration"], event["t_s"])).fetchone()
                            for table, _, _ in SAMPLE_TABLES.values()):
                return None
            for kind, (table, _, _) in SAMPLE_TABLES.items():
                for row in getattr(rows, kind):
                    insert(db, table, {"run_id": run_id, **dataclasses.asdict(row)})
        return rows

    def _samples(self, db: sqlite3.Connection, kind: str, run_id: str) -> tuple[Any, ...]:
        table, row_type, order = SAMPLE_TABLES[kind]
        rows = db.execute(f"SELECT * FROM {table} WHERE run_id = ? ORDER BY {order}", (run_id,)).fetchall()
        return tuple(row_type(**decoded(row, leave_out=("run_id",))) for row in rows)

    def samples(self, run_id: str) -> SampleRows:
        """Every sample of the run so far, in order of iteration and time."""
        with self._read() as db:
            return SampleRows(*(self._samples(db, kind, run_id) for kind in SAMPLE_TABLES))

    def flow_samples(self, run_id: str) -> tuple[FlowSampleRow, ...]:
        with self._read() as db:
            flows: tuple[FlowSampleRow, ...] = self._samples(db, "flows", run_id)
        return flows

    def link_samples(self, run_id: str) -> tuple[LinkSampleRow, ...]:
        with self._read() as db:
            links: tuple[LinkSampleRow, ...] = self._samples(db, "links", run_id)
        return links

    def tunnel_samples(self, run_id: str) -> tuple[TunnelSampleRow, ...]:
        with self._read() as db:
            tunnel: tuple[TunnelSampleRow, ...] = self._samples(db, "tunnel", run_id)
        return tunnel

    def pep_samples(self, run_id: str) -> tuple[PepSampleRow, ...]:
        with self._read() as db:
            pep: tuple[PepSampleRow, ...] = self._samples(db, "pep", run_id)
        return pep

    def prune_samples(self, finished_before: float) -> int:
        """Drop the samples of runs finished before then (their summaries stay); how many runs lost some."""
        has_samples = " OR ".join(f"EXISTS (SELECT 1 FROM {table} s WHERE s.run_id = runs.run_id)"
                                  for table, _, _ in SAMPLE_TABLES.values())
        with self._write() as db:
            runs = [row[0] for row in db.execute(
                f"SELECT run_id FROM runs WHERE finished_at < ? AND ({has_samples})", (finished_before,))]
            for table, _, _ in SAMPLE_TABLES.values():
                db.executemany(f"DELETE FROM {table} WHERE run_id = ?", [(run_id,) for run_id in runs])
        return len(runs)
