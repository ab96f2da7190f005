"""A study of several experiments: the union of their matrices (not every
axis crossed with every other), each item named by its experiment and
levels, the quick run per experiment, checks and published rows that name
an experiment, and refusals naming what is wrong; and the metrics a run
gives."""

from pathlib import Path

import pytest

from satlab.scenario import ScenarioError
from satlab.studies import campaign, configurations, load_study
from satlab.studies.metrics import METRICS
from satlab.studies.spec import EXPERIMENT
from tests.studies.toy import write_toy


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    return write_toy(tmp_path)


def test_a_study_run_is_the_union_of_its_experiments(toy):
    study = load_study(toy)
    spec, items = campaign(study, iterations=2)
    configurations = [study.configuration_of(item.parameters) for item in items]
    # single: 3 cc x 2 sizes; pair: 2 cc x 2 second flows (not 3 x 2 x 2 x 2).
    assert len({item.configuration for item in items}) == 10 and len(items) == 20
    assert {c[EXPERIMENT] for c in configurations[:10]} == {"single", "pair"}
    assert configurations[0] == {"experiment": "single", "cc": "cubic", "size": "1 MB", "second": ""}
    assert {"experiment": "pair", "cc": "bbr", "size": "", "second": "reno"} in configurations
    # Iteration-major, as any campaign: every configuration once, then again.
    assert [item.iteration for item in items] == [0] * 10 + [1] * 10
    assert [item.item_index for item in items] == list(range(20))
    assert items[13].scenario.name == f"toy-c{items[13].configuration}-i1"
    # An experiment's `set` comes after its axes' levels: the second flow starts a second later.
    pair = next(item for item in items if item.parameters.get("flows.1") is not None)
    assert [flow.start_s for flow in pair.scenario.flows] == [0.0, 1.0]
    assert len(items[0].scenario.flows) == 1
    # The stored spec lists every path and value the items set: the campaign export's columns.
    assert list(spec.matrix) == ["flows.0", "flows.0.size_bytes", "flows.1", "flows.1.start_s"]
    assert spec.model_dump(mode="json")["set"] == {}


def test_only_selects_experiments_and_levels(toy):
    study = load_study(toy)
    _, items = campaign(study, only={"experiment": ["pair"], "second": ["cubic"]}, iterations=1)
    assert [study.configuration_of(item.parameters)["cc"] for item in items] == ["cubic", "bbr"]
    _, items = campaign(study, only={"size": ["3 MB"]}, iterations=1)  # pair does not vary size: all of it runs
    assert len(items) == 3 + 4
    with pytest.raises(ScenarioError, match="only: the selection leaves no configuration of study toy to run"):
        campaign(study, only={"experiment": ["pair"], "cc": ["reno"]})
    with pytest.raises(ScenarioError, match="only.experiment: 'triple' is not a level; levels: single, pair"):
        campaign(study, only={"experiment": ["triple"]})


def test_quick_takes_each_experiments_part_and_its_own_overrides(toy):
    study = load_study(toy)
    spec, items = campaign(study, quick=True)
    assert spec.name == "toy-quick" and spec.iterations == 1
    assert [study.configuration_of(item.parameters) for item in items] == [
        {"experiment": "single", "cc": "cubic", "size": "1 MB", "second": ""},
        {"experiment": "pair", "cc": "bbr", "size": "", "second": "reno"}]
    assert items[1].scenario.flows[1].size_bytes == 500_000  # quick's own size
    # `only` narrows the quick run further.
    _, items = campaign(study, only={"experiment": ["pair"]}, quick=True)
    assert len(items) == 1


def test_configurations_are_the_campaigns_named_by_their_levels_without_running_anything(toy):
    study = load_study(toy)
    listed = configurations(study)
    _, items = campaign(study, iterations=1)
    assert [entry.levels for entry in listed] == [study.configuration_of(item.parameters) for item in items]
    assert [entry.overrides for entry in listed] == [item.parameters for item in items]
    assert [entry.experiment for entry in listed] == ["single"] * 6 + ["pair"] * 4
    assert listed[1].to_dict() == {
        "experiment": "single", "levels": {"experiment": "single", "cc": "cubic", "size": "3 MB", "second": ""},
        "overrides": {"flows.0": {"transport": "tcp", "cc": "cubic", "hystart": False, "size_bytes": 1000000},
                      "flows.0.size_bytes": 3000000}, "iterations": 3}
    # A selection and the smoke run narrow them as they narrow the campaign; an empty selection is no error here.
    assert len(configurations(study, only={"size": ["3 MB"]})) == 3 + 4
    assert [entry.levels for entry in configurations(study, quick=True)] == [
        {"experiment": "single", "cc": "cubic", "size": "1 MB", "second": ""},
        {"experiment": "pair", "cc": "bbr", "size": "", "second": "reno"}]
    assert configurations(study, only={"experiment": ["pair"], "cc": ["reno"]}) == []
    with pytest.raises(ScenarioError, match="only.experiment: 'triple' is not a level; levels: single, pair"):
        configurations(study, only={"experiment": ["triple"]})


