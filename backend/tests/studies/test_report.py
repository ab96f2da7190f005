"""A study's report on stored results: medians, IQR and n beside the
published figures, bands, and the conclusion checks."""

import csv
import io

import pytest

from satlab.engine.summary import jain_index
from satlab.service.store import Store
from satlab.studies import campaign, format_markdown, load_study, make_report, report_csv
from satlab.studies.report import run_diagnostics, spread
from tests.conftest import LABS
from tests.studies.toy import write_toy
from tests.test_store import PROVENANCE

STUDY = load_study(LABS / "studies" / "petrou2022")
PUBLISHED = {tuple(figure.configuration.values()): figure.value for figure in STUDY.published
             if figure.statistic == "median"}


def store_study_run(store: Store, campaign_id: str, value_of, iterations: int = 3, quick: bool = False,
                    fail: int | None = None) -> None:
    """A study run of the 1-flow, no-Wi-Fi matrix whose runs took value_of(levels, iteration) seconds;
    item `fail` failed before any flow."""
    spec, items = campaign(STUDY, only={"wifi": ["none"], "flows": ["1"]}, iterations=iterations)
    store.create_campaign(campaign_id, spec.name, spec.model_dump(mode="json"), [item.to_dict() for item in items],
                          STUDY.id, quick)
    for item in items:
        run_id = f"{campaign_id}-{item.item_index}"
        store.create_run(run_id, item.to_dict()["scenario"], PROVENANCE, campaign_id, item.item_index)
        if item.item_index == fail:
            store.finish_run(run_id, {"run_id": run_id, "status": "failed", "error": "no TUN", "flows": [],
                                      "iterations": []})
            store.set_item(campaign_id, item.item_index, "failed", run_id)
            continue
        levels = tuple(STUDY.configuration_of(item.parameters).values())
        flow = {"flow": 0, "group": 0, "transport": "tcp", "cc": "cubic", "bytes": 20971520,
                "download_time_s": value_of(levels, item.iteration)}
        store.finish_run(run_id, {"run_id": run_id, "status": "done", "error": None, "flows": [flow],
                                  "iterations": [{"iteration": 0, "flows": [flow]}]})
        store.set_item(campaign_id, item.item_index, "done", run_id)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "satlab.db") as opened:
        yield opened


def test_every_check_holds_on_the_published_figures(store):
    # The checks state the study's own conclusions: its own medians must satisfy them.
    store_study_run(store, "c1", lambda levels, iteration: PUBLISHED[levels] * (1 + 0.01 * (iteration - 1)))
    report = make_report(STUDY, store)
    assert [check["id"] for check in report["checks"] if check["holds"] is not True] == []
    medians = [row for row in report["rows"] if row["statistic"] == "median"]
    assert all(row["ratio"] == pytest.approx(1.0) and row["in_band"] for row in medians)
    assert all(row["n"] == 3 for row in medians)


def test_a_check_fails_when_satlab_disagrees(store):
    def value(levels, iteration):
        # FEC makes BBR 20 % faster on the DVB channel: what the study says never happens.
        faster = levels[0] == "dvb-train" and levels[2] == "picoquic-bbr" and levels[4] != "none"
        return PUBLISHED[levels] * (0.8 if faster else 1.0)
    store_study_run(store, "c1", value)
    checks = {check["id"]: check for check in make_report(STUDY, store)["checks"]}
    assert checks["fec-never-helps-bbr"]["holds"] is False
    failing = [c for c in checks["fec-never-helps-bbr"]["comparisons"] if not c["holds"]]
    assert {c["numerator"]["channel"] for c in failing} == {"dvb-train"}
    assert failing[0]["ratio"] == pytest.approx(0.8 * 23.67 / 23.56)
    assert checks["losses-hurt-cubic-dvb"]["holds"] is True


def test_report_gives_median_iqr_and_n_and_marks_the_band(store):
    # CUBIC on the optical channel without FEC takes 2x the published time: outside "within x1.5".
    def value(levels, iteration):
        slow = levels[:3] == ("optical", "none", "tcp-cubic") and levels[4] == "none"
        return PUBLISHED[levels] * (2 if slow else 1) + iteration
    store_study_run(store, "c1", value, iterations=4)
    row = next(row for row in make_report(STUDY, store)["rows"]
               if tuple(row["configuration"].values()) == ("optical", "none", "tcp-cubic", "1", "none"))
    assert (row["satlab"], row["q1"], row["q3"], row["n"]) == (182.84 + 1.5, 182.84 + 0.75, 182.84 + 2.25, 4)
    assert row["ratio"] == pytest.approx((182.84 + 1.5) / 91.42)
    assert (row["band"], row["in_band"]) == ("within ×1.5 either way", False)


def test_report_counts_failed_runs_apart(store):
    store_study_run(store, "c1", lambda levels, iteration: PUBLISHED[levels], fail=0)
    row = next(row for row in make_report(STUDY, store)["rows"]
               if tuple(row["configuration"].values()) == ("ideal", "none", "tcp-cubic", "1", "none"))
    assert (row["n"], row["failed"]) == (2, 1)


def test_report_prefers_full_runs_to_quick_ones(store):
    store_study_run(store, "quick", lambda levels, iteration: 1.0, iterations=1, quick=True)
    assert make_report(STUDY, store)["quick"] is True
    store_study_run(store, "full", lambda levels, iteration: PUBLISHED[levels], iterations=1)
    report = make_report(STUDY, store)
    assert (report["quick"], [c["campaign_id"] for c in report["campaigns"]]) == (False, ["full"])
    assert make_report(STUDY, store, ["quick"])["quick"] is True
    with pytest.raises(KeyError, match="no run of study petrou2022 with campaign id nope"):
        make_report(STUDY, store, ["nope"])


