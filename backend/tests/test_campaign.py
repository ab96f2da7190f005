import pytest
import yaml

from satlab.engine.plan import derive_seed
from satlab.scenario import ScenarioError, validate
from satlab.service.campaign import (
    MAX_RUNS,
    NAME_MAX,
    campaign_from_dict,
    expand,
    format_value,
    load_campaign,
    parse_spec,
)
from tests.conftest import LABS

CAMPAIGN = {"name": "cc-vs-fec", "scenario": "geo-optical.yaml",
            "set": {"flows.0.size_bytes": 2000000, "flows.0.hystart": None},
            "matrix": {"flows.0.cc": ["cubic", "bbr"], "tunnel": [None, {"k": 5, "z": 100}]},
            "iterations": 3, "seed": 7}


def expand_dict(data: dict, base_dir=LABS):
    return expand(parse_spec(data), base_dir, LABS)


def test_expand_orders_items_iteration_major():
    items = expand_dict(CAMPAIGN)
    assert len(items) == 12
    assert [item.item_index for item in items] == list(range(12))
    assert [(item.iteration, item.configuration) for item in items[:5]] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]
    # Configurations follow the Cartesian product in key order: the last key varies fastest.
    assert [item.parameters for item in items[:4]] == [
        {"flows.0.cc": "cubic", "tunnel": None}, {"flows.0.cc": "cubic", "tunnel": {"k": 5, "z": 100}},
        {"flows.0.cc": "bbr", "tunnel": None}, {"flows.0.cc": "bbr", "tunnel": {"k": 5, "z": 100}}]


def test_expand_applies_the_fixed_set_and_each_configuration():
    items = expand_dict(CAMPAIGN)
    assert all(item.scenario.flows[0].size_bytes == 2000000 for item in items)
    assert [(item.scenario.flows[0].cc, item.scenario.tunnel and item.scenario.tunnel.k) for item in items[:4]] == [
        ("cubic", None), ("cubic", 5), ("bbr", None), ("bbr", 5)]
    # The base keeps what the matrix does not touch.
    assert items[3].scenario.path.forward.channel.model == "ge-time"


def test_expand_gives_every_configuration_of_an_iteration_the_same_seed():
    items = expand_dict(CAMPAIGN)
    for iteration in range(3):
        seeds = {item.scenario.seed for item in items if item.iteration == iteration}
        assert seeds == {derive_seed(7, iteration, "campaign")}
    assert len({item.scenario.seed for item in items}) == 3


def test_expand_names_each_run_after_its_item_with_one_iteration():
    items = expand_dict(CAMPAIGN)
    assert items[6].scenario.name == "cc-vs-fec-c2-i1"
    assert {item.scenario.iterations for item in items} == {1}


def test_expand_without_a_matrix_gives_one_configuration():
    items = expand_dict({"name": "repeat", "scenario": "geo-ideal.yaml", "iterations": 2})
    assert [(item.configuration, item.iteration, item.parameters) for item in items] == [(0, 0, {}), (0, 1, {})]


def test_expand_rejects_an_invalid_value_naming_the_matrix_entry():
    data = {**CAMPAIGN, "matrix": {"flows.0.cc": ["cubic", "tahoe"]}}
    with pytest.raises(ScenarioError) as error:
        expand_dict(data)
    (problem,) = error.value.problems
    assert problem.startswith("matrix.flows.0.cc: configuration 1 (flows.0.cc=tahoe): is not a congestion control "
                              "of tcp; allowed: cubic, bbr, reno")


def test_expand_rejects_an_invalid_combination_only():
    data = {**CAMPAIGN, "set": {}, "matrix": {"flows.0.cc": ["cubic", "bbr"], "flows.0.hystart": [None, True]}}
    with pytest.raises(ScenarioError) as error:
        expand_dict(data)
    assert [problem.split(": ")[:2] for problem in error.value.problems] == [
        ["matrix.flows.0.hystart", "configuration 3 (flows.0.cc=bbr, flows.0.hystart=true)"]]


def test_expand_rejects_a_path_that_does_not_exist():
    with pytest.raises(ScenarioError, match=r"^set\.flows\.3\.cc: flows\.3: no such list item"):
        expand_dict({**CAMPAIGN, "set": {"flows.3.cc": "bbr"}})
    with pytest.raises(ScenarioError, match=r"^matrix\.tunnel\.k\.x: configuration 0 \(tunnel\.k\.x=1\): tunnel\.k is"):
        expand_dict({**CAMPAIGN, "set": {"tunnel.k": 5}, "matrix": {"tunnel.k.x": [1]}})


