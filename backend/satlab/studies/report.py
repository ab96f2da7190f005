"""A study's report: per configuration, satlab's median, IQR and n beside the
published figure, their ratio and whether it is inside its band; and each
of the study's conclusions (checks) evaluated on satlab's medians.

A run gives one value per metric (satlab.studies.metrics says how: a flow field
aggregated over some of its flows, or an iteration field), or one per flow
for a pooled metric (flow_download_time_s: the median over every flow of
every run, as a study of 5 flows x 30 runs takes it over 150 downloads):
each metric's figures count their values (`n`: flows for a pooled metric)
and the runs that gave them (`runs`). A run that failed, or one of whose
flows did not finish, gives none and is counted in `failed`; a run without
a metric's field (a counter its transport lacks) gives no value of that
metric. A run its time limit stopped is counted in `failed` too, but its
download times are censored: each is at least its bound, and the figures
take it in (satlab.studies.metrics: Metric.at_least). A figure a longer
time could move is then a bound (`at_least`, `at_most`; in a row
`satlab_at_least` names them among satlab, q1 and q3, `satlab_at_most`
is satlab's most), and a band or a check it leaves open is neither held
nor failed (None; a comparison's `value_range` then says why).

Where the study gives a standard deviation (a `std` row of published.csv)
the median's row carries it beside satlab's (`published_std`,
`satlab_std`). Rows and checks carry the recipe's explanation where it
gives one (`explanation`: its sentence, the README section and its anchor).

Each run's fidelity stays in view (satlab.studies.fidelity): a
configuration with a run whose host did not keep up is flagged ("host could
not keep up", in `flags` of it and of its rows); runs made with another
satlab, other tools or another kernel than their campaign's first run are
listed (`provenance_differences`). prefer="latest" takes each
configuration's runs from the latest study run that measured it (a rerun
supersedes, without editing the database); "all" pools every run.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Iterable, Mapping
from typing import Any

from satlab.service.provenance import provenance
from satlab.service.store import CampaignRow, Store
from satlab.studies import readme
from satlab.studies.fidelity import Prefer, flags, provenance_differences
from satlab.studies.metrics import METRICS
from satlab.studies.spec import Check, Explanation
from satlab.studies.spread import censored_spread
from satlab.studies.study import Study

Configuration = Mapping[str, str]


def _key(configuration: Configuration, axes: Iterable[str]) -> tuple[str, ...]:
    return tuple(configuration[axis] for axis in axes)


def run_diagnostics(result: Mapping[str, Any]) -> dict[str, float]:
    """What explains a run's time (its first iteration): the forward link's
    channel drops, the sender's loss recoveries and RTOs (satlab.engine.tcp_stack),
    drops per loss event, and the FEC tunnel's forward counters."""
    iterations = result.get("iterations") or [{}]
    outcome = iterations[0]
    found: dict[str, float] = {}
    forward = ((outcome.get("link") or {}).get("forward") or {})
    if forward.get("drops_channel") is not None:
        found["channel_drops"] = forward["drops_channel"]
    sender = (outcome.get("tcp_stack") or {}).get("server") or {}
    for name in ("loss_recoveries", "rtos", "retransmitted_segments", "dsack_undos", "loss_undos",
                 "sack_reorders"):
        if sender.get(name) is not None:
            found[name] = sender[name]
    events = found.get("loss_recoveries", 0) + found.get("rtos", 0)
    if "channel_drops" in found and "loss_recoveries" in found and events:
        found["drops_per_loss_event"] = found["channel_drops"] / events
    fec = ((outcome.get("fec") or {}).get("forward") or {})
    for name in ("lost", "recovered", "residual_loss"):
        if fec.get(name) is not None:
            found[f"fec_{name}"] = fec[name]
    for delay in METRICS["fec_decoding_delay_p99_ms"].values(result):
        found["fec_decoding_delay_p99_ms"] = delay
    return found


