"""The ways into the model: data (a request, a stored scenario) or a
scenario file with its `--set` overrides, validated into a Scenario or
refused with a ScenarioError whose every problem names its field. What this
host can run is checked apart, before a run (satlab.engine.preflight)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from satlab.scenario.base import MAX_DEPTH
from satlab.scenario.errors import ScenarioError, describe
from satlab.scenario.models import Scenario
from satlab.scenario.overrides import apply_override
from satlab.scenario.yaml import parse_yaml


def check_depth(data: Any, field: str) -> None:
    """ScenarioError naming field if data nests deeper than MAX_DEPTH (walked
    without recursion, so that any depth is cheap to refuse)."""
    stack = [(data, 1)]
    seen = set()  # a container held twice is walked once
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            if isinstance(child, dict | list) and id(child) not in seen:
                if depth >= MAX_DEPTH:
                    raise ScenarioError([f"{field}: nests deeper than {MAX_DEPTH} levels"])
                seen.add(id(child))
                stack.append((child, depth + 1))


def validate(data: Any) -> Scenario:
    check_depth(data, "scenario")
    try:
        return Scenario.model_validate(data)
    except ValidationError as error:
        raise ScenarioError([describe(e) for e in error.errors()]) from None


def load(file: str | Path, overrides: Sequence[str] = ()) -> Scenario:
    """A scenario from a YAML file with `--set` overrides, validated after overriding."""
    try:
        text = Path(file).read_text()
    except OSError as error:
        raise ScenarioError([f"{file}: cannot read the scenario file ({error.strerror})"]) from None
    data = parse_yaml(text, str(file))
    if not isinstance(data, dict):
        raise ScenarioError([f"{file}: a scenario is a mapping of fields"])
    for assignment in overrides:
        apply_override(data, assignment)
    scenario = validate(data)
    scenario.resolve_traces(Path(file).parent)
    return scenario
