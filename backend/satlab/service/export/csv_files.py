"""Tables as CSV: a header row always, empty cells for unknown values, numbers
as Python writes them. `RUN_TABLE_WRITERS` maps each table of one run
(`RunTable`: the API's `csv/{kind}`, the former `satlab export KIND ID`) to
its writer; `KIND_WRITERS` adds the campaign's table."""

from __future__ import annotations

import csv
from collections.abc import Callable
from enum import StrEnum
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



class RunTable(StrEnum):
    """A table of one run, by the name the API's csv/{kind} and `satlab export KIND RUN_ID` give it."""
    summary = "summary"
    flow_samples = "flow-samples"
    link_samples = "link-samples"
    tunnel_samples = "tunnel-samples"
    pep_samples = "pep-samples"


RUN_TABLE_WRITERS: dict[str, Writer] = {RunTable.summary: summary_csv, RunTable.flow_samples: flow_samples_csv,
                                        RunTable.link_samples: link_samples_csv,
                                        RunTable.tunnel_samples: tunnel_samples_csv,
                                        RunTable.pep_samples: pep_samples_csv}
KIND_WRITERS: dict[str, Writer] = {**RUN_TABLE_WRITERS, "campaign": campaign_csv}
