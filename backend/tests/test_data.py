"""satlab.data: a run or a campaign as DataFrames, from the store or from an exported archive."""

import io

import pandas
import pytest

from satlab import data
from satlab.service.export import selection
from satlab.service.export.columns import FLOW_SAMPLE_COLUMNS
from tests.test_export import campaign, store  # noqa: F401 (fixtures)


def archive_of(export: selection.Export, path):
    out = io.BytesIO()
    export.write(out)
    path.write_bytes(out.getvalue())
    return path


def test_a_run_from_the_store_has_the_export_columns_and_units(store):  # noqa: F811
    run = data.load_run(store.path, "a1b2c3")
    assert list(run.flow_samples.columns) == ["run_id", *FLOW_SAMPLE_COLUMNS.values()]
    assert run.flow_samples["cwnd_bytes"].dtype == "int64" and run.flow_samples["rtt_ms"].dtype == "float64"
    assert len(run.summary) == 4 and run.summary["goodput_mbps"].notna().all()
    assert run.provenance["run_id"] == "a1b2c3"


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_run_from_an_archive_equals_the_run_from_the_store(store, tmp_path, fmt):  # noqa: F811
    path = archive_of(selection.export_run(store, "a1b2c3", "all", fmt), tmp_path / "run.zip")
    stored, exported = data.load_run(store.path, "a1b2c3"), data.load_run(path)
    for name in ("summary", "flow_samples", "link_samples", "tunnel_samples", "pep_samples"):
        left, right = getattr(stored, name), getattr(exported, name)
        assert list(left.columns) == list(right.columns)
        # CSV does not say a column of unknown text is text: pandas reads it as NaN numbers.
        pandas.testing.assert_frame_equal(left, right, check_dtype=False, obj=name)
    assert exported.provenance == stored.provenance


def test_a_campaign_has_a_row_per_item_and_flow_with_its_configuration(store, campaign):  # noqa: F811
    loaded = data.load_campaign(store.path, campaign)
    assert list(loaded.summary["configuration"]) == [0, 0, 0, 0, 1, 2, 3]
    assert set(loaded.flow_samples["run_id"]) == {"a1b2c3"}
    with pytest.raises(ValueError, match="name the campaign"):
        data.load_campaign(store.path)
