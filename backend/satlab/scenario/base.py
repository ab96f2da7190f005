"""What every part of the scenario model shares: strict parsing, the seed
and probability types, the bound on nesting, and refusals raised from a
model validator that name their own field."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

SEED_MAX = 2**32 - 1  # libswf seeds are uint32
# Untrusted input nests no deeper than this (a scenario nests 5 levels):
# deeper data is refused before anything walks it recursively.
MAX_DEPTH = 32


def field_error(field: str, message: str, value: Any) -> ValidationError:
    """A refusal that names its own field (loc), raised from a model validator."""
    return ValidationError.from_exception_data("channel", [InitErrorDetails(
        type=PydanticCustomError("value_error", message), loc=(field,), input=value)])


class Strict(BaseModel):
    """Unknown fields are refused (only a field's alias is accepted: `return`,
    not `return_`) and types are strict: no text or bool for a number."""
    model_config = ConfigDict(extra="forbid", strict=True)


Probability = Annotated[float, Field(ge=0, le=1)]
Seed = Annotated[int, Field(ge=0, le=SEED_MAX)]
