"""A campaign's record (satlab record, satlab restore): what it carries from
one store to another, and how it refuses a file that is not one. The real
campaign run, stopped, recorded, restored elsewhere and resumed there, is
test_cli's test_campaign_interrupted_exits_130_and_resumes_elsewhere_from_its_record."""

import gzip
import io
import json
from pathlib import Path

import pytest
import yaml

from satlab import cli
from satlab.scenario import ScenarioError
from satlab.service import campaign_record
from satlab.service.campaign import campaign_from_dict
from satlab.service.store import Store
from tests.conftest import LABS
from tests.test_store import PROVENANCE, run_result

SPEC = {"name": "recorded", "scenario": "geo-ideal.yaml",
        "set": {"flows.0.size_bytes": 200_000, "flows.0.hystart": None},
        "matrix": {"flows.0.cc": ["cubic", "bbr"]}, "iterations": 2, "parallel": 2, "seed": 5}


def with_evidence(result: dict, kept_up: bool) -> dict:
    """result with a run's fidelity evidence (satlab.engine.fidelity.run_evidence, its figures trimmed)."""
    result["fidelity"] = {"host_kept_up": kept_up, "satlink_lateness_p99_ms": 1.4 if not kept_up else 0.1,
                          "tunnel_lateness_p99_ms": 0.4, "runs_at_once_mean": 3.5, "runs_at_once_max": 4,
                          "problems": [] if kept_up else ["satlink's lateness p99 was 1.4 ms"]}
    return result


@pytest.fixture
def ran(tmp_path):
    return stopped_campaign(tmp_path / "first.db")


def stopped_campaign(db: Path) -> str:
    """A store at db with a campaign c0123abcd stopped half-way, and its
    record: item 0 done (its host did not keep up), item 1 done after a first
    attempt that failed, item 2 running, item 3 not started."""
    spec, items = campaign_from_dict(SPEC, LABS, LABS)
    with Store(db) as store:
        store.create_campaign("c0123abcd", spec.name, spec.model_dump(mode="json"), [item.to_dict() for item in items])
        finished = [("aaaaa0", 0, with_evidence(run_result("aaaaa0", iterations=1), kept_up=False)),
                    ("aaaaa1", 1, run_result("aaaaa1", iterations=1, status="failed", error="iperf3 exited with 1")),
                    ("aaaaa2", 1, with_evidence(run_result("aaaaa2", iterations=1), kept_up=True))]
        for run_id, index, result in finished:
            store.create_run(run_id, items[index].to_dict()["scenario"], PROVENANCE, "c0123abcd", index)
            store.set_run_status(run_id, "running")
            store.finish_run(run_id, result)
            store.set_item("c0123abcd", index, result["status"], run_id)
        store.create_run("aaaaa3", items[2].to_dict()["scenario"], PROVENANCE, "c0123abcd", 2)
        store.set_item("c0123abcd", 2, "running", "aaaaa3")
        text = io.StringIO()
        assert campaign_record.write_record(store, "c0123abcd", text) == 2
    return text.getvalue()


def _restored(tmp_path, text: str, name: str = "second.db") -> Store:
    store = Store(tmp_path / name)
    campaign_record.restore(store, campaign_record.read_record(io.StringIO(text)))
    return store


def test_a_record_restored_elsewhere_holds_the_same_runs_and_leaves_the_rest_to_run(tmp_path, ran):
    record = campaign_record.read_record(io.StringIO(ran))
    assert (len(record.items), len(record.runs), record.left) == (4, 3, 2)
    with Store(tmp_path / "first.db") as first, _restored(tmp_path, ran) as second:
        campaign = second.get_campaign("c0123abcd")
        assert (campaign.name, campaign.status, campaign.spec) == ("recorded", "cancelled",
                                                                     first.get_campaign("c0123abcd").spec)
        assert [(item.status, item.run_id) for item in campaign.items] == [
            ("done", "aaaaa0"), ("done", "aaaaa2"), ("pending", None), ("pending", None)]
        # Both attempts of item 1 came, oldest first; the run still running did not.
        assert [attempt.run_id for attempt in campaign.items[1].attempts] == ["aaaaa1", "aaaaa2"]
        assert second.get_run("aaaaa3") is None
        for run_id in ("aaaaa0", "aaaaa1", "aaaaa2"):
            before, after = first.get_run(run_id), second.get_run(run_id)
            assert after == before
        # What --redo-unfaithful and the resume read, as in the store that ran them.
        assert [item.item_index for item in second.unfaithful_items("c0123abcd")] == [0]
        assert [item.item_index for item in second.pending_items("c0123abcd")] == [2, 3]
        assert second.pending_items("c0123abcd")[0].scenario == first.campaign_items("c0123abcd")[2].scenario
        again = io.StringIO()
        campaign_record.write_record(second, "c0123abcd", again)
    # The same record again, but for the campaign's end: the restore closed it.
    first_lines, again_lines = ran.splitlines(), again.getvalue().splitlines()
    assert first_lines[1:] == again_lines[1:]
    assert json.loads(again_lines[0])["campaign"]["finished_at"] is not None


