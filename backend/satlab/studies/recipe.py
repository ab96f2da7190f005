"""A study recipe (`labs/studies/<id>/`): a published study as a campaign
satlab can run, the figures the study published, and its conclusions as
checks satlab evaluates on its own results.

    study.yaml     citation, summary, base scenario, named axes, bands, checks
    published.csv  one row per published figure: the configuration (one
                   column per axis, by level name), the statistic, the
                   source, and the value in the column of its metric
                   (download_time_s, ...: the unit is in the name)
    report.json    the report of a full run, shipped (optional)
    README.md      what was run and what the differences are

Axes name the levels of each parameter (`tunnel: S(5,100)` rather than
`{k: 5, z: 100}`), so that published rows, checks, reports and the UI speak
the study's language; underneath, a study run is an ordinary campaign whose
matrix sets each axis's scenario field to its levels' values.
"""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import Field, ValidationError, model_validator

from satlab import campaign as campaigns
from satlab.campaign import CampaignItem, CampaignSpec
from satlab.scenario import ScenarioError, Seed, Strict

# The metrics a study can compare, by the column name (with its unit) published.csv gives them in.
METRICS = {"download_time_s": "download time of the flow, connect to last byte, in seconds"}
STATISTICS = ("median", "mean", "std")
STUDY_ID = r"^[a-z0-9][a-z0-9-]{0,31}$"
Label = Annotated[str, Field(min_length=1, max_length=40)]
# A selection of levels per axis: {axis: [level, ...]}.
Selection = dict[str, list[str]]


class Axis(Strict):
    """One parameter of the study: the scenario field it sets and its named levels."""
    field: str = Field(min_length=1)
    levels: dict[Label, Any] = Field(min_length=1)


class Band(Strict):
    """How close satlab's figure must be to the published one, for the
    configurations it matches (the first band that matches applies)."""
    where: dict[str, list[str]] = Field(default_factory=dict)
    within_percent: float | None = Field(default=None, gt=0)  # |ratio - 1| <= within_percent / 100
    within_factor: float | None = Field(default=None, gt=1)  # 1 / f <= ratio <= f
    reason: str = Field(min_length=1)

    @model_validator(mode="after")
    def _one_kind(self) -> Band:
        if (self.within_percent is None) == (self.within_factor is None):
            raise ValueError("give exactly one of within_percent or within_factor")
        return self

    def holds(self, ratio: float) -> bool:
        if self.within_percent is not None:
            return abs(ratio - 1) <= self.within_percent / 100
        assert self.within_factor is not None
        return 1 / self.within_factor <= ratio <= self.within_factor

    def describe(self) -> str:
        return (f"±{self.within_percent:g} %" if self.within_percent is not None
                else f"within ×{self.within_factor:g} either way")


class Check(Strict):
    """One of the study's conclusions, as a bound on the ratio of two
    configurations' medians: numerator / denominator >= at_least and/or <=
    at_most. for_each repeats the check over levels of some axes (each
    selector that does not name such an axis takes the level); every
    repetition must hold."""
    id: str = Field(pattern=r"^[a-z0-9-]{1,64}$")
    statement: str = Field(min_length=1)
    metric: str = "download_time_s"
    numerator: dict[str, str]
    denominator: dict[str, str]
    for_each: dict[str, list[str]] = Field(default_factory=dict)
    at_least: float | None = None
    at_most: float | None = None

    @model_validator(mode="after")
    def _bounded(self) -> Check:
        if self.at_least is None and self.at_most is None:
            raise ValueError("give at_least, at_most or both")
        if self.metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)}")
        return self

    def comparisons(self, defaults: Mapping[str, str]) -> Iterator[tuple[dict[str, str], dict[str, str]]]:
        """Each (numerator, denominator) configuration the check compares."""
        axes = list(self.for_each)
        for levels in itertools.product(*self.for_each.values()):
            chosen = dict(zip(axes, levels, strict=True))
            yield ({**defaults, **chosen, **self.numerator}, {**defaults, **chosen, **self.denominator})


class QuickRun(Strict):
    """The smoke run (`--quick`): a few configurations that finish fast."""
    only: Selection
    iterations: int = Field(default=1, ge=1, le=100)


