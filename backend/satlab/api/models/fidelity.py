"""A run's fidelity evidence (satlab.engine.fidelity): whether the host kept
up with it, per iteration and for the whole run, and who measured."""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field

from satlab.api.models.common import Public


class FidelityFigures(Public):
    """What the host did while a run (or one iteration of it) ran."""
    measured_s: float
    load_avg_1m_start: float | None
    load_avg_1m_end: float | None
    load_avg_1m_max: float | None
    cpu_steal_ratio: float | None = Field(description="CPU time the hypervisor gave others, over the whole time.")
    cpu_steal_ratio_peak_1s: float | None
    cpu_busy_ratio: float | None
    satlink_lateness_p99_ms: float | None = Field(description="How long after its due time a packet left the "
                                                              "emulated link: a figure the verdict rests on.")
    satlink_lateness_max_ms: float | None
    tunnel_lateness_p99_ms: float | None = Field(
        default=None, description="How long a tunnel endpoint let a datagram wait in its socket, or a timer pass its "
                                  "deadline: the other figure the verdict rests on (null: no tunnel, or a run "
                                  "stored before the tunnel measured it).")
    tunnel_lateness_max_ms: float | None = None
    satlink_cpu_s: float | None
    tunnel_cpu_s: float | None
    runs_at_once_mean: float | None = Field(
        default=None, description="Runs on the host at once, this one included (admitted by any satlab process, "
                                  "counted each second), over its whole time (null: a run stored before satlab "
                                  "counted them).")
    runs_at_once_max: int | None = None
    realtime_threads: bool | None = Field(
        default=None, description="Whether every satlink and swf-tunnel of the run forwarded on SCHED_FIFO threads, "
                                  "as each said when ready (null: neither ran, or a run stored before satlab "
                                  "recorded it).")
    host_kept_up: bool | None = Field(description="null: unknown (nothing measured the lateness).")
    problems: list[str]


class IterationFidelity(FidelityFigures):
    process_cpu_s: dict[str, float] = Field(description="CPU time of each of the run's tools, by its name "
                                                        "(link, lan, tunnel.0, tunnel.1).")
    tool_realtime: dict[str, bool] = Field(default_factory=dict,
                                           description="Whether each of the run's satlink and swf-tunnel processes, "
                                                       "by its name, got SCHED_FIFO for its forwarding threads.")


class HostIdentity(Public):
    host_name: str
    kernel: str
    cpu_model: str | None
    cpu_count: int | None
    satlab_version: str | None


class CalibrationSummary(Public):
    """The host's calibration the run was admitted under."""
    measured_at: str = Field(description="ISO 8601, UTC.")
    max_concurrent: dict[str, int] = Field(description="Runs of each kind at once that kept up.")


class RunFidelity(FidelityFigures):
    host: HostIdentity
    run_kind: Literal["kernel_tcp", "tunnel", "quic"]
    calibration: CalibrationSummary | None
    iterations: int
    lateness_p99_limit_ms: float = Field(
        validation_alias=AliasChoices("lateness_p99_limit_ms", "satlink_lateness_p99_limit_ms"),
        description="The limit of either lateness p99 (runs stored before the tunnel measured its own: of satlink's).")
