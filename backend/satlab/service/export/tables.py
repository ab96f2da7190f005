"""The tables a run or a campaign exports, as header and rows of values
(numbers, text, booleans, None for unknown), before any file format: CSV and
Parquet write the same tables, so they have the same columns and cells.

Sample counters of satlink and swf-tunnel are cumulative since the tool
started (at the start of each iteration), the PEP's since its flow's
connections started; `t_s` counts from the iteration's first sample. A
campaign's sample tables are its runs' tables one after the other (`run_id`
tells them apart; the campaign summary gives each run's configuration).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from satlab.service.campaign import campaign_parameter_paths, format_value
from satlab.service.export.columns import (
    FEC_COLUMNS,
    FEC_DELAY_PERCENTILES,
    FIDELITY_COLUMNS,
    FLOW_COLUMNS,
    FLOW_SAMPLE_COLUMNS,
    FLOW_SUMMARY_COLUMNS,
    LINK_COLUMNS,
    LINK_DIRECTIONS,
    LINK_SAMPLE_COLUMNS,
    PEP_SAMPLE_COLUMNS,
    TIME_LIMIT_COLUMNS,
    TUNNEL_SAMPLE_COLUMNS,
)
from satlab.service.store import FlowSummaryRow, IterationRow, RunRow, Store


@dataclass(frozen=True)
class Table:
    """One exported table: `name` is its kind (flow-samples, summary...)."""
    name: str
    header: list[str]
    rows: list[list[Any]]


def require_run(store: Store, run_id: str) -> RunRow:
    run = store.get_run(run_id)
    if run is None:
        raise KeyError(f"no run {run_id!r}")
    return run


@dataclass(frozen=True)
class SampleTable:
    """A sample table of a run: its rows from the store, its columns renamed."""
    name: str
    select: Callable[[Store, str], Sequence[object]]
    columns: dict[str, str]  # stored name -> column

    @property
    def header(self) -> list[str]:
        return ["run_id", *self.columns.values()]

    def __call__(self, store: Store, run_id: str) -> Table:
        require_run(store, run_id)
        return Table(self.name, self.header, [[run_id, *(getattr(sample, key) for key in self.columns)]
                                              for sample in self.select(store, run_id)])


flow_samples = SampleTable("flow-samples", Store.flow_samples, FLOW_SAMPLE_COLUMNS)
link_samples = SampleTable("link-samples", Store.link_samples, LINK_SAMPLE_COLUMNS)
tunnel_samples = SampleTable("tunnel-samples", Store.tunnel_samples, TUNNEL_SAMPLE_COLUMNS)
pep_samples = SampleTable("pep-samples", Store.pep_samples, PEP_SAMPLE_COLUMNS)
SAMPLE_TABLES = (flow_samples, link_samples, tunnel_samples, pep_samples)


def _iteration_values(iteration: IterationRow | None) -> list[Any]:
    fec = (iteration.fec if iteration else None) or {}
    values: list[Any] = [iteration.jain_index if iteration else None]
    for direction in ("forward", "return"):
        figures = fec.get(direction) or {}
        delay = figures.get("decoding_delay_ms") or {}
        values += [figures.get(key) for key in FEC_COLUMNS]
        values += [delay.get(p) for p in FEC_DELAY_PERCENTILES]
    for key, _, directions in LINK_DIRECTIONS:
        counters = (getattr(iteration, key) if iteration else None) or {}
        for _, stored in directions:
            values += [(counters.get(stored) or {}).get(name) for name in LINK_COLUMNS]
    fidelity = (iteration.fidelity if iteration else None) or {}
    return [*values, *(fidelity.get(key) for key in FIDELITY_COLUMNS)]


def _flow_value(flow: FlowSummaryRow, key: str, scenario: dict[str, Any]) -> Any:
    """A stored flow summary's field: a column of its own, else one of its
    details; requested_bytes is its group's size_bytes in the run's scenario."""
    if key == "requested_bytes":
        groups = scenario.get("flows") or []
        group = flow.group if flow.group is not None and flow.group < len(groups) else None
        return None if group is None else groups[group].get("size_bytes")
    return getattr(flow, key) if key in FlowSummaryRow.__dataclass_fields__ else flow.details.get(key)


def _flow_rows(store: Store, run: RunRow | None) -> list[tuple[int | None, list[Any]]]:
    """(iteration, FLOW_COLUMNS values) per iteration and flow of a run, then
    per flow of the iteration its time limit stopped (what the flow had
    taken: TIME_LIMIT_COLUMNS); one row of empty values for a run that is
    missing or has no flows."""
    stopped = (run.timed_out if run is not None else None) or {}
    if run is None or not (run.flows or stopped):
        return [(None, [None] * len(FLOW_COLUMNS))]
    iterations = {row.iteration: row for row in store.iterations(run.run_id)}
    rows: list[tuple[int | None, list[Any]]] = [
        (flow.iteration, [*(_flow_value(flow, key, run.scenario) for key in FLOW_SUMMARY_COLUMNS),
                          *[None] * len(TIME_LIMIT_COLUMNS), *_iteration_values(iterations.get(flow.iteration))])
        for flow in run.flows]
    return rows + [(stopped["iteration"], [*(taken.get(key) if key in ("flow", "direction") else None
                                             for key in FLOW_SUMMARY_COLUMNS),
                                           *(taken.get(key) for key in TIME_LIMIT_COLUMNS), *_iteration_values(None)])
                   for taken in stopped.get("flows", [])]


def summary(store: Store, run_id: str) -> Table:
    """One row per iteration and flow: the flow's figures, its iteration's
    (Jain's index, FEC per tunnel direction, link counters), the run's seed and status."""
    run = require_run(store, run_id)
    header = ["run_id", "name", "iteration", *FLOW_COLUMNS, "seed", "status", "error"]
    return Table("summary", header, [[run_id, run.name, iteration, *values, run.scenario.get("seed"), run.status,
                                      run.error] for iteration, values in _flow_rows(store, run)])


def campaign_summary(store: Store, campaign_id: str) -> Table:
    """One row per item and flow: the item, its matrix parameters (one column
    per dotted path each configuration sets), the fixed overrides (one column
    per dotted path of the campaign's set, the same on every row), its seed,
    then the summary's per-flow columns. An item without flows (not run yet,
    or failed before any) has one row."""
    campaign = store.get_campaign(campaign_id)
    if campaign is None:
        raise KeyError(f"no campaign {campaign_id!r}")
    parameters = campaign_parameter_paths(campaign.spec.get("matrix") or {})
    fixed = campaign.spec.get("set") or {}
    header = ["campaign_id", "item_index", "configuration", "iteration", "run_id", "status", *parameters,
              *fixed, "seed", *FLOW_COLUMNS, "error"]
    rows = []
    for item in store.campaign_items(campaign_id):
        run = store.get_run(item.run_id) if item.run_id is not None else None
        head = [campaign_id, item.item_index, item.configuration, item.iteration, item.run_id, item.status,
                *(format_value(item.parameters.get(path)) for path in parameters),
                *(format_value(value) for value in fixed.values()), item.scenario.get("seed")]
        rows += [[*head, *values, run.error if run else None] for _, values in _flow_rows(store, run)]
    return Table("campaign", header, rows)


def campaign_run_ids(store: Store, campaign_id: str) -> list[str]:
    """The runs of the campaign's items, in item order (items not run yet have none)."""
    if store.get_campaign(campaign_id) is None:
        raise KeyError(f"no campaign {campaign_id!r}")
    return [item.run_id for item in store.campaign_items(campaign_id) if item.run_id is not None]


def campaign_samples(store: Store, campaign_id: str) -> list[Table]:
    """Each sample table of the campaign's runs, their rows one run after the other."""
    run_ids = campaign_run_ids(store, campaign_id)
    return [Table(table.name, table.header, [row for run_id in run_ids for row in table(store, run_id).rows])
            for table in SAMPLE_TABLES]