def _finished(result: Mapping[str, Any]) -> bool:
    flows = result.get("flows") or []
    return result.get("status") == "done" and bool(flows) and all(
        flow.get("error") is None and flow.get("download_time_s") is not None for flow in flows)


def chosen_campaigns(study: Study, store: Store, campaign_ids: list[str] | None) -> list[CampaignRow]:
    """The study runs a report covers: those asked for; else every full
    (non-quick) run of the study; else its quick runs."""
    runs = store.study_campaigns(study.id)
    if campaign_ids:
        unknown = set(campaign_ids) - {campaign.campaign_id for campaign in runs}
        if unknown:
            raise KeyError(f"no run of study {study.id} with campaign id {', '.join(sorted(unknown))}")
        return [campaign for campaign in runs if campaign.campaign_id in campaign_ids]
    full = [campaign for campaign in runs if not campaign.study_quick]
    return full or runs


def collect(study: Study, store: Store, campaigns: list[CampaignRow],
            prefer: Prefer = "all") -> dict[tuple[str, ...], dict[str, Any]]:
    """Per configuration (a tuple of levels in column order): its levels, each
    metric's values and censored values' bounds and how many runs gave them,
    how many of its runs failed (of them, timed out), how many ran on a host
    that did not keep up, and their median diagnostics.
    prefer="latest": only the runs of the latest campaign that measured it."""
    columns, metrics = study.columns, study.metrics
    found: dict[tuple[str, ...], dict[str, Any]] = {}
    taken_from: dict[tuple[str, ...], str] = {}  # prefer="latest": the campaign each configuration's runs are of
    newest_first = sorted(campaigns, key=lambda campaign: campaign.created_at, reverse=True)
    for campaign in newest_first if prefer == "latest" else campaigns:
        for item in store.campaign_items(campaign.campaign_id):
            if item.status not in ("done", "failed"):
                continue  # pending, running or cancelled: not a result
            configuration = study.configuration_of(item.parameters)
            key = _key(configuration, columns)
            if prefer == "latest" and taken_from.setdefault(key, campaign.campaign_id) != campaign.campaign_id:
                continue  # superseded by a later study run
            entry = found.setdefault(key, {
                "configuration": configuration, "values": {metric: [] for metric in metrics},
                "bounds": {metric: [] for metric in metrics}, "runs_measured": dict.fromkeys(metrics, 0),
                "failed": 0, "timed_out": 0, "done": 0, "host_not_kept_up": 0, "runs": []})
            run = store.get_run(item.run_id) if item.run_id else None
            if run is None:  # finished, but its run is not in this store: nothing measured
                entry["failed"] += 1
                continue
            result = run.result or {}
            timed_out = item.status == "failed" and run.timed_out is not None
            if item.status == "done" or timed_out:  # it has fidelity evidence
                entry["done"] += 1
                entry["host_not_kept_up"] += run.host_kept_up is False
            if timed_out:
                entry["timed_out"] += 1
                for metric in metrics:
                    bounds = METRICS[metric].at_least(result)
                    entry["bounds"][metric] += bounds
                    entry["runs_measured"][metric] += bool(bounds)
            if item.status != "done" or not _finished(result):
                entry["failed"] += 1
                continue
            for metric in metrics:
                values = METRICS[metric].values(result)
                entry["values"][metric] += values
                entry["runs_measured"][metric] += bool(values)
            entry["runs"].append(run_diagnostics(result))
    for entry in found.values():
        runs = entry.pop("runs")
        names = sorted({name for run in runs for name in run})
        entry["diagnostics"] = {name: statistics.median(run[name] for run in runs if name in run) for name in names}
    return found


# configuration -> metric -> its median's least and most (_interval)
Medians = Mapping[tuple[str, ...], Mapping[str, tuple[float | None, float | None]]]


