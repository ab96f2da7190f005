"""The satellite path of a scenario: each direction's bottleneck (rate,
delay, frames, buffer, AQM), its channel, delay and rate that vary in time,
the LAN segment, and the link backend that emulates it (satlink, or netem
for what netem can express)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from satlab.scenario.base import Probability, Seed, Strict, field_error
from satlab.scenario.channels import Channel, Perfect


class Buffer(Strict):
    """The drop-tail limit of a bottleneck: exactly one of the three."""
    bytes: int | None = Field(default=None, ge=1500, le=1 << 30)
    packets: int | None = Field(default=None, ge=1, le=16384)
    bdp: float | None = Field(default=None, gt=0, le=100)

    @model_validator(mode="after")
    def _exactly_one(self) -> Buffer:
        given = [name for name in ("bytes", "packets", "bdp") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of bytes, packets or bdp (a multiple of the "
                             f"bandwidth-delay product), got {given or 'none'}")
        return self


class Aqm(Strict):
    """Early drop in front of the drop-tail buffer (satlink only): while more
    than the threshold waits (bytes not yet serialised), each arrival is
    dropped with probability drop_ratio. The threshold in bytes, or as a
    ratio of the buffer: exactly one."""
    threshold_bytes: int | None = Field(default=None, ge=0, le=1 << 30)
    threshold_ratio: float | None = Field(default=None, gt=0, lt=1)
    drop_ratio: Probability
    # None: derived from the scenario's seed and this AQM's place (see satlab.engine.plan).
    seed: Seed | None = None

    @model_validator(mode="after")
    def _one_threshold(self) -> Aqm:
        if (self.threshold_bytes is None) == (self.threshold_ratio is None):
            raise ValueError("give exactly one of threshold_bytes or threshold_ratio (of the buffer)")
        return self


class DelayBin(Strict):
    """A range of the extra delay, picked with probability weight / (the sum
    of the weights); the delay is uniform inside it."""
    weight: float = Field(gt=0, le=1e9)
    low_ms: float = Field(ge=0, le=10_000)
    high_ms: float = Field(ge=0, le=10_000)

    @field_validator("high_ms")
    @classmethod
    def _not_below_low(cls, high_ms: float, info: ValidationInfo) -> float:
        low_ms = info.data.get("low_ms")
        if low_ms is not None and high_ms < low_ms:
            raise ValueError(f"must be >= low_ms ({low_ms})")
        return high_ms


class DelayVariation(Strict):
    """An extra one-way delay on top of delay_ms that varies in time
    (satlink only). Model distribution: drawn from the bins and held for
    step_ms. Model trace: read from file, lines "t_ms delay_ms" from t_ms 0,
    the trace starting over every trace_period_ms if > 0. Packets never
    overtake one another: after the delay falls, a packet waits for the one
    before it, as on a FIFO link."""
    model: Literal["distribution", "trace"]
    bins: list[DelayBin] | None = Field(default=None, min_length=1, max_length=64)
    step_ms: float | None = Field(default=None, ge=0.001, le=1e9)
    # None: derived from the scenario's seed and this variation's place (see satlab.engine.plan).
    seed: Seed | None = None
    file: Annotated[Path, Field(strict=False)] | None = None
    trace_period_ms: float = Field(default=0.0, ge=0, le=1e9)

    @model_validator(mode="after")
    def _fields_of_the_model(self) -> DelayVariation:
        fields = {"distribution": ("bins", "step_ms", "seed"), "trace": ("file", "trace_period_ms")}
        required = {"distribution": ("bins", "step_ms"), "trace": ("file",)}
        for name in required[self.model]:
            if getattr(self, name) is None:
                raise field_error(name, f"is required with model {self.model}", None)
        for model, names in fields.items():
            for name in names:
                if model != self.model and getattr(self, name) not in (None, 0.0):
                    raise field_error(name, f"applies to model {model} only", getattr(self, name))
        return self


class RateTrace(Strict):
    """The rate in force over time (satlink only): file has lines "t_ms
    rate_mbps" from t_ms 0, the trace starting over every trace_period_ms if
    > 0. The direction's rate_mbps stays its nominal rate (the BDP, a buffer
    in BDP, link utilisation)."""
    file: Annotated[Path, Field(strict=False)]
    trace_period_ms: float = Field(default=0.0, ge=0, le=1e9)


class Direction(Strict):
    """One direction of the satellite link."""
    rate_mbps: float = Field(gt=0, le=10_000)
    delay_ms: float = Field(ge=0, le=10_000)
    # The link sends frames on this period (a DVB-S2 forward link's BBFrames, a
    # DVB-RCS2 return link's superframes); the channel loses whole frames. None:
    # packet by packet. satlink only (codec/README.md, satlink).
    frame_ms: float | None = Field(default=None, ge=0.001, le=10_000)
    buffer: Buffer = Buffer(bdp=1.0)
    channel: Channel = Perfect()
    aqm: Aqm | None = None
    delay_variation: DelayVariation | None = None
    rate_trace: RateTrace | None = None

    @field_validator("aqm")
    @classmethod
    def _threshold_within_the_buffer(cls, aqm: Aqm | None, info: ValidationInfo) -> Aqm | None:
        buffer = info.data.get("buffer")
        if (aqm is not None and aqm.threshold_bytes is not None and buffer is not None
                and buffer.bytes is not None and aqm.threshold_bytes >= buffer.bytes):
            raise ValueError(f"threshold_bytes must be below the buffer's {buffer.bytes} bytes, or the AQM "
                             "never acts")
        return aqm


class Lan(Strict):
    """The segment between client and terminal (e.g. Wi-Fi): its channel
    applies to both directions, each with its own seed."""
    rate_mbps: float | None = Field(default=None, gt=0, le=10_000)
    delay_ms: float = Field(default=0.0, ge=0, le=10_000)
    channel: Channel = Perfect()


# The loss models netem's `loss` option expresses (engine.netem.netem_loss_args); the others need satlink.
NETEM_CHANNELS = ("perfect", "bernoulli", "ge-packet")
# What else of a Direction needs satlink, and why netem cannot do it.
NETEM_CANNOT = {"frame_ms": "netem cannot send frames",
                "aqm": "netem has no AQM",
                "delay_variation": "netem cannot vary the delay without reordering or from a trace",
                "rate_trace": "netem cannot change its rate over time"}


class SatellitePath(Strict):
    forward: Direction  # gateway -> terminal: what a download crosses
    return_: Direction = Field(alias="return")
    lan: Lan | None = None
    link_backend: Literal["satlink", "netem"] = "satlink"
    # How satlink decides a time-based channel's losses (codec/README.md): overlap,
    # a packet whose serialisation overlaps lost time is lost, as on a real link;
    # start, its fate at the start of its serialisation (the rule before 2026-11).
    loss_rule: Literal["overlap", "start"] = "overlap"

    @model_validator(mode="after")
    def _netem_expresses_the_channels(self) -> SatellitePath:
        if self.link_backend != "netem":
            return self
        problems = [InitErrorDetails(type=PydanticCustomError(
                        "netem_channel", "netem cannot express this loss model; use link_backend satlink"),
                        loc=(name, "channel"), input=direction.channel.model)
                    for name, direction in (("forward", self.forward), ("return", self.return_))
                    if direction.channel.model not in NETEM_CHANNELS]
        problems += [InitErrorDetails(type=PydanticCustomError(
                         f"netem_{field}", f"{reason}; use link_backend satlink"),
                         loc=(name, field), input=value.model_dump(mode="json", exclude_defaults=True)
                         if isinstance(value, BaseModel) else value)
                     for name, direction in (("forward", self.forward), ("return", self.return_))
                     for field, reason in NETEM_CANNOT.items()
                     if (value := getattr(direction, field)) is not None]
        if problems:
            # A ValidationError keeps each problem's own field (path.forward.channel): a
            # ValueError would name only `path`.
            raise ValidationError.from_exception_data(type(self).__name__, problems)
        return self
