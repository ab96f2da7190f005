"""A study recipe (`labs/studies/<id>/`): a published study as a campaign
satlab can run, the figures the study published, and its conclusions as
checks satlab evaluates on its own results.

    study.yaml     citation, summary, base scenario, named axes, experiments,
                   bands, checks
    published.csv  one row per published figure: the configuration (one
                   column per axis, by level name; with experiments, an
                   `experiment` column first and blank cells for the axes
                   the experiment does not vary), the statistic, the source,
                   and the value in the column of its metric (a name of
                   METRICS: download_time_s, download_goodput_mbps, ...: the
                   unit is in the name)
    report.json    the report of a full run, shipped (optional)
    README.md      what was run and what the differences are

Axes name the levels of each parameter (`tunnel: S(5,100)` rather than
`{k: 5, z: 100}`), so that published rows, checks, reports and the UI speak
the study's language; underneath, a study run is an ordinary campaign whose
items set each axis's scenario field to its levels' values.

A study that is several experiments (a bulk download against loss and
buffer; a download beside an upload; ...) names them under `experiments`:
each varies some axes over some of their levels and fixes what else it needs
(`set`, applied after its axes' levels). The study's matrix is the union of
the experiments' matrices, not every axis crossed with every other.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import statistics
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import Field, ValidationError, model_validator

from satlab.scenario import ScenarioError, Seed, Strict
from satlab.service import campaign as campaigns
from satlab.service.campaign import CampaignItem, CampaignSpec

STATISTICS = ("median", "mean", "std")
STUDY_ID = r"^[a-z0-9][a-z0-9-]{0,31}$"
Label = Annotated[str, Field(min_length=1, max_length=40)]
# A selection of levels per axis: {axis: [level, ...]}.
Selection = dict[str, list[str]]
# The pseudo-axis that names a configuration's experiment (studies with experiments only).
EXPERIMENT = "experiment"


@dataclass(frozen=True)
class Metric:
    """What a study compares, taken from a run's result (satlab.engine.summary):
    a field of each flow's summary (of the flows the filters keep,
    aggregated over them) or of the iteration's. A run whose chosen flows do
    not all have the field gives no value."""
    what: str
    field: str
    per: Literal["flow", "iteration"] = "flow"
    direction: Literal["download", "upload"] | None = None  # only flows of this direction
    only_flows: Literal["latecomer", "short_beside_long"] | None = None  # only flows the summary marks so
    aggregate: Literal["mean", "sum", "max"] = "mean"

    def value(self, result: Mapping[str, Any]) -> float | None:
        """The metric of a run (its first iteration), or None."""
        if self.per == "iteration":
            iterations = result.get("iterations") or [{}]
            found = iterations[0].get(self.field)
            return None if found is None else float(found)
        values = [flow.get(self.field) for flow in result.get("flows") or () if flow.get("iteration", 0) == 0
                  and (self.direction is None or flow.get("direction") == self.direction)
                  and (self.only_flows is None or flow.get(self.only_flows))]
        if not values or any(value is None for value in values):
            return None
        numbers = [float(value) for value in values]
        return {"mean": statistics.fmean(numbers), "sum": math.fsum(numbers), "max": max(numbers)}[self.aggregate]


# The metrics a study can compare, by the column name (with its unit) published.csv gives them in; the
# flow fields are satlab.engine.summary's (backend/README.md).
METRICS: dict[str, Metric] = {
    "download_time_s": Metric("transfer time of the flows, connect to last byte, mean over the flows",
                              "download_time_s"),
    "goodput_mbps": Metric("goodput of the flows (bytes delivered over their time), mean over the flows",
                           "goodput_mbps"),
    "download_goodput_mbps": Metric("forward goodput: goodput of the download flows, mean over them (beside "
                                    "an upload, the download's alone)", "goodput_mbps", direction="download"),
    "upload_goodput_mbps": Metric("return goodput: goodput of the upload flows, mean over them",
                                  "goodput_mbps", direction="upload"),
    "jain_index": Metric("Jain's fairness index of the flows' goodputs: 1 when all are equal, 1/n when one "
                         "takes everything", "jain_index", per="iteration"),
    "link_utilisation_ratio": Metric("link utilisation: the download flows' goodput over the forward "
                                     "bottleneck rate, summed over them (1: the link is full)",
                                     "link_utilisation_ratio", direction="download", aggregate="sum"),
    "startup_s": Metric("start-up: seconds until the live goodput first reaches 90 % of the bottleneck rate, "
                        "mean over the flows", "startup_s"),
    "startup_goodput_mbps": Metric("goodput during start-up, mean over the flows", "startup_goodput_mbps"),
    "steady_goodput_mbps": Metric("goodput in steady state (after start-up), mean over the flows",
                                  "steady_goodput_mbps"),
    "startup_mean_rtt_ms": Metric("mean RTT during start-up, mean over the flows", "startup_mean_rtt_ms"),
    "steady_mean_rtt_ms": Metric("mean RTT in steady state, mean over the flows", "steady_mean_rtt_ms"),
    "mean_rtt_ms": Metric("mean RTT of the whole flow, mean over the flows", "mean_rtt_ms"),
    "power_mbps_per_s": Metric("Kleinrock's power: goodput over mean RTT, mean over the flows",
                               "power_mbps_per_s"),
    "latecomer_convergence_s": Metric("latecomer convergence: seconds from a late flow's start until its "
                                      "goodput stays within 20 % of its fair share, the slowest late flow",
                                      "latecomer_convergence_s", only_flows="latecomer", aggregate="max"),
    "latecomer_goodput_mbps": Metric("a late flow's goodput over its whole life (its share while it overlaps "
                                     "the others), mean over the late flows", "goodput_mbps",
                                     only_flows="latecomer"),
    "short_flow_time_s": Metric("completion time of the short flows beside a long one, mean over them",
                                "download_time_s", only_flows="short_beside_long"),
    "retransmissions": Metric("packets the senders retransmitted (QUIC: declared lost), sum over the flows",
                              "retransmissions", aggregate="sum"),
    "ack_frames_sent": Metric("ACK frames the download's receiver sent (counted in its qlog), mean over the "
                              "download flows", "ack_frames_sent", direction="download"),
}


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
    configurations' medians of a metric: numerator / denominator >= at_least
    and/or <= at_most; without a denominator, on the numerator's median
    itself (in the metric's unit). for_each repeats the check over levels of
    some axes (each selector that does not name such an axis takes the
    level); every repetition must hold."""
    id: str = Field(pattern=r"^[a-z0-9-]{1,64}$")
    statement: str = Field(min_length=1)
    metric: str = "download_time_s"
    numerator: dict[str, str]
    denominator: dict[str, str] | None = None
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

    def comparisons(self, defaults: Mapping[str, str]) -> Iterator[tuple[dict[str, str], dict[str, str] | None]]:
        """Each (numerator, denominator or None) selection the check compares."""
        axes = list(self.for_each)
        for levels in itertools.product(*self.for_each.values()):
            chosen = dict(zip(axes, levels, strict=True))
            yield ({**defaults, **chosen, **self.numerator},
                   None if self.denominator is None else {**defaults, **chosen, **self.denominator})


