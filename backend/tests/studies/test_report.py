"""A study's report on stored results: medians, IQR and n beside the
published figures (and the standard deviations the study gives), pooled
per-flow figures, bands, the conclusion checks with their reasons, and the
recipe's explanations."""

import csv
import io
import statistics
from collections.abc import Callable, Mapping

import pytest

from satlab.api.models.studies import StudyReport
from satlab.engine.summary import jain_index
from satlab.service.store import Store
from satlab.studies import campaign, format_markdown, format_report, load_study, make_report, report_csv
from satlab.studies.report import run_diagnostics
from satlab.studies.spread import censored_spread, spread
from tests.conftest import LABS
from tests.studies.toy import write_toy
from tests.test_store import PROVENANCE

STUDY = load_study(LABS / "studies" / "petrou2022")
Levels = Mapping[str, str]
PUBLISHED = {tuple(figure.configuration.values()): figure.value for figure in STUDY.published
             if figure.statistic == "median"}


def one_flow(levels: Levels) -> float:
    """The study's single-flow figure of the same channel, transport and tunnel (its own where published)."""
    return PUBLISHED[("one-flow", levels["channel"], "none", levels["transport"], "1", levels["tunnel"])]


def study_like(levels: Levels) -> float:
    """A figure of each configuration that follows the study's conclusions: the published one where there
    is one; five flows each take five times one flow's time, and through S(5,100) or S(2,100) on a lossy
    channel 5 % more than on the ideal path; Wi-Fi makes CUBIC without FEC 30 % slower (S(2,100) repairs
    it); lighter FEC costs BBR as little as S(10,100)."""
    key = tuple(levels.values())
    if key in PUBLISHED:
        return PUBLISHED[key]
    if levels["experiment"] == "bbr-light-fec":
        return one_flow({**levels, "tunnel": "S(10,100)"})
    if levels["flows"] == "5":
        repaired = levels["tunnel"] in ("S(5,100)", "S(2,100)") and levels["channel"] != "ideal"
        return 5 * (1.05 * one_flow({**levels, "channel": "ideal"}) if repaired else one_flow(levels))
    slower = 1.3 if levels["wifi"] == "1%" and levels["transport"] == "tcp-cubic" and levels["tunnel"] == "none" else 1
    return one_flow(levels) * slower


def store_study_run(store: Store, campaign_id: str, value_of: Callable[[Levels, int, int], float],
                    iterations: int | None = 3, quick: bool = False, fail: int | None = None,
                    only: dict[str, list[str]] | None = None,
                    stopped: Callable[[Levels, int], float | None] = lambda levels, iteration: None) -> None:
    """A study run (of the one-flow experiment unless `only` says) whose flows took value_of(levels,
    iteration, flow) seconds; item `fail` failed before any flow; the time limit stopped the runs
    stopped(levels, iteration) gives a time for, their flows then running for that long."""
    spec, items = campaign(STUDY, only={"experiment": ["one-flow"]} if only is None else only, iterations=iterations)
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
        levels = STUDY.configuration_of(item.parameters)
        if (bound := stopped(levels, item.iteration)) is not None:
            taken = [{"flow": index, "direction": "download", "finished": False, "download_time_at_least_s": bound,
                      "bytes_acked": 12_000_000} for index in range(item.scenario.flows[0].count)]
            store.finish_run(run_id, {"run_id": run_id, "status": "failed", "flows": [], "iterations": [],
                                      "error": "the flows did not finish within 1458 s",
                                      "timed_out": {"iteration": 0, "limit_s": 1458.0, "flows": taken}})
            store.set_item(campaign_id, item.item_index, "failed", run_id)
            continue
        flows = [{"flow": index, "group": 0, "transport": "tcp", "cc": "cubic", "bytes": 20971520,
                  "download_time_s": value_of(levels, item.iteration, index)}
                 for index in range(item.scenario.flows[0].count)]
        store.finish_run(run_id, {"run_id": run_id, "status": "done", "error": None, "flows": flows,
                                  "iterations": [{"iteration": 0, "flows": flows}]})
        store.set_item(campaign_id, item.item_index, "done", run_id)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "satlab.db") as opened:
        yield opened


def row_of(report, **levels):
    return next(row for row in report["rows"] if row["statistic"] == "median"
                and all(row["configuration"][axis] == level for axis, level in levels.items()))


