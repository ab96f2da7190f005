"""The experiments kept beside a study (labs/studies/<id>/experiments/*.yaml:
campaigns that test why a figure differs from the published one) stay
runnable: each expands to valid scenarios whose trace files exist."""

from pathlib import Path

import pytest

from satlab.scenario import file_problem
from satlab.service.campaign import load_campaign
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