def _explanation(explanation: Explanation | None) -> dict[str, str] | None:
    """An explanation as a report gives it: its sentence, its README section and that section's anchor."""
    if explanation is None:
        return None
    return {"text": " ".join(explanation.text.split()), "section": explanation.section,
            "readme": f"{readme.README}#{readme.anchor(explanation.section)}"}


def _interval(figures: Mapping[str, Any], statistic: str) -> tuple[float | None, float | None]:
    """A statistic of a metric's figures as the least and the most it can be
    (equal unless a censored value could move it; math.inf: no bound), or
    (None, None) without values. A mean is unbounded with any censored value."""
    if statistic == "mean":
        taken = [*figures["values"], *figures.get("bounds", [])]
        if not taken:
            return None, None
        mean = statistics.fmean(taken)
        return mean, math.inf if figures.get("bounds") else mean
    least = figures[statistic]
    if least is None or statistic not in figures.get("at_least", []):
        return least, least
    most = figures["at_most"].get(statistic)
    return least, math.inf if most is None else most


def _evaluate(check: Check, study: Study, medians: Medians) -> dict[str, Any]:
    columns = study.columns
    comparisons = []
    unknown = (None, None)
    for numerator, denominator in study.check_configurations(check):
        top = medians.get(_key(numerator, columns), {}).get(check.metric, unknown)
        bottom = unknown if denominator is None else medians.get(_key(denominator, columns), {}).get(
            check.metric, unknown)
        value = check.compared(top[0], bottom[0])
        # Monotone in each median (up in the numerator's, down in the denominator's).
        least, most = check.compared(top[0], bottom[1]), check.compared(top[1], bottom[0])
        ratio = difference = None
        if top[0] is not None and bottom[0] is not None:
            ratio, difference = (top[0] / bottom[0] if bottom[0] else None), top[0] - bottom[0]
        comparisons.append({"numerator": numerator, "denominator": denominator, "numerator_median": top[0],
                            "denominator_median": bottom[0],
                            # Without a denominator the bound is on the numerator's median itself.
                            "ratio": ratio if denominator is not None else top[0], "difference": difference,
                            "value": value,
                            # With a censored median: the least and the most the value can be (None: no bound).
                            "value_range": None if least is None or most is None or least == most
                            else [least, None if math.isinf(most) else most],
                            "holds": None if least is None or most is None else check.holds_over(least, most)})
    outcomes = [comparison["holds"] for comparison in comparisons]
    holds = False if False in outcomes else (None if None in outcomes else True)
    return {"id": check.id, "statement": " ".join(check.statement.split()),
            "reason": None if check.reason is None else " ".join(check.reason.split()), "metric": check.metric,
            "compare": check.compare if check.denominator is not None else "value",
            "at_least": check.at_least, "at_most": check.at_most, "holds": holds, "comparisons": comparisons,
            "explanation": _explanation(study.explanation_of(check=check.id))}


