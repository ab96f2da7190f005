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
metric.

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

import csv
import dataclasses
import statistics
import time
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from satlab.service.provenance import provenance
from satlab.service.store import CampaignRow, Store
from satlab.studies import readme
from satlab.studies.fidelity import Prefer, describe_difference, flags, provenance_differences
from satlab.studies.metrics import METRICS
from satlab.studies.spec import Check, Explanation
from satlab.studies.study import Study

Configuration = Mapping[str, str]


def _key(configuration: Configuration, axes: Iterable[str]) -> tuple[str, ...]:
    return tuple(configuration[axis] for axis in axes)


def spread(values: list[float]) -> dict[str, Any]:
    """median, quartiles (inclusive method: the IQR of the values themselves), sample std, n."""
    if not values:
        return {"n": 0, "median": None, "q1": None, "q3": None, "std": None, "min": None, "max": None}
    ordered = sorted(values)
    q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else ordered * 3
    return {"n": len(ordered), "median": statistics.median(ordered), "q1": q1, "q3": q3,
            "std": statistics.stdev(ordered) if len(ordered) > 1 else None,
            "min": ordered[0], "max": ordered[-1]}


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
    metric's values and how many runs gave them, how many of its runs failed,
    how many ran on a host that did not keep up, and their median diagnostics.
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
                "runs_measured": dict.fromkeys(metrics, 0), "failed": 0, "done": 0, "host_not_kept_up": 0,
                "runs": []})
            run = store.get_run(item.run_id) if item.status == "done" and item.run_id else None
            entry["done"] += run is not None
            entry["host_not_kept_up"] += run is not None and run.host_kept_up is False
            result = (run.result if run else None) or {}
            if not _finished(result):
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


Medians = Mapping[tuple[str, ...], Mapping[str, float | None]]  # configuration -> metric -> median


def _explanation(explanation: Explanation | None) -> dict[str, str] | None:
    """An explanation as a report gives it: its sentence, its README section and that section's anchor."""
    if explanation is None:
        return None
    return {"text": " ".join(explanation.text.split()), "section": explanation.section,
            "readme": f"{readme.README}#{readme.anchor(explanation.section)}"}


