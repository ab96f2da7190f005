"""The channel models: how a link (or the LAN) loses packets. Each has its
own seed, or one derived from the scenario's (satlab.engine.plan)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import Field, ValidationInfo, field_validator, model_validator

from satlab.scenario.base import Probability, Seed, Strict, field_error


class ChannelBase(Strict):
    # None: derived from the scenario's seed and this channel's place (see satlab.engine.plan).
    seed: Seed | None = None


class Perfect(ChannelBase):
    model: Literal["perfect"] = "perfect"


class Bernoulli(ChannelBase):
    model: Literal["bernoulli"]
    loss: Probability


class GilbertElliottPacket(ChannelBase):
    model: Literal["ge-packet"]
    p: Probability
    q: Probability
    loss_good: Probability = 0.0
    loss_bad: Probability = 1.0


class GilbertElliottTime(ChannelBase):
    """Gilbert-Elliott in time: the state is drawn again every step_ms; a
    packet sent in a bad step is lost. Give p and q (per step), or the
    statistics a measurement reports, from which p and q follow: the
    stationary bad-time fraction is p / (p + q) and a burst lasts
    step_ms / q on average, so q = step_ms / mean_burst_ms and
    p = q * loss_time_ratio / (1 - loss_time_ratio)."""
    model: Literal["ge-time"]
    p: Probability | None = None
    q: Probability | None = None
    step_ms: float = Field(ge=0.001, le=1e9)
    loss_time_ratio: float | None = Field(default=None, gt=0, lt=1)  # fraction of the time lost
    mean_burst_ms: float | None = Field(default=None, gt=0, le=1e9)

    # Each check sits on the field it refuses (see FlowGroup).
    @field_validator("mean_burst_ms")
    @classmethod
    def _burst_of_whole_steps(cls, mean_burst_ms: float | None, info: ValidationInfo) -> float | None:
        step_ms = info.data.get("step_ms")
        if mean_burst_ms is not None and step_ms is not None and mean_burst_ms < step_ms:
            raise ValueError(f"must be >= step_ms ({step_ms}): a burst lasts at least one step")
        return mean_burst_ms

    @model_validator(mode="after")
    def _p_and_q(self) -> GilbertElliottTime:
        statistics = (self.loss_time_ratio, self.mean_burst_ms)
        if None in statistics:
            if statistics != (None, None):
                missing = "loss_time_ratio" if self.loss_time_ratio is None else "mean_burst_ms"
                raise field_error(missing, "give loss_time_ratio and mean_burst_ms together", None)
            for name in ("p", "q"):
                if getattr(self, name) is None:
                    raise field_error(name, "is required (or give loss_time_ratio and mean_burst_ms)", None)
            return self
        assert self.loss_time_ratio is not None and self.mean_burst_ms is not None
        q = self.step_ms / self.mean_burst_ms
        p = q * self.loss_time_ratio / (1 - self.loss_time_ratio)
        if p > 1:
            raise field_error("loss_time_ratio", f"with mean_burst_ms {self.mean_burst_ms} needs p = {p:.3g} "
                               "> 1 per step; lower it or lengthen the bursts", self.loss_time_ratio)
        # A stored scenario holds the derived p and q beside the statistics: they must agree.
        for name, derived in (("p", p), ("q", q)):
            given = getattr(self, name)
            if given is not None and not math.isclose(given, derived, rel_tol=1e-9, abs_tol=1e-12):
                raise field_error(name, f"is {given} but loss_time_ratio and mean_burst_ms give {derived:.6g}; "
                                   "give p and q, or the statistics", given)
        self.p, self.q = p, q
        return self


class Outage(ChannelBase):
    model: Literal["outage"]
    period_ms: float = Field(ge=0.001, le=1e9)
    duration_ms: float = Field(ge=0, le=1e9)
    # When the first outage starts within the period. None: drawn per iteration
    # from the channel's seed, uniform over the period (satlab.engine.plan), as
    # a train meets its masts at an arbitrary phase.
    phase_ms: float | None = Field(default=None, ge=0, le=1e9)
    jitter_ms: float = Field(default=0.0, ge=0, le=1e9)

    @model_validator(mode="after")
    def _fits_in_period(self) -> Outage:
        if self.duration_ms + self.jitter_ms > self.period_ms:
            raise ValueError("duration_ms + jitter_ms must be <= period_ms, got "
                             f"{self.duration_ms} + {self.jitter_ms} > {self.period_ms}")
        return self


class Trace(ChannelBase):
    model: Literal["trace"]
    file: Annotated[Path, Field(strict=False)]  # lines "start_ms end_ms": packets sent in [start, end) are lost
    trace_period_ms: float = Field(default=0.0, ge=0, le=1e9)


Channel = Annotated[Perfect | Bernoulli | GilbertElliottPacket | GilbertElliottTime | Outage | Trace,
                    Field(discriminator="model")]

# Every model's tag, in the union's order: what `model` may be.
CHANNEL_MODELS: tuple[str, ...] = tuple(get_args(member.model_fields["model"].annotation)[0]
                                        for member in get_args(get_args(Channel)[0]))
