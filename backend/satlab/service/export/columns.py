"""The columns of every exported table: stored names -> column names with
their unit or kind (`_s`, `_ms`, `_mbps`, `_bytes`, `_packets`, `_frames`,
`_ratio`, `_index`, `_runs`: runs on the host at once); identifiers (iteration, flow, group, item_index,
configuration, seed) and text columns carry none. CSV and Parquet share them.
"""

from __future__ import annotations

from satlab.engine.pep.segments import PEP_ROLES, SEGMENTS

# Stored name -> column, per sample table.
# A flow's hop (satlab.engine.pep.segments): end-to-end, or the connection of a split flow it describes.
FLOW_SAMPLE_COLUMNS = {"iteration": "iteration", "t_s": "t_s", "flow": "flow", "hop": "hop",
                       "bytes_acked": "acked_bytes", "goodput_mbps": "goodput_mbps", "cwnd_bytes": "cwnd_bytes",
                       "rtt_ms": "rtt_ms", "retransmissions": "retransmissions_packets",
                       "delivery_rate_mbps": "delivery_rate_mbps"}
LINK_SAMPLE_COLUMNS = {"iteration": "iteration", "t_s": "t_s", "link": "link", "direction": "direction",
                       "queue_bytes": "queue_bytes", "in_flight_packets": "in_flight_packets",
                       "packets_in": "in_packets", "bytes_in": "in_bytes", "packets_out": "out_packets",
                       "bytes_out": "out_bytes", "drops_buffer": "buffer_drops_packets",
                       "drops_aqm": "aqm_drops_packets", "drops_channel": "channel_drops_packets",
                       "drops_overflow": "overflow_drops_packets",
                       "drops": "drops_packets", "lateness_p99_ms": "lateness_p99_ms",
                       "lateness_max_ms": "lateness_max_ms"}
TUNNEL_SAMPLE_COLUMNS = {"iteration": "iteration", "t_s": "t_s", "direction": "direction",
                         "tx_plain": "tx_plain_packets", "tx_sources": "tx_source_packets",
                         "tx_repairs": "tx_repair_packets", "tx_flush_repairs": "tx_flush_repair_packets",
                         "rx_plain": "rx_plain_packets", "rx_sources": "rx_source_packets",
                         "rx_repairs": "rx_repair_packets", "rx_lost": "rx_lost_packets",
                         "rx_recovered": "rx_recovered_packets", "rx_unrecovered": "rx_unrecovered_packets",
                         "rx_malformed": "rx_malformed_packets", "rx_rejected": "rx_rejected_packets",
                         "rx_unauthenticated": "rx_unauthenticated_packets",
                         "rx_decoding_delay_p99_ms": "rx_decoding_delay_p99_ms",
                         "rx_decoding_delay_max_ms": "rx_decoding_delay_max_ms",
                         "rx_lateness_p99_ms": "rx_lateness_p99_ms", "rx_lateness_max_ms": "rx_lateness_max_ms"}
# The PEP's counters of a split flow (satlab.service.store.samples.PepSampleRow): per segment, per PEP.
PEP_SAMPLE_COLUMNS = {"iteration": "iteration", "t_s": "t_s", "flow": "flow",
                      **{f"{segment}_{figure}": f"{segment}_{column}"
                         for segment in SEGMENTS["distributed"]
                         for figure, column in (("bytes", "bytes"), ("retransmissions", "retransmissions_packets"))},
                      **{f"{role}_{figure}_bytes": f"{role}_{figure}_bytes"
                         for role in PEP_ROLES for figure in ("buffer", "pipe")}}