def test_every_check_holds_on_figures_that_follow_the_study(store):
    # The checks state the study's own conclusions: its own medians must satisfy them.
    store_study_run(store, "c1", lambda levels, iteration, flow: study_like(levels) * (1 + 0.01 * (iteration - 1)),
                    only={})
    report = make_report(STUDY, store)
    assert [check["id"] for check in report["checks"] if check["holds"] is not True] == []
    medians = [row for row in report["rows"] if row["statistic"] == "median"]
    assert all(row["ratio"] == pytest.approx(1.0) and row["in_band"] for row in medians)
    assert len(medians) == 27 and all(row["n"] == 3 for row in medians)


def test_runs_the_time_limit_stopped_count_at_their_bounds_and_leave_open_what_they_could_move(store):
    def stopped(levels, iteration):
        cubic = levels["transport"] == "tcp-cubic"
        if cubic and levels["channel"] == "dvb-train" and levels["tunnel"] == "none":
            return 1458.0 if iteration < 2 else None  # two of three: its median is at least 1,458 s, no most
        if cubic and levels["channel"] == "dvb-train" and levels["tunnel"] == "S(2,100)":
            return study_like(levels) if iteration < 2 else None  # two of three, at the finished run's time
        if cubic and levels["channel"] == "ideal" and levels["tunnel"] == "none":
            return 1458.0 if iteration == 0 else None  # one of three: the median is the finished runs'
        return None
    store_study_run(store, "c1", lambda levels, iteration, flow: study_like(levels), stopped=stopped)
    report = make_report(STUDY, store)
    unprotected = row_of(report, channel="dvb-train", transport="tcp-cubic", tunnel="none")
    assert (unprotected["satlab"], unprotected["n"], unprotected["runs"], unprotected["failed"]) == (1458.0, 3, 3, 2)
    assert (unprotected["satlab_at_least"], unprotected["satlab_at_most"]) == (["satlab", "q1", "q3"], None)
    assert unprotected["in_band"] is False  # at least 3.6 x the study's 405.91 s: beyond x 1.5 whatever it was
    protected = row_of(report, channel="dvb-train", transport="tcp-cubic", tunnel="S(2,100)")
    assert "satlab" in protected["satlab_at_least"] and protected["in_band"] is None  # ratio 1 or more: open
    ideal = row_of(report, channel="ideal", transport="tcp-cubic", tunnel="none")
    # Its median is the finished runs' whatever the third's time; its q3 lies between them and it.
    assert (ideal["satlab"], ideal["satlab_at_least"], ideal["in_band"]) == (17.84, ["q3"], True)
    configuration = next(entry for entry in report["configurations"]
                         if entry["configuration"] == unprotected["configuration"])
    figures = configuration["metrics"]["flow_download_time_s"]
    assert (configuration["timed_out"], figures["bounds"], figures["censored"]) == (2, [1458.0, 1458.0], 2)
    assert figures["at_most"] == {"median": None, "q1": None, "q3": None, "max": None}
    checks = {check["id"]: check for check in report["checks"]}
    # A censored numerator only makes the ratio larger: at least 1,458 / 17.84 holds "at least 3".
    (hurt,) = checks["losses-hurt-cubic-dvb"]["comparisons"]
    assert hurt["value_range"] == [pytest.approx(1458.0 / 17.84), None] and hurt["holds"] is True
    # "at most 1.25" with a ratio of at least 1 and no most: neither held nor failed.
    assert checks["only-s2-brings-cubic-to-ideal-dvb"]["holds"] is None
    assert checks["losses-hurt-cubic-optical"]["comparisons"][0]["value_range"] is None  # exact medians
    StudyReport.model_validate(report)  # as GET .../report types it for the browser
    markdown = format_markdown(report)
    # q1 lies between the finished run's 405.91 s and the bound.
    assert "| ≥1458.00 [≥931.96–≥1458.00] | 3 (2 failed, 2 timed out) | - | - | ≥3.59 |" in markdown
    assert "| ≥81.73 | yes |" in markdown  # losses-hurt-cubic-dvb's ratio
    line = next(line for line in format_report(report).splitlines() if "≥1458.00 [≥931.96-≥1458.00]" in line)
    assert "3 (2 failed, 2 timed out)" in line and " ≥3.59 " in line
    out = io.StringIO()
    report_csv(report, out)
    row = next(row for row in csv.DictReader(io.StringIO(out.getvalue()))
               if (row["channel"], row["transport"], row["tunnel"], row["statistic"])
               == ("dvb-train", "tcp-cubic", "none", "median"))
    assert (row["satlab_flow_download_time_s"], row["satlab_at_least"], row["timed_out"]) == ("1458.0", "satlab q1 q3",
                                                                                             "2")