def test_checks_take_an_experiments_single_levels_and_the_defaults_of_its_axes(toy):
    study = load_study(toy)
    bigger, share = study.spec.checks
    numerator, denominator = next(study.check_configurations(bigger))
    assert numerator == {"experiment": "single", "cc": "cubic", "size": "3 MB", "second": ""}
    assert denominator == {"experiment": "single", "cc": "cubic", "size": "1 MB", "second": ""}
    # check_defaults' size does not reach the pair experiment, which does not vary it; no denominator: a bound.
    comparisons = list(study.check_configurations(share))
    assert comparisons[0] == ({"experiment": "pair", "cc": "cubic", "size": "", "second": "cubic"}, None)
    assert len(comparisons) == 4


def test_published_rows_name_an_experiment_and_its_levels(toy):
    study = load_study(toy)
    assert [(figure.configuration, figure.metric, figure.statistic) for figure in study.published][2] == (
        {"experiment": "pair", "cc": "bbr", "size": "", "second": "reno"}, "jain_index", "mean")
    assert study.metrics == ["download_time_s", "jain_index"]


BAD_TOYS = [
    ("study.yaml", "    axes: {cc: [cubic, bbr], second: all}", "    axes: {cc: [cubic, bbr], third: all}",
     "experiments.pair.axes: 'third' is not an axis; axes: cc, size, second"),
    ("study.yaml", "    axes: {cc: [cubic, bbr], second: all}", "    axes: {cc: [cubic, cuba], second: all}",
     "experiments.pair.axes.cc: 'cuba' is not a level; levels: cubic, bbr, reno"),
    ("study.yaml", "    set: {flows.1.start_s: 1}", "    set: {flows.0.size_bytes: 1}",
     "experiments.pair.set.flows.0.size_bytes: is the field of axis size; choose its levels under axes"),
    ("study.yaml", "      only: {cc: [bbr], second: [reno]}", "      only: {size: [1 MB]}",
     "experiments.pair.quick.only: 'size' is not an axis experiment pair varies"),
    ("study.yaml", "    axes: {cc: [cubic, bbr], second: all}", "    axes: {cc: all, size: [1 MB]}",
     "experiments.pair: varies the same axes as single and shares levels of each: a configuration belongs to "
     "one experiment"),
    ("study.yaml", "iterations: 3\n", "iterations: 3\nquick: {only: {cc: [bbr]}}\n",
     "quick: with experiments, give each experiment's quick (experiments.<name>.quick)"),
    ("study.yaml", "    numerator: {experiment: pair}", "    numerator: {experiment: pair, size: 3 MB}",
     "checks.pairs-share.numerator.size: experiment pair does not vary axis 'size'; leave it blank"),
    ("study.yaml", "    denominator: {experiment: single}", "    denominator: {cc: bbr}",
     "checks.bigger-takes-longer.denominator: names no experiment"),
    ("study.yaml", "iterations: 3\n", "iterations: 3\nmetrics: [speed_mbps]\n",
     "metrics: 'speed_mbps' is not a metric; metrics: download_time_s, "),
    ("published.csv", "single,bbr,3 MB,,median", "single,bbr,3 MB,reno,median",
     "published.csv line 3.second: experiment single does not vary axis 'second'; leave it blank"),
    ("published.csv", "pair,bbr,,reno,mean", "pair,reno,,reno,mean",
     "published.csv line 4.cc: experiment pair does not run level 'reno'; it runs cubic, bbr"),
    ("published.csv", "pair,bbr,,reno,mean", "pair,bbr,,,mean",
     "published.csv line 4: names no level of axis 'second'"),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), BAD_TOYS, ids=[case[3][:60] for case in BAD_TOYS])
