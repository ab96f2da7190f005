"""A study run's configurations and its campaign. Each experiment crosses
its axes over the levels it runs (not every axis with every other: the
study's matrix is the union of its experiments'); a selection (`only`:
column -> levels) narrows them, and the smoke run (`quick`) takes each
experiment's quick part. Underneath, a study run is an ordinary campaign
whose items set each axis's scenario field to its levels' values."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any

from satlab.scenario import ScenarioError
from satlab.service import campaign as campaigns
from satlab.service.campaign import CampaignItem, CampaignSpec
from satlab.studies.spec import EXPERIMENT, Selection
from satlab.studies.study import Part, Study, same_value


@dataclass(frozen=True)
class StudyConfiguration:
    """One configuration of a study run."""
    experiment: str  # its experiment's name; "" in a study without experiments
    levels: dict[str, str]  # what names it, as reports and published.csv do: column -> level, "" where not varied
    overrides: dict[str, Any]  # what it sets in the base scenario: dotted path -> value
    iterations: int  # its runs in the study run (its experiment's iterations, or the quick run's)

    def to_dict(self) -> dict[str, Any]:
        return {"experiment": self.experiment, "levels": self.levels, "overrides": self.overrides,
                "iterations": self.iterations}


def configurations(study: Study, only: Selection | None = None, quick: bool = False) -> list[StudyConfiguration]:
    """Every configuration a study run makes, in the order its campaign
    numbers them: experiment by experiment, each one's axes crossed over the
    levels it runs, restricted to `only` (column -> levels); quick: the
    recipe's smoke run (narrowed further by `only`); each with its
    experiment's iterations (the smoke run's with quick). ScenarioError
    naming an unknown column or level of `only`. The scenarios are not
    validated here (campaign() does)."""
    selected = study.select(only or {})
    found = []
    for part in study.parts:
        if part.name not in selected.get(EXPERIMENT, [part.name]) or (quick and part.quick is None):
            continue
        levels = _levels_run(part, selected, quick)
        fixed = {**part.set_, **(part.quick.set_ if quick and part.quick else {})}
        for combination in itertools.product(*levels.values()):
            chosen = dict(zip(levels, combination, strict=True))
            overrides = {study.spec.axes[axis].field: study.spec.axes[axis].levels[level]
                         for axis, level in chosen.items()}
            overrides.update(fixed)  # after the axes' levels: it may fill in a flow an axis set
            found.append(StudyConfiguration(part.name, study.configuration(part, chosen), overrides,
                                            study.spec.quick.iterations if quick else part.iterations))
    return found


def _levels_run(part: Part, selected: Selection, quick: bool) -> Selection:
    """The levels of each axis an experiment varies that a run takes: those
    selected, and of a quick run, those of the experiment's quick part."""
    quick_only = part.quick.only if quick and part.quick else {}
    return {axis: [level for level in levels if level in selected[axis] and level in quick_only.get(axis, levels)]
            for axis, levels in part.levels.items()}


def campaign(study: Study, only: Selection | None = None, iterations: int | None = None,
             parallel: int | None = None, quick: bool = False) -> tuple[CampaignSpec, list[CampaignItem]]:
    """The campaign of a study run: every configuration (configurations()),
    each validated as a scenario, iteration-major, each configuration run
    its own number of iterations (its experiment's), or `iterations` each.
    ScenarioError naming each configuration that is no valid scenario, a
    selection that leaves none, or more runs than a campaign takes."""
    chosen = configurations(study, only, quick)
    if iterations is not None:
        chosen = [replace(configuration, iterations=iterations) for configuration in chosen]
    name = f"{study.id}-quick" if quick else study.id
    parallel = parallel or study.spec.parallel
    if not chosen:
        raise ScenarioError(["only: the selection leaves no configuration of study "
                             f"{study.id} to run{' in its quick run' if quick else ''}"])
    runs = sum(configuration.iterations for configuration in chosen)
    if runs > campaigns.MAX_RUNS:
        counts = " + ".join(f"{len(group)} x {count}" for count, group in _by_iterations(chosen).items())
        raise ScenarioError([f"iterations: at most {campaigns.MAX_RUNS} runs (configurations x iterations), "
                             f"got {counts} = {runs}"])
    runs_of_each = _runs_of_each(study, chosen, name, parallel)
    # Each configuration was validated above. The stored spec's matrix lists every path and value the items
    # set, the columns of the campaign's export; with experiments, its product is no configuration count.
    # Its iterations are the most any configuration runs.
    most = max(configuration.iterations for configuration in chosen)
    spec = CampaignSpec.model_construct(name=name, description=study.spec.title, scenario=study.spec.scenario,
                                        set_=study.spec.set_, matrix=_matrix(chosen), iterations=most,
                                        parallel=parallel, seed=study.spec.seed)
    return spec, _iteration_major(runs_of_each, name)


def _by_iterations(chosen: list[StudyConfiguration]) -> dict[int, list[StudyConfiguration]]:
    groups: dict[int, list[StudyConfiguration]] = {}
    for configuration in chosen:
        groups.setdefault(configuration.iterations, []).append(configuration)
    return groups


def _runs_of_each(study: Study, chosen: list[StudyConfiguration], name: str,
                  parallel: int) -> list[list[CampaignItem]]:
    """Each configuration's runs (one per iteration), expanded and validated
    as a campaign of its own; ScenarioError naming every configuration that
    is no valid scenario, by experiment."""
    base = {"name": name, "description": study.spec.title, "scenario": study.spec.scenario,
            "set": study.spec.set_, "parallel": parallel, "seed": study.spec.seed}
    labs_dir = study.directory.parent.parent
    runs_of_each, problems = [], []
    for configuration in chosen:
        try:
            spec = campaigns.parse_spec({**base, "iterations": configuration.iterations,
                                         "matrix": {path: [value] for path, value in configuration.overrides.items()}})
            runs_of_each.append(campaigns.expand(spec, study.directory, labs_dir))
        except ScenarioError as error:
            where = f"experiments.{configuration.experiment}: " if configuration.experiment else ""
            problems += [f"{where}{problem}" for problem in error.problems]
    if problems:
        raise ScenarioError(sorted(set(problems)))
    return runs_of_each


def _matrix(chosen: list[StudyConfiguration]) -> dict[str, list[Any]]:
    """Every path the configurations set, with each value it takes, in order."""
    matrix: dict[str, list[Any]] = {}
    for configuration in chosen:
        for path, value in configuration.overrides.items():
            values = matrix.setdefault(path, [])
            if not any(same_value(value, seen) for seen in values):
                values.append(value)
    return matrix


def _iteration_major(runs_of_each: list[list[CampaignItem]], name: str) -> list[CampaignItem]:
    """Every run, iteration by iteration (each in configuration order, those
    with fewer iterations dropping out once theirs are done), numbered and
    named in that order (see satlab.service.campaign)."""
    items: list[CampaignItem] = []
    for iteration in range(max(len(runs) for runs in runs_of_each)):
        for configuration, runs in enumerate(runs_of_each):
            if iteration >= len(runs):
                continue
            run = runs[iteration]
            items.append(replace(run, item_index=len(items), configuration=configuration,
                                 scenario=run.scenario.model_copy(
                                     update={"name": f"{name}-c{configuration}-i{iteration}"})))
    return items
