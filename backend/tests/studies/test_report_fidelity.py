"""A study report keeps its runs' fidelity in view: a configuration with a
run whose host did not keep up is flagged, not silently pooled; a later
study run supersedes an earlier one per configuration (prefer="latest");
runs made with another satlab, tools or kernel than their campaign's first
run are named."""

import csv
import io
import json

import pytest

from satlab.cli import main
from satlab.service.store import Store
from satlab.studies import campaign, format_markdown, format_report, load_study, make_report, report_csv
from tests.conftest import LABS
from tests.test_store import PROVENANCE

STUDY = load_study(LABS / "studies" / "petrou2022")
ONLY = {"experiment": ["one-flow"], "channel": ["ideal"], "transport": ["tcp-cubic"], "tunnel": ["none", "S(5,100)"]}
METRIC = "flow_download_time_s"


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "satlab.db") as opened:
        yield opened


def study_run(store: Store, campaign_id: str, download_time_s: float, late: set[tuple[str, int]] = frozenset(),
              provenance_of=lambda item: PROVENANCE, created_at: float | None = None) -> None:
    """A study run of ONLY, two iterations, every download taking download_time_s; the runs of (tunnel,
    iteration) in late ran on a host that did not keep up."""
    spec, items = campaign(STUDY, only=ONLY, iterations=2)
    store.create_campaign(campaign_id, spec.name, spec.model_dump(mode="json"), [item.to_dict() for item in items],
                          STUDY.id)
    for item in items:
        run_id = f"{campaign_id}-{item.item_index}"
        tunnel = STUDY.configuration_of(item.parameters)["tunnel"]
        store.create_run(run_id, item.to_dict()["scenario"], provenance_of(item), campaign_id, item.item_index)
        flows = [{"flow": 0, "group": 0, "transport": "tcp", "cc": "cubic", "bytes": 20971520,
                  "download_time_s": download_time_s}]
        kept_up = (tunnel, item.iteration) not in late
        store.finish_run(run_id, {"run_id": run_id, "status": "done", "error": None, "flows": flows,
                                  "iterations": [{"iteration": 0, "flows": flows}],
                                  "fidelity": {"host_kept_up": kept_up, "satlink_lateness_p99_ms": 0.1 if kept_up
                                               else 4.2}})
        store.set_item(campaign_id, item.item_index, "done", run_id)
    if created_at is not None:  # a study run of another day
        with store._write() as db:
            db.execute("UPDATE campaigns SET created_at = ? WHERE campaign_id = ?", (created_at, campaign_id))


def configuration(report, tunnel):
    return next(entry for entry in report["configurations"] if entry["configuration"]["tunnel"] == tunnel)


def test_a_configuration_with_a_run_whose_host_did_not_keep_up_is_flagged(store):
    study_run(store, "c1", 18.0, late={("S(5,100)", 1)})
    report = make_report(STUDY, store)
    assert configuration(report, "S(5,100)")["flags"] == ["host could not keep up (1 of 2 runs)"]
    assert configuration(report, "S(5,100)")["host_not_kept_up"] == 1
    assert configuration(report, "none")["flags"] == []
    measured = [row for row in report["rows"] if row["n"]]
    assert {row["configuration"]["tunnel"] for row in measured if row["flags"]} == {"S(5,100)"}
    assert all(row["flags"] == ["host could not keep up (1 of 2 runs)"] for row in measured
               if row["configuration"]["tunnel"] == "S(5,100)")
    text = format_report(report)
    assert "host could not keep up (1 of 2 runs)" in text and "[!]" in text
    assert "host could not keep up" in format_markdown(report)
    rows = list(csv.DictReader(io.StringIO(_csv(report))))
    assert {row["flags"] for row in rows if row["n"] != "0"} == {"", "host could not keep up (1 of 2 runs)"}
    assert {row["tunnel"] for row in rows if row["flags"]} == {"S(5,100)"}


def _csv(report) -> str:
    out = io.StringIO()
    report_csv(report, out)
    return out.getvalue()


def test_prefer_latest_takes_each_configuration_from_the_latest_study_run_that_measured_it(store):
    study_run(store, "old", 30.0, created_at=1_000.0)
    study_run(store, "new", 18.0, created_at=2_000.0)
    pooled = make_report(STUDY, store)
    latest = make_report(STUDY, store, prefer="latest")
    none = configuration(pooled, "none")["metrics"][METRIC]
    assert (none["n"], none["median"]) == (4, 24.0)  # both runs pooled: 30, 30, 18, 18
    assert configuration(latest, "none")["metrics"][METRIC]["values"] == [18.0, 18.0]
    assert latest["prefer"] == "latest"


def test_prefer_latest_keeps_a_configuration_only_an_earlier_run_measured(store):
    study_run(store, "old", 30.0, created_at=1_000.0)
    spec, items = campaign(STUDY, only={**ONLY, "tunnel": ["none"]}, iterations=1)
    store.create_campaign("rerun", spec.name, spec.model_dump(mode="json"), [item.to_dict() for item in items],
                          STUDY.id)
    store.create_run("rerun-0", items[0].to_dict()["scenario"], PROVENANCE, "rerun", 0)
    flows = [{"flow": 0, "group": 0, "transport": "tcp", "cc": "cubic", "bytes": 20971520, "download_time_s": 17.0}]
    store.finish_run("rerun-0", {"run_id": "rerun-0", "status": "done", "error": None, "flows": flows,
                                 "iterations": [{"iteration": 0, "flows": flows}]})
    store.set_item("rerun", 0, "done", "rerun-0")
    latest = make_report(STUDY, store, prefer="latest")
    assert configuration(latest, "none")["metrics"][METRIC]["values"] == [17.0]
    assert configuration(latest, "S(5,100)")["metrics"][METRIC]["values"] == [30.0, 30.0]


def test_runs_made_with_another_kernel_than_the_campaigns_first_are_named(store):
    def provenance(item):
        return {**PROVENANCE, "kernel": "6.1.0"} if item.item_index >= 2 else PROVENANCE
    study_run(store, "c1", 18.0, provenance_of=provenance)
    store.set_run_worker("c1-2", "w2", {**PROVENANCE, "kernel": "6.1.0"})
    store.set_run_worker("c1-3", "w2", {**PROVENANCE, "kernel": "6.1.0"})
    report = make_report(STUDY, store)
    assert report["provenance_differences"] == [{"campaign_id": "c1", "worker": "w2", "runs": ["c1-2", "c1-3"],
                                                 "differences": {"kernel": ["6.18.0", "6.1.0"]}}]
    assert ("worker w2 ran 2 run(s) of campaign c1 with another setup than its first run: kernel 6.18.0 -> 6.1.0"
            in format_report(report))


def test_a_report_of_runs_that_all_kept_up_says_nothing_more(store):
    study_run(store, "c1", 18.0)
    report = make_report(STUDY, store)
    assert report["provenance_differences"] == [] and not any(row["flags"] for row in report["rows"])
    assert "keep up" not in format_report(report) and "another setup" not in format_report(report)


def test_satlab_study_report_prefer_latest(store, capsys):
    study_run(store, "old", 30.0, created_at=1_000.0)
    study_run(store, "new", 18.0, created_at=2_000.0)
    assert main(["--db", str(store.path), "study", "report", "petrou2022", "--prefer", "latest", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["prefer"] == "latest"
    assert configuration(report, "none")["metrics"][METRIC]["values"] == [18.0, 18.0]
