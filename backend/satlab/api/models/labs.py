"""Labs: the scenario presets of labs/."""

from __future__ import annotations

from pydantic import Field

from satlab.api.models.common import Public, ScenarioObject


class LabPublic(Public):
    name: str = Field(description="What GET /api/labs/{name} and a run's `lab` take.")
    title: str
    description: str
    error: str | None = Field(description="Why the preset does not load, if it does not.")


class LabsPublic(Public):
    data: list[LabPublic]
    count: int


class LabDetail(LabPublic):
    scenario: ScenarioObject | None = Field(description="As validated, with every default (null if it does not "
                                                        "load).")
    text: str = Field(description="The preset's YAML, as written.")
