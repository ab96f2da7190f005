"""A campaign's record: the campaign as a file that another store takes back.

A store is one machine's SQLite file, and a campaign of many run-hours can
outlive the machine it started on (a lab host reinstalled, a runner
replaced). `satlab record ID -o FILE` writes what the campaign's results
are: its spec, each item (configuration, iteration, parameters, the
scenario it runs, whether it is done) and each finished run of it, with
its scenario, provenance, the engine's whole result (flows, iterations,
fidelity evidence and verdict) and its times. `satlab restore FILE` puts
all of that into another store. There, `satlab campaign --resume ID` runs
only what is left, and `--redo-unfaithful` reads the same verdicts as on
the machine that ran them. Live samples, captures and qlogs stay with the
store that ran them: a record carries results, not traces (about 11 kB a
run).

The format is JSON Lines, so that a record kept in git grows by lines as
its campaign does. The first line is {"satlab_campaign_record": 1,
"campaign": {...}}, then one line per item: {"item": {...}, "runs": [...]}.

A record comes from elsewhere and is read by a process that runs as root,
so it is validated whole before anything is stored: its spec as a campaign
file's, each item's scenario as an API request's, each result's shape.
It is refused with sentences naming the line and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from satlab.scenario import ScenarioError, Strict, check_depth, describe, validate
from satlab.service.campaign import MAX_RUNS, parse_spec
from satlab.service.store import FINISHED, Store

VERSION = 1
# One line holds an item and every run it had; a run's result is about 10 kB. A longer
# line is refused before it is read whole (a gzipped record may inflate a thousandfold).
MAX_LINE_CHARACTERS = 8 << 20
MAX_RUNS_PER_ITEM = 64  # a run, the one after its worker vanished, and each --redo-unfaithful round's
CAMPAIGN_ID_PATTERN = r"^c[0-9a-f]{8}$"  # satlab.service.campaign_driver
RUN_ID_PATTERN = r"^[0-9a-f]{6}$"  # satlab.engine.plan.new_run_id
Seconds = Annotated[float, Field(ge=0, allow_inf_nan=False)]  # unix seconds, as every time of the store


class _Open(BaseModel):
    """The shape of a result that the store reads; its other fields are kept as they are."""
    model_config = ConfigDict(extra="allow", strict=True)


class _Flow(_Open):
    flow: int = Field(ge=0)


class _Iteration(_Open):
    iteration: int = Field(ge=0)
    flows: list[_Flow] = []
    fidelity: dict[str, Any] | None = None


class _Result(_Open):
    status: Literal["done", "failed", "cancelled"]
    error: str | None = None
    iterations: list[_Iteration] = []
    fidelity: dict[str, Any] | None = None


class _Campaign(Strict):
    campaign_id: str = Field(pattern=CAMPAIGN_ID_PATTERN)
    name: str
    spec: dict[str, Any]
    study: str | None = None
    study_quick: bool = False
    created_at: Seconds
    finished_at: Seconds | None = None


class _Run(Strict):
    run_id: str = Field(pattern=RUN_ID_PATTERN)
    attempt: int = Field(default=1, ge=1)
    worker: str | None = None
    status: Literal["done", "failed", "cancelled"]
    error: str | None = None
    scenario: dict[str, Any]
    provenance: dict[str, Any]
    result: dict[str, Any]
    created_at: Seconds
    started_at: Seconds | None = None
    finished_at: Seconds

    @field_validator("result")
    @classmethod
    def _shaped(cls, result: dict[str, Any]) -> dict[str, Any]:
        _Result.model_validate(result)
        return result


class _Item(Strict):
    item_index: int = Field(ge=0, lt=MAX_RUNS)
    configuration: int = Field(ge=0, lt=MAX_RUNS)
    iteration: int = Field(ge=0, lt=MAX_RUNS)
    parameters: dict[str, Any]
    scenario: dict[str, Any]
    status: Literal["pending", "done", "failed"]  # what a resume does with it: run it, or keep its run
    run_id: str | None = None  # its run, for a done or failed item


class _ItemLine(Strict):
    item: _Item
    runs: list[_Run] = Field(default=[], max_length=MAX_RUNS_PER_ITEM)  # oldest first


class _Header(Strict):
    satlab_campaign_record: Literal[1]
    campaign: _Campaign


@dataclass(frozen=True)
class Record:
    """A campaign's record, validated: the store's rows (store.restore_campaign)."""
    campaign: dict[str, Any]
    items: list[dict[str, Any]]
    runs: list[dict[str, Any]]

    @property
    def left(self) -> int:
        """Items a resume runs."""
        return sum(item["status"] == "pending" for item in self.items)

    @property
    def done(self) -> int:
        return sum(item["status"] == "done" for item in self.items)


def write_record(store: Store, campaign_id: str, out: TextIO) -> int:
    """The campaign's record into out, as it stands: items whose run has not
    finished are recorded as left to run. KeyError if there is no such
    campaign; returns how many items are done."""
    campaign = store.get_campaign(campaign_id)
    if campaign is None:
        raise KeyError(f"there is no campaign {campaign_id!r} in {store.path}")
    header = {"campaign_id": campaign_id, "name": campaign.name, "spec": campaign.spec, "study": campaign.study,
              "study_quick": campaign.study_quick, "created_at": campaign.created_at,
              "finished_at": campaign.finished_at}
    _write_line(out, {"satlab_campaign_record": VERSION, "campaign": header})
    attempts = {item.item_index: item.attempts for item in campaign.items}
    done = 0
    for item in store.campaign_items(campaign_id):
        runs = [run for attempt in attempts[item.item_index]
                if (run := store.get_run(attempt.run_id)) is not None and run.status in FINISHED]
        kept = item.status in ("done", "failed") and any(run.run_id == item.run_id for run in runs)
        done += kept and item.status == "done"
        _write_line(out, {
            "item": {"item_index": item.item_index, "configuration": item.configuration, "iteration": item.iteration,
                     "parameters": item.parameters, "scenario": item.scenario,
                     "status": item.status if kept else "pending", "run_id": item.run_id if kept else None},
            "runs": [{"run_id": run.run_id, "attempt": run.attempt, "worker": run.worker, "status": run.status,
                      "error": run.error, "scenario": run.scenario, "provenance": run.provenance,
                      "result": run.result or {"status": run.status, "error": run.error},
                      "created_at": run.created_at, "started_at": run.started_at, "finished_at": run.finished_at}
                     for run in runs]})
    return done


def _write_line(out: TextIO, value: dict[str, Any]) -> None:
    out.write(json.dumps(value, separators=(",", ":"), sort_keys=True) + "\n")


def read_record(stream: TextIO) -> Record:
    """The record in stream (a file's text), validated whole; ScenarioError
    with one sentence per problem (`line 3: item.scenario.flows.0.cc: ...`)
    if it is not a campaign's record."""
    problems: list[str] = []
    header: _Header | None = None
    items: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    run_ids: set[str] = set()
    item_indices: set[int] = set()
    for number, line in enumerate(iter(lambda: stream.readline(MAX_LINE_CHARACTERS + 1), ""), 1):
        if not line.strip():
            continue
        where = f"line {number}"
        data = _json_line(line, where)
        if header is None:
            header = _parsed(_Header, data, where)
            try:
                spec = parse_spec(header.campaign.spec)
            except ScenarioError as error:
                raise ScenarioError([f"{where}: campaign.spec.{problem}" for problem in error.problems]) from None
            if spec.name != header.campaign.name:
                raise ScenarioError([f"{where}: campaign.name: is {header.campaign.name!r}, and its spec's name "
                                     f"{spec.name!r}"])
            continue
        entry = _parsed(_ItemLine, data, where)
        problems += _item_problems(entry, where, run_ids, item_indices)
        campaign_id = header.campaign.campaign_id
        items.append({**entry.item.model_dump(), "campaign_id": campaign_id})
        runs += [{**run.model_dump(), "campaign_id": campaign_id, "item_index": entry.item.item_index}
                 for run in entry.runs]
        if len(problems) >= 20 or len(items) > MAX_RUNS:
            break
    if header is None:
        problems.append("line 1: a campaign's record starts with its campaign (satlab record writes it); "
                        "the file is empty")
    if len(items) > MAX_RUNS:
        problems.append(f"a campaign has at most {MAX_RUNS} items")
    if problems:
        raise ScenarioError(problems)
    assert header is not None
    return Record(header.campaign.model_dump(), items, runs)


def _json_line(line: str, where: str) -> Any:
    if len(line) > MAX_LINE_CHARACTERS:
        raise ScenarioError([f"{where}: is longer than {MAX_LINE_CHARACTERS >> 20} Mi characters, the most a "
                             "record's line may be"])
    try:
        data = json.loads(line)
    except ValueError as error:
        raise ScenarioError([f"{where}: is not JSON ({error})"]) from None
    check_depth(data, where)
    return data


def _parsed[M: BaseModel](model: type[M], data: Any, where: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ScenarioError([f"{where}: {describe(problem)}" for problem in error.errors()]) from None


def _scenario_problems(scenario: dict[str, Any], field: str) -> list[str]:
    """Why scenario would not be run (as an API request's), each sentence starting with field."""
    try:
        validate(scenario)
    except ScenarioError as error:
        return [f"{field}.{problem}" for problem in error.problems]
    return []


def _item_problems(entry: _ItemLine, where: str, run_ids: set[str], item_indices: set[int]) -> list[str]:
    """What makes an item line inconsistent, itself or with the lines before it."""
    item = entry.item
    problems = _scenario_problems(item.scenario, f"{where}: item.scenario")
    if item.item_index in item_indices:
        problems.append(f"{where}: item.item_index: item {item.item_index} is recorded twice")
    item_indices.add(item.item_index)
    for number, run in enumerate(entry.runs):
        problems += _scenario_problems(run.scenario, f"{where}: runs.{number}.scenario")
        if run.run_id in run_ids:
            problems.append(f"{where}: runs.{number}.run_id: run {run.run_id} is recorded twice")
        run_ids.add(run.run_id)
        if run.result["status"] != run.status:
            problems.append(f"{where}: runs.{number}.result.status: is {run.result['status']!r}, and the run's "
                            f"status {run.status!r}")
    statuses = {run.run_id: run.status for run in entry.runs}
    if item.status == "pending" and item.run_id is not None:
        problems.append(f"{where}: item.run_id: an item left to run has no run (got {item.run_id!r})")
    if item.status != "pending" and statuses.get(item.run_id or "") != item.status:
        problems.append(f"{where}: item.run_id: a {item.status} item names one of its runs, {item.status} too "
                        f"(got {item.run_id!r})")
    return problems


def restore(store: Store, record: Record) -> None:
    """The record into store, whole or not at all; ScenarioError if its
    campaign or one of its runs is in the store already."""
    try:
        store.restore_campaign(record.campaign, record.items, record.runs)
    except KeyError as error:
        raise ScenarioError([str(error.args[0])]) from None