def _evaluate(check: Check, study: Study, medians: Medians) -> dict[str, Any]:
    columns = study.columns
    comparisons = []
    for numerator, denominator in study.check_configurations(check):
        top = medians.get(_key(numerator, columns), {}).get(check.metric)
        bottom = None if denominator is None else medians.get(_key(denominator, columns), {}).get(check.metric)
        value = check.compared(top, bottom)
        ratio = difference = None
        if top is not None and bottom is not None:
            ratio, difference = (top / bottom if bottom else None), top - bottom
        comparisons.append({"numerator": numerator, "denominator": denominator, "numerator_median": top,
                            "denominator_median": bottom,
                            # Without a denominator the bound is on the numerator's median itself.
                            "ratio": ratio if denominator is not None else top, "difference": difference,
                            "value": value, "holds": None if value is None else check.holds(value)})
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
                       "host_not_kept_up": entry["host_not_kept_up"],
                       "flags": flags(entry["host_not_kept_up"], entry["done"]),
                       "diagnostics": entry["diagnostics"],
                       "metrics": {metric: {"values": values, **spread(values),
                                            "runs": entry["runs_measured"][metric]}
                                   for metric, values in entry["values"].items()}}
                      for entry in collect(study, store, campaigns, prefer).values()]
    by_key = {_key(entry["configuration"], columns): entry for entry in configurations}
    medians = {key: {metric: figures["median"] for metric, figures in entry["metrics"].items()}
               for key, entry in by_key.items()}
    published_std = {(_key(figure.configuration, columns), figure.metric): figure.value
                     for figure in study.published if figure.statistic == "std"}
    rows = []
    for figure in study.published:
        key = _key(figure.configuration, columns)
        entry = by_key.get(key)
        figures = None if entry is None else entry["metrics"][figure.metric]
        ours = None if figures is None else figures[figure.statistic if figure.statistic != "mean" else "median"]
        if figure.statistic == "mean" and figures is not None and figures["values"]:
            ours = statistics.fmean(figures["values"])
        band = study.band_for(figure.configuration)
        # A central figure (median, mean) is held to its band; a spread is reported, not judged.
        judged = figure.statistic != "std"
        ratio = ours / figure.value if ours is not None and figure.value else None
        rows.append({"configuration": figure.configuration, "metric": figure.metric, "statistic": figure.statistic,
                     "published": figure.value, "source": figure.source, "satlab": ours,
                     "q1": None if figures is None else figures["q1"], "q3": None if figures is None else figures["q3"],
                     "n": 0 if figures is None else figures["n"], "runs": 0 if figures is None else figures["runs"],
                     "failed": 0 if entry is None else entry["failed"],
                     # Beside a central figure, the spread the study gives for it, and satlab's.
                     "published_std": published_std.get((key, figure.metric)) if judged else None,
                     "satlab_std": None if figures is None or not judged else figures["std"],
                     "ratio": ratio, "band": band.describe() if judged else None,
                     "band_reason": " ".join(band.reason.split()) if judged else None,
                     "in_band": band.holds(ratio) if ratio is not None and judged else None,
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


def _levels(configuration: Configuration, columns: Iterable[str]) -> list[str]:
    """A configuration's levels, "-" for an axis its experiment does not vary."""
    return [configuration.get(column) or "-" for column in columns]


def _count(figures: Mapping[str, Any]) -> str:
    """n, and the runs that gave the values where they are fewer (a pooled metric: n counts flows)."""
    runs = figures.get("runs")
    return f"{figures['n']}" + (f" ({runs} runs)" if runs is not None and runs != figures["n"] else "")


def _values(check: Mapping[str, Any]) -> str:
    """Each comparison's compared value (a ratio, a difference, a median), as the check's bounds read it."""
    return ", ".join(_number(comparison.get("value", comparison["ratio"])) for comparison in check["comparisons"])


def _link(explanation: Mapping[str, str] | None) -> str:
    return "" if explanation is None else f"{explanation['text']} ([{explanation['section']}]({explanation['readme']}))"


def format_markdown(report: Mapping[str, Any]) -> str:
    """The published figures beside satlab's (with the standard deviations
    where the study gives them), satlab's figures of every metric per
    configuration, and the checks with their bounds' reasons, as Markdown
    tables (for a study's README); an out-of-band row and a failing check
    with the recipe's explanation."""
    axes = list(report["axes"])
    deviations = any(row.get("published_std") is not None for row in report["rows"])
    lines = []
    if report["rows"]:
        spread_columns = " sd published | sd satlab |" if deviations else ""
        lines += [f"| {' | '.join(axes)} | metric | published | satlab [IQR] | n |{spread_columns} ratio | band | "
                  "in band |", f"|{'---|' * (len(axes) + 7 + 2 * deviations)}"]
    explained = []
    for row in report["rows"]:
        if row["statistic"] == "std":
            continue
        ours = "-" if row["satlab"] is None else f"{_number(row['satlab'])} [{_number(row['q1'])}–{_number(row['q3'])}]"
        failed = f" ({row['failed']} failed)" if row["failed"] else ""
        spreads = (f" {_number(row.get('published_std'))} | {_number(row.get('satlab_std'))} |" if deviations else "")
        verdict = {True: "yes", False: "**no**", None: "-"}[row["in_band"]]
        if row["in_band"] is False and row.get("explanation"):
            explained.append(row)
            verdict += f" ({len(explained)})"
        if row.get("flags"):
            verdict += f" ({'; '.join(row['flags'])})"
        lines.append(f"| {' | '.join(_levels(row['configuration'], axes))} | {row['metric']} | "
                     f"{_number(row['published'])} | {ours} | {_count(row)}{failed} |{spreads} "
                     f"{_number(row['ratio'])} | {row['band']} | {verdict} |")
    if explained:
        lines += ["", *(f"({index}) {_link(row['explanation'])}" for index, row in enumerate(explained, 1))]
    metrics = list(report["metrics"])
    lines += ["", "satlab's median [IQR] (n) of each metric, per configuration:", "",
              f"| {' | '.join([*axes, *metrics])} | failed |", f"|{'---|' * (len(axes) + len(metrics) + 1)}"]
    for configuration in report["configurations"]:
        figures = [configuration["metrics"][metric] for metric in metrics]
        cells = [*_levels(configuration["configuration"], axes),
                 *(f"{_number(f['median'])} [{_number(f['q1'])}–{_number(f['q3'])}] ({_count(f)})" if f["n"] else "-"
                   for f in figures), str(configuration["failed"])]
        lines.append(f"| {' | '.join(cells)} |")
    lines += ["", "| check | statement | bound's reason | values | holds |", "|---|---|---|---|---|"]
    for check in report["checks"]:
        verdict = {True: "yes", False: "**no**", None: "-"}[check["holds"]]
        if check["holds"] is False and check.get("explanation"):
            verdict += f": {_link(check['explanation'])}"
        lines.append(f"| {check['id']} | {check['statement']} | {check.get('reason') or '-'} | {_values(check)} | "
                     f"{verdict} |")
    lines += _fidelity_lines(report, "")
    return "\n".join(lines).lstrip("\n")


def _fidelity_lines(report: Mapping[str, Any], indent: str) -> list[str]:
    """The flagged configurations and the runs made with another setup, as lines (none if there are none)."""
    axes = list(report["axes"])
    flagged = [f"{indent}{', '.join(_levels(entry['configuration'], axes))}: {'; '.join(entry['flags'])}"
               for entry in report["configurations"] if entry.get("flags")]
    differing = [f"{indent}{describe_difference(difference)}"
                 for difference in report.get("provenance_differences", [])]
    lines = []
    if flagged:
        lines += ["", "Configurations whose runs the host could not keep up with (their figures measure the host "
                      "too):", *flagged]
    if differing:
        lines += ["", "Runs made with another setup than their campaign's first run:", *differing]
    return lines


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_report(report: Mapping[str, Any]) -> str:
    """The report as text: a table, then the checks."""
    axes = list(report["axes"])
    lines = [f"{report['study']}: {report['title']}", report["citation"],
             "quick run: a smoke test, not a result" if report["quick"] else
             f"{len(report['campaigns'])} study run(s): {', '.join(c['campaign_id'] for c in report['campaigns'])}",
             ""]
    header = [*axes, "metric", "statistic", "published", "satlab [IQR]", "n", "ratio", "band", "in band"]
    table = [header]
    for row in report["rows"]:
        ours = _number(row["satlab"])
        if row["statistic"] == "median" and row["q1"] is not None:
            ours += f" [{_number(row['q1'])}-{_number(row['q3'])}]"
        published = _number(row["published"])
        if row.get("published_std") is not None or row.get("satlab_std") is not None:
            published += f" sd {_number(row.get('published_std'))}"
            ours += f" sd {_number(row.get('satlab_std'))}"
        verdict = {True: "yes", False: "NO", None: "-"}[row["in_band"]] + ("  [!]" if row.get("flags") else "")
        table.append([*_levels(row["configuration"], axes), row["metric"], row["statistic"], published,
                      ours, _count(row) + (f" ({row['failed']} failed)" if row["failed"] else ""),
                      _number(row["ratio"]), row["band"] or "", verdict])
    widths = [max(len(str(cells[column])) for cells in table) for column in range(len(header))]
    lines += ["  ".join(str(cell).ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()
              for cells in table]
    lines.append("")
    for check in report["checks"]:
        verdict = {True: "holds", False: "FAILS", None: "unknown (not measured)"}[check["holds"]]
        kind = {"ratio": "ratios", "difference": "differences"}.get(check.get("compare", "ratio"), "values")
        lines.append(f"[{verdict}] {check['id']}: {check['statement']} ({kind}: {_values(check)})")
        if check.get("reason"):
            lines.append(f"    bound: {check['reason']}")
        if check["holds"] is False and check.get("explanation"):
            lines.append(f"    why: {_link(check['explanation'])}")
    summary = report["summary"]
    lines.append(f"\n{summary['in_band']} of {summary['rows']} published figures in band "
                 f"({summary['measured']} measured); checks: {summary['checks_held']} hold, "
                 f"{summary['checks_failed']} fail, {summary['checks_unknown']} unknown")
    fidelity = _fidelity_lines(report, "  ")
    if fidelity:
        lines += [*fidelity, "[!]: a configuration whose runs the host could not keep up with"]
    return "\n".join(lines)


def report_csv(report: dict[str, Any], out: TextIO) -> None:
    """One row per published figure; values in columns named with their
    metric (and so their unit); n counts values, runs the runs that gave them."""
    axes = list(report["axes"])
    metrics = [metric for metric in METRICS if any(row["metric"] == metric for row in report["rows"])]
    kinds = ("published", "satlab", "q1", "q3", "published_std", "satlab_std")
    value_columns = [f"{kind}_{metric}" for metric in metrics for kind in kinds]
    writer = csv.writer(out)
    writer.writerow([*axes, "statistic", *value_columns, "n", "runs", "failed", "ratio", "band", "in_band", "source",
                     "flags"])
    for row in report["rows"]:
        values = {f"{kind}_{row['metric']}": row.get(kind) for kind in kinds}
        writer.writerow([*(row["configuration"].get(axis, "") for axis in axes), row["statistic"],
                         *("" if values.get(column) is None else values[column] for column in value_columns),
                         row["n"], row.get("runs", ""), row["failed"],
                         "" if row["ratio"] is None else row["ratio"], row["band"] or "",
                         {True: "yes", False: "no", None: ""}[row["in_band"]], row["source"],
                         "; ".join(row.get("flags", []))])