def test_a_record_whose_items_all_finished_restores_a_done_campaign(tmp_path, ran):
    lines = [json.loads(line) for line in ran.splitlines()]
    lines = lines[:3]  # the header and the two finished items: a campaign of two
    with _restored(tmp_path, "\n".join(json.dumps(line) for line in lines)) as store:
        assert store.get_campaign("c0123abcd").status == "done"


def test_restoring_a_campaign_or_a_run_the_store_has_is_refused_and_changes_nothing(tmp_path, ran):
    with _restored(tmp_path, ran) as store, pytest.raises(ScenarioError, match="campaign c0123abcd is in .* already"):
        campaign_record.restore(store, campaign_record.read_record(io.StringIO(ran)))
    other = ran.replace("c0123abcd", "c9999abcd")  # another campaign whose runs this store holds
    with Store(tmp_path / "second.db") as store:
        with pytest.raises(ScenarioError, match="run aaaaa0, aaaaa1, aaaaa2 of campaign c9999abcd is in .* already"):
            campaign_record.restore(store, campaign_record.read_record(io.StringIO(other)))
        assert store.get_campaign("c9999abcd") is None
        assert [campaign.campaign_id for campaign in store.list_campaigns()[0]] == ["c0123abcd"]


def _edited(ran: str, line: int, edit) -> str:
    lines = [json.loads(text) for text in ran.splitlines()]
    edit(lines[line])
    return "\n".join(json.dumps(value) for value in lines)


def _set(path: str, value):
    def edit(data: dict) -> None:
        *parents, last = path.split(".")
        for part in parents:
            data = data[int(part)] if isinstance(data, list) else data[part]
        data[last] = value
    return edit


BAD = [
    (lambda ran: "", "line 1: a campaign's record starts with its campaign"),
    (lambda ran: "{not json\n", "line 1: is not JSON"),
    (lambda ran: _edited(ran, 0, _set("satlab_campaign_record", 2)),
     "line 1: satlab_campaign_record: Input should be 1"),
    (lambda ran: _edited(ran, 0, _set("campaign.campaign_id", "c0;DROP")), "line 1: campaign.campaign_id: String "
                                                                              "should match pattern"),
    (lambda ran: _edited(ran, 0, _set("campaign.spec.iterations", 0)), "line 1: campaign.spec.iterations: "),
    (lambda ran: _edited(ran, 0, _set("campaign.name", "other")), "line 1: campaign.name: is 'other', and its "
                                                                    "spec's name 'recorded'"),
    (lambda ran: _edited(ran, 1, _set("item.scenario.flows.0.cc", "tahoe")), "line 2: item.scenario.flows.0.cc: is "
                                                                               "not a congestion control of tcp"),
    (lambda ran: _edited(ran, 2, _set("runs.0.scenario.path.forward.rate_mbps", -1)),
     "line 3: runs.0.scenario.path.forward.rate_mbps: "),
    (lambda ran: _edited(ran, 2, _set("runs.1.run_id", "aaaaa0")), "line 3: runs.1.run_id: run aaaaa0 is recorded "
                                                                     "twice"),
    (lambda ran: _edited(ran, 2, _set("item.item_index", 0)), "line 3: item.item_index: item 0 is recorded twice"),
    (lambda ran: _edited(ran, 1, _set("item.run_id", None)), "line 2: item.run_id: a done item names one of its "
                                                               "runs, done too (got None)"),
    (lambda ran: _edited(ran, 3, _set("item.run_id", "aaaaa3")), "line 4: item.run_id: an item left to run has no "
                                                                   "run"),
    (lambda ran: _edited(ran, 1, _set("runs.0.result.status", "failed")), "line 2: runs.0.result.status: is 'failed', "
                                                                            "and the run's status 'done'"),
    (lambda ran: _edited(ran, 1, _set("runs.0.result.iterations.0.flows.0.flow", "one")),
     "line 2: runs.0.result.iterations.0.flows.0.flow: Input should be a valid integer"),
    (lambda ran: _edited(ran, 1, _set("runs.0.status", "running")), "line 2: runs.0.status: Input should be 'done', "
                                                                      "'failed' or 'cancelled'"),
    (lambda ran: _edited(ran, 1, _set("runs.0.finished_at", float("nan"))), "line 2: runs.0.finished_at: "),
    (lambda ran: _edited(ran, 1, _set("runs.0.owner", "someone")), "line 2: runs.0.owner: is not a known field"),
    (lambda ran: _edited(ran, 1, _set("runs.0.provenance", _deep(40))), "line 2: nests deeper than 32 levels"),
]


