"""YAML from untrusted text: safe types only, without anchors and aliases,
nested within MAX_DEPTH; any refusal a ScenarioError naming the field the
text was given for."""

from __future__ import annotations

from typing import Any

import yaml

from satlab.scenario.base import MAX_DEPTH
from satlab.scenario.errors import ScenarioError


class _PlainLoader(yaml.SafeLoader):
    """YAML without anchors and aliases: an alias may name a node that names
    others, each expansion multiplying the data (a "billion laughs" of a few
    hundred bytes takes gigabytes)."""

    depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        problem = None
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            problem = "anchors and aliases (& and *) are not accepted"
        elif self.depth >= MAX_DEPTH:
            problem = f"nests deeper than {MAX_DEPTH} levels"
        if problem is not None:
            raise yaml.composer.ComposerError(None, None, problem, event.start_mark)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def parse_yaml(text: str, field: str) -> Any:
    """YAML text as data (safe types only, no anchors or aliases, nesting
    within MAX_DEPTH); ScenarioError naming field otherwise."""
    try:
        data = yaml.load(text, Loader=_PlainLoader)  # noqa: S506 (a SafeLoader)
    except yaml.YAMLError as error:
        where = ""
        if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
            where = f" at line {error.problem_mark.line + 1}, column {error.problem_mark.column + 1}"
        problem = error.problem if isinstance(error, yaml.MarkedYAMLError) and error.problem else "an error"
        raise ScenarioError([f"{field}: not valid YAML: {problem[:200]}{where}"]) from None
    return data

