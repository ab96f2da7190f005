"""The studies in labs/studies: each directory with a study.yaml is one,
loaded and validated (its recipe, the levels its experiments, bands,
checks and published figures name), listed and found by id."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import yaml
from pydantic import ValidationError

from satlab.scenario import ScenarioError
from satlab.service import campaign as campaigns
from satlab.studies import readme
from satlab.studies.metrics import METRICS
from satlab.studies.published import read_published
from satlab.studies.spec import StudySpec
from satlab.studies.study import Study, level_problems


def _experiment_problems(study: Study) -> list[str]:
    spec = study.spec
    problems = []
    fields = {axis.field: name for name, axis in spec.axes.items()}
    for name, experiment in spec.experiments.items():
        where = f"experiments.{name}"
        for axis, chosen in experiment.axes.items():
            if axis not in spec.axes:
                problems.append(f"{where}.axes: {axis!r} is not an axis; axes: {', '.join(spec.axes)}")
                continue
            for level in [] if chosen == "all" else chosen:
                problems += level_problems({axis: list(spec.axes[axis].levels)}, {axis: level}, f"{where}.axes")
        for path in (*experiment.set_, *(experiment.quick.set_ if experiment.quick else ())):
            if path in fields:
                problems.append(f"{where}.set.{path}: is the field of axis {fields[path]}; choose its levels "
                                "under axes")
        for axis in experiment.quick.only if experiment.quick else ():
            if axis not in experiment.axes:
                problems.append(f"{where}.quick.only: {axis!r} is not an axis experiment {name} varies")
    if spec.experiments and (spec.quick.only or spec.quick.set_):
        problems.append("quick: with experiments, give each experiment's quick (experiments.<name>.quick)")
    # An item's experiment is the one whose axes it sets: two with the same axes must not share a configuration.
    for one, other in itertools.combinations(study.parts, 2):
        if set(one.levels) == set(other.levels) and all(set(one.levels[axis]) & set(other.levels[axis])
                                                        for axis in one.levels):
            problems.append(f"experiments.{other.name}: varies the same axes as {one.name} and shares levels "
                            "of each: a configuration belongs to one experiment")
    return problems


def _explanation_problems(study: Study) -> list[str]:
    """Each explanation names real levels or a real check, and a section of the study's README."""
    problems = []
    checks = {check.id for check in study.spec.checks}
    sections = readme.headings(study.directory / readme.README)
    for index, explanation in enumerate(study.spec.explanations):
        where = f"explanations.{index}"
        for axis, levels in (explanation.where or {}).items():
            for level in levels:
                problems += level_problems(study.levels, {axis: level}, f"{where}.where")
        if explanation.check is not None and explanation.check not in checks:
            problems.append(f"{where}.check: {explanation.check!r} is not a check; checks: {', '.join(checks)}")
        if explanation.section not in sections:
            problems.append(f"{where}.section: {explanation.section!r} is not a heading of {readme.README}")
    return problems


def load_study(directory: Path) -> Study:
    """A study recipe, validated: its experiments, bands, checks and
    published rows name real levels (the campaign's scenarios are validated
    by satlab.studies.matrix.campaign)."""
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
    study = Study(directory.name, directory, spec, [])
    levels = study.levels
    problems = _experiment_problems(study)
    problems += [f"metrics: {metric!r} is not a metric; metrics: {', '.join(METRICS)}"
                 for metric in spec.metrics if metric not in METRICS]
    for index, band in enumerate(spec.bands):
        for axis, band_levels in band.where.items():
            for level in band_levels:
                problems += level_problems(levels, {axis: level}, f"bands.{index}.where")
    if spec.bands[-1].where:
        problems.append(f"bands.{len(spec.bands) - 1}: the last band must match every configuration (no where)")
    problems += level_problems(levels, spec.check_defaults, "check_defaults")
    for check in spec.checks:
        for axis, check_levels in check.for_each.items():
            for level in check_levels:
                problems += level_problems(levels, {axis: level}, f"checks.{check.id}.for_each")
        for numerator, denominator in study.check_configurations(check):
            problems += study.configuration_problems(numerator, f"checks.{check.id}.numerator")
            if denominator is not None:
                problems += study.configuration_problems(denominator, f"checks.{check.id}.denominator")
    problems += _explanation_problems(study)
    if not spec.experiments:
        for axis, quick_levels in spec.quick.only.items():
            for level in quick_levels:
                problems += level_problems(levels, {axis: level}, "quick.only")
    for name, experiment in spec.experiments.items():
        for axis, quick_levels in (experiment.quick.only if experiment.quick else {}).items():
            for level in quick_levels:
                problems += level_problems(levels, {axis: level}, f"experiments.{name}.quick.only")
    if problems:
        raise ScenarioError(sorted(set(problems)))
    return replace(study, published=read_published(directory / "published.csv", study.columns,
                                                   study.configuration_problems))


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
