"""The scenario/override parser's fuzz corpus, replayed (every input a past
fuzz run or issue 13 found), and a short fuzz run. Longer runs:
`make fuzz` (python -m tests.fuzz.fuzz_scenario --seconds N)."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzz.scenario_target import check, inputs

CORPUS = Path(__file__).with_name("corpus")


@pytest.mark.parametrize("file", sorted(CORPUS.iterdir()), ids=lambda file: file.name)
def test_the_corpus_replays(file):
    check(file.read_text())


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs())
def test_a_short_fuzz_run(text):
    check(text)