class StudySpec(Strict):
    title: str = Field(min_length=1)
    citation: str = Field(min_length=1)
    url: str | None = None
    summary: str = Field(min_length=1)  # what the study found, in a paragraph
    scenario: str  # the base scenario: a lab file, relative to this file or to labs/
    set_: dict[str, Any] = Field(default_factory=dict, alias="set")
    axes: dict[Label, Axis] = Field(min_length=1)
    iterations: int = Field(default=10, ge=1, le=1000)  # of a full run
    parallel: int = Field(default=4, ge=1, le=8)
    seed: Seed = 1
    quick: QuickRun
    check_defaults: dict[str, str] = Field(default_factory=dict)  # levels a check's selectors take unless they say
    bands: list[Band] = Field(min_length=1)
    checks: list[Check] = Field(default_factory=list)


@dataclass(frozen=True)
class PublishedFigure:
    configuration: dict[str, str]  # axis -> level
    metric: str
    statistic: str
    value: float
    source: str


@dataclass(frozen=True)
class Study:
    id: str
    directory: Path
    spec: StudySpec
    published: list[PublishedFigure]

    def configuration_of(self, parameters: Mapping[str, Any]) -> dict[str, str]:
        """A campaign item's parameters (field -> value) as levels (axis -> level)."""
        configuration = {}
        for name, axis in self.spec.axes.items():
            value = parameters.get(axis.field)
            level = next((label for label, candidate in axis.levels.items() if _same(candidate, value)), None)
            if level is None:
                raise KeyError(f"{axis.field}={value!r} is no level of axis {name}")
            configuration[name] = level
        return configuration

    def band_for(self, configuration: Mapping[str, str]) -> Band:
        return next(band for band in self.spec.bands
                    if all(configuration.get(axis) in levels for axis, levels in band.where.items()))

    def campaign(self, only: Selection | None = None, iterations: int | None = None, parallel: int | None = None,
                 quick: bool = False) -> tuple[CampaignSpec, list[CampaignItem]]:
        """The campaign of a study run: the axes' levels (restricted to `only`)
        as its matrix. quick: the recipe's smoke run."""
        if quick:
            only, iterations = {**self.spec.quick.only, **(only or {})}, iterations or self.spec.quick.iterations
        selection = self.select(only or {})
        matrix = {axis.field: [axis.levels[level] for level in selection[name]]
                  for name, axis in self.spec.axes.items()}
        spec = campaigns.parse_spec({
            "name": f"{self.id}-quick" if quick else self.id,
            "description": self.spec.title, "scenario": self.spec.scenario, "set": self.spec.set_,
            "matrix": matrix, "iterations": iterations or self.spec.iterations,
            "parallel": parallel or self.spec.parallel, "seed": self.spec.seed})
        labs_dir = self.directory.parent.parent
        return spec, campaigns.expand(spec, self.directory, labs_dir)

    def select(self, only: Mapping[str, list[str]]) -> Selection:
        """Every axis's levels, restricted to `only` (axis -> levels);
        ScenarioError naming an unknown axis or level."""
        problems = []
        for name, levels in only.items():
            if name not in self.spec.axes:
                problems.append(f"only: {name!r} is not an axis of study {self.id}; axes: "
                                f"{', '.join(self.spec.axes)}")
                continue
            for level in levels:
                if level not in self.spec.axes[name].levels:
                    problems.append(f"only.{name}: {level!r} is not a level; levels: "
                                    f"{', '.join(self.spec.axes[name].levels)}")
        if problems:
            raise ScenarioError(problems)
        return {name: [level for level in axis.levels if name not in only or level in only[name]]
                for name, axis in self.spec.axes.items()}


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _configuration_problems(study_axes: Mapping[str, Axis], configuration: Mapping[str, str], where: str,
                            complete: bool) -> list[str]:
    problems = [f"{where}: {axis!r} is not an axis; axes: {', '.join(study_axes)}"
                for axis in configuration if axis not in study_axes]
    problems += [f"{where}.{axis}: {level!r} is not a level; levels: {', '.join(study_axes[axis].levels)}"
                 for axis, level in configuration.items()
                 if axis in study_axes and level not in study_axes[axis].levels]
    if complete:
        problems += [f"{where}: names no level of axis {axis!r}" for axis in study_axes if axis not in configuration]
    return problems