class QuickPart(Strict):
    """An experiment's part of the smoke run: some of its levels, and the
    smoke run's own overrides (shorter transfers): a smoke test's, not the study's."""
    only: Selection = Field(default_factory=dict)
    set_: dict[str, Any] = Field(default_factory=dict, alias="set")


class QuickRun(QuickPart):
    """The smoke run (`--quick`): a few configurations that finish fast. With
    experiments, each experiment's `quick` says its part (only and set here
    are for a study without experiments)."""
    iterations: int = Field(default=1, ge=1, le=100)


class Experiment(Strict):
    """One experiment of a study: the axes it varies, each over the levels
    it lists ("all": every level), and what it fixes (`set`: dotted path ->
    value, applied after its axes' levels, so that it can fill in a flow an
    axis set). Axes it does not name keep the base scenario's values. None
    as `quick` leaves the experiment out of the smoke run."""
    title: str = Field(min_length=1)
    axes: dict[str, list[Label] | Literal["all"]] = Field(min_length=1)
    set_: dict[str, Any] = Field(default_factory=dict, alias="set")
    quick: QuickPart | None = None


class StudySpec(Strict):
    title: str = Field(min_length=1)
    citation: str = Field(min_length=1)
    url: str | None = None
    summary: str = Field(min_length=1)  # what the study found, in a paragraph
    scenario: str  # the base scenario: a lab file, relative to this file or to labs/
    set_: dict[str, Any] = Field(default_factory=dict, alias="set")
    axes: dict[Label, Axis] = Field(min_length=1)
    experiments: dict[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")], Experiment] = Field(
        default_factory=dict)
    metrics: list[str] = Field(default_factory=list)  # reported per configuration; default: those published or checked
    iterations: int = Field(default=10, ge=1, le=1000)  # of a full run
    parallel: int = Field(default=4, ge=1, le=8)
    seed: Seed = 1
    quick: QuickRun = QuickRun()
    check_defaults: dict[str, str] = Field(default_factory=dict)  # levels a check's selectors take unless they say
    bands: list[Band] = Field(min_length=1)
    checks: list[Check] = Field(default_factory=list)


