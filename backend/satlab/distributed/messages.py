"""A run request as it travels through the queue, and its validation.

A worker runs as root, so a message from the queue is untrusted input like
an API request's body: its scenario goes through the same validation
(satlab.scenario.validate) before anything runs, and a message that is not
a run request is refused with sentences naming its fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from satlab.scenario import MAX_CAPTURE_BYTES, Scenario, ScenarioError, check_depth, describe, validate

# A run whose worker vanished is tried once more, elsewhere; then it fails with the reason.
MAX_ATTEMPTS = 2
RUN_ID_PATTERN = r"^[0-9a-f]{6}$"  # satlab.engine.plan.new_run_id
# The campaign item a run stands for (its campaign and index), or a lone run's id:
# a redelivered message with a key already done is not run again.
IDEMPOTENCY_KEY_PATTERN = r"^[A-Za-z0-9_.:-]{1,128}$"


class MessageRefused(ValueError):
    """A queue message that is not a valid run request: one sentence per
    problem, each starting with the field it names (`scenario.flows.0.cc: …`)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


class _Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    run_id: str = Field(pattern=RUN_ID_PATTERN)
    idempotency_key: str = Field(pattern=IDEMPOTENCY_KEY_PATTERN)
    attempt: int = Field(ge=1, le=MAX_ATTEMPTS)
    artifact_bytes: int = Field(ge=0, le=MAX_CAPTURE_BYTES)
    scenario: dict[str, Any]


@dataclass(frozen=True)
class RunRequest:
    """One run for a worker: which run (its id in the server's store), which
    campaign item (idempotency_key), which attempt, what to run, and the most
    bytes the files it keeps may take (the server's cap for it:
    queue.RunQueue.artifact_cap_bytes)."""
    run_id: str
    idempotency_key: str
    attempt: int
    scenario: Scenario
    artifact_bytes: int

    def to_message(self) -> dict[str, Any]:
        """The request as JSON-ready data; parse_run_request(to_message()) gives it back."""
        return {"run_id": self.run_id, "idempotency_key": self.idempotency_key, "attempt": self.attempt,
                "artifact_bytes": self.artifact_bytes,
                "scenario": self.scenario.model_dump(mode="json", by_alias=True)}


def parse_run_request(message: Any) -> RunRequest:
    """The run request in message (JSON-decoded data), validated; MessageRefused otherwise."""
    try:
        check_depth(message, "message")
        envelope = _Envelope.model_validate(message)
    except ScenarioError as error:
        raise MessageRefused(error.problems) from None
    except ValidationError as error:
        raise MessageRefused([describe(problem) if problem["loc"] else f"message: {problem['msg']}"
                              for problem in error.errors()]) from None
    try:
        scenario = validate(envelope.scenario)
    except ScenarioError as error:
        raise MessageRefused([f"scenario.{problem}" if not problem.startswith("scenario") else problem
                              for problem in error.problems]) from None
    return RunRequest(envelope.run_id, envelope.idempotency_key, envelope.attempt, scenario, envelope.artifact_bytes)