# Per-flow columns of the summary and campaign exports: stored summary name -> column.
FLOW_SUMMARY_COLUMNS = {"flow": "flow", "group": "group", "transport": "transport", "cc": "cc",
                        "direction": "direction", "start_s": "start_s",
                        # What the flow's scenario asked for (empty for a timed flow), beside what arrived.
                        "requested_bytes": "requested_bytes", "bytes": "received_bytes",
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
                        "time_to_first_byte_ms": "time_to_first_byte_ms",
                        # With a split-TCP PEP (satlab.engine.pep.metrics): each segment's sender's figures, and
                        # the pipes of the data's direction in each PEP.
                        **{f"pep_{segment}_{figure}": f"pep_{segment}_{column}"
                           for segment in ("client", "satellite", "server")
                           for figure, column in (("bytes", "bytes"), ("retransmissions", "retransmissions_packets"))},
                        **{f"pep_{role}_pipe_{figure}_bytes": f"pep_{role}_pipe_{figure}_bytes"
                           for role in ("terminal", "gateway") for figure in ("peak", "mean")},
                        "error": "flow_error"}
# summary.fec_summary's fields -> column suffix, per tunnel direction.
FEC_COLUMNS = {"sources": "source_packets", "repairs": "repair_packets", "lost": "lost_packets",
               "recovered": "recovered_packets", "residual_loss": "residual_loss_ratio",
               "rejected": "rejected_packets", "unauthenticated": "unauthenticated_packets"}
FEC_DELAY_PERCENTILES = ("p50", "p99")
# satlink's summary counters -> column suffix, per link and direction: what
# arrived and each fate (delivered, dropped by the buffer, of which by the AQM,
# lost on the channel); the iteration's "lan" names its directions forward
# (down) and return (up).
LINK_COLUMNS = {"packets_in": "in_packets", "packets_out": "out_packets", "drops_buffer": "buffer_drops_packets",
                "drops_aqm": "aqm_drops_packets", "drops_channel": "channel_drops_packets"}
LINK_DIRECTIONS = (("link", "link", (("forward", "forward"), ("return", "return"))),
                   ("lan", "lan", (("down", "forward"), ("up", "return"))))


# An iteration's fidelity evidence (satlab.engine.fidelity): whether the host kept up, and what it did meanwhile.
FIDELITY_COLUMNS = {"host_kept_up": "host_kept_up",
                    "satlink_lateness_p99_ms": "satlink_lateness_p99_ms",
                    "satlink_lateness_max_ms": "satlink_lateness_max_ms",
                    "tunnel_lateness_p99_ms": "tunnel_lateness_p99_ms",
                    "tunnel_lateness_max_ms": "tunnel_lateness_max_ms", "cpu_steal_ratio": "host_cpu_steal_ratio",
                    "cpu_busy_ratio": "host_cpu_busy_ratio", "satlink_cpu_s": "satlink_cpu_s",
                    "tunnel_cpu_s": "tunnel_cpu_s", "runs_at_once_mean": "host_concurrent_mean_runs",
                    "runs_at_once_max": "host_concurrent_max_runs", "realtime_threads": "realtime_threads"}


def _iteration_columns() -> list[str]:
    columns = ["jain_index"]
    for direction in ("forward", "return"):
        columns += [f"fec_{direction}_{suffix}" for suffix in FEC_COLUMNS.values()]
        columns += [f"fec_{direction}_decoding_delay_{p}_ms" for p in FEC_DELAY_PERCENTILES]
    for _, prefix, directions in LINK_DIRECTIONS:
        for name, _ in directions:
            columns += [f"{prefix}_{name}_{suffix}" for suffix in LINK_COLUMNS.values()]
    return [*columns, *FIDELITY_COLUMNS.values()]


# A flow of the iteration a run's time limit stopped (satlab.engine.runner: TimeLimitExceeded), as its
# result's timed_out keeps it: whether it had finished, how long it had been sending (the least its
# download time would have been; empty if it had finished or never started) and its bytes acknowledged.
TIME_LIMIT_COLUMNS = {"finished": "time_limit_finished", "download_time_at_least_s": "download_time_at_least_s",
                      "bytes_acked": "time_limit_acked_bytes"}

# A summary row's figures: the flow's, what it had taken at a time limit, then its iteration's.
FLOW_COLUMNS = [*FLOW_SUMMARY_COLUMNS.values(), *TIME_LIMIT_COLUMNS.values(), *_iteration_columns()]

# The suffixes a numeric column ends with; a column without one holds text or an identifier.
UNIT_SUFFIXES = ("_s", "_ms", "_mbps", "_bytes", "_packets", "_frames", "_ratio", "_index", "_runs")
