"""A study's report (satlab.studies.report) as a reader gets it: text for
the terminal, Markdown tables for a study's README, and CSV. A figure a
run stopped at its time limit could raise reads "≥" (its least)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from satlab.studies.fidelity import describe_difference

Configuration = Mapping[str, str]


def _levels(configuration: Configuration, columns: Iterable[str]) -> list[str]:
    """A configuration's levels, "-" for an axis its experiment does not vary."""
    return [configuration.get(column) or "-" for column in columns]


def _count(figures: Mapping[str, Any]) -> str:
    """n, and the runs that gave the values where they are fewer (a pooled metric: n counts flows)."""
    runs = figures.get("runs")
    return f"{figures['n']}" + (f" ({runs} runs)" if runs is not None and runs != figures["n"] else "")


def _values(check: Mapping[str, Any]) -> str:
    """Each comparison's compared value (a ratio, a difference, a median), as
    the check's bounds read it; with a censored median, its least and most."""
    def value(comparison: Mapping[str, Any]) -> str:
        if comparison.get("value_range"):
            least, most = comparison["value_range"]
            return f"≥{_number(least)}" if most is None else f"{_number(least)}–{_number(most)}"
        return _number(comparison.get("value", comparison["ratio"]))
    return ", ".join(value(comparison) for comparison in check["comparisons"])


def _failed(row: Mapping[str, Any]) -> str:
    """How many of a row's or configuration's runs failed, and of them timed out (their times censored)."""
    if not row["failed"]:
        return ""
    return f" ({row['failed']} failed" + (f", {row['timed_out']} timed out" if row.get("timed_out") else "") + ")"


def _ratio(row: Mapping[str, Any]) -> str:
    """A row's ratio to the published figure, with ≥ where satlab's is a bound."""
    return ("≥" if "satlab" in row.get("satlab_at_least", []) else "") + _number(row["ratio"])


def _spread_cell(figures: Mapping[str, Any], at_least: Iterable[str], number: Callable[[float | None], str],
                 central: str = "median", dash: str = "–") -> str:
    """central [q1–q3], each with ≥ before it where a censored value could raise it."""
    bounds = set(at_least)
    cell = {name: ("≥" if name in bounds else "") + number(figures[name]) for name in (central, "q1", "q3")}
    return f"{cell[central]} [{cell['q1']}{dash}{cell['q3']}]"


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
        ours = "-" if row["satlab"] is None else _spread_cell(row, row.get("satlab_at_least", []), _number, "satlab")
        failed = _failed(row)
        spreads = (f" {_number(row.get('published_std'))} | {_number(row.get('satlab_std'))} |" if deviations else "")
        verdict = {True: "yes", False: "**no**", None: "-"}[row["in_band"]]
        if row["in_band"] is False and row.get("explanation"):
            explained.append(row)
            verdict += f" ({len(explained)})"
        if row.get("flags"):
            verdict += f" ({'; '.join(row['flags'])})"
        lines.append(f"| {' | '.join(_levels(row['configuration'], axes))} | {row['metric']} | "
                     f"{_number(row['published'])} | {ours} | {_count(row)}{failed} |{spreads} "
                     f"{_ratio(row)} | {row['band']} | {verdict} |")
    if explained:
        lines += ["", *(f"({index}) {_link(row['explanation'])}" for index, row in enumerate(explained, 1))]
    metrics = list(report["metrics"])
    lines += ["", "satlab's median [IQR] (n) of each metric, per configuration:", "",
              f"| {' | '.join([*axes, *metrics])} | failed |", f"|{'---|' * (len(axes) + len(metrics) + 1)}"]
    for configuration in report["configurations"]:
        figures = [configuration["metrics"][metric] for metric in metrics]
        cells = [*_levels(configuration["configuration"], axes),
                 *(f"{_spread_cell(f, f.get('at_least', []), _number)} ({_count(f)})" if f["n"] else "-"
                   for f in figures),
                 str(configuration["failed"])
                 + (f" ({configuration['timed_out']} timed out)" if configuration.get("timed_out") else "")]
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
        at_least = row.get("satlab_at_least", [])
        ours = ("≥" if "satlab" in at_least else "") + _number(row["satlab"])
        if row["statistic"] == "median" and row["q1"] is not None:
            ours = _spread_cell(row, at_least, _number, "satlab", dash="-")
        published = _number(row["published"])
        if row.get("published_std") is not None or row.get("satlab_std") is not None:
            published += f" sd {_number(row.get('published_std'))}"
            ours += f" sd {_number(row.get('satlab_std'))}"
        verdict = {True: "yes", False: "NO", None: "-"}[row["in_band"]] + ("  [!]" if row.get("flags") else "")
        table.append([*_levels(row["configuration"], axes), row["metric"], row["statistic"], published,
                      ours, _count(row) + _failed(row),
                      _ratio(row), row["band"] or "", verdict])
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
    metric (and so their unit); n counts values, runs the runs that gave
    them; satlab_at_least names the figures that are bounds (satlab, q1,
    q3: a run the time limit stopped counts at its bound), satlab_at_most
    satlab's most (empty: exact, or no bound)."""
    axes = list(report["axes"])
    metrics = list(dict.fromkeys(row["metric"] for row in report["rows"]))  # as the rows first name them
    kinds = ("published", "satlab", "q1", "q3", "published_std", "satlab_std", "satlab_at_most")
    value_columns = [f"{kind}_{metric}" for metric in metrics for kind in kinds]
    writer = csv.writer(out)
    writer.writerow([*axes, "statistic", *value_columns, "satlab_at_least", "n", "runs", "failed", "timed_out",
                     "ratio", "band", "in_band", "source", "flags"])
    for row in report["rows"]:
        values = {f"{kind}_{row['metric']}": row.get(kind) for kind in kinds}
        writer.writerow([*(row["configuration"].get(axis, "") for axis in axes), row["statistic"],
                         *("" if values.get(column) is None else values[column] for column in value_columns),
                         " ".join(row.get("satlab_at_least", [])), row["n"], row.get("runs", ""), row["failed"],
                         row.get("timed_out", ""),
                         "" if row["ratio"] is None else row["ratio"], row["band"] or "",
                         {True: "yes", False: "no", None: ""}[row["in_band"]], row["source"],
                         "; ".join(row.get("flags", []))])