def make_report(study: Study, store: Store, campaign_ids: list[str] | None = None,
                prefer: Prefer = "all") -> dict[str, Any]:
    campaigns = chosen_campaigns(study, store, campaign_ids)
    columns = study.columns
    configurations = [{"configuration": entry["configuration"], "failed": entry["failed"],
                       "timed_out": entry["timed_out"], "host_not_kept_up": entry["host_not_kept_up"],
                       "flags": flags(entry["host_not_kept_up"], entry["done"]),
                       "diagnostics": entry["diagnostics"],
                       "metrics": {metric: {"values": values, "bounds": entry["bounds"][metric],
                                            **censored_spread(values, entry["bounds"][metric]),
                                            "runs": entry["runs_measured"][metric]}
                                   for metric, values in entry["values"].items()}}
                      for entry in collect(study, store, campaigns, prefer).values()]
    by_key = {_key(entry["configuration"], columns): entry for entry in configurations}
    medians = {key: {metric: _interval(figures, "median") for metric, figures in entry["metrics"].items()}
               for key, entry in by_key.items()}
    published_std = {(_key(figure.configuration, columns), figure.metric): figure.value
                     for figure in study.published if figure.statistic == "std"}
    rows = []
    for figure in study.published:
        key = _key(figure.configuration, columns)
        entry = by_key.get(key)
        figures = None if entry is None else entry["metrics"][figure.metric]
        ours, most = (None, None) if figures is None else _interval(figures, figure.statistic)
        band = study.band_for(figure.configuration)
        # A central figure (median, mean) is held to its band; a spread is reported, not judged.
        judged = figure.statistic != "std"
        ratio = ours / figure.value if ours is not None and figure.value else None
        ratio_most = None if ratio is None or most is None else most / figure.value
        rows.append({"configuration": figure.configuration, "metric": figure.metric, "statistic": figure.statistic,
                     "published": figure.value, "source": figure.source, "satlab": ours,
                     "q1": None if figures is None else figures["q1"], "q3": None if figures is None else figures["q3"],
                     "n": 0 if figures is None else figures["n"], "runs": 0 if figures is None else figures["runs"],
                     "failed": 0 if entry is None else entry["failed"],
                     "timed_out": 0 if entry is None else entry["timed_out"],
                     # Beside a central figure, the spread the study gives for it, and satlab's.
                     "published_std": published_std.get((key, figure.metric)) if judged else None,
                     "satlab_std": None if figures is None or not judged else figures["std"],
                     "ratio": ratio, "band": band.describe() if judged else None,
                     "band_reason": " ".join(band.reason.split()) if judged else None,
                     # Which of satlab's figures a censored value could raise, and its own most:
                     # the band may then hold, fail, or be left open.
                     "satlab_at_least": ([] if ours is None or most == ours else ["satlab"])
                     + [name for name in ("q1", "q3") if figures is not None and name in figures["at_least"]],
                     "satlab_at_most": None if most is None or math.isinf(most) or most == ours else most,
                     "in_band": band.holds_over(ratio, ratio_most)
                     if ratio is not None and ratio_most is not None and judged else None,
                     "flags": [] if entry is None else entry["flags"],
                     "explanation": _explanation(study.explanation_of(figure.configuration))})
    checks = [_evaluate(check, study, medians) for check in study.spec.checks]
    # What ran the runs (the first run's provenance), else what makes the report.
    version = next((run.provenance for campaign in campaigns
                    for item in store.campaign_items(campaign.campaign_id, "done")
                    if item.run_id is not None and (run := store.get_run(item.run_id)) is not None),
                   None) or provenance()
    return {
        "study": study.id, "title": study.spec.title, "citation": " ".join(study.spec.citation.split()),
        "axes": study.levels,
        "experiments": {name: experiment.title for name, experiment in study.spec.experiments.items()},
        "metrics": {metric: METRICS[metric].what for metric in study.metrics},
        "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "satlab": version.get("satlab"), "git": version.get("git"), "host": version,
        "campaigns": [{key: getattr(campaign, key) for key in ("campaign_id", "name", "status", "study_quick", "spec",
                                                               "created_at", "finished_at")}
                      | {"progress": dataclasses.asdict(campaign.progress)} for campaign in campaigns],
        "quick": bool(campaigns) and all(campaign.study_quick for campaign in campaigns),
        "prefer": prefer, "provenance_differences": provenance_differences(store, campaigns),
        "rows": rows, "configurations": configurations, "checks": checks,
        "summary": {"rows": len(rows), "measured": sum(row["satlab"] is not None for row in rows),
                    "in_band": sum(row["in_band"] is True for row in rows),
                    "out_of_band": sum(row["in_band"] is False for row in rows),
                    "checks_held": sum(check["holds"] is True for check in checks),
                    "checks_failed": sum(check["holds"] is False for check in checks),
                    "checks_unknown": sum(check["holds"] is None for check in checks)}}