def test_a_malformed_experiment_is_refused_naming_what_is_wrong(toy, file, old, new, expected):
    text = (toy / file).read_text()
    assert old in text
    (toy / file).write_text(text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as refused:
        load_study(toy)
    assert any(problem.startswith(expected) for problem in refused.value.problems), refused.value.problems


def test_a_configuration_no_experiment_runs_is_named(toy):
    study = load_study(toy)
    with pytest.raises(KeyError, match=r"flows.1=.* is no configuration of study toy"):
        study.configuration_of({"flows.1": {"transport": "tcp", "cc": "cubic", "size_bytes": 2000000}})


FLOWS = [
    {"iteration": 0, "flow": 0, "group": 0, "direction": "download", "goodput_mbps": 10.0, "download_time_s": 8.0,
     "latecomer": False, "short_beside_long": False, "link_utilisation_ratio": 0.5, "ack_frames_sent": 400},
    {"iteration": 0, "flow": 1, "group": 1, "direction": "download", "goodput_mbps": 6.0, "download_time_s": 2.0,
     "latecomer": True, "latecomer_convergence_s": 12.0, "short_beside_long": True, "link_utilisation_ratio": 0.3,
     "ack_frames_sent": 200},
    {"iteration": 0, "flow": 2, "group": 2, "direction": "upload", "goodput_mbps": 1.0, "download_time_s": 9.0,
     "latecomer": False, "short_beside_long": False, "link_utilisation_ratio": 0.5, "ack_frames_sent": None},
]
RESULT = {"status": "done", "flows": FLOWS, "iterations": [{
    "iteration": 0, "flows": FLOWS, "jain_index": 0.8,
    "tcp_stack": {"server": {"loss_recoveries": 12, "dsack_undos": 3, "sack_reorders": None}},
    "fec": {"forward": {"residual_loss": 0.01, "decoding_delay_ms": {"p50": 1.5, "p99": 42.0}}, "return": None}}]}


@pytest.mark.parametrize(("metric", "values"), [
    ("download_time_s", [(8 + 2 + 9) / 3]), ("flow_download_time_s", [8.0, 2.0, 9.0]),
    ("goodput_mbps", [(10 + 6 + 1) / 3]), ("download_goodput_mbps", [8.0]),
    ("upload_goodput_mbps", [1.0]), ("jain_index", [0.8]), ("link_utilisation_ratio", [0.8]),
    ("latecomer_convergence_s", [12.0]), ("short_flow_time_s", [2.0]), ("ack_frames_sent", [300.0]),
    ("startup_s", []), ("retransmissions", []),
    # Iteration fields by their dotted path: the sender's kernel counters, the forward tunnel's figures.
    ("sender_loss_recoveries", [12.0]), ("sender_dsack_undos", [3.0]), ("sender_sack_reorders", []),
    ("sender_rtos", []), ("fec_decoding_delay_p99_ms", [42.0]), ("fec_residual_loss_ratio", [0.01]),
    ("satlink_lateness_p99_ms", [])])
def test_a_metric_is_its_flows_field_filtered_and_aggregated(metric, values):
    assert METRICS[metric].values(RESULT) == pytest.approx(values)


def test_a_metric_of_a_run_without_iterations_or_flows_is_none():
    assert METRICS["jain_index"].values({"flows": []}) == []
    assert METRICS["download_goodput_mbps"].values({"flows": [FLOWS[2]]}) == []
    assert METRICS["flow_download_time_s"].values({"flows": [*FLOWS, {"iteration": 0, "flow": 3}]}) == []
    assert METRICS["fec_decoding_delay_p99_ms"].values({"iterations": [{"fec": None}]}) == []


def test_a_delay_percentile_the_old_histogram_saturated_is_none():
    """swf-tunnel's histogram before f6c1c10 reported every delay of 100 ms or
    more as 100.000: below a larger maximum that is a bound, not a figure. A
    100 ms p99 that is the maximum itself is one."""
    def run(p99_ms: float, max_ms: float) -> dict:
        delays = {"p50": 50.0, "p99": p99_ms, "max": max_ms}
        return {"iterations": [{"fec": {"forward": {"decoding_delay_ms": delays}}}]}
    metric = METRICS["fec_decoding_delay_p99_ms"]
    assert metric.values(run(100.0, 151.4)) == []
    assert metric.values(run(100.0, 100.0)) == [100.0]
    assert metric.values(run(148.8, 151.4)) == [148.8]
