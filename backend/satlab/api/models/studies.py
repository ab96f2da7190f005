"""Studies: a study recipe with its published figures, and its report:
satlab's figures beside the published ones, and the conclusion checks.

A study's report reaches the browser two ways in one shape: from GET
.../report, and as shipped beside the recipe (labs/studies/<id>/report.json,
which may be of an older format: fields marked "absent from reports of the
first format" are left out of those, not null).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from satlab.api.models.campaigns import CampaignPublic, CampaignStatus
from satlab.api.models.common import CampaignSpecObject, Public
from satlab.service.store import CampaignProgress

# Axis -> levels: a selection of a study's configurations, or all of them.
Selection = dict[str, list[str]]
# A configuration: column (the experiment, then the axes) -> level; "" for an axis its experiment does not vary.
Configuration = dict[str, str]
Statistic = Literal["median", "mean", "std"]


class ExperimentPublic(Public):
    title: str
    axes: Selection = Field(description="The axes it varies, and their levels.")
    quick: Selection | None = Field(description="Its part of the quick run (null: none).")


class QuickRunPublic(Public):
    """The smoke run: a few configurations that finish fast, few iterations."""
    only: Selection
    iterations: int


class CheckStatement(Public):
    id: str
    statement: str


class PublishedFigurePublic(Public):
    configuration: Configuration
    metric: str = Field(description="Its unit in its name (download_time_s).")
    statistic: Statistic
    value: float
    source: str = Field(description="Where the study gives it: Table II, Figure 3.")


class StudyConfigurationPublic(Public):
    """One configuration of a study run."""
    experiment: str = Field(description="Its experiment's name; \"\" in a study without experiments.")
    levels: Configuration = Field(description="What names it, as reports and published figures do.")
    overrides: dict[str, Any] = Field(description="What it sets in the base scenario: dotted path -> value.")
    iterations: int = Field(description="Its runs in the study run: its experiment's iterations (the quick "
                                        "run's in quick_configurations).")


class StudyPublic(Public):
    """A study recipe (labs/studies/<id>/)."""
    id: str
    title: str
    citation: str
    url: str | None
    summary: str = Field(description="What the study found, in a paragraph.")
    axes: Selection = Field(description="Axis -> its levels, in order.")
    experiments: dict[str, ExperimentPublic] = Field(
        description="Its experiments, by name, in order; none: the study is one experiment over every axis.")
    metrics: list[str] = Field(description="The metrics the study compares, each with its unit in its name.")
    iterations: int = Field(description="Of a full run.")
    parallel: int = Field(description="Runs at once.")
    quick: QuickRunPublic
    checks: list[CheckStatement]
    published: list[PublishedFigurePublic]
    has_shipped_report: bool
    configurations: list[StudyConfigurationPublic] = Field(
        description="Every configuration of a full run, in the order its campaign numbers them; a run of a "
                    "selection (`only`) runs those whose experiment and levels it selects.")
    quick_configurations: list[StudyConfigurationPublic] = Field(description="Those of the quick run.")


class StudiesPublic(Public):
    data: list[StudyPublic]
    count: int


class Explanation(Public):
    """The recipe's explanation of a figure out of its band or a check that fails."""
    text: str = Field(description="One sentence.")
    section: str = Field(description="The heading of the study's README section that says more.")
    readme: str = Field(description="That section's link, relative to the study's folder: README.md#anchor.")


