"""Which worker took which run, and which runs the server cancelled, in Redis.

A worker claims a run (SET NX) before it runs it: a message the broker
delivers again (a visibility timeout that passed, a restart that re-sent
what it could not prove queued) finds the claim taken and is acknowledged
without running. A claim outlives any redelivery of its message (twice the
visibility timeout), so a finished run is never run again either; the server
removes the claim of a run whose worker vanished before starting it, to
send it again.

A run the server cancels is marked for CANCEL_TTL_S: a worker that holds it
stops it, and one that takes it afterwards drops it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

import redis

CLAIM_PREFIX = "satlab:claims:"
CANCEL_PREFIX = "satlab:cancelled:"
CANCEL_TTL_S = 7 * 24 * 3600


def claim_key(run_id: str) -> str:
    return f"{CLAIM_PREFIX}{run_id}"


def cancel_key(run_id: str) -> str:
    return f"{CANCEL_PREFIX}{run_id}"


def claim(client: redis.Redis, run_id: str, worker: str, ttl_s: float) -> str | None:
    """Claim run_id for worker; None if it is now worker's, else who holds it."""
    if client.set(claim_key(run_id), worker, nx=True, ex=int(ttl_s)):
        return None
    holder = cast(bytes | None, client.get(claim_key(run_id)))
    return "?" if holder is None else holder.decode()


def holders(client: redis.Redis, run_ids: list[str]) -> dict[str, str | None]:
    """Who holds each run's claim (None: nobody)."""
    if not run_ids:
        return {}
    values = cast(list[bytes | None], client.mget([claim_key(run_id) for run_id in run_ids]))
    return {run_id: None if value is None else value.decode() for run_id, value in zip(run_ids, values, strict=True)}


def drop_claim(client: redis.Redis, run_id: str) -> None:
    client.delete(claim_key(run_id))


def request_cancel(client: redis.Redis, run_id: str) -> None:
    client.set(cancel_key(run_id), 1, ex=CANCEL_TTL_S)


def cancelled(client: redis.Redis, run_ids: Iterable[str]) -> set[str]:
    """Those of run_ids the server cancelled."""
    wanted = list(run_ids)
    if not wanted:
        return set()
    values = cast(list[bytes | None], client.mget([cancel_key(run_id) for run_id in wanted]))
    return {run_id for run_id, value in zip(wanted, values, strict=True) if value is not None}
