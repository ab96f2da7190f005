"""CSV exports of stored runs and campaigns: a header row always, units in
the column names (`_s`, `_ms`, `_mbps`, `_bytes`, `_packets`, `_ratio`,
`_index`); identifiers (iteration, flow, group, item_index, configuration,
seed) and text columns carry none. Empty cells are unknown values.

Sample counters of satlink and swf-tunnel are cumulative since the tool
started (at the start of each iteration); `t_s` counts from the iteration's
first sample. `KIND_WRITERS` maps each export kind to its writer, for the API
and the command line alike.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from satlab.service.campaign import format_value
from satlab.service.store import FlowSummaryRow, IterationRow, RunRow, Store

Writer = Callable[[Store, str, TextIO], None]

# Stored name -> CSV column, per sample table.
FLOW_SAMPLE_COLUMNS = {"iteration": "iteration", "t_s": "t_s", "flow": "flow", "bytes_acked": "acked_bytes",
                       "goodput_mbps": "goodput_mbps", "cwnd_bytes": "cwnd_bytes", "rtt_ms": "rtt_ms",
                       "retransmissions": "retransmissions_packets", "delivery_rate_mbps": "delivery_rate_mbps"}
LINK_SAMPLE_COLUMNS = {"iteration": "iteration", "t_s": "t_s", "link": "link", "direction": "direction",
                       "queue_bytes": "queue_bytes", "in_flight_packets": "in_flight_packets",
                       "packets_in": "in_packets", "bytes_in": "in_bytes", "packets_out": "out_packets",
                       "bytes_out": "out_bytes", "drops_buffer": "buffer_drops_packets",
                       "drops_channel": "channel_drops_packets", "drops_overflow": "overflow_drops_packets",
                       "drops": "drops_packets", "lateness_p99_ms": "lateness_p99_ms",
                       "lateness_max_ms": "lateness_max_ms"}
TUNNEL_SAMPLE_COLUMNS = {"iteration": "iteration", "t_s": "t_s", "direction": "direction",
                         "tx_plain": "tx_plain_packets", "tx_sources": "tx_source_packets",
                         "tx_repairs": "tx_repair_packets", "tx_flush_repairs": "tx_flush_repair_packets",
                         "rx_plain": "rx_plain_packets", "rx_sources": "rx_source_packets",
                         "rx_repairs": "rx_repair_packets", "rx_lost": "rx_lost_packets",
                         "rx_recovered": "rx_recovered_packets", "rx_unrecovered": "rx_unrecovered_packets",
                         "rx_malformed": "rx_malformed_packets",
                         "rx_decoding_delay_p99_ms": "rx_decoding_delay_p99_ms",
                         "rx_decoding_delay_max_ms": "rx_decoding_delay_max_ms"}

# Per-flow columns of the summary and campaign exports: stored summary name -> CSV column.
FLOW_SUMMARY_COLUMNS = {"flow": "flow", "group": "group", "transport": "transport", "cc": "cc",
                        "direction": "direction", "start_s": "start_s", "bytes": "size_bytes",
                        "download_time_s": "download_time_s", "goodput_mbps": "goodput_mbps",
                        "retransmissions": "retransmissions_packets", "mean_rtt_ms": "mean_rtt_ms",
                        "power_mbps_per_s": "power_mbps_per_s", "bottleneck_mbps": "bottleneck_mbps",
                        "link_utilisation_ratio": "link_utilisation_ratio", "startup_s": "startup_s",
                        "startup_goodput_mbps": "startup_goodput_mbps", "startup_mean_rtt_ms": "startup_mean_rtt_ms",
                        "startup_retransmissions": "startup_retransmissions_packets",
                        "steady_goodput_mbps": "steady_goodput_mbps", "steady_mean_rtt_ms": "steady_mean_rtt_ms",
                        "steady_retransmissions": "steady_retransmissions_packets", "latecomer": "latecomer",
                        "latecomer_convergence_s": "latecomer_convergence_s",
                        "short_beside_long": "short_beside_long",
                        # QUIC only (satlab.engine.flows): what the receiving end sent, from its qlog.
                        "ack_frames_sent": "receiver_ack_frames", "receiver_packets_sent": "receiver_packets",
                        "time_to_first_byte_ms": "time_to_first_byte_ms", "error": "flow_error"}
# summary.fec_summary's fields -> column suffix, per tunnel direction.
FEC_COLUMNS = {"sources": "source_packets", "repairs": "repair_packets", "lost": "lost_packets",
               "recovered": "recovered_packets", "residual_loss": "residual_loss_ratio"}
FEC_DELAY_PERCENTILES = ("p50", "p99")
# satlink's summary counters -> column suffix, per link and direction; the
# iteration's "lan" names its directions forward (down) and return (up).
LINK_COLUMNS = {"packets_in": "in_packets", "drops_buffer": "buffer_drops_packets",
                "drops_channel": "channel_drops_packets"}
LINK_DIRECTIONS = (("link", "link", (("forward", "forward"), ("return", "return"))),
                   ("lan", "lan", (("down", "forward"), ("up", "return"))))


def _iteration_columns() -> list[str]:
    columns = ["jain_index"]
    for direction in ("forward", "return"):
        columns += [f"fec_{direction}_{suffix}" for suffix in FEC_COLUMNS.values()]
        columns += [f"fec_{direction}_decoding_delay_{p}_ms" for p in FEC_DELAY_PERCENTILES]
    for _, prefix, directions in LINK_DIRECTIONS:
        for name, _ in directions:
            columns += [f"{prefix}_{name}_{suffix}" for suffix in LINK_COLUMNS.values()]
    return columns


FLOW_COLUMNS = [*FLOW_SUMMARY_COLUMNS.values(), *_iteration_columns()]


def _iteration_values(iteration: IterationRow | None) -> list[Any]:
    fec = (iteration.fec if iteration else None) or {}
    values: list[Any] = [iteration.jain_index if iteration else None]
    for direction in ("forward", "return"):
        figures = fec.get(direction) or {}
        delay = figures.get("decoding_delay_ms") or {}
        values += [figures.get(key) for key in FEC_COLUMNS]
        values += [delay.get(p) for p in FEC_DELAY_PERCENTILES]
    for key, _, directions in LINK_DIRECTIONS:
        counters = (getattr(iteration, key) if iteration else None) or {}
        for _, stored in directions:
            values += [(counters.get(stored) or {}).get(name) for name in LINK_COLUMNS]
    return values


def _write(out: TextIO, header: list[str], rows: Iterable[list[Any]]) -> None:
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)


def _require_run(store: Store, run_id: str) -> RunRow:
    run = store.get_run(run_id)
    if run is None:
        raise KeyError(f"no run {run_id!r}")
    return run


def _samples_writer(select: Callable[[Store, str], Sequence[object]], columns: dict[str, str]) -> Writer:
    def write(store: Store, run_id: str, out: TextIO) -> None:
        _require_run(store, run_id)
        _write(out, ["run_id", *columns.values()],
               ([run_id, *(getattr(sample, key) for key in columns)] for sample in select(store, run_id)))
    return write


flow_samples_csv = _samples_writer(Store.flow_samples, FLOW_SAMPLE_COLUMNS)
link_samples_csv = _samples_writer(Store.link_samples, LINK_SAMPLE_COLUMNS)
tunnel_samples_csv = _samples_writer(Store.tunnel_samples, TUNNEL_SAMPLE_COLUMNS)


def _flow_value(flow: FlowSummaryRow, key: str) -> Any:
    """A stored flow summary's field: a column of its own, else one of its details."""
    return getattr(flow, key) if key in FlowSummaryRow.__dataclass_fields__ else flow.details.get(key)