def test_report_csv_names_its_units(store):
    store_study_run(store, "c1", lambda levels, iteration: PUBLISHED[levels], iterations=1)
    out = io.StringIO()
    report_csv(make_report(STUDY, store), out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert {"published_download_time_s", "satlab_download_time_s", "q1_download_time_s"} <= set(rows[0])
    assert (rows[0]["channel"], rows[0]["published_download_time_s"], rows[0]["in_band"]) == ("ideal", "17.84", "yes")
    assert len(rows) == len(STUDY.published)


def test_spread_of_one_value_has_no_std():
    assert spread([3.0]) == {"n": 1, "median": 3.0, "q1": 3.0, "q3": 3.0, "std": None, "min": 3.0, "max": 3.0}
    assert spread([1.0, 2.0, 3.0, 4.0, 100.0])["median"] == 3.0


def test_run_diagnostics_tell_how_losses_met_the_flow():
    result = {"iterations": [{"link": {"forward": {"drops_channel": 58}},
                              "tcp_stack": {"server": {"loss_recoveries": 20, "rtos": 4, "retransmitted_segments": 56}},
                              "fec": {"forward": {"lost": 10, "recovered": 9, "residual_loss": 0.002}}}]}
    assert run_diagnostics(result) == {"channel_drops": 58, "loss_recoveries": 20, "rtos": 4,
                                       "retransmitted_segments": 56, "drops_per_loss_event": 58 / 24,
                                       "fec_lost": 10, "fec_recovered": 9, "fec_residual_loss": 0.002}
    assert run_diagnostics({"iterations": []}) == {}


def test_a_report_of_a_study_of_experiments_gives_each_metric_its_column(tmp_path):
    # The toy study (two experiments) run once: a flow moves 1 MB per second; pairs share 0.75 : 0.25.
    toy = load_study(write_toy(tmp_path))
    spec, items = campaign(toy, iterations=2)
    with Store(tmp_path / "satlab.db") as store:
        store.create_campaign("c1", spec.name, spec.model_dump(mode="json"), [item.to_dict() for item in items],
                              toy.id, False)
        for item in items:
            run_id = f"c1-{item.item_index}"
            store.create_run(run_id, item.to_dict()["scenario"], PROVENANCE, "c1", item.item_index)
            flows = [{"iteration": 0, "flow": index, "group": index, "direction": "download",
                      "download_time_s": flow.size_bytes / 1e6 + item.iteration,
                      "goodput_mbps": 8.0 * share, "error": None}
                     for index, (flow, share) in enumerate(zip(item.scenario.flows, (0.75, 0.25), strict=False))]
            jain = jain_index([flow["goodput_mbps"] for flow in flows]) if len(flows) > 1 else None
            store.finish_run(run_id, {"run_id": run_id, "status": "done", "error": None, "flows": flows,
                                      "iterations": [{"iteration": 0, "flows": flows, "jain_index": jain}]})
            store.set_item("c1", item.item_index, "done", run_id)
        report = make_report(toy, store)
    assert list(report["axes"]) == ["experiment", "cc", "size", "second"]
    assert report["experiments"] == {"single": "One flow against its size",
                                     "pair": "Two flows, the second a second later"}
    assert list(report["metrics"]) == ["download_time_s", "jain_index"]
    single, _, pair = report["rows"]
    assert (single["satlab"], single["ratio"], single["in_band"]) == (1.5, 1.0, True)
    # A published mean is held to its band too; jain of 0.75 : 0.25 is 0.8, 0.8 / 0.9 is out of ±10 %.
    assert (pair["metric"], pair["statistic"], pair["satlab"]) == ("jain_index", "mean", pytest.approx(0.8))
    assert (pair["band"], pair["in_band"]) == ("±10 %", False)
    entry = next(entry for entry in report["configurations"] if entry["configuration"]["experiment"] == "pair")
    assert set(entry["metrics"]) == {"download_time_s", "jain_index"} and entry["metrics"]["jain_index"]["n"] == 2
    checks = {check["id"]: check for check in report["checks"]}
    assert checks["bigger-takes-longer"]["holds"] is True
    assert [c["ratio"] for c in checks["bigger-takes-longer"]["comparisons"]] == [pytest.approx(3.5 / 1.5)] * 3
    # Without a denominator the bound is on the median itself.
    assert [(c["denominator"], c["ratio"]) for c in checks["pairs-share"]["comparisons"]] == [
        (None, pytest.approx(0.8))] * 4
    assert checks["pairs-share"]["holds"] is True
    out = io.StringIO()
    report_csv(report, out)
    header, *rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert header[:5] == ["experiment", "cc", "size", "second", "statistic"]
    assert {"published_download_time_s", "satlab_jain_index"} <= set(header)
    assert rows[2][:4] == ["pair", "bbr", "", "reno"]
    markdown = format_markdown(report)
    assert "| pair | bbr | - | reno | jain_index | 0.90 | 0.80 [0.80–0.80] | 2 |" in markdown
    # satlab's figures of every metric per configuration, published or not.
    assert "| experiment | cc | size | second | download_time_s | jain_index | failed |" in markdown
    assert "| pair | bbr | - | reno | 2.00 [1.75–2.25] (2) | 0.80 [0.80–0.80] (2) | 0 |" in markdown
