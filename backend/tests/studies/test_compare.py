"""satlab compare: a campaign's configurations side by side, from its runs' results."""

import json

import pytest

from satlab import cli
from satlab.service.store import Store
from satlab.studies import compare
from tests.test_campaign_record import PROVENANCE, stopped_campaign, with_evidence
from tests.test_store import run_result

TIMED_OUT = {"iteration": 0, "limit_s": 1458.0, "flows": [
    {"flow": 0, "direction": "download", "finished": False, "download_time_at_least_s": 1457.5,
     "bytes_acked": 12_070_528}]}


@pytest.fixture
def db(tmp_path):
    stopped_campaign(tmp_path / "satlab.db")
    return tmp_path / "satlab.db"


def test_each_configuration_counts_its_items_and_leaves_late_runs_out_of_its_figures(db):
    with Store(db) as store:
        cubic, bbr = compare.compare_campaign(store, "c0123abcd", ["download_time_s", "sender_loss_recoveries"])
    assert (cubic.parameters, bbr.parameters) == ({"flows.0.cc": "cubic"}, {"flows.0.cc": "bbr"})
    # cubic: iteration 0 done on a host that did not keep up, iteration 1 still running.
    assert (cubic.items, cubic.done, cubic.late, cubic.failed) == (2, 1, 1, 0)
    assert cubic.values == {"download_time_s": [], "sender_loss_recoveries": []}
    # bbr: iteration 0 done (its first attempt failed; the item holds the second), iteration 1 not started.
    assert (bbr.items, bbr.done, bbr.late, bbr.failed) == (2, 1, 0, 0)
    assert bbr.values["download_time_s"] == [pytest.approx(2.180217)]
    assert bbr.values["sender_loss_recoveries"] == []  # the results carry no kernel counters
    assert bbr.host == {"runs_at_once_mean": [3.5], "lateness_p99_ms": [0.4]}  # the worse of satlink's and the tunnel's
    with Store(db) as store:
        cubic, _ = compare.compare_campaign(store, "c0123abcd", with_late=True)
    assert cubic.late == 1 and cubic.values["download_time_s"] == [pytest.approx(2.180217)]


def test_a_late_run_whose_run_again_was_cancelled_still_counts(db):
    """Runs again of late ones (--redo-unfaithful-rounds) stopped before they
    ended: each item keeps its late run, which with_late takes."""
    with Store(db) as store:
        store.create_run("aaaaa5", store.campaign_items("c0123abcd")[0].scenario, PROVENANCE, "c0123abcd", 0)
        store.set_item("c0123abcd", 0, "running", "aaaaa5")
        store.set_run_status("aaaaa5", "cancelled")
        store.set_item("c0123abcd", 0, "cancelled", "aaaaa5")
        cubic, _ = compare.compare_campaign(store, "c0123abcd")
        cubic_with_late, _ = compare.compare_campaign(store, "c0123abcd", with_late=True)
    assert (cubic.done, cubic.late, cubic.values["download_time_s"]) == (1, 1, [])
    assert cubic_with_late.values["download_time_s"] == [pytest.approx(2.180217)]


def _time_out_bbrs_second_iteration(store: Store, kept_up: bool) -> None:
    """bbr's second iteration stopped at its time limit, with its host's evidence."""
    scenario = store.campaign_items("c0123abcd")[3].scenario
    store.create_run("aaaaa4", scenario, PROVENANCE, "c0123abcd", 3)
    store.set_run_status("aaaaa4", "running")
    store.finish_run("aaaaa4", with_evidence({**run_result("aaaaa4", iterations=0, status="failed",
                                                       error="the flows did not finish within 1458 s"),
                                          "timed_out": TIMED_OUT}, kept_up))
    store.set_item("c0123abcd", 3, "failed", "aaaaa4")


