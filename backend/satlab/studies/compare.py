"""A campaign's configurations side by side (`satlab compare ID`).

For each configuration: its matrix parameters; how many of its items are
done, failed, or still to run (an item counts the last of its runs that ran
to its end: a late run stays its measurement until a run again of it, by
--redo-unfaithful-rounds, ends); how many of the done ones ran on a host that
did not keep up (their fidelity verdict), which are left out of every
figure, because such a run measured the host as much as the path; and, over
the runs that kept up, each metric's median, quartiles and range
(satlab.studies.metrics, the figures a study report uses), the runs the
host ran at once beside them, and their worst lateness.

A run its time limit stopped (the runner's timed_out) failed, but says
something: its download took at least what it had taken. Its download time
is kept as censored, and each figure a longer time could move is shown as a
bound (>=): "the median is at least 1,458 s" is a result, and leaving such
runs out would make a slow configuration look fast.

This is how the studies' experiment verdicts are computed, so that anyone
with the database, or with a campaign's record restored into one (`satlab
restore`), gets the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from satlab.service.campaign import format_value
from satlab.service.store import CampaignItemDetailRow, RunRow, Store
from satlab.studies.metrics import METRICS
from satlab.studies.spread import censored_spread, spread

# What a comparison reports of the host beside the metrics, per kept run: how many runs shared it (the
# mean over the run's time), and how late the emulated path was (the worse of satlink's and the tunnel's p99).
HOST_FIGURES = ("runs_at_once_mean", "lateness_p99_ms")


@dataclass
class Configuration:
    """One configuration of a campaign and its runs' figures."""
    configuration: int
    parameters: dict[str, Any]
    items: int = 0
    done: int = 0
    failed: int = 0
    late: int = 0  # done or timed out, on a host that did not keep up: left out of the figures (unless with_late)
    timed_out: int = 0  # of the failed, those their time limit stopped: censored values
    values: dict[str, list[float]] = field(default_factory=dict)  # metric -> the kept runs' values
    censored: dict[str, list[float]] = field(default_factory=dict)  # metric -> the timed-out runs' lower bounds
    host: dict[str, list[float]] = field(default_factory=dict)  # HOST_FIGURES -> the kept runs' values

    def to_dict(self) -> dict[str, Any]:
        return {"configuration": self.configuration, "parameters": self.parameters, "items": self.items,
                "done": self.done, "failed": self.failed, "timed_out": self.timed_out, "host_not_kept_up": self.late,
                "metrics": {name: censored_spread(values, self.censored.get(name, []))
                            for name, values in self.values.items()},
                "host": {name: spread(values) for name, values in self.host.items()}}


def compare_campaign(store: Store, campaign_id: str, metrics: Sequence[str] = ("download_time_s",),
            with_late: bool = False) -> list[Configuration]:
    """The campaign's configurations in order, with their runs' figures;
    with_late: the figures take the runs whose host did not keep up too.
    KeyError for an unknown campaign or metric."""
    unknown = [name for name in metrics if name not in METRICS]
    if unknown:
        raise KeyError(f"no metric {', '.join(unknown)}; the metrics are {', '.join(METRICS)}")
    campaign = store.get_campaign(campaign_id)
    if campaign is None:
        raise KeyError(f"no campaign {campaign_id!r} in {store.path}")
    found: dict[int, Configuration] = {}
    for item in campaign.items:
        entry = found.setdefault(item.configuration, Configuration(
            item.configuration, item.parameters, values={name: [] for name in metrics},
            censored={name: [] for name in metrics}, host={name: [] for name in HOST_FIGURES}))
        entry.items += 1
        run = _last_measured_run(store, item)
        if run is None:
            continue
        entry.failed += run.status == "failed"
        result = run.result or {}
        timed_out = run.status == "failed" and run.timed_out is not None
        if run.status == "failed" and not timed_out:
            continue
        entry.done += not timed_out
        entry.timed_out += timed_out
        if run.host_kept_up is False:
            entry.late += 1
            if not with_late:
                continue
        for name in metrics:
            if timed_out:
                entry.censored[name] += METRICS[name].at_least(result)
            else:
                entry.values[name] += METRICS[name].values(result)
        evidence = run.fidelity or {}
        if isinstance(at_once := evidence.get("runs_at_once_mean"), int | float):
            entry.host["runs_at_once_mean"].append(float(at_once))
        latenesses = [float(value) for name in ("satlink_lateness_p99_ms", "tunnel_lateness_p99_ms")
                      if isinstance(value := evidence.get(name), int | float)]
        if latenesses:
            entry.host["lateness_p99_ms"].append(max(latenesses))
    return [found[key] for key in sorted(found)]


def _last_measured_run(store: Store, item: CampaignItemDetailRow) -> RunRow | None:
    """The item's run if it ran to its end (done or failed); else, when the
    run again of a late one was cancelled or has not ended, that late run."""
    for attempt in reversed(item.attempts):
        if attempt.status not in ("done", "failed"):
            continue
        run = store.get_run(attempt.run_id)
        if run is not None and (run.run_id == item.run_id or run.host_kept_up is False):
            return run
    return None


def _number(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def _cell(figures: Mapping[str, Any]) -> str:
    """median [q1–q3] (min–max), or – without values; ≥ before a bound."""
    if not figures["n"]:
        return "–"

    def shown(name: str) -> str:
        return ("≥" if name in figures.get("at_least", ()) else "") + _number(figures[name])
    if figures["n"] == 1:
        return shown("median")
    return f"{shown('median')} [{shown('q1')}–{shown('q3')}] ({shown('min')}–{shown('max')})"


def _columns(configurations: list[Configuration], metrics: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    paths = list(configurations[0].parameters) if configurations else []
    header = ["c", *paths, "done", "late", "failed", "timed out", "left", *metrics, "runs at once",
              "lateness p99 ms, worst"]
    rows = []
    for entry in configurations:
        figures = entry.to_dict()
        rows.append([str(entry.configuration), *(format_value(entry.parameters.get(path)) for path in paths),
                     str(entry.done), str(entry.late), str(entry.failed), str(entry.timed_out),
                     str(entry.items - entry.done - entry.failed),
                     *(_cell(figures["metrics"][name]) for name in metrics),
                     _cell(figures["host"]["runs_at_once_mean"]),
                     _number(figures["host"]["lateness_p99_ms"]["max"])])
    return header, rows


def comparison_text(configurations: list[Configuration], metrics: Sequence[str]) -> str:
    header, rows = _columns(configurations, metrics)
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
                     for row in [header, *rows])


def comparison_markdown(configurations: list[Configuration], metrics: Sequence[str]) -> str:
    header, rows = _columns(configurations, metrics)
    lines = [header, ["---"] * len(header), *rows]
    return "\n".join("| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |" for line in lines)


def comparison_json(configurations: list[Configuration]) -> str:
    return json.dumps([entry.to_dict() for entry in configurations], indent=1)
