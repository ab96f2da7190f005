"""The experiments kept beside a study (labs/studies/<id>/experiments/*.yaml:
campaigns that test why a figure differs from the published one) stay
runnable: each expands to valid scenarios whose trace files exist."""

from pathlib import Path

import pytest
import yaml

from satlab.scenario import file_problem
from satlab.service.campaign import load_campaign
from satlab.studies import load_study
from tests.conftest import LABS

EXPERIMENTS = sorted(LABS.glob("studies/*/experiments/*.yaml"))


def test_there_are_experiments_to_check():
    assert {file.parent.parent.name for file in EXPERIMENTS} >= {"petrou2022", "martin2022", "claypool2021"}


@pytest.mark.parametrize("file", EXPERIMENTS, ids=lambda file: f"{file.parent.parent.name}/{file.stem}")
def test_an_experiment_expands_to_valid_runs_named_after_it(file: Path):
    spec, items = load_campaign(file, LABS)
    assert spec.name.startswith(file.parent.parent.name)
    assert len(items) == len({item.configuration for item in items}) * spec.iterations
    assert all(item.scenario.name.startswith(spec.name) for item in items)
    # The trace files, as the engine checks them before a run (satlink's rules).
    for item in items:
        for where, part in item.scenario.files():
            assert part.file is not None and part.file.is_file(), f"{where}.file: {part.file} is missing"
            assert file_problem(part) is None, f"{where}.file: {file_problem(part)}"


def _matrix(study: str, name: str) -> dict:
    return yaml.safe_load((LABS / "studies" / study / "experiments" / name).read_text())["matrix"]


def test_the_hypotheses_run_the_recipes_channels_and_tunnel():
    # One truth for each channel: an experiment about a gap runs the channel and tunnel the recipe runs.
    levels = {name: axis.levels for name, axis in load_study(LABS / "studies" / "petrou2022").spec.axes.items()}
    recipe_channels = [levels["channel"]["optical"], levels["channel"]["dvb-train"]]
    h1 = _matrix("petrou2022", "h1-late-repairs-reordering.yaml")
    assert h1["path.forward.channel"] == recipe_channels
    assert h1["tunnel"] == [None, levels["tunnel"]["S(10,100)"]]
    # H6, per kind of run: the same configurations and seed one run at a time and 8 at once.
    for kind, tunnel in (("fec", levels["tunnel"]["S(10,100)"]), ("no-fec", None)):
        alone, concurrent = (yaml.safe_load((LABS / "studies" / "petrou2022" / "experiments" / f"h6-{arm}-{kind}.yaml")
                                            .read_text()) for arm in ("alone", "concurrent"))
        assert alone["matrix"]["path.forward.channel"] == recipe_channels
        assert alone["set"]["tunnel"] == tunnel
        assert {key: value for key, value in alone.items() if key not in ("name", "parallel")} == \
            {key: value for key, value in concurrent.items() if key not in ("name", "parallel")}
        assert (alone["parallel"], concurrent["parallel"]) == (1, 8)


def test_the_claypool_experiment_runs_geo_viasats_forward_link_and_its_constant_median():
    lab = yaml.safe_load((LABS / "geo-viasat.yaml").read_text())["path"]["forward"]
    variable, constant = _matrix("claypool2021", "power-hystart-delay.yaml")["path.forward"]
    assert variable == lab
    # The median RTT, 597 ms, as a constant: the floor plus the median of the extra delay (37 ms).
    assert constant == {key: value for key, value in lab.items() if key != "delay_variation"} | {
        "delay_ms": lab["delay_ms"] + 37}