@dataclass(frozen=True)
class PublishedFigure:
    configuration: dict[str, str]  # column (experiment, axis) -> level; "" for an axis its experiment does not vary
    metric: str
    statistic: str
    value: float
    source: str


@dataclass(frozen=True)
class Part:
    """An experiment as a study runs it: its name ("" for a study without
    experiments), its axes' levels, what it fixes and its part of --quick."""
    name: str
    levels: Selection
    set_: dict[str, Any]
    quick: QuickPart | None


@dataclass(frozen=True)
class Study:
    id: str
    directory: Path
    spec: StudySpec
    published: list[PublishedFigure]

    @property
    def columns(self) -> list[str]:
        """What names a configuration: the experiment (if the study has any), then the axes."""
        return [EXPERIMENT, *self.spec.axes] if self.spec.experiments else list(self.spec.axes)

    @property
    def levels(self) -> Selection:
        """Every column's levels, in order (the experiments' names first)."""
        axes = {name: list(axis.levels) for name, axis in self.spec.axes.items()}
        return {EXPERIMENT: list(self.spec.experiments), **axes} if self.spec.experiments else axes

    @property
    def parts(self) -> list[Part]:
        spec = self.spec
        if not spec.experiments:
            return [Part("", {name: list(axis.levels) for name, axis in spec.axes.items()}, {},
                         QuickPart(only=spec.quick.only, set=spec.quick.set_))]
        return [Part(name, {axis: list(spec.axes[axis].levels) if levels == "all" else list(levels)
                            for axis, levels in experiment.axes.items() if axis in spec.axes},
                     experiment.set_, experiment.quick)
                for name, experiment in spec.experiments.items()]

    @property
    def metrics(self) -> list[str]:
        """The metrics a report gives per configuration, in METRICS' order."""
        named = set(self.spec.metrics) | {figure.metric for figure in self.published} | {
            check.metric for check in self.spec.checks}
        return [name for name in METRICS if name in named]

    def configuration(self, part: Part, levels: Mapping[str, str]) -> dict[str, str]:
        """A part's levels as a configuration: every column, "" for the axes it does not vary."""
        found = {axis: levels.get(axis, "") for axis in self.spec.axes}
        return {EXPERIMENT: part.name, **found} if self.spec.experiments else found

    def configuration_of(self, parameters: Mapping[str, Any]) -> dict[str, str]:
        """A campaign item's parameters (field -> value) as levels (column -> level):
        the experiment is the one whose axes set exactly the fields given."""
        given = {name for name, axis in self.spec.axes.items() if axis.field in parameters}
        for part in self.parts:
            if set(part.levels) != given:
                continue
            levels = {}
            for name in part.levels:
                axis = self.spec.axes[name]
                level = next((label for label, candidate in axis.levels.items()
                              if _same(candidate, parameters[axis.field])), None)
                if level is None or level not in part.levels[name]:
                    break
                levels[name] = level
            else:
                return self.configuration(part, levels)
        raise KeyError(f"{_parameters(parameters)} is no configuration of study {self.id}")

    def band_for(self, configuration: Mapping[str, str]) -> Band:
        return next(band for band in self.spec.bands
                    if all(configuration.get(axis) in levels for axis, levels in band.where.items()))

    def check_configurations(self, check: Check) -> Iterator[tuple[dict[str, str], dict[str, str] | None]]:
        """Each (numerator, denominator or None) configuration a check compares,
        complete: what a selector leaves out is the level of an axis its
        experiment runs at one level, else check_defaults' (with experiments,
        for the axes the selector's experiment varies)."""
        for numerator, denominator in check.comparisons({}):
            yield self._complete(numerator), None if denominator is None else self._complete(denominator)

    def _complete(self, selector: Mapping[str, str]) -> dict[str, str]:
        defaults = self.spec.check_defaults
        name = selector.get(EXPERIMENT, defaults.get(EXPERIMENT, ""))
        part = next((part for part in self.parts if part.name == name), None)
        # An axis the experiment runs at one level takes it; check_defaults those of the axes it varies.
        single = {} if part is None else {axis: levels[0] for axis, levels in part.levels.items() if len(levels) == 1}
        chosen = {**single, **{axis: level for axis, level in defaults.items()
                               if part is None or axis == EXPERIMENT or axis in part.levels}, **selector}
        if part is None:
            return chosen
        # Unknown axes stay, for the recipe's validation to name them.
        return {**self.configuration(part, chosen), **{k: v for k, v in chosen.items() if k not in self.levels}}

    def campaign(self, only: Selection | None = None, iterations: int | None = None, parallel: int | None = None,
                 quick: bool = False) -> tuple[CampaignSpec, list[CampaignItem]]:
        """The campaign of a study run: every experiment's configurations
        (restricted to `only`: column -> levels), iteration-major. quick: the
        recipe's smoke run (narrowed further by `only`)."""
        selected = self.select(only or {})
        name = f"{self.id}-quick" if quick else self.id
        base = {"description": self.spec.title, "scenario": self.spec.scenario,
                "iterations": iterations or (self.spec.quick.iterations if quick else self.spec.iterations),
                "parallel": parallel or self.spec.parallel, "seed": self.spec.seed}
        labs_dir = self.directory.parent.parent
        configurations: list[list[CampaignItem]] = []  # per configuration, its items (one per iteration)
        matrix: dict[str, list[Any]] = {}
        problems = []
        for part in self.parts:
            if part.name not in selected.get(EXPERIMENT, [part.name]) or (quick and part.quick is None):
                continue
            quick_only = part.quick.only if quick and part.quick else {}
            narrowed = {axis: [level for level in levels
                               if level in selected[axis] and level in quick_only.get(axis, levels)]
                        for axis, levels in part.levels.items()}
            overrides = {**part.set_, **(part.quick.set_ if quick and part.quick else {})}
            for combination in itertools.product(*narrowed.values()):
                parameters = {self.spec.axes[axis].field: self.spec.axes[axis].levels[level]
                              for axis, level in zip(narrowed, combination, strict=True)}
                parameters.update(overrides)
                for path, value in parameters.items():
                    if not any(_same(value, seen) for seen in matrix.setdefault(path, [])):
                        matrix[path].append(value)
                try:
                    spec = campaigns.parse_spec({**base, "name": name, "set": self.spec.set_,
                                                 "matrix": {path: [value] for path, value in parameters.items()}})
                    configurations.append(campaigns.expand(spec, self.directory, labs_dir))
                except ScenarioError as error:
                    where = f"experiments.{part.name}: " if part.name else ""
                    problems += [f"{where}{problem}" for problem in error.problems]
        if problems:
            raise ScenarioError(sorted(set(problems)))
        if not configurations:
            raise ScenarioError(["only: the selection leaves no configuration of study "
                                 f"{self.id} to run{' in its quick run' if quick else ''}"])
        runs = sum(len(items) for items in configurations)
        if runs > campaigns.MAX_RUNS:
            raise ScenarioError([f"iterations: at most {campaigns.MAX_RUNS} runs (configurations x iterations), "
                                 f"got {len(configurations)} x {base['iterations']} = {runs}"])
        # The stored spec (each configuration's was validated above): its matrix lists every path and value the
        # items set, the columns of the campaign's export; with experiments, its product is no configuration count.
        spec = CampaignSpec.model_construct(name=name, description=self.spec.title, scenario=self.spec.scenario,
                                            set_=self.spec.set_, matrix=matrix, iterations=base["iterations"],
                                            parallel=base["parallel"], seed=self.spec.seed)
        ordered = sorted(((item.iteration, configuration, item) for configuration, items in enumerate(configurations)
                          for item in items), key=lambda entry: entry[:2])
        return spec, [replace(item, item_index=index, configuration=configuration, scenario=item.scenario.model_copy(
                          update={"name": f"{name}-c{configuration}-i{iteration}"}))
                      for index, (iteration, configuration, item) in enumerate(ordered)]

    def select(self, only: Mapping[str, list[str]]) -> Selection:
        """Every column's levels, restricted to `only` (column -> levels);
        ScenarioError naming an unknown axis or level."""
        levels = self.levels
        problems = []
        for name, chosen in only.items():
            if name not in levels:
                problems.append(f"only: {name!r} is not an axis of study {self.id}; axes: {', '.join(levels)}")
                continue
            for level in chosen:
                if level not in levels[name]:
                    problems.append(f"only.{name}: {level!r} is not a level; levels: {', '.join(levels[name])}")
        if problems:
            raise ScenarioError(problems)
        return {name: [level for level in all_levels if name not in only or level in only[name]]
                for name, all_levels in levels.items()}


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _parameters(parameters: Mapping[str, Any]) -> str:
    return ", ".join(f"{path}={campaigns.format_value(value)}" for path, value in parameters.items())


