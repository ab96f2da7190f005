"""Study recipes: every recipe in labs/studies expands to valid scenarios, its
published figures and checks name real configurations, and a malformed
recipe is refused naming what is wrong."""

import shutil
from pathlib import Path

import pytest
import yaml

from satlab.scenario import ScenarioError, load
from satlab.studies import campaign, list_studies, load_study, readme
from satlab.studies import configurations as list_configurations
from tests.conftest import LABS

STUDIES = list_studies(LABS)
IDS = [study.id for study in STUDIES]


def test_list_studies_finds_the_recipes():
    assert {"petrou2022", "martin2022", "kuhn2021", "claypool2021"} <= {study.id for study in STUDIES}


@pytest.mark.parametrize("study", STUDIES, ids=IDS)
def test_every_configuration_of_a_study_is_a_valid_scenario(study):
    _, items = campaign(study, iterations=1)
    configurations = {tuple(study.configuration_of(item.parameters).values()) for item in items}
    assert len(items) == len({item.configuration for item in items}) == len(configurations)
    # The list a page shows before a run names the configurations the run runs, in its order.
    assert [listed.levels for listed in list_configurations(study)] == [
        study.configuration_of(item.parameters) for item in items]


@pytest.mark.parametrize("study", STUDIES, ids=IDS)
def test_every_published_figure_is_a_configuration_of_the_matrix(study):
    _, items = campaign(study, iterations=1)
    configurations = [study.configuration_of(item.parameters) for item in items]
    # A study states its conclusions as checks; most also publish figures to compare one to one.
    assert study.published or study.spec.checks
    for figure in study.published:
        assert figure.configuration in configurations


@pytest.mark.parametrize("study", STUDIES, ids=IDS)
def test_every_check_compares_configurations_of_the_matrix(study):
    _, items = campaign(study, iterations=1)
    configurations = [study.configuration_of(item.parameters) for item in items]
    for check in study.spec.checks:
        for numerator, denominator in study.check_configurations(check):
            assert numerator in configurations, check.id
            assert denominator is None or denominator in configurations, check.id


@pytest.mark.parametrize("study", STUDIES, ids=IDS)
def test_the_quick_run_is_small(study):
    _, items = campaign(study, quick=True)
    assert 1 <= len(items) <= 8


def test_petrou_channels_are_the_presets_channels():
    # One truth for each channel: the study's levels are the presets' channels.
    study = load_study(LABS / "studies" / "petrou2022")
    levels = study.spec.axes["channel"].levels
    for level, preset in (("optical", "geo-optical"), ("dvb-train", "geo-dvb-train")):
        preset_channel = yaml.safe_load((LABS / f"{preset}.yaml").read_text())["path"]["forward"]["channel"]
        assert levels[level] == preset_channel
    assert load(LABS / "geo-ideal.yaml").path.forward.channel.model == levels["ideal"]["model"]


def test_campaign_only_restricts_the_levels():
    study = load_study(LABS / "studies" / "petrou2022")
    spec, items = campaign(study, only={"experiment": ["one-flow"]}, iterations=2)
    assert (len(spec.matrix["tunnel"]), len(items)) == (4, 48)
    assert {study.configuration_of(item.parameters)["wifi"] for item in items} == {"none"}


def test_petrou_runs_table_ii_and_table_i():
    # Table II: ideal, optical and DVB without Wi-Fi, optical and DVB with it (no ideal path with Wi-Fi) x 4
    # FEC x 2 transports x 1 and 5 flows; then BBR's lighter FEC on the Wi-Fi channels and Table I's rows.
    study = load_study(LABS / "studies" / "petrou2022")
    listed = list_configurations(study)
    table_ii = [entry for entry in listed if entry.experiment in ("one-flow", "one-flow-wifi", "five-flows",
                                                                  "five-flows-wifi")]
    assert len(table_ii) == 80 and len(listed) == 80 + 4 + 1 + 2
    assert ("ideal", "1%") not in {(entry.levels["channel"], entry.levels["wifi"]) for entry in listed}
    # The study's iterations: at least 10 with one flow, 5 with five (x 5 flows: 25 downloads).
    assert {entry.iterations for entry in listed if entry.levels["flows"] == "1"} == {10}
    assert {entry.iterations for entry in listed if entry.levels["flows"] == "5"} == {5}
    # Every FEC tunnel spans the path: "SWF needs an end-to-end tunnel".
    tunnels = [entry.overrides["tunnel"] for entry in listed if entry.overrides["tunnel"] is not None]
    assert {tunnel["span"] for tunnel in tunnels} == {"end-to-end"}
    assert {"k": 10, "z": 100, "protect": "none", "span": "end-to-end"} in tunnels


def test_a_study_run_gives_each_configuration_its_experiments_iterations():
    study = load_study(LABS / "studies" / "petrou2022")
    spec, items = campaign(study, only={"channel": ["ideal"], "transport": ["tcp-cubic"], "tunnel": ["none"]})
    runs = {}
    for item in items:
        experiment = study.configuration_of(item.parameters)["experiment"]
        runs[experiment] = runs.get(experiment, 0) + 1
    assert runs == {"one-flow": 10, "five-flows": 5}
    # Iteration-major: the five-flow configuration drops out after its fifth iteration.
    assert [item.iteration for item in items] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]
    assert spec.iterations == 10 and [item.item_index for item in items] == list(range(15))
    # --iterations gives every configuration the same number.
    _, items = campaign(study, only={"channel": ["ideal"], "transport": ["tcp-cubic"], "tunnel": ["none"]},
                        iterations=2)
    assert len(items) == 4


