"""What an exported file says it came from: the run, a digest of its
scenario, the satlab version and commit, the host's kernel and the seed;
for a campaign, each of its runs'. Parquet files carry it in their schema's
metadata, archives in their manifest."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from satlab.service.store import RunRow

# Parquet schema metadata keys (bytes, as Arrow keeps them).
METADATA_PREFIX = "satlab."


def scenario_sha256(scenario: dict[str, Any]) -> str:
    """The digest of the scenario as stored (keys sorted, compact): equal
    scenarios give equal digests whatever their key order."""
    text = json.dumps(scenario, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def run_provenance(run: RunRow) -> dict[str, Any]:
    return {"run_id": run.run_id, "scenario_sha256": scenario_sha256(run.scenario),
            "satlab_version": run.provenance.get("satlab"), "satlab_commit": run.provenance.get("git"),
            "host_kernel": run.provenance.get("kernel"), "seed": run.scenario.get("seed")}


def campaign_provenance(campaign_id: str, runs: list[RunRow]) -> dict[str, Any]:
    return {"campaign_id": campaign_id, "runs": [run_provenance(run) for run in runs]}


def parquet_metadata(provenance: dict[str, Any]) -> dict[bytes, bytes]:
    """Each top-level field as `satlab.<field>` (text; lists and objects as
    JSON), and the whole as `satlab.provenance` (JSON)."""
    metadata = {f"{METADATA_PREFIX}{key}".encode(): (value if isinstance(value, str) else json.dumps(value)).encode()
                for key, value in provenance.items()}
    metadata[f"{METADATA_PREFIX}provenance".encode()] = json.dumps(provenance, sort_keys=True).encode()
    return metadata