def _read_published(file: Path, spec: StudySpec) -> list[PublishedFigure]:
    if not file.exists():
        return []
    figures, problems = [], []
    with file.open(newline="") as rows:
        reader = csv.DictReader(rows)
        for number, row in enumerate(reader, start=2):
            where = f"{file.name} line {number}"
            configuration = {axis: row.get(axis) or "" for axis in spec.axes}
            problems += _configuration_problems(spec.axes, configuration, where, complete=True)
            values = {metric: row[metric] for metric in METRICS if row.get(metric)}
            if len(values) != 1:
                problems.append(f"{where}: give a value in exactly one metric column ({', '.join(METRICS)})")
                continue
            if row.get("statistic") not in STATISTICS:
                problems.append(f"{where}: statistic must be one of {', '.join(STATISTICS)}")
                continue
            (metric, value), = values.items()
            try:
                figures.append(PublishedFigure(configuration, metric, row["statistic"], float(value),
                                               row.get("source") or ""))
            except ValueError:
                problems.append(f"{where}: {metric} {value!r} is not a number")
    if problems:
        raise ScenarioError(problems)
    return figures


def load_study(directory: Path) -> Study:
    """A study recipe, validated: its axes, bands, checks and published rows
    name real levels (the campaign's scenarios are validated by campaign())."""
    file = directory / "study.yaml"
    try:
        data = yaml.safe_load(file.read_text())
    except OSError as error:
        raise ScenarioError([f"{file}: cannot read the study ({error.strerror})"]) from None
    except yaml.YAMLError as error:
        raise ScenarioError([f"{file}: not valid YAML ({error})"]) from None
    try:
        spec = StudySpec.model_validate(data)
    except ValidationError as error:
        raise ScenarioError([f"{file.name}: {campaigns._describe(e)}" for e in error.errors()]) from None
    problems = []
    for index, band in enumerate(spec.bands):
        for axis, levels in band.where.items():
            for level in levels:
                problems += _configuration_problems(spec.axes, {axis: level}, f"bands.{index}.where", False)
    if spec.bands[-1].where:
        problems.append(f"bands.{len(spec.bands) - 1}: the last band must match every configuration (no where)")
    problems += _configuration_problems(spec.axes, spec.check_defaults, "check_defaults", False)
    for check in spec.checks:
        for axis, levels in check.for_each.items():
            for level in levels:
                problems += _configuration_problems(spec.axes, {axis: level}, f"checks.{check.id}.for_each", False)
        for numerator, denominator in check.comparisons(spec.check_defaults):
            problems += _configuration_problems(spec.axes, numerator, f"checks.{check.id}.numerator", True)
            problems += _configuration_problems(spec.axes, denominator, f"checks.{check.id}.denominator", True)
    for axis, levels in spec.quick.only.items():
        for level in levels:
            problems += _configuration_problems(spec.axes, {axis: level}, "quick.only", False)
    if problems:
        raise ScenarioError(sorted(set(problems)))
    return Study(directory.name, directory, spec, _read_published(directory / "published.csv", spec))


def studies_dir(labs_dir: Path) -> Path:
    return labs_dir / "studies"


def list_studies(labs_dir: Path) -> list[Study]:
    root = studies_dir(labs_dir)
    return [load_study(directory) for directory in sorted(root.iterdir())
            if (directory / "study.yaml").is_file()] if root.is_dir() else []


def find_study(labs_dir: Path, study_id: str) -> Study:
    """The study of that id; KeyError naming the ones there are."""
    directory = studies_dir(labs_dir) / study_id
    if not (directory / "study.yaml").is_file() or "/" in study_id or study_id.startswith("."):
        known = ", ".join(study.id for study in list_studies(labs_dir)) or "none"
        raise KeyError(f"there is no study {study_id!r} (studies: {known})")
    return load_study(directory)
