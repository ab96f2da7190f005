"""How the scenario's refusals read: one sentence per problem, each starting
with the dotted path of its field, quoting untrusted input in a bounded
length at a bounded cost."""

from __future__ import annotations

import itertools
import reprlib
from collections.abc import Mapping
from typing import Any

from satlab.scenario.channels import CHANNEL_MODELS


class ScenarioError(ValueError):
    """An invalid scenario: one sentence per problem, each starting with the
    dotted path of its field and a colon (`flows.0.cc: …`), the API's `loc`."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


class _ShortRepr(reprlib.Repr):
    """Bounded repr; a mapping reads as the YAML flow mapping a person wrote
    ({k: 10, z: 5}), not as a Python dict."""

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{…}"
        items = [f"{key if isinstance(key, str) else self.repr1(key, level - 1)}: {self.repr1(value, level - 1)}"
                 for key, value in itertools.islice(x.items(), self.maxdict)]
        return "{" + ", ".join(items) + (", …" if len(x) > self.maxdict else "") + "}"


_SHORT = _ShortRepr(maxlevel=1, maxtuple=4, maxlist=4, maxarray=4, maxdict=4, maxset=4, maxfrozenset=4,
                    maxdeque=4, maxstring=60, maxlong=40, maxother=60)


def short_field(name: str) -> str:
    """A field name (or dotted path) of untrusted input, cut to about 60
    characters: an unknown field's name may be long."""
    return name if len(name) <= 64 else f"{name[:60]}…"


def shorten(value: Any) -> str:
    """repr(value) in at most about 60 characters, at a cost bounded whatever
    the value's size: for messages about untrusted input."""
    return _SHORT.repr(value)


def describe(error: Mapping[str, Any]) -> str:
    """A pydantic error as a sentence that starts with its field."""
    # Discriminated unions put the tag in the location (path.forward.channel.bernoulli.loss):
    # a reader wrote `channel.loss`, so the tag is left out.
    location = [short_field(str(part)) for part in error["loc"]
                if not (isinstance(part, str) and part in CHANNEL_MODELS)]
    field = ".".join(location) or "scenario"
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = "is not a known field"
    elif error["type"] in ("union_tag_invalid", "union_tag_not_found"):
        message = f"model must be one of {', '.join(sorted(CHANNEL_MODELS))}"
    if error.get("input") is not None and error["type"] not in ("extra_forbidden", "missing"):
        message += f" (got {shorten(error['input'])})"
    return f"{field}: {message}"
