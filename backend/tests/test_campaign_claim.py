"""A campaign's claim (satlab.engine.host's claims, a flock on a file in the
lock directory) leaves no file behind: the file goes when the campaign ends
and when its process stops, a killed holder's claim is free at once and its
file goes with the next look; and two claimants racing with a holder that
removes its file never both hold the claim."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from satlab.engine import host
from satlab.engine.wait import wait_until
from satlab.service.campaign import campaign_from_dict
from satlab.service.campaign_driver import campaign_claim
from satlab.service.runs import RunManager
from satlab.service.store import Store
from tests.conftest import LABS

CAMPAIGN = {"name": "claim", "scenario": "geo-ideal", "set": {"flows.0.hystart": None},
            "matrix": {"flows.0.cc": ["cubic", "bbr"]}, "iterations": 1, "parallel": 2, "seed": 1}


@pytest.fixture(autouse=True)
def lock_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setattr(host, "LOCK_DIR", tmp_path / "locks")
    return tmp_path / "locks"


def waiting_on(path: Path) -> bool:
    """True if someone waits for a flock on the file at path now (/proc/locks
    marks a waiter "->"; its third field from the end is MAJOR:MINOR:INODE)."""
    try:
        inode = os.stat(path).st_ino
    except FileNotFoundError:
        return False
    return any("->" in fields and fields[-3].endswith(f":{inode}")
               for fields in (line.split() for line in Path("/proc/locks").read_text().splitlines()))


def test_a_released_claim_leaves_no_file(lock_dir):
    name = campaign_claim("c00000001")
    claim = host.try_claim(name)
    assert claim is not None and (lock_dir / name).exists()
    assert host.try_claim(name) is None and host.is_claimed(name)  # one holder, even within a process
    host.release(name, claim)
    assert not (lock_dir / name).exists()
    assert not host.is_claimed(name) and not (lock_dir / name).exists()  # asking creates nothing either


HOLDER = """
import sys
from pathlib import Path
from satlab.engine import host
claim = host.try_claim(sys.argv[1], Path(sys.argv[2]))
print("held" if claim else "refused", flush=True)
sys.stdin.read()
"""


def test_a_killed_holder_s_claim_is_free_and_its_file_goes_with_the_next_look(lock_dir):
    name = campaign_claim("c00000002")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, name, str(lock_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert host.is_claimed(name) and host.try_claim(name) is None
    finally:
        holder.kill()  # SIGKILL: the holder releases nothing
        holder.wait(timeout=30)
    assert (lock_dir / name).exists()  # what the crash left
    assert not host.is_claimed(name)  # the kernel dropped the flock with the process
    assert not (lock_dir / name).exists()  # and the look removed the file


def test_the_claims_dead_processes_left_go_and_live_ones_stay(lock_dir):
    lock_dir.mkdir()
    for dead in ("cdead0001", "cdead0002"):
        (lock_dir / campaign_claim(dead)).touch()  # as a killed holder leaves it
    live = host.try_claim(campaign_claim("clive0001"))
    assert live is not None
    assert host.remove_unclaimed(campaign_claim("*")) == [campaign_claim("cdead0001"), campaign_claim("cdead0002")]
    assert sorted(path.name for path in lock_dir.iterdir()) == [campaign_claim("clive0001")]
    assert host.is_claimed(campaign_claim("clive0001"))
    host.release(campaign_claim("clive0001"), live)


def test_a_claimant_that_waited_on_a_released_claim_never_holds_it_beside_the_next(lock_dir):
    """The waiter opened the file before its holder removed it; woken on the
    removed file, it must claim the file now at the path, which a newcomer
    may have claimed first: then it waits again, and only one holds it."""
    name = campaign_claim("c00000003")
    path = lock_dir / name
    first = host.try_claim(name)
    assert first is not None
    waited: list = []
    waiter = threading.Thread(target=lambda: waited.append(host.claim(name)), daemon=True)
    waiter.start()
    try:
        wait_until(lambda: waiting_on(path), 30, "the waiter to wait for the flock")
        host.release(name, first)  # the file goes, then the flock: the waiter wakes
        newcomer = host.try_claim(name)
        if newcomer is None:  # the waiter claimed the new file first
            wait_until(lambda: bool(waited), 30, "the waiter's claim")
        else:
            wait_until(lambda: bool(waited) or waiting_on(path), 30, "the waiter to hold or wait again")
            assert not waited, "the waiter and the newcomer both hold the claim"
            host.release(name, newcomer)
            wait_until(lambda: bool(waited), 30, "the waiter's claim once the newcomer released")
        (claim,) = waited
        assert os.fstat(claim.fileno()).st_ino == os.stat(path).st_ino  # it holds the file the others see
        host.release(name, claim)
    finally:
        waiter.join(timeout=30)
    assert not path.exists()


RACER = """
import os, sys
from pathlib import Path
from satlab.engine import host
name, directory, marker, rounds = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
claims = overlaps = 0
for _ in range(rounds):
    claim = host.try_claim(name, directory)
    if claim is None:
        continue
    claims += 1
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        overlaps += 1  # another racer holds the claim too
    else:
        os.unlink(marker)
    host.release(name, claim, directory)
