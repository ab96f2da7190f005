"""What a study report says of its runs' fidelity, beside their figures:
a configuration any of whose runs ran on a host that did not keep up
(satlab.engine.fidelity: satlink's or the tunnel's lateness p99 at or
above its limit) is
flagged, not silently pooled; and a run made with another satlab, other
tools or another kernel than its campaign's first run (a worker that
differs) is named, with what differs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from satlab.service.store import CampaignRow, RunRow, Store

HOST_FLAG = "host could not keep up"
# The provenance (satlab.service.provenance) a campaign's runs must share: satlab, its tools, the kernel.
COMPARED = ("satlab", "git", "kernel", "iperf3", "aiopquic", "ngtcp2", "satlink_sha256", "swf_tunnel_sha256")
# Which study runs a configuration's figures come from: all of them pooled, or the latest that measured it.
Prefer = Literal["all", "latest"]
PREFER_CHOICES: tuple[Prefer, ...] = ("all", "latest")


def flags(host_not_kept_up: int, runs: int) -> list[str]:
    """A configuration's flags, from how many of its runs' hosts did not keep up, of how many done."""
    return [f"{HOST_FLAG} ({host_not_kept_up} of {runs} runs)"] if host_not_kept_up else []


def _campaign_runs(store: Store, campaign: CampaignRow) -> list[RunRow]:
    runs = [store.get_run(item.run_id) for item in store.campaign_items(campaign.campaign_id)
            if item.run_id is not None]
    return sorted((run for run in runs if run is not None), key=lambda run: run.created_at)


def provenance_differences(store: Store, campaigns: Iterable[CampaignRow]) -> list[dict[str, Any]]:
    """Per campaign and worker, the runs whose provenance differs from the
    campaign's first run's in COMPARED: {campaign_id, worker (null: the
    server's own process), runs, differences: {field: [first's, theirs]}}."""
    found: dict[tuple[str, str | None, tuple[tuple[str, str, str], ...]], list[str]] = {}
    for campaign in campaigns:
        runs = _campaign_runs(store, campaign)
        if not runs:
            continue
        first = runs[0].provenance
        for run in runs[1:]:
            differing = tuple((field, str(first.get(field)), str(run.provenance.get(field))) for field in COMPARED
                              if first.get(field) != run.provenance.get(field))
            if differing:
                found.setdefault((campaign.campaign_id, run.worker, differing), []).append(run.run_id)
    return [{"campaign_id": campaign_id, "worker": worker, "runs": run_ids,
             "differences": {field: [theirs_first, theirs] for field, theirs_first, theirs in differing}}
            for (campaign_id, worker, differing), run_ids in found.items()]


def describe_difference(difference: dict[str, Any]) -> str:
    """A provenance difference as a sentence."""
    who = f"worker {difference['worker']}" if difference["worker"] else "the server's own process"
    changes = "; ".join(f"{field} {first} -> {theirs}" for field, (first, theirs) in difference["differences"].items())
    return (f"{who} ran {len(difference['runs'])} run(s) of campaign {difference['campaign_id']} with another "
            f"setup than its first run: {changes}")
