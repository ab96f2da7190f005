"""A study as satlab loaded it (satlab.studies.catalog): its recipe
(satlab.studies.spec) and published figures, and what names its
configurations: the columns (the experiment, if it has any, then the axes),
each experiment's levels, and a campaign item's parameters as levels."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from satlab.scenario import ScenarioError
from satlab.service import campaign as campaigns
from satlab.studies.metrics import METRICS
from satlab.studies.published import PublishedFigure
from satlab.studies.spec import EXPERIMENT, Band, Check, Explanation, QuickPart, Selection, StudySpec


@dataclass(frozen=True)
class Part:
    """An experiment as a study runs it: its name ("" for a study without
    experiments), its axes' levels, what it fixes, its iterations in a full
    run and its part of --quick."""
    name: str
    levels: Selection
    set_: dict[str, Any]
    quick: QuickPart | None
    iterations: int


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
                         QuickPart(only=spec.quick.only, set=spec.quick.set_), spec.iterations)]
        return [Part(name, {axis: list(spec.axes[axis].levels) if levels == "all" else list(levels)
                            for axis, levels in experiment.axes.items() if axis in spec.axes},
                     experiment.set_, experiment.quick, experiment.iterations or spec.iterations)
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
                              if same_value(candidate, parameters[axis.field])), None)
                if level is None or level not in part.levels[name]:
                    break
                levels[name] = level
            else:
                return self.configuration(part, levels)
        raise KeyError(f"{_parameters(parameters)} is no configuration of study {self.id}")

    def band_for(self, configuration: Mapping[str, str]) -> Band:
        return next(band for band in self.spec.bands
                    if all(configuration.get(axis) in levels for axis, levels in band.where.items()))

    def explanation_of(self, configuration: Mapping[str, str] | None = None,
                       check: str | None = None) -> Explanation | None:
        """The recipe's explanation of a configuration's figures (the first
        whose `where` selects it) or of a check, or None."""
        return next((explanation for explanation in self.spec.explanations
                     if (check is not None and explanation.check == check)
                     or (configuration is not None and explanation.explains(configuration))), None)

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

    def configuration_problems(self, configuration: Mapping[str, str], where: str) -> list[str]:
        """What keeps a configuration from naming one configuration of the study:
        unknown levels, a level of each axis its experiment varies (one it runs),
        none of the others."""
        levels = self.levels
        problems = level_problems(levels, {column: level for column, level in configuration.items() if level}, where)
        if self.spec.experiments and not configuration.get(EXPERIMENT):
            return problems + [f"{where}: names no experiment"]
        part = next((part for part in self.parts if part.name == configuration.get(EXPERIMENT, "")), None)
        if problems or part is None:
            return problems
        for axis in self.spec.axes:
            level = configuration.get(axis) or ""
            if axis in part.levels and not level:
                problems.append(f"{where}: names no level of axis {axis!r}")
            elif axis in part.levels and level not in part.levels[axis]:
                problems.append(f"{where}.{axis}: experiment {part.name} does not run level {level!r}; it runs "
                                f"{', '.join(part.levels[axis])}")
            elif axis not in part.levels and level:
                problems.append(f"{where}.{axis}: experiment {part.name} does not vary axis {axis!r}; leave it blank")
        return problems


def same_value(a: Any, b: Any) -> bool:
    """True if a and b are the same value as YAML or JSON writes it (a level's, a parameter's)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _parameters(parameters: Mapping[str, Any]) -> str:
    return ", ".join(f"{path}={campaigns.format_value(value)}" for path, value in parameters.items())


def level_problems(levels: Selection, configuration: Mapping[str, str], where: str) -> list[str]:
    """Unknown columns and levels of a (partial) configuration."""
    problems = [f"{where}: {axis!r} is not an axis; axes: {', '.join(levels)}"
                for axis in configuration if axis not in levels]
    return problems + [f"{where}.{axis}: {level!r} is not a level; levels: {', '.join(levels[axis])}"
                       for axis, level in configuration.items() if axis in levels and level not in levels[axis]]