class ReportRow(Public):
    """One published figure beside satlab's (null where satlab has no value yet). Fields marked
    "absent from older reports" are left out of reports made before they existed."""
    configuration: Configuration
    metric: str
    statistic: Statistic
    published: float | None = Field(description="null: a figure satlab measured that the study did not publish.")
    source: str
    satlab: float | None = Field(description="satlab's figure of the same statistic (its median for a median).")
    q1: float | None
    q3: float | None
    n: int = Field(description="Values: the runs that gave one, or for a pooled metric (one value per flow) "
                               "the flows of those runs.")
    runs: int | None = Field(default=None, description="Runs that gave a value (absent from older reports).")
    failed: int
    timed_out: int | None = Field(default=None, description="Of the failed, the runs the time limit stopped: "
                                                            "each of their download times counts at its bound "
                                                            "(absent from older reports).")
    satlab_at_least: list[Literal["satlab", "q1", "q3"]] = Field(
        default=[], description="satlab's figures a longer time of a timed-out run could raise: each is the least "
                                "it can be (absent from older reports).")
    satlab_at_most: float | None = Field(default=None, description="With satlab in satlab_at_least: the most "
                                                                   "it can be; null: no bound (absent from "
                                                                   "older reports).")
    published_std: float | None = Field(default=None, description="Beside a median: the standard deviation the "
                                                                  "study gives for it (absent from older reports).")
    satlab_std: float | None = Field(default=None, description="Beside a median: the sample standard deviation "
                                                               "of satlab's values (absent from older reports).")
    ratio: float | None = Field(description="satlab / published.")
    band: str | None = Field(description="The band a median must be in; null for other statistics.")
    band_reason: str | None
    in_band: bool | None = Field(description="null: not measured, not judged (a spread), or left open by a "
                                             "timed-out run (satlab in satlab_at_least).")
    explanation: Explanation | None = Field(default=None, description="The recipe's, where one selects this "
                                                                       "configuration (absent from older reports).")
    flags: list[str] = Field(default=[], description="What weakens the figure: \"host could not keep up (k of n "
                                                      "runs)\" when some of its runs' hosts were late (absent from "
                                                      "older reports).")


class MetricFigures(Public):
    """Every value satlab measured of one metric for one configuration."""
    values: list[float]
    n: int
    median: float | None
    q1: float | None
    q3: float | None
    std: float | None
    min: float | None
    max: float | None
    runs: int | None = Field(default=None, description="Runs that gave the values; fewer than n for a pooled "
                                                       "metric (absent from older reports).")
    bounds: list[float] = Field(default=[], description="The timed-out runs' censored values: each at least "
                                                        "this; n counts them (absent from older reports).")
    censored: int | None = Field(default=None, description="How many bounds (absent from older reports).")
    at_least: list[Literal["median", "q1", "q3", "min", "max"]] = Field(
        default=[], description="The figures a censored value could raise: each is the least it can be "
                                "(absent from older reports).")
    at_most: dict[str, float | None] = Field(default={}, description="For each of at_least, the most it can be; "
                                                                     "null: no bound (absent from older "
                                                                     "reports).")


class ReportConfiguration(Public):
    """What satlab measured for one configuration, per metric. Reports of the
    first format have one metric's figures (MetricFigures' fields) at the top
    instead of `metrics`."""
    configuration: Configuration
    failed: int
    timed_out: int | None = Field(default=None, description="Of the failed, those the time limit stopped "
                                                            "(absent from older reports).")
    host_not_kept_up: int | None = Field(default=None, description="Its runs whose host did not keep up "
                                                                   "(satlink late): they measure the host too "
                                                                   "(absent from older reports).")
    flags: list[str] = Field(default=[], description="\"host could not keep up (k of n runs)\" when "
                                                      "host_not_kept_up > 0 (absent from older reports).")
    diagnostics: dict[str, float] | None = Field(default=None, description="Median of each diagnostic figure of "
                                                                           "its runs.")
    metrics: dict[str, MetricFigures] | None = Field(default=None, description="Absent from reports of the first "
                                                                               "format.")
    values: list[float] | None = None
    n: int | None = None
    median: float | None = None
    q1: float | None = None
    q3: float | None = None
    std: float | None = None
    min: float | None = None
    max: float | None = None


