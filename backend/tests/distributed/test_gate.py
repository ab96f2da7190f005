"""A worker's door: it reads another message only while it has room and
holds no run waiting, and a run it took starts when the host has room."""

import threading

import pytest

from satlab.engine import host_runs
from satlab.engine.admission import Demand
from satlab.engine.capacity import Calibration, KindCapacity
from satlab.service.worker.gate import AdmissionGate
from satlab.service.worker.program import max_runs_of

CALIBRATION = Calibration(measured_at="2026-11-27T10:00:00+00:00", host={}, parameters={},
                          kinds={"kernel_tcp": KindCapacity(max_concurrent=2), "quic": KindCapacity(max_concurrent=1)})
TCP, QUIC = Demand("kernel_tcp", None), Demand("quic", None)


@pytest.fixture(autouse=True)
def lock_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(host_runs, "LEDGER_DIR", tmp_path / "run-locks")


def test_it_takes_another_message_only_with_room_and_none_waiting():
    gate = AdmissionGate(CALIBRATION, max_runs=2)
    assert gate.may_take_another(reserved=0)
    assert gate.admit("aaaaa1", TCP, 1, lambda: False)
    assert gate.may_take_another(reserved=1)  # half the host is taken
    assert not gate.may_take_another(reserved=2)  # a message is on its way to admit: no second
    assert gate.admit("aaaaa2", TCP, 1, lambda: False)
    assert not gate.may_take_another(reserved=2)  # full
    gate.release("aaaaa1")
    assert gate.may_take_another(reserved=1)


def test_a_run_taken_waits_for_room_and_starts_when_a_run_ends():
    gate = AdmissionGate(CALIBRATION, max_runs=2)
    woken = threading.Event()
    gate.on_room = woken.set
    assert gate.admit("bbbbb1", TCP, 1, lambda: False)
    started = threading.Event()
    waiting = threading.Thread(target=lambda: gate.admit("bbbbb2", QUIC, 2, lambda: False) and started.set())
    waiting.start()
    try:
        while not [run for run in gate.held() if run.place is None]:
            threading.Event().wait(0.01)
        (held,) = [run for run in gate.held() if run.place is None]
        assert (held.run_id, held.attempt) == ("bbbbb2", 2)
        assert "a quic run takes 100%" in (gate.waiting_reason or "")
        assert not started.is_set()
        gate.release("bbbbb1")
        assert started.wait(10) and woken.is_set()
    finally:
        gate.close()
        waiting.join(10)


def test_a_waiting_run_gives_up_when_the_worker_stops_or_the_run_is_cancelled():
    gate = AdmissionGate(CALIBRATION, max_runs=1)
    assert gate.admit("ccccc1", TCP, 1, lambda: False)
    assert not gate.admit("ccccc2", TCP, 1, lambda: True)  # cancelled meanwhile
    outcome: list[bool] = []
    waiting = threading.Thread(target=lambda: outcome.append(gate.admit("ccccc3", TCP, 1, lambda: False)))
    waiting.start()
    gate.close()
    waiting.join(10)
    assert outcome == [False] and not gate.may_take_another(reserved=0)


@pytest.mark.parametrize(("calibration", "bound", "expected"), [
    (CALIBRATION, None, 2), (CALIBRATION, 1, 1), (CALIBRATION, 8, 2), (None, None, 1), (None, 3, 3)])
def test_a_worker_runs_at_most_its_largest_calibrated_count_within_its_bound(calibration, bound, expected):
    assert max_runs_of(calibration, bound) == expected
