"""The spread of a configuration's values: median, quartiles, standard
deviation and range; with censored values (a run its time limit stopped,
each at least its bound), which of them are bounds and how far they reach.
A study's report and `satlab compare` both take their figures from here."""

from __future__ import annotations

import statistics
from typing import Any


def spread(values: list[float]) -> dict[str, Any]:
    """median, quartiles (inclusive method: the IQR of the values themselves), sample std, n."""
    if not values:
        return {"n": 0, "median": None, "q1": None, "q3": None, "std": None, "min": None, "max": None}
    ordered = sorted(values)
    q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else ordered * 3
    return {"n": len(ordered), "median": statistics.median(ordered), "q1": q1, "q3": q3,
            "std": statistics.stdev(ordered) if len(ordered) > 1 else None,
            "min": ordered[0], "max": ordered[-1]}


def censored_spread(values: list[float], bounds: list[float]) -> dict[str, Any]:
    """spread() of the values and of censored ones, each at least its bound
    (a run its time limit stopped). Every figure is monotone in every value:
    computed with the bounds it is the least it can be, and with the
    censored values raised far, the most. `at_least` names the figures a
    longer time could move, `at_most` gives each one's most (None: no bound,
    as for a median of mostly censored values: raising them further still
    moves it). The standard deviation is unknown with any censored value."""
    figures = spread(values + bounds)
    at_least: list[str] = []
    at_most: dict[str, float | None] = {}
    if bounds:
        far = 2 * max(values + bounds) + 1
        raised, higher = (spread(values + [value] * len(bounds)) for value in (far, 2 * far))
        at_least = [name for name in ("median", "q1", "q3", "min", "max") if raised[name] != figures[name]]
        at_most = {name: raised[name] if raised[name] == higher[name] else None for name in at_least}
        figures["std"] = None
    return {**figures, "censored": len(bounds), "at_least": at_least, "at_most": at_most}