def test_a_censored_figure_is_exact_where_no_longer_time_could_move_it():
    plain = censored_spread([100.0, 200.0, 300.0], [])
    assert (plain["censored"], plain["at_least"], plain["at_most"], plain["std"]) == (0, [], {}, 100.0)
    # Four values, one censored at 250: the median is 225 to 250 (200 and the 3rd value, 250 to 300);
    # q3 and the largest have no most; q1 is 100 and 200's, whatever the censored value.
    figures = censored_spread([100.0, 200.0, 300.0], [250.0])
    assert (figures["n"], figures["median"], figures["at_least"]) == (4, 225.0, ["median", "q3", "max"])
    assert figures["at_most"] == {"median": 250.0, "q3": None, "max": None}
    # More than half censored: the median has no most, and the least is a bound only when all are.
    assert censored_spread([100.0], [1450.0, 1452.0])["at_least"] == ["median", "q1", "q3", "max"]
    assert censored_spread([], [1450.0, 1452.0])["at_least"] == ["median", "q1", "q3", "min", "max"]


def test_a_check_fails_when_satlab_disagrees(store):
    def value(levels, iteration, flow):
        # FEC makes BBR 20 % faster on the DVB channel: what the study says never happens.
        faster = levels["channel"] == "dvb-train" and levels["transport"] == "picoquic-bbr" \
            and levels["tunnel"] != "none"
        return study_like(levels) * (0.8 if faster else 1.0)
    store_study_run(store, "c1", value)
    checks = {check["id"]: check for check in make_report(STUDY, store)["checks"]}
    assert checks["fec-never-helps-bbr"]["holds"] is False
    failing = [c for c in checks["fec-never-helps-bbr"]["comparisons"] if not c["holds"]]
    assert {c["numerator"]["channel"] for c in failing} == {"dvb-train"}
    assert failing[0]["ratio"] == failing[0]["value"] == pytest.approx(0.8 * 23.67 / 23.56)
    assert checks["losses-hurt-cubic-dvb"]["holds"] is True
    # A check of configurations this run did not measure is unknown, not failed.
    assert checks["s5-enough-for-five-flows-dvb"]["holds"] is None


def test_a_check_carries_its_reason_and_a_failing_one_its_explanation(store):
    # BBR 8 % faster through FEC on the DVB channel: fec-never-helps-bbr fails, as satlab's did.
    def value(levels, iteration, flow):
        faster = levels["channel"] == "dvb-train" and levels["transport"] == "picoquic-bbr" \
            and levels["tunnel"] != "none"
        return study_like(levels) * (0.92 if faster else 1.0)
    store_study_run(store, "c1", value, iterations=1)
    report = make_report(STUDY, store)
    check = next(check for check in report["checks"] if check["id"] == "fec-never-helps-bbr")
    assert check["reason"].startswith("The study's smallest ratio of BBR with FEC to BBR without is 1.00")
    assert check["explanation"] == {
        "text": "With picoquic 1.1.53's bbr1 slowing at the DVB outages, FEC that hides them makes it faster.",
        "section": "4. picoquic's BBR: which BBR", "readme": "README.md#4-picoquics-bbr-which-bbr"}
    markdown = format_markdown(report)
    assert ("| **no**: With picoquic 1.1.53's bbr1 slowing at the DVB outages, FEC that hides them makes it "
            "faster. ([4. picoquic's BBR: which BBR](README.md#4-picoquics-bbr-which-bbr)) |") in markdown
    text = format_report(report)
    assert "    bound: The study's smallest ratio of BBR with FEC to BBR without is 1.00" in text
    assert "    why: With picoquic 1.1.53's bbr1 slowing at the DVB outages" in text