def _level_problems(levels: Selection, configuration: Mapping[str, str], where: str) -> list[str]:
    """Unknown columns and levels of a (partial) configuration."""
    problems = [f"{where}: {axis!r} is not an axis; axes: {', '.join(levels)}"
                for axis in configuration if axis not in levels]
    return problems + [f"{where}.{axis}: {level!r} is not a level; levels: {', '.join(levels[axis])}"
                       for axis, level in configuration.items() if axis in levels and level not in levels[axis]]


def _configuration_problems(study: Study, configuration: Mapping[str, str], where: str) -> list[str]:
    """What keeps a configuration from naming one configuration of the study:
    unknown levels, a level of each axis its experiment varies (one it runs),
    none of the others."""
    levels = study.levels
    problems = _level_problems(levels, {column: level for column, level in configuration.items() if level}, where)
    if study.spec.experiments and not configuration.get(EXPERIMENT):
        return problems + [f"{where}: names no experiment"]
    part = next((part for part in study.parts if part.name == configuration.get(EXPERIMENT, "")), None)
    if problems or part is None:
        return problems
    for axis in study.spec.axes:
        level = configuration.get(axis) or ""
        if axis in part.levels and not level:
            problems.append(f"{where}: names no level of axis {axis!r}")
        elif axis in part.levels and level not in part.levels[axis]:
            problems.append(f"{where}.{axis}: experiment {part.name} does not run level {level!r}; it runs "
                            f"{', '.join(part.levels[axis])}")
        elif axis not in part.levels and level:
            problems.append(f"{where}.{axis}: experiment {part.name} does not vary axis {axis!r}; leave it blank")
    return problems


