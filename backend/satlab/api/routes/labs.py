"""Labs: the scenario presets of labs/."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from satlab.api.deps import SettingsDep
from satlab.api.models.common import Refused
from satlab.api.models.labs import LabDetail, LabPublic, LabsPublic
from satlab.scenario import ScenarioError, load
from satlab.service.labs import lab_file, list_labs

router = APIRouter(prefix="/labs", tags=["labs"])


@router.get("")
def get_labs(settings: SettingsDep) -> LabsPublic:
    labs = list_labs(settings.labs_dir)
    return LabsPublic(data=[LabPublic.model_validate(lab) for lab in labs], count=len(labs))


@router.get("/{name}", responses={404: {"model": Refused}})
def get_lab(name: str, settings: SettingsDep) -> LabDetail:
    """The preset as written (`text`) and as validated (`scenario`, with every default)."""
    try:
        path = lab_file(settings.labs_dir, name)
    except ScenarioError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Lab not found") from None
    text = path.read_text()
    try:
        scenario = load(path)
    except ScenarioError as error:
        return LabDetail(name=name, text=text, title=name, description="", error=str(error), scenario=None)
    return LabDetail(name=name, text=text, title=scenario.name, description=scenario.description, error=None,
                     scenario=scenario.model_dump(mode="json", by_alias=True))