def test_a_difference_check_bounds_seconds_not_ratios(store):
    # picoquic's BBR 8 s slower than ideal on the DVB channel without FEC: beyond "a few seconds" (7 s).
    def value(levels, iteration, flow):
        if levels["transport"] == "picoquic-bbr" and levels["tunnel"] == "none" and levels["channel"] != "ideal":
            return 17.38 + (8.0 if levels["channel"] == "dvb-train" else 2.0)
        return study_like(levels)
    store_study_run(store, "c1", value, iterations=1, only={"experiment": ["one-flow", "one-flow-wifi"]})
    check = next(check for check in make_report(STUDY, store)["checks"] if check["id"] == "bbr-within-seconds-of-ideal")
    assert check["compare"] == "difference" and check["at_most"] == 7
    assert [(c["numerator"]["experiment"], c["numerator"]["channel"], c["value"], c["holds"])
            for c in check["comparisons"]] == [
        ("one-flow", "optical", pytest.approx(2.0), True), ("one-flow", "dvb-train", pytest.approx(8.0), False),
        ("one-flow-wifi", "optical", pytest.approx(2.0), True),
        ("one-flow-wifi", "dvb-train", pytest.approx(8.0), False)]
    assert check["comparisons"][1]["ratio"] == pytest.approx(25.38 / 17.38)
    assert check["holds"] is False


def test_five_flows_pool_every_flows_download(store):
    # Five flows per run, each its own sample: the median over runs x flows, not over the runs' means.
    def value(levels, iteration, flow):
        return 100.0 if flow == 4 else 20.0 + iteration
    store_study_run(store, "c1", value, iterations=None, only={"experiment": ["five-flows"], "channel": ["ideal"],
                                                               "transport": ["tcp-cubic"], "tunnel": ["none"]})
    (entry,) = make_report(STUDY, store)["configurations"]
    figures = entry["metrics"]["flow_download_time_s"]
    # The study's five-flow experiments run 5 iterations: 25 downloads.
    assert (figures["n"], figures["runs"]) == (25, 5)
    assert figures["median"] == 23.0  # the runs' means, 36 + 0.8 x iteration, would give 37.6
    assert figures["values"].count(100.0) == 5
    assert entry["metrics"]["sender_dsack_undos"] == {**censored_spread([], []), "values": [], "bounds": [],
                                                      "runs": 0}


def test_report_gives_the_studys_standard_deviation_beside_satlabs(store):
    store_study_run(store, "c1", lambda levels, iteration, flow: study_like(levels) + 0.25 * iteration, iterations=4,
                    only={"experiment": ["one-flow", "hystart", "no-fec-tunnel"], "channel": ["ideal"]})
    report = make_report(STUDY, store)
    row = row_of(report, experiment="one-flow", transport="tcp-cubic", tunnel="none")
    assert (row["published_std"], row["satlab_std"]) == (0.34, pytest.approx(statistics.stdev([0, 0.25, 0.5, 0.75])))
    assert row_of(report, experiment="hystart")["published_std"] == 3.81
    assert row_of(report, experiment="one-flow", transport="tcp-cubic", tunnel="S(2,100)")["published_std"] is None
    # The std rows are still there, reported and not judged.
    spreads = [row for row in report["rows"] if row["statistic"] == "std"]
    assert len(spreads) == 5 and all(row["in_band"] is None and row["published_std"] is None for row in spreads)
    markdown = format_markdown(report)
    assert "| n | sd published | sd satlab | ratio |" in markdown
    assert ("| one-flow | ideal | none | tcp-cubic | 1 | none | flow_download_time_s | 17.84 | 18.21 [18.03–18.40] "
            "| 4 | 0.34 | 0.32 | 1.02 | ±5 % | yes |") in markdown


def test_report_gives_median_iqr_and_n_and_explains_a_row_out_of_band(store):
    # CUBIC on the optical channel without FEC takes 2x the published time: outside "within x1.5".
    def value(levels, iteration, flow):
        slow = levels["channel"] == "optical" and levels["transport"] == "tcp-cubic" and levels["tunnel"] == "none"
        return study_like(levels) * (2 if slow else 1) + iteration
    store_study_run(store, "c1", value, iterations=4)
    report = make_report(STUDY, store)
    row = row_of(report, channel="optical", transport="tcp-cubic", tunnel="none")
    assert (row["satlab"], row["q1"], row["q3"], row["n"], row["runs"]) == (
        182.84 + 1.5, 182.84 + 0.75, 182.84 + 2.25, 4, 4)
    assert row["ratio"] == pytest.approx((182.84 + 1.5) / 91.42)
    assert (row["band"], row["in_band"]) == ("within ×1.5 either way", False)
    assert row["explanation"]["section"] == "The gaps, and the experiments that explain them"
    assert row["explanation"]["readme"] == "README.md#the-gaps-and-the-experiments-that-explain-them"
    markdown = format_markdown(report)
    assert "| within ×1.5 either way | **no** (1) |" in markdown
    assert "\n(1) Without FEC, CUBIC's time on a lossy channel depends on how the losses meet its flights" in markdown
    # A row of a configuration no explanation selects has none.
    assert row_of(report, channel="ideal", transport="tcp-cubic", tunnel="none")["explanation"] is None


