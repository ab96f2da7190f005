"""What this host can run (GET /api/capabilities)."""

from __future__ import annotations

from pydantic import Field

from satlab.api.models.common import Public


class LinkBackend(Public):
    name: str = Field(description="satlink or netem.")
    available: bool
    problem: str | None = Field(description="Why it cannot run here, when it cannot.")


class TcpCongestionControls(Public):
    """Linux's TCP congestion controls on this host."""
    available: list[str] = Field(description="The kernel's now.")
    loadable: list[str] = Field(description="Loadable as modules.")
    missing: list[str]


class TransportCapability(Public):
    name: str
    display_name: str
    colour: str = Field(description="The transport's colour in every chart (CSS).")
    available: bool
    problem: str | None = Field(description="Why the transport cannot run here, when it cannot.")
    congestion_controls: list[str]
    uploads: bool = Field(description="It can run direction: upload.")
    durations: bool = Field(description="It can run for duration_s, not only size_bytes.")
    flow_control: bool = Field(description="It takes QUIC flow-control windows.")
    zero_rtt_modes: list[str] = Field(description="The zero_rtt values it can run.")


class Capabilities(Public):
    root: bool
    kernel: str
    link_backends: list[LinkBackend]
    fec_tunnel: bool = Field(description="swf-tunnel is built.")
    cubic_hystart_parameter: bool = Field(description="The host's CUBIC Hystart parameter exists.")
    tcp_congestion_controls: TcpCongestionControls
    transports: list[TransportCapability]
    limitations: list[str] = Field(description="What this host (a container, often) cannot do that runs need.")
    channel_models: list[str]
    max_concurrent_runs: int
