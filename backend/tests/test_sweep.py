"""The start-up sweep removes only what is provably dead (issue 13, failure
1): a run whose lock in /run/satlab another process holds survives a sweep
by a satlab with any SATLAB_LOCK_DIR, with the processes inside its
namespaces; a run whose lock nobody holds goes, with its work directory.

The decoys are real namespaces and a real lock holder, in a mount namespace
of the test's own (tests/isolation.py): the sweep sees nothing else."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.isolation import isolated

SATLAB = str(Path(sys.executable).with_name("satlab"))

# Runs in the private mount namespace; prints what the sweep left.
DECOYS = r"""
import fcntl, json, os, subprocess, sys
from satlab.engine import host, topology

live, dead = "aaaaa1", "bbbbb2"
for run_id in (live, dead):
    subprocess.run(["ip", "netns", "add", f"satlab-{run_id}-dec"], check=True)
host.RUN_LOCK_DIR.mkdir(parents=True, exist_ok=True)
holder = subprocess.Popen([sys.executable, "-c",
    "import fcntl, sys; lock = open(sys.argv[1], 'w'); fcntl.flock(lock, fcntl.LOCK_EX); "
    "print('held', flush=True); sys.stdin.read()", str(host.RUN_LOCK_DIR / host.run_lock_name(live))],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
assert holder.stdout.readline() == "held\n"
inside = subprocess.Popen(["ip", "netns", "exec", f"satlab-{live}-dec", "sleep", "600"])
for run_id in (live, dead):
    host.work_dir(run_id).mkdir(parents=True)
    (host.work_dir(run_id) / "key.pem").write_text("a private key")
try:
    cleanup = subprocess.run([sys.argv[1], "cleanup"], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "SATLAB_LOCK_DIR": sys.argv[2]})
    print(json.dumps({"returncode": cleanup.returncode, "stdout": cleanup.stdout, "stderr": cleanup.stderr,
                      "namespaces": topology.existing_namespaces(), "inside_runs": inside.poll() is None,
                      "work_dirs": sorted(path.name for path in host.WORK_ROOT.iterdir())}))
finally:
    inside.kill()
    holder.stdin.close()
    holder.wait()
    for name in topology.existing_namespaces():
        subprocess.run(["ip", "netns", "del", name])
"""


@pytest.mark.needs_root
def test_a_sweep_with_another_lock_dir_leaves_a_held_run_and_removes_a_dead_one(tmp_path):
    done = subprocess.run(isolated([sys.executable, "-c", DECOYS, SATLAB, str(tmp_path / "other-locks")]),
                          capture_output=True, text=True, timeout=120, env={"TMPDIR": str(tmp_path),
                                                                            "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    assert done.returncode == 0, done.stderr
    left = json.loads(done.stdout)
    assert left["returncode"] == 0, left["stderr"]
    assert "satlab-bbbbb2-dec" in left["stdout"]  # swept, and said so
    assert left["namespaces"] == ["satlab-aaaaa1-dec"]
    assert left["inside_runs"]  # the process in the live run's namespace was not killed
    assert left["work_dirs"] == ["aaaaa1"]