def test_a_joint_matrix_entry_sets_each_arm_s_fields_and_widens_nothing():
    """Issue 18: CUBIC with Hystart off against BBR on a preset that turns Hystart off. The matrix
    over cc alone makes the BBR arm refuse the preset's Hystart (so the console once cleared it for
    every arm); arms set it for the CUBIC arm only."""
    alone = {"name": "cc", "scenario": "geo-ideal.yaml", "matrix": {"flows.0.cc": ["cubic", "bbr"]}}
    with pytest.raises(ScenarioError, match=r"^matrix: configuration 1 \(flows.0.cc=bbr\): flows.0.hystart"):
        expand_dict(alone)
    arms = {**alone, "matrix": {"flows.0.{cc,hystart}": [{"cc": "cubic", "hystart": False},
                                                          {"cc": "bbr", "hystart": None}],
                                "tunnel": [None, {"k": 5, "z": 100}]}}
    items = expand_dict(arms)
    assert [(item.scenario.flows[0].cc, item.scenario.flows[0].hystart, bool(item.scenario.tunnel))
            for item in items] == [("cubic", False, False), ("cubic", False, True), ("bbr", None, False),
                                   ("bbr", None, True)]
    assert items[2].parameters == {"flows.0.cc": "bbr", "flows.0.hystart": None, "tunnel": None}


JOINT = "flows.0.{cc,hystart}"
BAD_ARMS = [
    ({JOINT: [{"cc": "cubic"}]}, f"matrix.{JOINT}: value 1 must give exactly cc, hystart (one arm)"),
    ({JOINT: ["cubic"]}, f"matrix.{JOINT}: value 1 must give exactly cc, hystart"),
    ({JOINT: [{"cc": "bbr", "hystart": None, "count": 2}]}, f"matrix.{JOINT}: value 1 must give exactly"),
    ({JOINT: [{"cc": "bbr", "hystart": None}], "flows.0.cc": ["cubic"]},
     f"matrix.flows.0.cc: also in matrix.{JOINT}; give each path once"),
    ({"flows.0.{size_bytes,cc}": [{"size_bytes": 1, "cc": "bbr"}]},
     "matrix.flows.0.{size_bytes,cc}: also in set (flows.0.size_bytes)"),
]


@pytest.mark.parametrize(("matrix", "expected"), BAD_ARMS, ids=[e.split(" ")[-1] for _, e in BAD_ARMS])
def test_parse_spec_refuses_an_arm_that_does_not_give_its_fields(matrix, expected):
    with pytest.raises(ScenarioError) as error:
        parse_spec({**CAMPAIGN, "set": {"flows.0.size_bytes": 2000000}, "matrix": matrix})
    assert error.value.problems[0].startswith(expected), error.value.problems


BAD_SPECS = [
    ({"matrix": {"flows.0.cc": ["cubic"] * 65}}, "matrix.flows.0.cc: List should have at most 64 items"),
    ({"matrix": {"flows.0.cc": []}}, "matrix.flows.0.cc: List should have at least 1 item"),
    ({"matrix": {"path.return.delay_ms": list(range(50)), "path.forward.delay_ms": list(range(50))},
      "iterations": 5}, f"iterations: at most {MAX_RUNS} runs (configurations x iterations), got 2500 x 5 = 12500"),
    ({"matrix": {"seed": [1, 2]}}, "matrix.seed: the campaign derives each run's seed"),
    ({"set": {"iterations": 5}}, "set.iterations: each run is one iteration"),
    ({"matrix": {"flows.0.size_bytes": [1, 2]}}, "matrix.flows.0.size_bytes: also in set"),
    ({"parallel": 9}, "parallel: Input should be less than or equal to 8"),
    ({"name": "x" * (NAME_MAX + 1)}, "name: String should match pattern"),
    ({"repeat": 2}, "repeat: is not a known field"),
]


@pytest.mark.parametrize(("change", "expected"), BAD_SPECS, ids=[e.split(":")[0] for _, e in BAD_SPECS])
def test_parse_spec_rejects_bad_input(change, expected):
    with pytest.raises(ScenarioError) as error:
        parse_spec({**CAMPAIGN, **change})
    assert error.value.problems[0].startswith(expected), error.value.problems


def test_parse_spec_keeps_the_name_of_set_when_dumped():
    assert parse_spec(CAMPAIGN).model_dump(mode="json")["set"] == CAMPAIGN["set"]


