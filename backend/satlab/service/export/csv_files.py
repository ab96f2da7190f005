"""Tables as CSV: a header row always, empty cells for unknown values, numbers
as Python writes them. `RUN_TABLE_WRITERS` maps each table of one run (the
API's `csv/{kind}`, the former `satlab export KIND ID`) to its writer;
`KIND_WRITERS` adds the campaign's table."""

from __future__ import annotations

import csv
from collections.abc import Callable
from typing import TextIO

from satlab.service.export import tables
from satlab.service.export.tables import Table
from satlab.service.store import Store

Writer = Callable[[Store, str, TextIO], None]


def write_csv(table: Table, out: TextIO) -> None:
    writer = csv.writer(out)
    writer.writerow(table.header)
    writer.writerows(table.rows)


def _writer(make: Callable[[Store, str], Table]) -> Writer:
    def write(store: Store, key: str, out: TextIO) -> None:
        write_csv(make(store, key), out)
    return write


flow_samples_csv = _writer(tables.flow_samples)
link_samples_csv = _writer(tables.link_samples)
tunnel_samples_csv = _writer(tables.tunnel_samples)
pep_samples_csv = _writer(tables.pep_samples)
summary_csv = _writer(tables.summary)
campaign_csv = _writer(tables.campaign_summary)

RUN_TABLE_WRITERS: dict[str, Writer] = {
    "summary": summary_csv,
    "flow-samples": flow_samples_csv,
    "link-samples": link_samples_csv,
    "tunnel-samples": tunnel_samples_csv,
    "pep-samples": pep_samples_csv,
}
KIND_WRITERS: dict[str, Writer] = {**RUN_TABLE_WRITERS, "campaign": campaign_csv}
