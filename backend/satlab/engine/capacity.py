"""What this host runs faithfully at once, by kind of run: the record a
calibration (satlab.engine.calibration) leaves, and the kind of a scenario.

Runs cost the host differently: kernel TCP moves its packets in the kernel,
a tunnel adds two userspace swf-tunnel endpoints, a QUIC stack runs its
whole transport in userspace. So capacity is counted per kind, as the
largest number of runs of that kind at once whose results stay within a
tolerance of the same run alone; a run's cost is 1 / that number, and
admission (satlab.engine.admission) keeps the costs of what runs together
within 1.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, computed_field

from satlab.scenario import Scenario

RunKind = Literal["kernel_tcp", "tunnel", "quic"]
RUN_KINDS: tuple[RunKind, ...] = ("kernel_tcp", "tunnel", "quic")

# Where a host's calibration is kept (on a container's data volume).
CALIBRATION_PATH = Path(os.environ.get("SATLAB_CALIBRATION", "/var/lib/satlab/calibration.json"))


def run_kind(scenario: Scenario) -> RunKind:
    """The kind of a run, by its costliest part: any userspace QUIC flow
    (picoquic, ngtcp2) makes it quic; else a FEC tunnel makes it tunnel;
    else it is kernel_tcp (satlink alone is common to every kind)."""
    if any(group.transport != "tcp" for group in scenario.flows):
        return "quic"
    if scenario.tunnel is not None:
        return "tunnel"
    return "kernel_tcp"


class KindCapacity(BaseModel):
    """One kind's capacity: the largest number of its runs at once that kept
    their fidelity (at least 1: a host runs one at a time, flagged by its
    evidence when even a lone run was late), and how it was measured."""
    model_config = ConfigDict(frozen=True)
    max_concurrent: int = Field(ge=1)
    evidence: dict[str, Any] = Field(default_factory=dict)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def cost(self) -> float:
        """The share of the host one run of this kind takes."""
        return 1 / self.max_concurrent

    @property
    def exact_cost(self) -> Fraction:
        """cost without rounding, so that three runs of cost 1/3 add up to exactly 1."""
        return Fraction(1, self.max_concurrent)


class Calibration(BaseModel):
    """A host's calibration: per kind its capacity, with the host it was
    measured on and the parameters it was measured with."""
    model_config = ConfigDict(frozen=True)
    measured_at: str  # ISO 8601, UTC
    host: dict[str, Any]  # satlab.engine.fidelity.host_identity() then
    parameters: dict[str, Any]  # CalibrationParameters as a dict
    kinds: dict[RunKind, KindCapacity]
    unavailable: dict[RunKind, str] = Field(default_factory=dict)  # kinds this host cannot run, and why

    def summary(self) -> dict[str, Any]:
        """What a run's fidelity evidence carries of it: when, and how many at once of each kind."""
        return {"measured_at": self.measured_at,
                "max_concurrent": {kind: capacity.max_concurrent for kind, capacity in self.kinds.items()}}


def save(calibration: Calibration, path: Path = CALIBRATION_PATH) -> None:
    """Write calibration as JSON; atomically, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(calibration.model_dump(), indent=2) + "\n")
    partial.replace(path)


def load(path: Path = CALIBRATION_PATH) -> Calibration | None:
    """The calibration saved at path; None if there is none. ValueError
    naming the file and the field if it is not one (edited by hand, or from
    an incompatible version): recalibrate."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None
    try:
        return Calibration.model_validate_json(text)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'the file'}: {e['msg']}" for e in error.errors())
        raise ValueError(f"{path} is not a satlab calibration ({problems}): calibrate this host again") from None
