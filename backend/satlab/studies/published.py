"""A study's published figures (labs/studies/<id>/published.csv): one row per
figure, the configuration it is of (one column per axis, by level name;
with experiments, an `experiment` column first and blank cells for the axes
the experiment does not vary), the statistic, the source, and the value in
the column of its metric (a name of METRICS, unit included)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from satlab.scenario import ScenarioError
from satlab.studies.metrics import METRICS

STATISTICS = ("median", "mean", "std")


@dataclass(frozen=True)
class PublishedFigure:
    configuration: dict[str, str]  # column (experiment, axis) -> level; "" for an axis its experiment does not vary
    metric: str
    statistic: str
    value: float
    source: str


def read_published(file: Path, columns: Sequence[str],
                   configuration_problems: Callable[[Mapping[str, str], str], list[str]]) -> list[PublishedFigure]:
    """The figures of a study's published.csv (none if there is no such
    file): a configuration named in `columns` (the study's, which
    configuration_problems checks), one metric's value, its statistic and its
    source; ScenarioError naming each line that is not one."""
    if not file.exists():
        return []
    figures, problems = [], []
    with file.open(newline="") as rows:
        reader = csv.DictReader(rows)
        for number, row in enumerate(reader, start=2):
            where = f"{file.name} line {number}"
            configuration = {column: row.get(column) or "" for column in columns}
            problems += configuration_problems(configuration, where)
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
