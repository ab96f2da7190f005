"""Tables as Parquet (pyarrow): the same columns, in the same order, with
the same cells as the CSV of the table, typed: a column of whole numbers is
int64, of numbers float64, of booleans bool, anything else text written as
the CSV writes it; unknown values are nulls. A column with no value at all
is float64 if its name carries a unit (satlab.service.export.columns), else
text. The provenance goes into the schema's metadata."""

from __future__ import annotations

from typing import Any, BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from satlab.service.export.columns import UNIT_SUFFIXES
from satlab.service.export.provenance import parquet_metadata
from satlab.service.export.tables import Table


def _as_text(value: Any) -> str | None:
    return None if value is None else value if isinstance(value, str) else str(value)


def column_array(name: str, values: list[Any]) -> pa.Array:
    present = [value for value in values if value is not None]
    if not present:
        return pa.array(values, pa.float64() if name.endswith(UNIT_SUFFIXES) else pa.string())
    if all(isinstance(value, bool) for value in present):
        return pa.array(values, pa.bool_())
    if not any(isinstance(value, bool) for value in present):
        if all(isinstance(value, int) for value in present):
            return pa.array(values, pa.int64())
        if all(isinstance(value, int | float) for value in present):
            return pa.array([None if value is None else float(value) for value in values], pa.float64())
    return pa.array([_as_text(value) for value in values], pa.string())


def arrow_table(table: Table, provenance: dict[str, Any]) -> pa.Table:
    columns = list(zip(*table.rows, strict=True)) if table.rows else [() for _ in table.header]
    arrays = [column_array(name, list(values)) for name, values in zip(table.header, columns, strict=True)]
    schema = pa.schema([pa.field(name, array.type) for name, array in zip(table.header, arrays, strict=True)],
                       metadata=parquet_metadata(provenance))
    return pa.Table.from_arrays(arrays, schema=schema)


def write_parquet(table: Table, out: BinaryIO, provenance: dict[str, Any]) -> None:
    pq.write_table(arrow_table(table, provenance), out)