class CheckComparison(Public):
    numerator: Configuration
    denominator: Configuration | None = Field(description="null: the bound is on the numerator's median itself.")
    numerator_median: float | None
    denominator_median: float | None
    ratio: float | None
    difference: float | None = Field(default=None, description="Numerator's median minus the denominator's "
                                                               "(absent from older reports).")
    value: float | None = Field(default=None, description="What the bounds apply to: the ratio, the difference "
                                                          "or the median, as the check's `compare` says (absent "
                                                          "from older reports).")
    value_range: list[float | None] | None = Field(
        default=None, description="With a censored median: the least and the most the value can be (the "
                                  "most null: no bound); null: the medians are exact (absent from older reports).")
    holds: bool | None = Field(description="null: a median is missing, or a censored one leaves it open "
                                           "(value_range).")


class ReportCheck(Public):
    """One of the study's conclusions: every comparison's ratio of medians,
    or their difference (`compare`), or without a denominator the median
    itself, must be >= at_least and <= at_most."""
    id: str
    statement: str
    reason: str | None = Field(default=None, description="Where the bounds come from (absent from older reports).")
    compare: Literal["ratio", "difference", "value"] | None = Field(
        default=None, description="What the bounds apply to: the medians' ratio, their difference (in the "
                                  "metric's unit), or the numerator's median (absent from older reports).")
    metric: str
    at_least: float | None
    at_most: float | None
    holds: bool | None
    comparisons: list[CheckComparison]
    explanation: Explanation | None = Field(default=None, description="The recipe's (absent from older reports).")


class ReportCampaign(Public):
    """A study run the report covers."""
    campaign_id: str
    name: str
    status: CampaignStatus
    study_quick: bool
    spec: CampaignSpecObject
    created_at: float
    finished_at: float | None
    progress: CampaignProgress


class ProvenanceDifference(Public):
    """Runs of a campaign made with another satlab, other tools or another kernel than its first run."""
    campaign_id: str
    worker: str | None = Field(description="The worker that ran them; null: the server's own process.")
    runs: list[str]
    differences: dict[str, list[str]] = Field(description="Field of the provenance -> [the first run's, theirs].")


class ReportSummary(Public):
    rows: int
    measured: int
    in_band: int
    out_of_band: int
    checks_held: int
    checks_failed: int
    checks_unknown: int


class StudyReport(Public):
    study: str
    title: str
    citation: str
    axes: Selection = Field(description="Every column of a configuration and its levels: `experiment` first if "
                                        "the study has experiments.")
    experiments: dict[str, str] | None = Field(default=None, description="Experiment -> its title (absent from "
                                                                         "reports of the first format).")
    metrics: dict[str, str] | None = Field(default=None, description="Metric -> what it is and where it comes from "
                                                                     "(absent from reports of the first format).")
    generated_at: str = Field(description="ISO 8601, UTC.")
    satlab: str | None
    git: str | None
    host: dict[str, Any] = Field(description="The host and tool versions the runs ran with (a run's provenance).")
    campaigns: list[ReportCampaign]
    quick: bool = Field(description="Every run it covers was a quick one: a smoke test, not a result.")
    prefer: Literal["all", "latest"] = Field(default="all", description="all: every study run's runs pooled; "
                                                                        "latest: each configuration's from the "
                                                                        "latest study run that measured it.")
    provenance_differences: list[ProvenanceDifference] = Field(default=[], description="Runs made with another "
                                                                                     "setup than their "
                                                                                     "campaign's first run "
                                                                                     "(absent from older "
                                                                                     "reports).")
    rows: list[ReportRow]
    configurations: list[ReportConfiguration]
    checks: list[ReportCheck]
    summary: ReportSummary


class StudyDetail(StudyPublic):
    shipped_report: StudyReport | None = Field(description="The report shipped with the recipe (report.json).")


class StudyRunsPublic(Public):
    """The campaigns that ran a study, oldest first."""
    data: list[CampaignPublic]
    count: int
