"""Study recipes: every recipe in labs/studies expands to valid scenarios, its
published figures and checks name real configurations, and a malformed
recipe is refused naming what is wrong."""

import shutil
from pathlib import Path

import pytest
import yaml

from satlab.scenario import ScenarioError, load
from satlab.studies import campaign, list_studies, load_study
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
    spec, items = campaign(study, only={"wifi": ["none"], "flows": ["1"]}, iterations=2)
    assert (spec.configurations, len(items)) == (24, 48)
    assert {study.configuration_of(item.parameters)["wifi"] for item in items} == {"none"}


def test_campaign_refuses_an_unknown_axis_or_level():
    study = load_study(LABS / "studies" / "petrou2022")
    with pytest.raises(ScenarioError) as refused:
        campaign(study, only={"weather": ["rain"], "tunnel": ["S(3,100)"]})
    assert refused.value.problems == [
        "only: 'weather' is not an axis of study petrou2022; axes: channel, wifi, transport, flows, tunnel",
        "only.tunnel: 'S(3,100)' is not a level; levels: none, S(10,100), S(5,100), S(2,100)"]


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
    ("published.csv", "dvb-train,none,1,tcp-cubic,none", "dvb-bus,none,1,tcp-cubic,none",
     "published.csv line 18.channel: 'dvb-bus' is not a level; levels: ideal, optical, dvb-train"),
    ("published.csv", ",median,405.91,", ",mode,405.91,",
     "published.csv line 18: statistic must be one of median, mean, std"),
    ("published.csv", ",median,405.91,", ",median,,",
     "published.csv line 18: give a value in exactly one metric column (download_time_s, goodput_mbps, "),
    ("study.yaml", "numerator: {channel: optical,", "numerator: {channel: lunar,",
     "checks.losses-hurt-cubic-optical.numerator.channel: 'lunar' is not a level; levels: ideal, optical, dvb-train"),
    ("study.yaml", "  - where: {channel: [ideal]}", "  - where: {orbit: [ideal]}",
     "bands.0.where: 'orbit' is not an axis; axes: channel, wifi, transport, flows, tunnel"),
    ("study.yaml", "    at_least: 3\n", "\n",
     "study.yaml: checks.0: give at_least, at_most or both"),
    ("study.yaml", "title: When", "titel: When", "study.yaml: titel: is not a known field"),
]


@pytest.mark.parametrize(("file", "old", "new", "expected"), BAD_RECIPES, ids=[case[3][:50] for case in BAD_RECIPES])
def test_load_study_refuses_a_malformed_recipe(recipe, file, old, new, expected):
    edit(recipe / file, old, new)
    with pytest.raises(ScenarioError) as refused:
        load_study(recipe)
    assert any(problem.startswith(expected) for problem in refused.value.problems), refused.value.problems
