"""Labs: the scenario presets of labs/."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, status

from satlab.api.deps import SettingsDep
from satlab.api.models import LabDetail, LabsPublic, Message
from satlab.scenario import ScenarioError, load
from satlab.service.labs import lab_file, list_labs

router = APIRouter(prefix="/labs", tags=["labs"])


@router.get("", response_model=LabsPublic)
def get_labs(settings: SettingsDep) -> dict[str, Any]:
    labs = list_labs(settings.labs_dir)
    return {"data": labs, "count": len(labs)}


@router.get("/{name}", response_model=LabDetail, responses={404: {"model": Message}})
def get_lab(name: str, settings: SettingsDep) -> dict[str, Any]:
    """The preset as written (`text`) and as validated (`scenario`, with every default)."""
    try:
        path = lab_file(settings.labs_dir, name)
    except ScenarioError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Lab not found") from None
    lab: dict[str, Any] = {"name": name, "text": path.read_text()}
    try:
        scenario = load(path)
    except ScenarioError as error:
        return {**lab, "title": name, "description": "", "error": str(error), "scenario": None}
    return {**lab, "title": scenario.name, "description": scenario.description, "error": None,
            "scenario": scenario.model_dump(mode="json", by_alias=True)}
