"""`satlab worker [--name N] [--max-runs N]` and `satlab worker --calibrate
[--quick]`: the command line's face of the worker (program.py)."""

from __future__ import annotations

import json
import logging
import signal
import sys
from collections.abc import Callable
from typing import Any

from satlab.distributed.connection import BrokerUnavailable
from satlab.engine import runner
from satlab.service.worker.program import WorkerError, WorkerOptions, calibrate_and_save, run_worker

EXIT_CANNOT_START = 1
EXIT_CANCELLED = 130


def main(name: str | None, max_runs: int | None, calibrate: bool, quick: bool, say: Callable[[str], None]) -> int:
    satlab_log = logging.getLogger("satlab")
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("[%(asctime)s: %(levelname)s] %(message)s"))
    satlab_log.addHandler(handler)
    satlab_log.setLevel(logging.INFO)
    satlab_log.propagate = False  # Celery's handler on the root logger would print each line again
    try:
        if calibrate:
            return _calibrate(quick, say)
        return run_worker(WorkerOptions(name, max_runs))
    except (WorkerError, BrokerUnavailable, ValueError) as error:
        say(str(error))
        return EXIT_CANNOT_START


def _calibrate(quick: bool, say: Callable[[str], None]) -> int:
    cancel = runner.CancelToken()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: cancel.cancel())

    def step(evidence: dict[str, Any]) -> None:
        times = evidence.get("download_times_s") or []
        say(f"{evidence['kind']}: {evidence.get('concurrent')} at once: "
            f"{'held' if not evidence.get('problems') else 'did not hold'} "
            f"({len(times)} runs{', ' + '; '.join(evidence['problems']) if evidence.get('problems') else ''})")
    try:
        measured = calibrate_and_save(quick, step, cancel)
    except runner.Cancelled:
        say("calibration cancelled: nothing saved")
        return EXIT_CANCELLED
    print(json.dumps(measured.model_dump(), indent=1), file=sys.stdout)
    for kind, capacity in measured.kinds.items():
        say(f"{kind}: {capacity.max_concurrent} at once")
    for kind, reason in measured.unavailable.items():
        say(f"{kind}: not calibrated: {reason}")
    return 0
