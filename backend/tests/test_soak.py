"""The soak of make soak, 20 runs (issue 13): bad bodies between runs, some
runs cancelled, the backend SIGKILLed and restarted; then every run is
final, the backend's RSS flat, nothing left (bench/soak.py)."""

import pytest

from bench.soak import run_soak


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_a_20_run_soak_leaves_nothing_and_every_run_final():
    result = run_soak(20)
    assert result["ok"], result["problems"]
    assert result["kills"] == 1 and result["namespaces_left_by_kills"] > 0
    assert sum(result["statuses"].values()) == 20
