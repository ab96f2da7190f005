"""The classroom soak of make soak-classroom, for a minute (issue 20): 30
students and the instructor over HTTP and WebSockets with the attacks
interleaved; every quota held, the instructor never refused, the backend's
memory flat, nothing left (bench/soak_classroom.py)."""

import pytest

from bench.soak_classroom import run_classroom_soak


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_a_minute_of_a_class_holds_every_quota_and_leaves_nothing():
    result = run_classroom_soak(60, students=30)
    assert result["ok"], result["problems"]
    assert result["students"] == 30 and set(result["instructor_runs"]) == {201}
    answers = result["answers"]
    for refused in ("run beyond a quota 403", "offset 2^63 422", "not UTF-8 422", "a classmate's name 409",
                    "a signed-out cookie 401", "stream flood 429", "slow-loris closed in time 0"):
        assert answers.get(refused, 0) > 0, (refused, answers)
    assert answers.get("run 201", 0) > 0 and result["runs"].get("done", 0) > 0
