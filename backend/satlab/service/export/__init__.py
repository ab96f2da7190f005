"""Exports of stored runs and campaigns: the tables (tables.py: samples,
summaries; their columns in columns.py, with units in their names) as CSV
(csv_files.py) or Parquet (parquet_files.py, with the provenance of
provenance.py in its metadata), the files a run kept (qlogs, key logs,
packet captures), and archives of several with a manifest (archive.py).
selection.py is the one surface the command line and the API share:
`satlab export {run,campaign} ID --what ... --format ...`."""

from satlab.service.export.columns import FLOW_COLUMNS
from satlab.service.export.csv_files import (
    KIND_WRITERS,
    RUN_TABLE_WRITERS,
    RunTable,
    campaign_csv,
    flow_samples_csv,
    link_samples_csv,
    pep_samples_csv,
    summary_csv,
    tunnel_samples_csv,
)

__all__ = ["FLOW_COLUMNS", "KIND_WRITERS", "RUN_TABLE_WRITERS", "RunTable", "campaign_csv", "flow_samples_csv",
           "link_samples_csv", "pep_samples_csv", "summary_csv", "tunnel_samples_csv"]
