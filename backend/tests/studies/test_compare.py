"""satlab compare: a campaign's configurations side by side, from its runs' results."""

import json

import pytest

from satlab import cli
from satlab.service.store import Store
from satlab.studies import compare
from tests.test_campaign_record import stopped_campaign


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


def test_unknown_campaigns_and_metrics_are_refused(db):
    with Store(db) as store:
        with pytest.raises(KeyError, match="no campaign 'c9999abcd'"):
            compare.compare_campaign(store, "c9999abcd")
        with pytest.raises(KeyError, match="no metric speed; the metrics are download_time_s, "):
            compare.compare_campaign(store, "c0123abcd", ["speed"])


def test_compare_on_the_command_line_as_text_markdown_and_json(db, capsys):
    assert cli.main(["--db", str(db), "compare", "c0123abcd"]) == 0
    header, cubic, bbr = capsys.readouterr().out.splitlines()
    assert header.split() == ["c", "flows.0.cc", "done", "late", "failed", "left", "download_time_s", "runs", "at",
                              "once", "lateness", "p99", "ms,", "worst"]
    assert cubic.split() == ["0", "cubic", "1", "1", "0", "1", "–", "–", "–"]
    assert bbr.split() == ["1", "bbr", "1", "0", "0", "1", "2.18", "3.5", "0.4"]
    assert cli.main(["--db", str(db), "compare", "c0123abcd", "--markdown", "--with-late"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    assert lines[2] == "| 0 | cubic | 1 | 1 | 0 | 1 | 2.18 | 3.5 | 1.4 |"
    assert cli.main(["--db", str(db), "compare", "c0123abcd", "--json", "--metric", "goodput_mbps"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures[1]["metrics"]["goodput_mbps"]["median"] == pytest.approx(1.095)
    assert cli.main(["--db", str(db), "compare", "c9999abcd"]) == 2
    assert "compare: no campaign 'c9999abcd'" in capsys.readouterr().err
