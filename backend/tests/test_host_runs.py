"""Admission by cost over every run on the host, whatever satlab process
admitted it: places held by flocks in the host-wide lock directory."""

import subprocess
import sys
import textwrap

import pytest

from satlab.engine import host, host_runs
from satlab.engine.admission import Demand
from satlab.engine.capacity import Calibration, KindCapacity

CALIBRATION = Calibration(measured_at="2026-11-27T10:00:00+00:00", host={}, parameters={},
                          kinds={"kernel_tcp": KindCapacity(max_concurrent=2), "quic": KindCapacity(max_concurrent=1)})
TCP, TCP_HYSTART_ON, QUIC = Demand("kernel_tcp", False), Demand("kernel_tcp", True), Demand("quic", None)


@pytest.fixture(autouse=True)
def lock_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(host_runs, "LEDGER_DIR", tmp_path / "run-locks")
    return tmp_path / "run-locks"


def test_places_add_up_to_the_calibration_and_free_when_released():
    first = host_runs.admit("aaaaa1", TCP, CALIBRATION)[1]
    second = host_runs.admit("aaaaa2", TCP, CALIBRATION)[1]
    assert first is not None and second is not None
    decision, third = host_runs.admit("aaaaa3", TCP, CALIBRATION)
    assert third is None and "take 100% of this host" in (decision.reason or "")
    assert host_runs.running() == [TCP, TCP]
    first.release()
    assert host_runs.admit("aaaaa3", TCP, CALIBRATION)[1] is not None


def test_the_runs_beside_one_are_every_other_admitted_run():
    first = host_runs.admit("aaaaa1", TCP, None)[1]
    second = host_runs.admit("aaaaa2", QUIC, None)[1]
    assert first is not None and second is not None
    assert (host_runs.others("aaaaa1"), host_runs.others("aaaaa2"), host_runs.others("ffffff")) == (1, 1, 2)
    second.release()
    assert (host_runs.others("aaaaa1"), host_runs.others("ffffff")) == (0, 1)


def test_a_runs_units_are_in_its_claim_and_a_claim_without_them_weighs_one(lock_dir):
    five = Demand("quic", None, 5)
    place = host_runs.admit("ddddd1", five, None)[1]
    assert place is not None
    (lock_dir / "admitted-ddddd2.json").write_text('{"kind": "quic", "hystart": null}')  # an older satlab's
    held = host.try_claim("admitted-ddddd2.json", lock_dir)  # ... which a live process holds
    try:
        assert sorted(host_runs.running(), key=lambda demand: demand.units) == [QUIC, five]
    finally:
        assert held is not None
        held.close()
        place.release()


def test_a_run_that_waited_long_enough_takes_the_room_before_a_later_one(lock_dir, monkeypatch):
    monkeypatch.setattr(host_runs, "AGING_S", 0.0)  # every waiting run has waited long enough
    first, second = host_runs.admit("eeeee1", TCP, CALIBRATION)[1], host_runs.admit("eeeee2", TCP, CALIBRATION)[1]
    assert first is not None and second is not None
    assert host_runs.admit("eeeee3", TCP, CALIBRATION)[1] is None  # the host is full: it waits
    assert (lock_dir / "waiting-eeeee3.json").exists()
    first.release()
    decision, later = host_runs.admit("eeeee4", TCP, CALIBRATION)  # asks after the room freed, before eeeee3 looks
    assert later is None and decision.reason is not None
    assert decision.reason.startswith("run eeeee3 has waited 0 s for room on this host, longer than this run")
    waited = host_runs.admit("eeeee3", TCP, CALIBRATION)[1]
    assert waited is not None and not (lock_dir / "waiting-eeeee3.json").exists()
    host_runs.forget("eeeee4")  # cancelled while it waits: it reserves nothing any more
    assert not (lock_dir / "waiting-eeeee4.json").exists()
    for place in (second, waited):
        place.release()


def test_a_run_that_waited_less_than_the_aging_time_reserves_nothing():
    first = host_runs.admit("fffff1", QUIC, CALIBRATION)[1]
    assert first is not None
    assert host_runs.admit("fffff2", QUIC, CALIBRATION)[1] is None
    first.release()
    later = host_runs.admit("fffff3", QUIC, CALIBRATION)[1]  # runs of one queue pass each other freely
    assert later is not None
    later.release()
    host_runs.forget("fffff2")


def test_opposite_hystart_never_together_even_without_a_calibration():
    held = host_runs.admit("bbbbb1", TCP, None)[1]
    assert held is not None
    decision, place = host_runs.admit("bbbbb2", TCP_HYSTART_ON, None)
    assert place is None and "Hystart is host-wide" in (decision.reason or "")


def test_another_process_s_runs_count_and_a_dead_one_s_do_not(lock_dir):
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from satlab.engine import host, host_runs
        from satlab.engine.admission import Demand
        host_runs.LEDGER_DIR = Path({str(lock_dir)!r})
        place = host_runs.admit("ccccc1", Demand("quic", None), None)[1]
        print("held" if place else "refused", flush=True)
        sys.stdin.read()
    """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        decision, place = host_runs.admit("ccccc2", TCP, CALIBRATION)
        assert place is None and "a kernel_tcp run takes 50%" in (decision.reason or "")
    finally:
        holder.kill()
        holder.wait()
    # Its flock went with it: the file it left is not a run.
    assert (lock_dir / "admitted-ccccc1.json").exists()
    assert host_runs.admit("ccccc2", TCP, CALIBRATION)[1] is not None
    assert not (lock_dir / "admitted-ccccc1.json").exists()
