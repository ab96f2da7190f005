"""What this host cannot do that runs need (satlab.engine.container), against what the kernel says."""

import subprocess

from satlab.engine import container


def test_the_real_time_probe_agrees_with_chrt_and_doctor_says_so():
    # chrt (util-linux) asks the kernel the same in a process of its own: the probe must agree, here
    # as root (allowed, unless a cgroup has no real-time time) and as any user (refused).
    allowed = subprocess.run(["chrt", "--fifo", "1", "true"], capture_output=True).returncode == 0
    refusal = container.realtime_refused()
    assert (refusal is None) == allowed, refusal
    said = [problem for problem in container.limitations() if "SCHED_FIFO" in problem]
    if allowed:
        assert said == []
    else:
        assert len(said) == 1 and f"(SCHED_FIFO: {refusal})" in said[0]