def test_campaign_refuses_an_unknown_axis_or_level():
    study = load_study(LABS / "studies" / "petrou2022")
    with pytest.raises(ScenarioError) as refused:
        campaign(study, only={"weather": ["rain"], "tunnel": ["S(3,100)"]})
    assert refused.value.problems == [
        "only: 'weather' is not an axis of study petrou2022; axes: experiment, channel, wifi, transport, flows, tunnel",
        "only.tunnel: 'S(3,100)' is not a level; levels: none, S(10,100), S(5,100), S(2,100), S(20,100), S(50,100), "
        "no-fec-tunnel"]


@pytest.fixture
def recipe(tmp_path: Path) -> Path:
    directory = tmp_path / "studies" / "copy"
    shutil.copytree(LABS / "studies" / "petrou2022", directory)
    return directory


def edit(file: Path, old: str, new: str) -> None:
    text = file.read_text()
    assert old in text
    file.write_text(text.replace(old, new, 1))


BAD_RECIPES = [
    ("published.csv", "one-flow,dvb-train,none,tcp-cubic,1,none", "one-flow,dvb-bus,none,tcp-cubic,1,none",
     "published.csv line 18.channel: 'dvb-bus' is not a level; levels: ideal, optical, dvb-train"),
    ("published.csv", ",median,405.91,", ",mode,405.91,",
     "published.csv line 18: statistic must be one of median, mean, std"),
    ("published.csv", ",median,405.91,", ",median,,",
     "published.csv line 18: give a value in exactly one metric column (download_time_s, flow_download_time_s, "),
    ("published.csv", "hystart,ideal,none,tcp-cubic-hystart,1,none,median",
     "hystart,ideal,none,tcp-cubic,1,none,median",
     "published.csv line 28.transport: experiment hystart does not run level 'tcp-cubic'; it runs tcp-cubic-hystart"),
    ("study.yaml", "numerator: {channel: optical,", "numerator: {channel: lunar,",
     "checks.losses-hurt-cubic-optical.numerator.channel: 'lunar' is not a level; levels: ideal, optical, dvb-train"),
    ("study.yaml", "  - where: {channel: [ideal]}", "  - where: {orbit: [ideal]}",
     "bands.1.where: 'orbit' is not an axis; axes: experiment, channel, wifi, transport, flows, tunnel"),
    ("study.yaml", "    at_least: 3\n", "\n",
     "study.yaml: checks.0: give at_least, at_most or both"),
    ("study.yaml", "title: When", "titel: When", "study.yaml: titel: is not a known field"),
    ("study.yaml", "    iterations: 5  # x 5 flows", "    iterations: 0  # x 5 flows",
     "study.yaml: experiments.five-flows.iterations: Input should be greater than or equal to 1 (got 0)"),
    ("study.yaml", "    denominator: {experiment: one-flow, channel: ideal, transport: picoquic-bbr, tunnel: none}\n"
     "    compare: difference", "    compare: difference",
     "study.yaml: checks.10: compare: difference needs a denominator (the configuration subtracted)"),
    ("study.yaml", "    section: \"4. picoquic's BBR: which BBR\"", "    section: 4. BBR",
     "explanations.2.section: '4. BBR' is not a heading of README.md"),
    ("study.yaml", "  - check: losses-spare-bbr", "  - check: losses-spare-quic",
     "explanations.3.check: 'losses-spare-quic' is not a check; checks: "),
    ("study.yaml", "  - where: {channel: [dvb-train], transport: [picoquic-bbr]}",
     "  - where: {channel: [dvb-train], transport: [picoquic-bbr3]}",
     "explanations.2.where.transport: 'picoquic-bbr3' is not a level; levels: tcp-cubic, tcp-cubic-hystart, "),
    ("study.yaml", "  - check: losses-spare-bbr", "  - where: {channel: [optical]}\n    check: losses-spare-bbr",
     "study.yaml: explanations.3: give where (the configurations it explains) or check (a check's id), not both"),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), BAD_RECIPES, ids=[case[3][:50] for case in BAD_RECIPES])
def test_load_study_refuses_a_malformed_recipe(recipe, file, old, new, expected):
    edit(recipe / file, old, new)
    with pytest.raises(ScenarioError) as refused:
        load_study(recipe)
    assert any(problem.startswith(expected) for problem in refused.value.problems), refused.value.problems


@pytest.mark.parametrize(("heading", "anchor"), [
    ("3. CUBIC through S(10,100) on the DVB channel", "3-cubic-through-s10100-on-the-dvb-channel"),
    ("4. picoquic's BBR: which BBR", "4-picoquics-bbr-which-bbr"),
    ("H1 — late repairs read as `reordering`", "h1--late-repairs-read-as-reordering"),
])
def test_an_explanation_links_to_the_anchor_github_gives_its_section(heading, anchor):
    assert readme.anchor(heading) == anchor


def test_readme_headings_skip_code_blocks(tmp_path):
    file = tmp_path / "README.md"
    file.write_text("# Study\n\n```\n# not a heading\n```\n\n## 1. Results ##\ntext\n")
    assert readme.headings(file) == ["Study", "1. Results"]
    assert readme.headings(tmp_path / "none.md") == []
