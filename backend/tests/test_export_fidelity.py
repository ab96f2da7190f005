"""Each iteration's fidelity evidence in the summary exports, CSV and Parquet
alike: whether the host kept up and what says so, beside the figures."""

import csv
import io

import pyarrow.parquet as pq

from satlab.service.export import summary_csv
from satlab.service.export.parquet_files import write_parquet
from satlab.service.export.tables import summary
from satlab.service.store import Store
from tests.test_store import PROVENANCE, SCENARIO, run_result


def test_the_summary_carries_each_iterations_fidelity(tmp_path):
    with Store(tmp_path / "satlab.db") as store:
        store.create_run("a1b2c3", SCENARIO, PROVENANCE)
        result = run_result("a1b2c3")
        result["iterations"][1]["fidelity"] = {**result["iterations"][1]["fidelity"], "host_kept_up": False,
                                               "satlink_lateness_p99_ms": 3.5, "cpu_steal_ratio": 0.02}
        store.finish_run("a1b2c3", result)
        out = io.StringIO()
        summary_csv(store, "a1b2c3", out)
        rows = list(csv.DictReader(io.StringIO(out.getvalue())))
        assert [(row["iteration"], row["host_kept_up"], row["satlink_lateness_p99_ms"]) for row in rows] == [
            ("0", "True", "0.1"), ("0", "True", "0.1"), ("1", "False", "3.5"), ("1", "False", "3.5")]
        assert rows[2]["host_cpu_steal_ratio"] == "0.02"
        table = summary(store, "a1b2c3")
        parquet = io.BytesIO()
        write_parquet(table, parquet, PROVENANCE)
        columns = pq.read_table(io.BytesIO(parquet.getvalue())).to_pydict()
        assert columns["host_kept_up"] == [True, True, False, False]
        assert columns["satlink_lateness_p99_ms"] == [0.1, 0.1, 3.5, 3.5]
