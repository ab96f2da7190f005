"""Without a broker the run queue admits runs by this host's calibration:
runs of a kind its calibration allows one at a time never overlap, even
with room under max_concurrent (the bare count it replaces). The places are
kept in a ledger of the test's own: the host's other runs (other satlab
processes') would count against the calibration."""

import pytest

from satlab.engine import host_runs
from satlab.engine.capacity import RUN_KINDS, Calibration, KindCapacity
from satlab.scenario import load
from satlab.service.runs import RunManager
from satlab.service.store import Store
from tests.conftest import LABS

ONE_AT_A_TIME = Calibration(measured_at="2026-11-27T10:00:00+00:00", host={}, parameters={},
                            kinds={kind: KindCapacity(max_concurrent=1) for kind in RUN_KINDS})


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