def _read_published(file: Path, study: Study) -> list[PublishedFigure]:
    if not file.exists():
        return []
    figures, problems = [], []
    with file.open(newline="") as rows:
        reader = csv.DictReader(rows)
        for number, row in enumerate(reader, start=2):
            where = f"{file.name} line {number}"
            configuration = {column: row.get(column) or "" for column in study.columns}
            problems += _configuration_problems(study, configuration, where)
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
                problems += _level_problems({axis: list(spec.axes[axis].levels)}, {axis: level}, f"{where}.axes")
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


def load_study(directory: Path) -> Study:
    """A study recipe, validated: its experiments, bands, checks and
    published rows name real levels (the campaign's scenarios are validated
    by campaign())."""
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
                problems += _level_problems(levels, {axis: level}, f"bands.{index}.where")
    if spec.bands[-1].where:
        problems.append(f"bands.{len(spec.bands) - 1}: the last band must match every configuration (no where)")
    problems += _level_problems(levels, spec.check_defaults, "check_defaults")
    for check in spec.checks:
        for axis, check_levels in check.for_each.items():
            for level in check_levels:
                problems += _level_problems(levels, {axis: level}, f"checks.{check.id}.for_each")
        for numerator, denominator in study.check_configurations(check):
            problems += _configuration_problems(study, numerator, f"checks.{check.id}.numerator")
            if denominator is not None:
                problems += _configuration_problems(study, denominator, f"checks.{check.id}.denominator")
    if not spec.experiments:
        for axis, quick_levels in spec.quick.only.items():
            for level in quick_levels:
                problems += _level_problems(levels, {axis: level}, "quick.only")
    for name, experiment in spec.experiments.items():
        for axis, quick_levels in (experiment.quick.only if experiment.quick else {}).items():
            for level in quick_levels:
                problems += _level_problems(levels, {axis: level}, f"experiments.{name}.quick.only")
    if problems:
        raise ScenarioError(sorted(set(problems)))
    return replace(study, published=_read_published(directory / "published.csv", study))


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
