"""A run request from the queue is validated like an API request, before anything runs."""

import pytest

from satlab.distributed.messages import MessageRefused, RunRequest, parse_run_request
from satlab.scenario import load
from tests.conftest import LABS
from tests.distributed.conftest import run_request


@pytest.mark.parametrize("preset", sorted(path.name for path in LABS.glob("*.yaml")))
def test_every_preset_goes_through_the_queue_unchanged(preset):
    sent = RunRequest("a1b2c3", "campaign-7:12", 2, load(LABS / preset), 256 << 20)
    assert parse_run_request(sent.to_message()) == sent


def refusal(message) -> list[str]:
    with pytest.raises(MessageRefused) as refused:
        parse_run_request(message)
    return refused.value.problems


def test_a_message_that_is_not_a_request_is_refused():
    assert refusal(["a1b2c3"]) == ["message: Input should be a valid dictionary or instance of _Envelope"]
    assert refusal({}) == ["run_id: Field required", "idempotency_key: Field required", "attempt: Field required",
                           "artifact_bytes: Field required", "scenario: Field required"]


def test_a_request_with_unknown_or_wrong_fields_is_refused_naming_them():
    message = {**run_request().to_message(), "run_id": "../etc", "attempt": 3, "artifact_bytes": -1, "command": "sh"}
    assert refusal(message) == [
        "run_id: String should match pattern '^[0-9a-f]{6}$' (got '../etc')",
        "attempt: Input should be less than or equal to 2 (got 3)",
        "artifact_bytes: Input should be greater than or equal to 0 (got -1)",
        "command: is not a known field"]
    assert refusal({**run_request().to_message(), "attempt": "1"}) == [
        "attempt: Input should be a valid integer (got '1')"]


def test_an_invalid_scenario_is_refused_as_the_api_refuses_it():
    message = run_request().to_message()
    message["scenario"]["flows"][0]["cc"] = "hybla-ish"
    message["scenario"]["tunnel"]["k"] = 0
    problems = refusal(message)
    assert problems[0] == "scenario.tunnel.k: Input should be greater than or equal to 1 (got 0)"
    assert problems[1].startswith("scenario.flows.0.cc: ")


def test_a_deeply_nested_message_is_refused_cheaply():
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    assert refusal({**run_request().to_message(), "scenario": {"flows": nested}}) == [
        "message: nests deeper than 32 levels"]