def test_item_to_dict_validates_back_to_the_same_scenario():
    item = expand_dict(CAMPAIGN)[3]
    data = item.to_dict()
    assert (data["item_index"], data["configuration"], data["parameters"]) == (3, 3, item.parameters)
    assert validate(data["scenario"]) == item.scenario


def test_load_campaign_finds_the_scenario_beside_the_file_first(tmp_path):
    scenario = yaml.safe_load((LABS / "geo-ideal.yaml").read_text())
    (tmp_path / "geo-optical.yaml").write_text(yaml.safe_dump({**scenario, "seed": 99}))
    (tmp_path / "campaign.yaml").write_text(yaml.safe_dump(CAMPAIGN))
    spec, items = load_campaign(tmp_path / "campaign.yaml", LABS)
    assert spec.name == "cc-vs-fec"
    assert items[0].scenario.path.forward.channel.model == "perfect"  # the local file, not the lab


def test_load_campaign_falls_back_to_the_labs_directory(tmp_path):
    (tmp_path / "campaign.yaml").write_text(yaml.safe_dump(CAMPAIGN))
    _, items = load_campaign(tmp_path / "campaign.yaml", LABS)
    assert items[0].scenario.path.forward.channel.model == "ge-time"


def test_load_campaign_accepts_any_path_on_the_command_line(tmp_path):
    (tmp_path / "campaign.yaml").write_text(yaml.safe_dump({**CAMPAIGN, "scenario": str(LABS / "geo-ideal.yaml")}))
    _, items = load_campaign(tmp_path / "campaign.yaml", tmp_path)
    assert items[0].scenario.flows[0].size_bytes == 2000000


def test_a_relative_trace_file_is_beside_the_file_that_names_it(tmp_path):
    # The base scenario names a loss trace beside it; the campaign, in another
    # directory, names a rate trace (in its matrix) and a delay trace file (in its set).
    (tmp_path / "labs").mkdir()
    (tmp_path / "experiment").mkdir()
    scenario = yaml.safe_load((LABS / "geo-ideal.yaml").read_text())
    scenario["path"]["forward"]["channel"] = {"model": "trace", "file": "loss.txt"}
    scenario["path"]["return"]["delay_variation"] = {"model": "trace", "file": "unused.txt"}
    (tmp_path / "labs" / "base.yaml").write_text(yaml.safe_dump(scenario))
    campaign = {"name": "traces", "scenario": "base",
                "set": {"path.return.delay_variation.file": "delay.txt"},
                "matrix": {"path.forward.rate_trace": [None, {"file": "rate.txt"}]}}
    (tmp_path / "experiment" / "campaign.yaml").write_text(yaml.safe_dump(campaign))
    _, items = load_campaign(tmp_path / "experiment" / "campaign.yaml", tmp_path / "labs")
    files = dict((where, part.file) for where, part in items[1].scenario.files())
    assert files == {"path.forward.channel": tmp_path / "labs" / "loss.txt",
                     "path.return.delay_variation": tmp_path / "experiment" / "delay.txt",
                     "path.forward.rate_trace": tmp_path / "experiment" / "rate.txt"}


def test_load_campaign_rejects_a_missing_scenario_file(tmp_path):
    (tmp_path / "campaign.yaml").write_text(yaml.safe_dump({**CAMPAIGN, "scenario": "nowhere.yaml"}))
    with pytest.raises(ScenarioError, match="scenario: no scenario file 'nowhere.yaml' in "):
        load_campaign(tmp_path / "campaign.yaml", LABS)


def test_campaign_from_dict_takes_a_lab_name_or_an_inline_scenario():
    _, by_name = campaign_from_dict({**CAMPAIGN, "scenario": "geo-optical"}, LABS, LABS)
    inline = yaml.safe_load((LABS / "geo-optical.yaml").read_text())
    _, by_mapping = campaign_from_dict({**CAMPAIGN, "scenario": inline}, LABS, LABS)
    assert [item.scenario for item in by_name] == [item.scenario for item in by_mapping]


@pytest.mark.parametrize("path", ["/etc/passwd", "../labs/geo-ideal.yaml", "sub/../../secret.yaml"])
def test_campaign_from_dict_refuses_paths_outside_the_labs(tmp_path, path):
    with pytest.raises(ScenarioError, match="must name a lab file relative to the labs directory, without '..'"):
        campaign_from_dict({**CAMPAIGN, "scenario": path}, LABS, LABS)


def test_format_value_writes_text_as_is_and_the_rest_as_compact_json():
    assert [format_value(v) for v in ("bbr", 5, 0.5, True, None, {"k": 5, "z": 100})] == [
        "bbr", "5", "0.5", "true", "null", '{"k":5,"z":100}']