def test_a_run_its_time_limit_stopped_gives_a_censored_download_time(db):
    with Store(db) as store:
        _time_out_bbrs_second_iteration(store, kept_up=True)
        _, bbr = compare.compare_campaign(store, "c0123abcd", ["download_time_s", "goodput_mbps"])
    assert (bbr.done, bbr.failed, bbr.timed_out, bbr.late) == (1, 1, 1, 0)
    assert bbr.host["lateness_p99_ms"] == [0.4, 0.4]  # its host's evidence beside the finished run's
    assert bbr.censored == {"download_time_s": [1457.5], "goodput_mbps": []}  # only a time is censored
    figures = bbr.to_dict()["metrics"]["download_time_s"]
    assert (figures["n"], figures["censored"], figures["std"]) == (2, 1, None)
    assert figures["median"] == pytest.approx((2.180217 + 1457.5) / 2)
    assert figures["at_least"] == ["median", "q1", "q3", "max"]  # only the least is the finished run's alone
    header, rows = compare._columns([bbr], ["download_time_s"])
    assert rows[0][header.index("timed out")] == "1"
    assert rows[0][header.index("download_time_s")] == "≥729.8 [≥366–≥1,094] (2.18–≥1,458)"


def test_a_timed_out_run_whose_host_did_not_keep_up_is_left_out_like_a_late_finished_one(db):
    with Store(db) as store:
        _time_out_bbrs_second_iteration(store, kept_up=False)
        _, bbr = compare.compare_campaign(store, "c0123abcd")
        _, bbr_with_late = compare.compare_campaign(store, "c0123abcd", with_late=True)
    assert (bbr.timed_out, bbr.late, bbr.censored) == (1, 1, {"download_time_s": []})
    assert bbr_with_late.censored == {"download_time_s": [1457.5]}


def test_a_time_is_censored_only_when_every_flow_it_takes_was_still_running():
    metric = compare.METRICS["download_time_s"]
    two = {"iteration": 0, "limit_s": 100.0, "flows": [
        {"flow": 0, "direction": "download", "finished": False, "download_time_at_least_s": 99.0},
        {"flow": 1, "direction": "upload", "finished": False, "download_time_at_least_s": 97.0}]}
    assert metric.at_least({"timed_out": two}) == [98.0]  # the mean of two bounds bounds the mean
    assert compare.METRICS["flow_download_time_s"].at_least({"timed_out": two}) == [99.0, 97.0]
    assert compare.METRICS["download_goodput_mbps"].at_least({"timed_out": two}) == []
    two["flows"][1].update(finished=True, download_time_at_least_s=None)  # its own time went with the iteration
    assert metric.at_least({"timed_out": two}) == []
    assert metric.at_least({"timed_out": {**two, "iteration": 1}}) == []  # the metrics read iteration 0
    assert metric.at_least({}) == []


def test_unknown_campaigns_and_metrics_are_refused(db):
    with Store(db) as store:
        with pytest.raises(KeyError, match="no campaign 'c9999abcd'"):
            compare.compare_campaign(store, "c9999abcd")
        with pytest.raises(KeyError, match="no metric speed; the metrics are download_time_s, "):
            compare.compare_campaign(store, "c0123abcd", ["speed"])


def test_compare_on_the_command_line_as_text_markdown_and_json(db, capsys):
    assert cli.main(["--db", str(db), "compare", "c0123abcd"]) == 0
    header, cubic, bbr = capsys.readouterr().out.splitlines()
    assert header.split() == ["c", "flows.0.cc", "done", "late", "failed", "timed", "out", "left", "download_time_s",
                              "runs", "at", "once", "lateness", "p99", "ms,", "worst"]
    assert cubic.split() == ["0", "cubic", "1", "1", "0", "0", "1", "–", "–", "–"]
    assert bbr.split() == ["1", "bbr", "1", "0", "0", "0", "1", "2.18", "3.5", "0.4"]
    assert cli.main(["--db", str(db), "compare", "c0123abcd", "--markdown", "--with-late"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    assert lines[2] == "| 0 | cubic | 1 | 1 | 0 | 0 | 1 | 2.18 | 3.5 | 1.4 |"
    assert cli.main(["--db", str(db), "compare", "c0123abcd", "--json", "--metric", "goodput_mbps"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures[1]["metrics"]["goodput_mbps"]["median"] == pytest.approx(1.095)
    assert cli.main(["--db", str(db), "compare", "c9999abcd"]) == 2
    assert "compare: no campaign 'c9999abcd'" in capsys.readouterr().err
