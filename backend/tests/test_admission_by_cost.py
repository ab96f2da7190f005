"""Without a broker the run queue admits runs by this host's calibration:
runs of a kind its calibration allows one at a time never overlap, even
with room under max_concurrent (the bare count it replaces). The places are
kept in a ledger of the test's own: the host's other runs (other satlab
processes') would count against the calibration."""

import time

import pytest

from satlab.engine import host_runs
from satlab.engine.admission import Demand
from satlab.engine.capacity import RUN_KINDS, Calibration, KindCapacity
from satlab.scenario import load
from satlab.service.queue import RECHECK_S
from satlab.service.runs import RunManager
from satlab.service.store import Store
from tests.conftest import LABS

ONE_AT_A_TIME = Calibration(measured_at="2026-11-27T10:00:00+00:00", host={}, parameters={},
                            kinds={kind: KindCapacity(max_concurrent=1) for kind in RUN_KINDS})


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_runs_the_calibration_allows_one_at_a_time_run_one_after_the_other(tmp_path, monkeypatch):
    monkeypatch.setattr(host_runs, "LEDGER_DIR", tmp_path / "ledger")
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.size_bytes=100000", "flows.0.hystart=null"])
    with Store(tmp_path / "satlab.db") as store:
        manager = RunManager(store, max_concurrent=4)
        manager.queue.calibration = ONE_AT_A_TIME
        try:
            run_ids = [manager.queue.submit(scenario) for _ in range(2)]
            assert [manager.wait(run_id, 120) for run_id in run_ids] == ["done", "done"]
        finally:
            manager.shutdown()
        first, second = (store.get_run(run_id) for run_id in run_ids)
    assert first is not None and second is not None and first.finished_at is not None
    assert second.started_at is not None and second.started_at >= first.finished_at
    assert first.fidelity is not None and first.host_kept_up is not None
    assert host_runs.running() == []  # both places given back


@pytest.mark.host_wide
@pytest.mark.needs_root
def test_a_run_waiting_for_another_process_s_run_starts_when_it_ends(tmp_path, monkeypatch):
    """Another process's run (a place the test holds) takes the whole host:
    the queue's run waits through several looks, none of its own runs ends
    to wake it, and it starts once the place frees."""
    monkeypatch.setattr(host_runs, "LEDGER_DIR", tmp_path / "ledger")
    others = host_runs.admit("0ther1", Demand("kernel_tcp", None), ONE_AT_A_TIME)[1]
    assert others is not None
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.size_bytes=100000", "flows.0.hystart=null"])
    with Store(tmp_path / "satlab.db") as store:
        manager = RunManager(store, max_concurrent=4)
        manager.queue.calibration = ONE_AT_A_TIME
        try:
            run_id = manager.queue.submit(scenario)
            time.sleep(3 * RECHECK_S)
            queued = store.get_run(run_id)
            assert queued is not None and queued.status == "queued"
            others.release()
            assert manager.wait(run_id, 120) == "done"
        finally:
            manager.shutdown()