def _flow_rows(store: Store, run: RunRow | None) -> list[tuple[int | None, list[Any]]]:
    """(iteration, FLOW_COLUMNS values) per iteration and flow of a run; one
    row of empty values for a run that is missing or has no flows."""
    if run is None or not run.flows:
        return [(None, [None] * len(FLOW_COLUMNS))]
    iterations = {row.iteration: row for row in store.iterations(run.run_id)}
    return [(flow.iteration, [*(_flow_value(flow, key) for key in FLOW_SUMMARY_COLUMNS),
                              *_iteration_values(iterations.get(flow.iteration))])
            for flow in run.flows]


def summary_csv(store: Store, run_id: str, out: TextIO) -> None:
    """One row per iteration and flow: the flow's figures, its iteration's
    (Jain's index, FEC per tunnel direction, link counters), the run's seed and status."""
    run = _require_run(store, run_id)
    header = ["run_id", "name", "iteration", *FLOW_COLUMNS, "seed", "status", "error"]
    _write(out, header, ([run_id, run.name, iteration, *values, run.scenario.get("seed"), run.status, run.error]
                         for iteration, values in _flow_rows(store, run)))


def campaign_csv(store: Store, campaign_id: str, out: TextIO) -> None:
    """One row per item and flow: the item, its matrix parameters (one column
    per dotted path), its seed, then the summary's per-flow columns. An item
    without flows (not run yet, or failed before any) has one row."""
    campaign = store.get_campaign(campaign_id)
    if campaign is None:
        raise KeyError(f"no campaign {campaign_id!r}")
    parameters = list(campaign.spec.get("matrix") or {})
    header = ["campaign_id", "item_index", "configuration", "iteration", "run_id", "status", *parameters,
              "seed", *FLOW_COLUMNS, "error"]
    rows = []
    for item in store.campaign_items(campaign_id):
        run = store.get_run(item.run_id) if item.run_id is not None else None
        head = [campaign_id, item.item_index, item.configuration, item.iteration, item.run_id, item.status,
                *(format_value(item.parameters.get(path)) for path in parameters), item.scenario.get("seed")]
        rows += [[*head, *values, run.error if run else None] for _, values in _flow_rows(store, run)]
    _write(out, header, rows)


KIND_WRITERS: dict[str, Writer] = {
    "flow-samples": flow_samples_csv,
    "link-samples": link_samples_csv,
    "tunnel-samples": tunnel_samples_csv,
    "summary": summary_csv,
    "campaign": campaign_csv,
}