def _deep(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels):
        value = {"x": value}
    return value


@pytest.mark.parametrize(("make", "sentence"), BAD)
def test_a_file_that_is_not_a_campaigns_record_is_refused_naming_the_line_and_field(tmp_path, ran, make, sentence):
    with pytest.raises(ScenarioError) as refused:
        campaign_record.read_record(io.StringIO(make(ran)))
    assert any(problem.startswith(sentence) for problem in refused.value.problems), refused.value.problems


def test_a_line_longer_than_the_limit_is_refused_before_it_is_read_whole(monkeypatch):
    monkeypatch.setattr(campaign_record, "MAX_LINE_CHARACTERS", 100)
    stream = io.StringIO("x" * 1000)
    with pytest.raises(ScenarioError, match="line 1: is longer than"):
        campaign_record.read_record(stream)
    assert stream.tell() == 101


def test_record_and_restore_on_the_command_line_gzipped(tmp_path, ran, capsys):
    first, second, record = tmp_path / "first.db", tmp_path / "second.db", tmp_path / "c0123abcd.jsonl.gz"
    assert cli.main(["--db", str(first), "record", "c0123abcd", "-o", str(record)]) == 0
    assert gzip.decompress(record.read_bytes()).decode() == ran
    assert cli.main(["--db", str(second), "restore", str(record)]) == 0
    assert (f"restored campaign c0123abcd (recorded) into {second}: 2 of 4 items done, 3 runs; run the 2 left with: "
            "satlab campaign --resume c0123abcd") in capsys.readouterr().err
    assert cli.main(["--db", str(second), "restore", str(record)]) == 2
    assert f"campaign c0123abcd is in {second} already" in capsys.readouterr().err
    assert cli.main(["--db", str(second), "record", "c0ffee123"]) == 2
    assert "record: there is no campaign 'c0ffee123'" in capsys.readouterr().err


@pytest.mark.parametrize(("content", "sentence"), [
    (b"\x1f\x8b\x08garbage", "is not UTF-8 text, gzipped or not"),
    (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage", "is not UTF-8 text, gzipped or not"),
    (b"\xff\xfe\x00binary", "is not UTF-8 text, gzipped or not"),
    (None, "cannot read"),
])
def test_restore_of_what_is_not_a_record_exits_2_with_a_sentence(tmp_path, capsys, content, sentence):
    file = tmp_path / "record.jsonl"
    if content is not None:
        file.write_bytes(content)
    assert cli.main(["--db", str(tmp_path / "satlab.db"), "restore", str(file)]) == 2
    error = capsys.readouterr().err
    assert f"restore: {file}" in error or f"restore: cannot read {file}" in error
    assert sentence in error


@pytest.mark.parametrize("record", sorted(LABS.glob("studies/*/experiments/records/*.jsonl.gz")),
                         ids=lambda path: path.name)
def test_each_shipped_record_is_its_experiment_campaign_as_run(record):
    """A record kept in a study's experiments/ reads back whole, and is the
    campaign its experiment file makes today: the same spec, and each item
    the same scenario (so that restoring it and resuming runs what the file
    says)."""
    with gzip.open(record, "rt", encoding="utf-8") as lines:
        restored = campaign_record.read_record(lines)
    experiment = record.parents[1] / record.name.removesuffix(".jsonl.gz")
    spec, items = campaign_from_dict(yaml.safe_load(experiment.with_suffix(".yaml").read_text()),
                                     experiment.parent, LABS)
    assert restored.campaign["spec"] == {**spec.model_dump(mode="json"), "parallel": restored.campaign["spec"]
                                         ["parallel"]}
    assert [(item["configuration"], item["iteration"], item["scenario"]) for item in restored.items] == [
        (item.configuration, item.iteration, item.to_dict()["scenario"]) for item in items]