def test_report_counts_failed_runs_apart(store):
    store_study_run(store, "c1", lambda levels, iteration, flow: study_like(levels), fail=0)
    row = row_of(make_report(STUDY, store), channel="ideal", transport="tcp-cubic", tunnel="none")
    assert (row["n"], row["failed"]) == (2, 1)


def test_report_prefers_full_runs_to_quick_ones(store):
    store_study_run(store, "quick", lambda levels, iteration, flow: 1.0, iterations=1, quick=True)
    assert make_report(STUDY, store)["quick"] is True
    store_study_run(store, "full", lambda levels, iteration, flow: study_like(levels), iterations=1)
    report = make_report(STUDY, store)
    assert (report["quick"], [c["campaign_id"] for c in report["campaigns"]]) == (False, ["full"])
    assert make_report(STUDY, store, ["quick"])["quick"] is True
    with pytest.raises(KeyError, match="no run of study petrou2022 with campaign id nope"):
        make_report(STUDY, store, ["nope"])


def test_report_csv_names_its_units(store):
    store_study_run(store, "c1", lambda levels, iteration, flow: study_like(levels), iterations=1)
    out = io.StringIO()
    report_csv(make_report(STUDY, store), out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    # The page's CSV of a shipped report has the same columns (frontend/.../report-csv.test.ts).
    assert list(rows[0]) == [*STUDY.columns, "statistic",
                             *(f"{kind}_flow_download_time_s" for kind in ("published", "satlab", "q1", "q3",
                                                                          "published_std", "satlab_std",
                                                                          "satlab_at_most")),
                             "satlab_at_least", "n", "runs", "failed", "timed_out", "ratio", "band", "in_band",
                             "source", "flags"]
    assert (rows[0]["channel"], rows[0]["published_flow_download_time_s"], rows[0]["in_band"]) == (
        "ideal", "17.84", "yes")
    assert rows[0]["published_std_flow_download_time_s"] == "0.34"
    assert len(rows) == len(STUDY.published)


def test_spread_of_one_value_has_no_std():
    assert spread([3.0]) == {"n": 1, "median": 3.0, "q1": 3.0, "q3": 3.0, "std": None, "min": 3.0, "max": 3.0}
    assert spread([1.0, 2.0, 3.0, 4.0, 100.0])["median"] == 3.0


def test_run_diagnostics_tell_how_losses_met_the_flow():
    result = {"iterations": [{"link": {"forward": {"drops_channel": 58}},
                              "tcp_stack": {"server": {"loss_recoveries": 20, "rtos": 4, "retransmitted_segments": 56,
                                                       "dsack_undos": 3, "loss_undos": 0, "sack_reorders": 7}},
                              "fec": {"forward": {"lost": 10, "recovered": 9, "residual_loss": 0.002,
                                                  "decoding_delay_ms": {"p50": 1.0, "p99": 31.5}}}}]}
    assert run_diagnostics(result) == {"channel_drops": 58, "loss_recoveries": 20, "rtos": 4,
                                       "retransmitted_segments": 56, "dsack_undos": 3, "loss_undos": 0,
                                       "sack_reorders": 7, "drops_per_loss_event": 58 / 24,
                                       "fec_lost": 10, "fec_recovered": 9, "fec_residual_loss": 0.002,
                                       "fec_decoding_delay_p99_ms": 31.5}
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
    assert [(c["denominator"], c["ratio"], c["value"]) for c in checks["pairs-share"]["comparisons"]] == [
        (None, pytest.approx(0.8), pytest.approx(0.8))] * 4
    assert (checks["pairs-share"]["holds"], checks["pairs-share"]["compare"]) == (True, "value")
    assert checks["pairs-share"]["reason"] is None and checks["pairs-share"]["explanation"] is None
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
