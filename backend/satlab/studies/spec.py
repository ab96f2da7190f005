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
each varies some axes over some of their levels, fixes what else it needs
(`set`, applied after its axes' levels) and may run its own number of
iterations. The study's matrix is the union of the experiments' matrices,
not every axis crossed with every other.

A figure out of its band or a check that fails may carry an explanation
from the recipe (`explanations`): one sentence, and the section of the
study's README.md that says more.
"""


from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from satlab.scenario import Seed, Strict
from satlab.studies.metrics import METRICS

Label = Annotated[str, Field(min_length=1, max_length=40)]
# A selection of levels per axis: {axis: [level, ...]}.
Selection = dict[str, list[str]]
# The pseudo-axis that names a configuration's experiment (studies with experiments only).
EXPERIMENT = "experiment"


def within(least: float, most: float, low: float, high: float) -> bool | None:
    """Whether a figure known to lie in [least, most] lies in [low, high]
    (math.inf: no bound): True if all of it does, False if none of it does,
    None if a censored value leaves it open."""
    if low <= least and most <= high:
        return True
    if most < low or least > high:
        return False
    return None


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

    def range(self) -> tuple[float, float]:
        """The ratios in the band."""
        if self.within_percent is not None:
            return 1 - self.within_percent / 100, 1 + self.within_percent / 100
        assert self.within_factor is not None
        return 1 / self.within_factor, self.within_factor

    def holds(self, ratio: float) -> bool:
        return self.holds_over(ratio, ratio) is True

    def holds_over(self, least: float, most: float) -> bool | None:
        """Whether the ratio, known to lie in [least, most], is in the band (within)."""
        return within(least, most, *self.range())

    def describe(self) -> str:
        return (f"±{self.within_percent:g} %" if self.within_percent is not None
                else f"within ×{self.within_factor:g} either way")


class Check(Strict):
    """One of the study's conclusions, as a bound on two configurations'
    medians of a metric: their ratio (numerator / denominator) or, with
    compare: difference, numerator minus denominator in the metric's unit
    (BBR within a few seconds of ideal), >= at_least and/or <= at_most;
    without a denominator, on the numerator's median itself (in the
    metric's unit). for_each repeats the check over levels of some axes
    (each selector that does not name such an axis takes the level); every
    repetition must hold. `reason` says where the bound comes from (the
    study's own figures), and is shown beside it."""
    id: str = Field(pattern=r"^[a-z0-9-]{1,64}$")
    statement: str = Field(min_length=1)
    reason: str | None = Field(default=None, min_length=1)
    metric: str = "download_time_s"
    numerator: dict[str, str]
    denominator: dict[str, str] | None = None
    compare: Literal["ratio", "difference"] = "ratio"
    for_each: dict[str, list[str]] = Field(default_factory=dict)
    at_least: float | None = None
    at_most: float | None = None

    @model_validator(mode="after")
    def _bounded(self) -> Check:
        if self.at_least is None and self.at_most is None:
            raise ValueError("give at_least, at_most or both")
        if self.metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)}")
        if self.compare == "difference" and self.denominator is None:
            raise ValueError("compare: difference needs a denominator (the configuration subtracted)")
        return self

    def compared(self, top: float | None, bottom: float | None) -> float | None:
        """What the bounds apply to, from the numerator's and the denominator's
        medians (bottom None without a denominator), or None where one is missing."""
        if top is None or (self.denominator is not None and bottom is None):
            return None
        if self.denominator is None:
            return top
        assert bottom is not None
        if self.compare == "difference":
            return top - bottom
        return top / bottom if bottom else None

    def holds(self, value: float) -> bool:
        return self.holds_over(value, value) is True

    def holds_over(self, least: float, most: float) -> bool | None:
        """Whether the compared value, known to lie in [least, most], is within the bounds (within)."""
        return within(least, most, -math.inf if self.at_least is None else self.at_least,
                      math.inf if self.at_most is None else self.at_most)

    def comparisons(self, defaults: Mapping[str, str]) -> Iterator[tuple[dict[str, str], dict[str, str] | None]]:
        """Each (numerator, denominator or None) selection the check compares."""
        axes = list(self.for_each)
        for levels in itertools.product(*self.for_each.values()):
            chosen = dict(zip(axes, levels, strict=True))
            yield ({**defaults, **chosen, **self.numerator},
                   None if self.denominator is None else {**defaults, **chosen, **self.denominator})


class Explanation(Strict):
    """Why figures are out of their band, or why a check fails, in one
    sentence, with the README section that says more: of the configurations
    `where` selects (column -> levels, as a band's), or of the check `check`
    names."""
    where: dict[str, list[str]] | None = Field(default=None, min_length=1)
    check: str | None = None
    text: str = Field(min_length=1, max_length=400)
    section: str = Field(min_length=1)  # the heading of a section of the study's README.md, as written

    @model_validator(mode="after")
    def _one_subject(self) -> Explanation:
        if (self.where is None) == (self.check is None):
            raise ValueError("give where (the configurations it explains) or check (a check's id), not both")
        return self

    def explains(self, configuration: Mapping[str, str]) -> bool:
        return self.where is not None and all(configuration.get(axis) in levels for axis, levels in self.where.items())


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
    iterations: int | None = Field(default=None, ge=1, le=1000)  # of a full run; None: the study's
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
    explanations: list[Explanation] = Field(default_factory=list)
