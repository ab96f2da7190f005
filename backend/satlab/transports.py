"""One place for every transport: its name, display metadata (read by the
summary, the CLI and the UI), what a scenario may ask of it, and where its
implementation lives.

Pure data, part of the scenario's vocabulary: validating a scenario needs
none of the implementations (nor their dependencies). The engine imports a
transport's Flow class when a run needs it (satlab.engine.flows.base.flow_class).
"""

from __future__ import annotations

from dataclasses import dataclass

from satlab.tcp_congestion import LINUX_TCP_CONGESTION_CONTROLS

# A QUIC receiver's flow-control window (FlowGroup.flow_control, and the
# picoquic peer's options): at least one full-size packet's payload (a
# smaller window stalls every packet), at most 1 GiB (a GEO path at 10 Gbit/s
# and 700 ms RTT needs under 900 MB; both stacks take 62-bit values, but each
# end buffers up to a window per stream).
MIN_WINDOW_BYTES = 1200
MAX_WINDOW_BYTES = 1 << 30


@dataclass(frozen=True)
class TransportInfo:
    name: str
    display_name: str
    colour: str
    congestion_controls: tuple[str, ...]
    implementation: str  # "module:Class"
    uploads: bool = True  # can run direction: upload
    durations: bool = True  # can run for duration_s, not only size_bytes
    flow_control: bool = False  # takes QUIC flow-control windows (FlowGroup.flow_control)
    zero_rtt_modes: tuple[str, ...] = ("off",)  # FlowGroup.zero_rtt values it can run


TRANSPORTS: dict[str, TransportInfo] = {info.name: info for info in [
    # Linux's every one: before a run, satlab.engine.preflight checks a flow's against what the kernel runs.
    TransportInfo("tcp", "Linux TCP (iperf3)", "#1f77b4", LINUX_TCP_CONGESTION_CONTROLS,
                  "satlab.engine.flows.tcp_iperf3:Iperf3Flow"),
    TransportInfo("quic-picoquic", "QUIC picoquic", "#d62728",
                  ("bbr1", "bbr", "cubic", "newreno", "dcubic", "fast", "prague", "c4"),
                  "satlab.engine.flows.picoquic.flow:PicoquicFlow", flow_control=True,
                  zero_rtt_modes=("off", "on", "bdp")),
    TransportInfo("quic-ngtcp2", "QUIC ngtcp2", "#2ca02c", ("cubic", "reno", "bbr", "bbr2"),
                  "satlab.engine.flows.ngtcp2.flow:Ngtcp2Flow", flow_control=True,
                  zero_rtt_modes=("off", "on")),  # 0.12 has no BDP in its sessions (engine/flows/ngtcp2/README.md)
]}
