"""Dotted overrides (`--set flows.0.cc=bbr`, a campaign's set and matrix):
a field of a scenario's data, named by its dotted path, set to a value,
before the data is validated."""

from __future__ import annotations

import re
from typing import Any

from satlab.scenario.base import MAX_DEPTH
from satlab.scenario.errors import ScenarioError, shorten
from satlab.scenario.yaml import parse_yaml

# A dotted path: field names and list indices (ASCII digits only: "²".isdigit()).
_PATH_PART = re.compile(r"^(?:[0-9]{1,6}|[A-Za-z_][A-Za-z0-9_-]{0,63})$")


def _path_parts(dotted_path: str) -> list[str]:
    parts = dotted_path.split(".")
    if len(parts) > MAX_DEPTH or not all(_PATH_PART.match(part) for part in parts):
        raise ScenarioError([f"set: {shorten(dotted_path)} is not a dotted path of field names and list "
                             "indices (flows.0.cc)"])
    return parts


def set_path(data: dict[str, Any], dotted_path: str, value: Any) -> None:
    """Set the field at `dotted.path` of data to value, in place. A numeric
    part indexes a list (flows.0.cc); the index just past its end appends;
    missing or null containers on the way are created (a list where the
    next part is 0: cross_traffic.0.rate_mbps). Errors name the path as far
    as it was walked."""
    parts = _path_parts(dotted_path)
    node: Any = data
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        where = ".".join(parts[:depth + 1])
        if isinstance(node, list):
            if not part.isdigit() or int(part) > len(node):
                raise ScenarioError([f"{where}: no such list item (the list has {len(node)}; "
                                     f"index {len(node)} appends one)"])
            key: Any = int(part)
            if key == len(node):
                node.append(None)
        elif isinstance(node, dict):
            key = part
        else:
            raise ScenarioError([f"{where}: {'.'.join(parts[:depth]) or 'the scenario'} is not a mapping"])
        if last:
            node[key] = value
        else:
            if (node.get(key) if isinstance(node, dict) else node[key]) is None:
                node[key] = [] if parts[depth + 1] == "0" else {}
            node = node[key]


def apply_override(data: dict[str, Any], assignment: str) -> None:
    """Apply `dotted.path=value` to data in place (see set_path); the value is
    YAML: a scalar (`12`, `0.5`, `true`, `cubic`, `null`) or a flow mapping."""
    path, equals, text = assignment.partition("=")
    if not equals or not path:
        raise ScenarioError([f"set: expected dotted.path=value, got {shorten(assignment)}"])
    _path_parts(path)  # before its value: an error about the value names the path
    set_path(data, path, parse_yaml(text, path) if text else "")
