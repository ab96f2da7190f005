"""What the response bodies share: the base of every response model, the
plain message, and the free-form objects that carry a schema of their own."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema


class Public(BaseModel):
    """A response body: read from the store's rows (frozen dataclasses) as
    well as from mappings; keys it does not list are left out. Every field is
    sent, a defaulted one (default_factory too) filled in: its schema says so
    (required), unlike a request body's, where a defaulted field may be left out."""
    model_config = ConfigDict(from_attributes=True, serialize_by_alias=True,
                              json_schema_serialization_defaults_required=True)


class Message(Public):
    message: str


class Problem(Public):
    """One reason of a refusal (satlab.api.errors)."""
    loc: list[str | int] = Field(description='The field it is about: ["body", "flows", "0", "size_bytes"], '
                                             '["query", "offset"]; ["request"]: the request as a whole.')
    msg: str = Field(description="A sentence, starting with the field's dotted path when it names one.")
    type: str = Field(description="What kind of refusal: the status's name (not_found, too_many_requests...) or "
                                  "the check's.")


class Refused(Public):
    """Every refusal's body (4xx, 507): one problem per reason."""
    detail: list[Problem]


# Marks where the OpenAPI document refers to a component that no route names:
# site.document_schemas adds the component and turns the mark into a $ref
# (pydantic refuses a $ref to a schema it did not make itself).
SCHEMA_MARK = "x-satlab-schema"


def documented_as(schema: str, description: str) -> Any:
    """A JSON object passed through as stored (never validated again on its
    way out: what was stored by an older satlab still answers), documented
    as the component `schema` of the OpenAPI document."""
    return WithJsonSchema({SCHEMA_MARK: schema, "type": "object", "description": description})


# A scenario as stored: satlab.scenario.Scenario dumped with every default.
ScenarioObject = Annotated[dict[str, Any], documented_as("Scenario", "A scenario, as in labs/*.yaml, with every "
                                                                    "default filled in.")]
# A campaign file as validated: satlab.service.campaign.CampaignSpec.
CampaignSpecObject = Annotated[dict[str, Any], documented_as("CampaignSpec", "The campaign file, as validated.")]


class Percentiles(Public):
    """A histogram's summary, in the unit its name gives (ms)."""
    p50: float | None = None
    p99: float | None = None
    max: float | None = None
    count: int | None = None