print(claims, overlaps)
"""


def test_claimants_racing_with_releases_never_both_hold(lock_dir, tmp_path):
    """Three processes claim and release one name as fast as they can: a
    racer that opened the file just before its holder removed it must not
    hold it beside the next claimant of the new file."""
    lock_dir.mkdir()
    racers = [subprocess.Popen([sys.executable, "-c", RACER, campaign_claim("crace0001"), str(lock_dir),
                                str(tmp_path / "holder"), "3000"], stdout=subprocess.PIPE, text=True)
              for _ in range(3)]
    results = [racer.communicate(timeout=120)[0].split() for racer in racers]
    assert all(racer.returncode == 0 for racer in racers)
    claims, overlaps = (sum(int(result[i]) for result in results) for i in (0, 1))
    assert claims > 0 and overlaps == 0
    assert not any(lock_dir.iterdir())


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "satlab.db")
    yield store
    store.close()


@pytest.mark.needs_root
def test_a_campaign_s_claim_goes_when_its_process_stops_and_when_it_ends(lock_dir, store):
    # max_concurrent 0: the runs stay queued, so the campaign lives as long as the test says.
    spec, items = campaign_from_dict(CAMPAIGN, LABS, LABS)
    first = RunManager(store, max_concurrent=0)
    campaign_id = first.start_campaign(spec, items)
    claim = lock_dir / campaign_claim(campaign_id)
    assert host.is_claimed(campaign_claim(campaign_id))
    first.shutdown()
    assert not claim.exists()  # the process stopped: the campaign stays running, its claim went
    campaign = store.get_campaign(campaign_id)
    assert campaign is not None and campaign.status == "running"

    second = RunManager(store, max_concurrent=0)
    try:
        assert second.campaigns.resume_abandoned() == [campaign_id]
        assert host.is_claimed(campaign_claim(campaign_id))
        assert second.cancel_campaign(campaign_id)
        campaign = store.get_campaign(campaign_id)
        assert campaign is not None and campaign.status == "cancelled"
        assert not claim.exists()  # the campaign ended: its claim went
    finally:
        second.shutdown()
    assert not any(lock_dir.iterdir())


def test_a_starting_worker_removes_the_names_killed_workers_left(lock_dir):
    from satlab.service.worker import program

    lock_dir.mkdir()
    (lock_dir / "worker-gone.lock").touch()  # as a SIGKILLed worker leaves its name
    live = host.try_claim("worker-live.lock")
    assert live is not None
    started = program._claim_name("new")
    try:
        assert sorted(path.name for path in lock_dir.iterdir()) == ["worker-live.lock", "worker-new.lock"]
    finally:
        host.release("worker-new.lock", started)
        host.release("worker-live.lock", live)
