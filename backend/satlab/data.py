"""Stored runs and campaigns as pandas DataFrames, for analysis in a notebook:

    from satlab import data
    run = data.load_run("/var/lib/satlab/satlab.db", "a1b2c3")        # the store, or
    run = data.load_run("satlab-a1b2c3-all.zip")                      # an archive of `satlab export run ID --what all`
    run.summary                  # a row per iteration and flow: download_time_s, goodput_mbps, ...
    run.flow_samples             # 10 Hz: t_s, acked_bytes, cwnd_bytes, rtt_ms, ... per flow (and hop)
    run.pep_samples              # through a PEP: bytes per segment, buffer occupancy per PEP, per flow
    campaign = data.load_campaign("/var/lib/satlab/satlab.db", "c1a2b3c4d")
    campaign.summary.boxplot("download_time_s", by="configuration")

The DataFrames have the columns of satlab's exports (satlab.service.export:
every number's unit in its column's name; one table, one frame) and the
dtypes of its Parquet files: whole numbers int64 (float64 where some are
unknown), other numbers float64, text as text; unknown values NaN or None. `provenance` is
what the exports carry: the run id, a digest of its scenario, the satlab
version and commit, the host's kernel, the seed (a campaign's: each run's).

pandas is an optional dependency: `pip install 'satlab[data]'`.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from satlab.service.export import tables
from satlab.service.export.archive import MANIFEST_NAME
from satlab.service.export.parquet_files import arrow_table
from satlab.service.export.provenance import campaign_provenance, run_provenance
from satlab.service.store import Store

SQLITE_MAGIC = b"SQLite format 3\x00"
SAMPLE_NAMES = tuple(table.name for table in tables.SAMPLE_TABLES)


@dataclass(frozen=True)
class Results:
    """A run's or a campaign's tables (a campaign's samples: its runs' one after the other, by run_id)."""
    summary: pd.DataFrame
    flow_samples: pd.DataFrame
    link_samples: pd.DataFrame
    tunnel_samples: pd.DataFrame
    pep_samples: pd.DataFrame
    provenance: dict[str, Any]


def _frame(table: tables.Table, provenance: dict[str, Any]) -> pd.DataFrame:
    # Through Arrow, typed as the Parquet export types each column.
    frame: pd.DataFrame = arrow_table(table, provenance).to_pandas(integer_object_nulls=False)
    return frame


def _is_store(source: Path) -> bool:
    with source.open("rb") as opened:
        return opened.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC


def _member_frame(archive: zipfile.ZipFile, name: str) -> pd.DataFrame:
    """A table of an exported archive, as Parquet or as CSV, whichever it
    holds; the PEP's samples, which archives exported before them lack, as
    an empty table of their columns."""
    names = set(archive.namelist())
    if f"{name}.parquet" in names:
        return pd.read_parquet(io.BytesIO(archive.read(f"{name}.parquet")))
    if f"{name}.csv" in names:
        return pd.read_csv(io.BytesIO(archive.read(f"{name}.csv")))
    if name == tables.pep_samples.name:
        return pd.DataFrame(columns=tables.pep_samples.header)
    raise ValueError(f"{archive.filename}: the archive holds no {name} table (export it with --what all)")


def _from_archive(source: Path, summary_name: str) -> Results:
    with zipfile.ZipFile(source) as archive:
        manifest = json.loads(archive.read(MANIFEST_NAME))
        summary, flows, links, tunnel, pep = (_member_frame(archive, name) for name in (summary_name, *SAMPLE_NAMES))
    return Results(summary, flows, links, tunnel, pep, manifest["provenance"])


def load_run(source: str | Path, run_id: str | None = None) -> Results:
    """A run from the store (a SQLite file: give run_id) or from an archive
    of `satlab export run ID --what all` (either format)."""
    source = Path(source)
    if not _is_store(source):
        return _from_archive(source, "summary")
    if run_id is None:
        raise ValueError(f"{source} is a store of many runs: name the run (run_id)")
    with Store(source) as store:
        run = tables.require_run(store, run_id)
        provenance = run_provenance(run)
        flows, links, tunnel, pep = (_frame(table(store, run_id), provenance) for table in tables.SAMPLE_TABLES)
        return Results(_frame(tables.summary(store, run_id), provenance), flows, links, tunnel, pep, provenance)


def load_campaign(source: str | Path, campaign_id: str | None = None) -> Results:
    """A campaign from the store (give campaign_id) or from an archive of
    `satlab export campaign ID --what all`: its summary has a row per item
    and flow, with the item's configuration and a column per matrix parameter."""
    source = Path(source)
    if not _is_store(source):
        return _from_archive(source, "campaign")
    if campaign_id is None:
        raise ValueError(f"{source} is a store of many campaigns: name the campaign (campaign_id)")
    with Store(source) as store:
        run_ids = tables.campaign_run_ids(store, campaign_id)
        provenance = campaign_provenance(campaign_id, [tables.require_run(store, run_id) for run_id in run_ids])
        flows, links, tunnel, pep = (_frame(table, provenance) for table in tables.campaign_samples(store, campaign_id))
        return Results(_frame(tables.campaign_summary(store, campaign_id), provenance), flows, links, tunnel, pep,
                       provenance)
