"""make bench-engine: the geo-ideal 20 MiB download through the whole
service (RunManager, engine, store), as JSON lines on stdout.

- engine.download: TCP CUBIC with Hystart off, and picoquic bbr1, each
  against the published emulator figure (target: within 5 %).
- engine.concurrent: four TCP CUBIC runs at once, each against the lone run
  (target: each within 5 %: runs must not disturb each other).

Needs root; takes about a minute and a half.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from satlab.service.labs import load_lab
from satlab.service.runs import RunManager
from satlab.service.store import Store
from satlab.settings import Settings

TARGET_RATIO = 0.05
PUBLISHED_S = {("tcp", "cubic"): 17.84, ("quic-picoquic", "bbr1"): 17.38}
CONCURRENT_RUNS = 4


def download_times(manager: RunManager, overrides: list[list[str]]) -> list[float]:
    """Start one geo-ideal run per override list at once; their download times."""
    labs_dir = Settings.from_env().labs_dir
    run_ids = [manager.submit(load_lab(labs_dir, "geo-ideal", extra)) for extra in overrides]
    times = []
    for run_id in run_ids:
        status = manager.wait(run_id, timeout=600)
        run = manager.store.get_run(run_id)
        assert run is not None and run.result is not None  # waited for, so stored and finished
        if status != "done":
            raise SystemExit(f"bench-engine: run {run_id} ended {status}: {run.error}")
        (flow,) = run.result["flows"]
        times.append(flow["download_time_s"])
    return times


def emit(record: dict) -> None:
    print(json.dumps(record), flush=True)


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        manager = RunManager(store, max_concurrent=CONCURRENT_RUNS)
        try:
            lone = {}
            for (transport, cc), published in PUBLISHED_S.items():
                extra = [f"flows.0.transport={transport}", f"flows.0.cc={cc}"]
                if transport != "tcp":
                    extra.append("flows.0.hystart=null")
                (seconds,) = download_times(manager, [extra])
                lone[transport] = seconds
                ratio = seconds / published - 1
                emit({"bench": "engine.download", "scenario": "geo-ideal", "transport": transport, "cc": cc,
                      "size_bytes": 20971520, "download_time_s": round(seconds, 3), "published_s": published,
                      "deviation_ratio": round(ratio, 4), "within_target": abs(ratio) <= TARGET_RATIO})
            times = download_times(manager, [[] for _ in range(CONCURRENT_RUNS)])
            ratios = [seconds / lone["tcp"] - 1 for seconds in times]
            emit({"bench": "engine.concurrent", "scenario": "geo-ideal", "transport": "tcp", "cc": "cubic",
                  "runs": CONCURRENT_RUNS, "download_time_s": [round(t, 3) for t in times],
                  "lone_download_time_s": round(lone["tcp"], 3),
                  "max_deviation_ratio": round(max(ratios, key=abs), 4),
                  "within_target": all(abs(r) <= TARGET_RATIO for r in ratios)})
        finally:
            manager.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
