"""Fuzz the scenario/override parser for a time budget (make fuzz):

    cd backend && .venv/bin/python -m tests.fuzz.fuzz_scenario --seconds 60

Hypothesis draws inputs (tests/fuzz/scenario_target.py) until the budget is
spent; a finding (an exception other than ScenarioError, a malformed or
unbounded problem, or an input that takes over SLOW_S) is shrunk, written
to the corpus (replayed by make test) and the run exits 1. Prints one JSON
line: inputs tried, findings, seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from tests.fuzz.scenario_target import check, inputs

CORPUS = Path(__file__).with_name("corpus")
SLOW_S = 2.0  # an input that costs this much CPU is a finding (the alias bomb took 8.6 s)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    tried = 0
    failing = ""  # the last input that failed: Hypothesis replays the shrunk one last

    @settings(max_examples=500, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(inputs())
    def target(text: str) -> None:
        nonlocal tried, failing
        tried += 1
        started = time.process_time()
        try:
            check(text)
            spent = time.process_time() - started
            assert spent < SLOW_S, f"an input took {spent:.1f} s of CPU"
        except BaseException:
            failing = text
            raise

    start = time.monotonic()
    while time.monotonic() - start < args.seconds:
        try:
            target()
        except Exception as error:  # a finding, shrunk: the corpus keeps it
            name = f"finding-{hashlib.sha256(failing.encode()).hexdigest()[:12]}.txt"
            (CORPUS / name).write_text(failing)
            print(json.dumps({"fuzz": "scenario", "inputs": tried, "findings": 1, "corpus_file": name,
                              "error": str(error)[:300]}))
            return 1
    print(json.dumps({"fuzz": "scenario", "inputs": tried, "findings": 0,
                      "seconds": round(time.monotonic() - start, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
