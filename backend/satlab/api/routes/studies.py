"""Studies: published studies as campaigns satlab runs, and their reports."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Response, status
from pydantic import BaseModel, ConfigDict, Field

from satlab.api.deps import InstructorDep, ManagerDep, SettingsDep, StoreDep
from satlab.api.models.campaigns import CampaignDetail, CampaignPublic
from satlab.api.models.common import Refused
from satlab.api.models.studies import StudiesPublic, StudyDetail, StudyPublic, StudyReport, StudyRunsPublic
from satlab.api.responses import CSV_RESPONSES, csv_attachment, found
from satlab.settings import Settings
from satlab.studies import Prefer, Study, campaign, configurations, find_study, list_studies, make_report, report_csv

router = APIRouter(prefix="/studies", tags=["studies"])


class StudyRunCreate(BaseModel):
    """A study run: the whole matrix, or the levels in `only`; `quick`: the recipe's smoke run."""
    model_config = ConfigDict(extra="forbid")
    quick: bool = Field(default=False, description="The configurations that finish fast, few iterations: "
                                                   "a smoke test, not a result.")
    only: dict[str, list[str]] = Field(default={}, description="Axis -> the levels to run (default: all).")
    iterations: int | None = Field(default=None, ge=1, le=1000, description="Default: the study's.")
    parallel: int | None = Field(default=None, ge=1, le=8, description="Runs at once (default: the study's).")


def _study_or_404(settings: Settings, study_id: str) -> Study:
    try:
        return find_study(settings.labs_dir, study_id)
    except KeyError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Study not found") from None


def _shipped_report(study: Study) -> dict[str, Any] | None:
    file = study.directory / "report.json"
    return json.loads(file.read_text()) if file.is_file() else None


def _describe(study: Study) -> dict[str, Any]:
    spec = study.spec
    return {"id": study.id, "title": spec.title, "citation": " ".join(spec.citation.split()), "url": spec.url,
            "summary": " ".join(spec.summary.split()),
            "axes": {name: list(axis.levels) for name, axis in spec.axes.items()},
            # Each experiment: the axes it varies, their levels, and its part of the quick run (null: none).
            "experiments": {part.name: {"title": spec.experiments[part.name].title, "axes": part.levels,
                                        "quick": None if part.quick is None else part.quick.only}
                            for part in study.parts if part.name},
            "metrics": study.metrics,  # what each is: a report's `metrics`
            "iterations": spec.iterations, "parallel": spec.parallel,
            "quick": spec.quick.model_dump(include={"only", "iterations"}),
            "checks": [{"id": check.id, "statement": " ".join(check.statement.split())} for check in spec.checks],
            "published": [{"configuration": figure.configuration, "metric": figure.metric,
                           "statistic": figure.statistic, "value": figure.value, "source": figure.source}
                          for figure in study.published],
            "has_shipped_report": (study.directory / "report.json").is_file(),
            "configurations": [entry.to_dict() for entry in configurations(study)],
            "quick_configurations": [entry.to_dict() for entry in configurations(study, quick=True)]}


@router.get("")
def list_all(settings: SettingsDep) -> StudiesPublic:
    """Every study recipe in labs/studies, with its published figures."""
    studies = [StudyPublic.model_validate(_describe(study)) for study in list_studies(settings.labs_dir)]
    return StudiesPublic(data=studies, count=len(studies))


# A shipped report of an older format lacks some fields: they stay absent, not null.
@router.get("/{study_id}", response_model_exclude_unset=True, responses={404: {"model": Refused}})
def get_study(study_id: str, settings: SettingsDep) -> StudyDetail:
    """The recipe, its published figures, and the report shipped with it (`shipped_report`, or null)."""
    study = _study_or_404(settings, study_id)
    return StudyDetail.model_validate({**_describe(study), "shipped_report": _shipped_report(study)})


@router.post("/{study_id}/runs", status_code=status.HTTP_201_CREATED,
             responses={404: {"model": Refused}, 422: {"description": "An unknown axis or level; each problem "
                                                                      "names its field."}})
def start_study_run(study_id: str, body: StudyRunCreate, manager: ManagerDep, settings: SettingsDep,
                    principal: InstructorDep) -> CampaignDetail:
    """A study run is a campaign (GET /api/campaigns/{id} follows it); the instructor's to start."""
    study = _study_or_404(settings, study_id)
    spec, items = campaign(study, body.only, body.iterations, body.parallel, body.quick)
    campaign_id = manager.start_campaign(spec, items, principal.caller, study=study.id, study_quick=body.quick)
    return CampaignDetail.model_validate(found(manager.store.get_campaign(campaign_id), "Campaign"))


@router.get("/{study_id}/runs", responses={404: {"model": Refused}})
def list_study_runs(study_id: str, store: StoreDep, settings: SettingsDep) -> StudyRunsPublic:
    """The campaigns that ran this study, oldest first."""
    study = _study_or_404(settings, study_id)
    campaigns = [CampaignPublic.model_validate(campaign) for campaign in store.study_campaigns(study.id)]
    return StudyRunsPublic(data=campaigns, count=len(campaigns))


Campaigns = Annotated[list[str] | None, Query(
    alias="campaign", description="Only these study runs (default: every full run, else the quick ones).")]


PreferQuery = Annotated[Prefer, Query(description="all: every study run's runs pooled; latest: each "
                                                  "configuration's from the latest study run that measured it.")]


def _report(study_id: str, store: StoreDep, settings: SettingsDep, campaign: Campaigns,
            prefer: Prefer = "all") -> dict[str, Any]:
    study = _study_or_404(settings, study_id)
    try:
        return make_report(study, store, campaign, prefer)
    except KeyError as error:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"{str(error.args[0]).capitalize()}.") from None


@router.get("/{study_id}/report", responses={404: {"model": Refused}})
def get_report(study_id: str, store: StoreDep, settings: SettingsDep, campaign: Campaigns = None,
               prefer: PreferQuery = "all") -> StudyReport:
    """satlab's medians (IQR, n) beside the published figures, bands, and the conclusion checks; the
    configurations whose runs' host could not keep up flagged."""
    return StudyReport.model_validate(_report(study_id, store, settings, campaign, prefer))


@router.get("/{study_id}/report.csv", response_class=Response, responses=CSV_RESPONSES)
def export_report(study_id: str, store: StoreDep, settings: SettingsDep, campaign: Campaigns = None,
                  prefer: PreferQuery = "all") -> Response:
    report = _report(study_id, store, settings, campaign, prefer)
    return csv_attachment(lambda out: report_csv(report, out), f"satlab-study-{study_id}.csv")
