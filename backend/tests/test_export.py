import csv
import gzip
import hashlib
import io
import json
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from satlab.service.artifacts import RunArtifacts
from satlab.service.export import (
    FLOW_COLUMNS,
    KIND_WRITERS,
    RUN_TABLE_WRITERS,
    RunTable,
    campaign_csv,
    destination,
    flow_samples_csv,
    link_samples_csv,
    pep_samples_csv,
    selection,
    summary_csv,
    tunnel_samples_csv,
)
from satlab.service.export.provenance import scenario_sha256
from satlab.service.store import Store
from tests.test_store import PROVENANCE, SCENARIO, iteration_outcome, pep_row, run_result, sample_event

UNIT_SUFFIXES = ("_s", "_ms", "_mbps", "_bytes", "_packets", "_frames", "_ratio", "_index", "_runs")
IDENTIFIERS = {"iteration", "flow", "group", "item_index", "configuration", "seed"}
TEXT = {"run_id", "campaign_id", "name", "link", "direction", "hop", "transport", "cc", "status", "error",
        "flow_error", "latecomer", "short_beside_long", "host_kept_up",
        "realtime_threads", "time_limit_finished"}
MATRIX = {"flows.0.cc": ["cubic", "bbr"], "tunnel": [None, {"k": 5, "z": 100}]}


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "satlab.db") as opened:
        opened.create_run("a1b2c3", SCENARIO, PROVENANCE)
        for iteration in range(2):
            for tick in range(3):
                # The PEP's rows of flow 1 as if PEPs split it: every sample table has rows.
                opened.add_sample({**sample_event("a1b2c3", t_s=tick / 10, iteration=iteration),
                                   "pep": [pep_row(1, tick)]})
        opened.finish_run("a1b2c3", run_result("a1b2c3"))
        yield opened


@pytest.fixture
def campaign(store):
    """Four items of a 2 x 2 matrix: one done (run a1b2c3), one failed before
    any flow, one pending, one cancelled."""
    items = []
    for index in range(4):
        cc, tunnel = ("cubic", "bbr")[index // 2], MATRIX["tunnel"][index % 2]
        items.append({"item_index": index, "configuration": index, "iteration": 0,
                      "parameters": {"flows.0.cc": cc, "tunnel": tunnel},
                      "scenario": {**SCENARIO, "name": f"sweep-c{index}-i0", "seed": 3141592653}})
    store.create_campaign("c1", "sweep", {"name": "sweep", "matrix": MATRIX}, items)
    store.set_item("c1", 0, "done", "a1b2c3")
    store.create_run("d4e5f6", items[1]["scenario"], PROVENANCE, "c1", 1)
    store.finish_run("d4e5f6", {"run_id": "d4e5f6", "status": "failed", "error": "satlink exited 1: no TUN",
                                "flows": [], "iterations": []})
    store.set_item("c1", 1, "failed", "d4e5f6")
    store.set_item("c1", 3, "cancelled")
    return "c1"


def read(writer, store, key) -> list[dict[str, str]]:
    out = io.StringIO()
    writer(store, key, out)
    return list(csv.DictReader(io.StringIO(out.getvalue())))


def header(writer, store, key) -> list[str]:
    out = io.StringIO()
    writer(store, key, out)
    return next(csv.reader(io.StringIO(out.getvalue())))


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_every_table_of_a_run_has_its_writer():
    assert set(RUN_TABLE_WRITERS) == set(RunTable)


@pytest.mark.parametrize("kind", sorted(KIND_WRITERS))
def test_every_numeric_column_carries_a_unit(store, campaign, kind):
    key = campaign if kind == "campaign" else "a1b2c3"
    rows = read(KIND_WRITERS[kind], store, key)
    columns = [c for c in header(KIND_WRITERS[kind], store, key) if c not in MATRIX]
    assert rows and len(columns) == len(set(columns))
    for column in columns:
        assert column in TEXT | IDENTIFIERS or column.endswith(UNIT_SUFFIXES), f"{kind}: {column} has no unit"
        if column in TEXT:
            assert not any(is_number(row[column]) for row in rows), f"{kind}: {column} holds numbers"


@pytest.mark.parametrize(("writer", "first_columns"), [
    (flow_samples_csv, ["run_id", "iteration", "t_s", "flow", "hop", "acked_bytes", "goodput_mbps", "cwnd_bytes"]),
    (link_samples_csv, ["run_id", "iteration", "t_s", "link", "direction", "queue_bytes", "in_flight_packets"]),
    (tunnel_samples_csv, ["run_id", "iteration", "t_s", "direction", "tx_plain_packets", "tx_source_packets"]),
    (pep_samples_csv, ["run_id", "iteration", "t_s", "flow", "client_bytes", "client_retransmissions_packets"]),
])
def test_sample_writers_write_a_header_without_samples(store, writer, first_columns):
    store.create_run("000000", SCENARIO, PROVENANCE)
    out = io.StringIO()
    writer(store, "000000", out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].split(",")[:len(first_columns)] == first_columns


def test_flow_samples_csv_has_a_row_per_sample_and_flow(store):
    rows = read(flow_samples_csv, store, "a1b2c3")
    assert len(rows) == 2 * 3 * 2
    assert rows[-1] == {"run_id": "a1b2c3", "iteration": "1", "t_s": "0.2", "flow": "1", "hop": "end-to-end",
                        "acked_bytes": "14050",
                        "goodput_mbps": "0.2246738", "cwnd_bytes": "28100", "rtt_ms": "513.715",
                        "retransmissions_packets": "2", "delivery_rate_mbps": ""}


def test_link_samples_csv_names_directions(store):
    rows = read(link_samples_csv, store, "a1b2c3")
    first_tick = [(row["link"], row["direction"], row["in_packets"]) for row in rows[:4]]
    assert first_tick == [("satellite", "forward", "76"), ("satellite", "return", "56"), ("lan", "down", "38"),
                          ("lan", "up", "44")]
    assert (rows[1]["channel_drops_packets"], rows[1]["lateness_p99_ms"]) == ("3", "0.03")


def test_tunnel_samples_csv_pairs_sender_and_receiver(store):
    forward = read(tunnel_samples_csv, store, "a1b2c3")[0]
    assert forward["direction"] == "forward"
    assert (forward["tx_source_packets"], forward["rx_source_packets"], forward["rx_lost_packets"],
            forward["rx_recovered_packets"], forward["rx_decoding_delay_p99_ms"]) == ("46", "38", "5", "4", "40.1")
    assert (forward["rx_lateness_p99_ms"], forward["rx_lateness_max_ms"]) == ("0.6", "3.5")


def test_summary_csv_has_a_row_per_iteration_and_flow(store):
    rows = read(summary_csv, store, "a1b2c3")
    assert [(row["iteration"], row["flow"]) for row in rows] == [("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")]
    row = rows[3]
    assert (row["run_id"], row["name"], row["status"], row["error"], row["seed"]) == (
        "a1b2c3", "geo-optical", "done", "", "1")
    # What the scenario asked for beside what arrived (issue 18: "size_bytes" was the bytes received).
    assert (row["requested_bytes"], row["received_bytes"], row["goodput_mbps"], row["retransmissions_packets"],
            row["jain_index"]) == ("300000", "300670", "1.09", "0", "0.99999")
    assert "size_bytes" not in row
    assert (row["fec_forward_residual_loss_ratio"], row["fec_forward_recovered_packets"],
            row["fec_forward_decoding_delay_p99_ms"], row["fec_return_decoding_delay_p99_ms"]) == (
        "0.002", "9", "30.0", "")
    assert (row["link_forward_channel_drops_packets"], row["lan_up_in_packets"]) == ("3", "458")


def test_summary_csv_has_the_start_up_steady_state_and_latecomer_columns(store):
    outcome = iteration_outcome(0)
    phases = {"bottleneck_mbps": 12.0, "link_utilisation_ratio": 0.75, "startup_s": 4.5, "startup_goodput_mbps": 5.3,
              "startup_mean_rtt_ms": 520.0, "startup_retransmissions": 2, "steady_goodput_mbps": 11.6,
              "steady_mean_rtt_ms": 780.0, "steady_retransmissions": 3}
    outcome["flows"][0].update({**phases, "latecomer": False, "latecomer_convergence_s": None,
                                "short_beside_long": False})
    outcome["flows"][1].update({**phases, "startup_s": None, "latecomer": True, "latecomer_convergence_s": 7.25,
                                "short_beside_long": True, "ack_frames_sent": 1335, "receiver_packets_sent": 1357,
                                "time_to_first_byte_ms": 612.5})
    store.create_run("000000", SCENARIO, PROVENANCE)
    store.finish_run("000000", {"run_id": "000000", "status": "done", "error": None,
                                "flows": outcome["flows"], "iterations": [outcome]})
    first, second = read(summary_csv, store, "000000")
    assert (first["startup_s"], first["startup_goodput_mbps"], first["steady_goodput_mbps"],
            first["startup_retransmissions_packets"], first["steady_retransmissions_packets"],
            first["steady_mean_rtt_ms"], first["link_utilisation_ratio"], first["bottleneck_mbps"]) == (
        "4.5", "5.3", "11.6", "2", "3", "780.0", "0.75", "12.0")
    assert (first["latecomer"], first["latecomer_convergence_s"], first["short_beside_long"]) == ("False", "", "False")
    assert (second["startup_s"], second["latecomer"], second["latecomer_convergence_s"],
            second["short_beside_long"]) == ("", "True", "7.25", "True")
    # A QUIC flow's receiver counts (its qlog); empty for TCP.
    assert (first["receiver_ack_frames"], second["receiver_ack_frames"], second["receiver_packets"],
            second["time_to_first_byte_ms"]) == ("", "1335", "1357", "612.5")


def test_summary_csv_of_a_run_without_flows_has_one_row(store):
    store.create_run("000000", SCENARIO, PROVENANCE)
    store.finish_run("000000", {"run_id": "000000", "status": "failed", "error": "satlink exited 1",
                                "flows": [], "iterations": []})
    rows = read(summary_csv, store, "000000")
    assert len(rows) == 1
    assert (rows[0]["status"], rows[0]["error"], rows[0]["flow"], rows[0]["goodput_mbps"]) == (
        "failed", "satlink exited 1", "", "")


def test_summary_csv_of_a_run_its_time_limit_stopped_has_what_each_flow_had_taken(store):
    store.create_run("000000", SCENARIO, PROVENANCE)
    taken = [{"flow": 0, "direction": "download", "finished": False, "download_time_at_least_s": 1457.5,
              "bytes_acked": 12_070_528},
             {"flow": 1, "direction": "upload", "finished": True, "download_time_at_least_s": None,
              "bytes_acked": 1_000_000}]
    store.finish_run("000000", {"run_id": "000000", "status": "failed", "flows": [], "iterations": [],
                                "error": "the flows did not finish within 1458 s",
                                "timed_out": {"iteration": 0, "limit_s": 1458.0, "flows": taken}})
    rows = read(summary_csv, store, "000000")
    assert [(row["iteration"], row["flow"], row["direction"], row["time_limit_finished"],
             row["download_time_at_least_s"], row["time_limit_acked_bytes"], row["download_time_s"])
            for row in rows] == [("0", "0", "download", "False", "1457.5", "12070528", ""),
                                 ("0", "1", "upload", "True", "", "1000000", "")]
    assert {row["error"] for row in rows} == {"the flows did not finish within 1458 s"}


def test_summary_csv_reports_flow_errors_beside_the_run_error(store):
    store.create_run("000000", SCENARIO, PROVENANCE)
    outcome = iteration_outcome(0)
    outcome["flows"][1] = {**outcome["flows"][1], "error": "iperf3 exited 1", "goodput_mbps": None}
    store.finish_run("000000", {"run_id": "000000", "status": "failed", "error": "iteration 0 flow 1: iperf3 exited 1",
                                "flows": outcome["flows"], "iterations": [outcome]})
    rows = read(summary_csv, store, "000000")
    assert [(row["flow_error"], row["error"]) for row in rows] == [
        ("", "iteration 0 flow 1: iperf3 exited 1"), ("iperf3 exited 1", "iteration 0 flow 1: iperf3 exited 1")]


def test_campaign_csv_has_parameter_columns_and_a_row_per_unfinished_item(store, campaign):
    columns = header(campaign_csv, store, campaign)
    assert columns[:9] == ["campaign_id", "item_index", "configuration", "iteration", "run_id", "status",
                           "flows.0.cc", "tunnel", "seed"]
    assert columns[9:] == [*FLOW_COLUMNS, "error"]
    rows = read(campaign_csv, store, campaign)
    assert [(row["item_index"], row["status"], row["run_id"], row["flow"]) for row in rows] == [
        ("0", "done", "a1b2c3", "0"), ("0", "done", "a1b2c3", "1"), ("0", "done", "a1b2c3", "0"),
        ("0", "done", "a1b2c3", "1"), ("1", "failed", "d4e5f6", ""), ("2", "pending", "", ""),
        ("3", "cancelled", "", "")]
    assert [(row["flows.0.cc"], row["tunnel"]) for row in rows[3:]] == [
        ("cubic", "null"), ("cubic", '{"k":5,"z":100}'), ("bbr", "null"), ("bbr", '{"k":5,"z":100}')]
    assert (rows[4]["error"], rows[4]["goodput_mbps"], rows[5]["seed"]) == ("satlink exited 1: no TUN", "",
                                                                            "3141592653")
    assert rows[0]["goodput_mbps"] == "1.1"


def test_campaign_csv_carries_every_fixed_override_and_each_arm_of_a_joint_matrix_entry(store):
    """Issue 18: the campaign CSV omitted the fixed overrides, and a matrix over the congestion
    control widened the preset's Hystart off to every arm; each arm now says what it set."""
    spec = {"name": "arms", "set": {"flows.0.size_bytes": 500000, "path.forward.buffer": {"bdp": 2}},
            "matrix": {"flows.0.{cc,hystart}": [{"cc": "cubic", "hystart": False}, {"cc": "bbr", "hystart": None}]}}
    scenario = {**SCENARIO, "flows": [{"transport": "tcp", "cc": "cubic", "size_bytes": 500000, "count": 2}]}
    items = [{"item_index": index, "configuration": index, "iteration": 0, "parameters": parameters,
              "scenario": {**scenario, "name": f"arms-c{index}-i0"}}
             for index, parameters in enumerate([{"flows.0.cc": "cubic", "flows.0.hystart": False},
                                                 {"flows.0.cc": "bbr", "flows.0.hystart": None}])]
    store.create_campaign("c2", "arms", spec, items)
    store.create_run("f00d01", items[0]["scenario"], PROVENANCE, "c2", 0)
    store.finish_run("f00d01", run_result("f00d01", iterations=1))
    store.set_item("c2", 0, "done", "f00d01")
    columns = header(campaign_csv, store, "c2")
    assert columns[6:11] == ["flows.0.cc", "flows.0.hystart", "flows.0.size_bytes", "path.forward.buffer", "seed"]
    rows = read(campaign_csv, store, "c2")
    assert [(row["flows.0.cc"], row["flows.0.hystart"], row["flows.0.size_bytes"], row["path.forward.buffer"])
            for row in rows] == [("cubic", "false", "500000", '{"bdp":2}')] * 2 + [("bbr", "null", "500000",
                                                                                 '{"bdp":2}')]
    assert [(row["requested_bytes"], row["received_bytes"]) for row in rows[:2]] == [("500000", "300670"),
                                                                                    ("500000", "300670")]


@pytest.mark.parametrize("kind", sorted(KIND_WRITERS))
def test_writers_reject_an_unknown_id(store, kind):
    what = "campaign" if kind == "campaign" else "run"
    with pytest.raises(KeyError, match=f"no {what} 'zzz'"):
        KIND_WRITERS[kind](store, "zzz", io.StringIO())


# The one export surface (selection.py): Parquet beside CSV, archives, refusals.


def made(export: selection.Export) -> bytes:
    out = io.BytesIO()
    export.write(out)
    return out.getvalue()


def csv_cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode())))


def as_csv_text(value, arrow_type: str) -> str:
    """A Parquet cell as the CSV writer writes the same value."""
    if value is None:
        return ""
    if arrow_type == "double" and float(value).is_integer():
        return None  # 1 in CSV, 1.0 in Parquet: compared as numbers
    return str(value)


def assert_parquet_equals_csv(parquet: bytes, csv_data: bytes) -> pq.ParquetFile:
    table = pq.read_table(io.BytesIO(parquet))
    header, *rows = csv_cells(csv_data)
    assert table.column_names == header
    assert table.num_rows == len(rows)
    for index, name in enumerate(header):
        arrow_type = str(table.schema.field(name).type)
        for row, value in zip(rows, table.column(name).to_pylist(), strict=True):
            expected = as_csv_text(value, arrow_type)
            if expected is None:
                assert float(row[index]) == value, (name, row[index], value)
            else:
                assert row[index] == expected, (name, row[index], value)
    return table


@pytest.mark.parametrize("what", ["samples", "summaries"])
def test_parquet_equals_csv_cell_for_cell_and_carries_the_provenance(store, what):
    csv_zip = zipfile.ZipFile(io.BytesIO(made(selection.export_run(store, "a1b2c3", "samples", "csv"))))
    parquet_zip = zipfile.ZipFile(io.BytesIO(made(selection.export_run(store, "a1b2c3", "samples", "parquet"))))
    if what == "summaries":
        pairs = [(made(selection.export_run(store, "a1b2c3", what, "parquet")),
                  made(selection.export_run(store, "a1b2c3", what, "csv")))]
    else:
        pairs = [(parquet_zip.read(f"{name}.parquet"), csv_zip.read(f"{name}.csv"))
                 for name in ("flow-samples", "link-samples", "tunnel-samples", "pep-samples")]
    run = store.get_run("a1b2c3")
    for parquet, csv_data in pairs:
        table = assert_parquet_equals_csv(parquet, csv_data)
        metadata = {key.decode(): value.decode() for key, value in table.schema.metadata.items()}
        assert metadata["satlab.run_id"] == "a1b2c3"
        assert metadata["satlab.scenario_sha256"] == scenario_sha256(SCENARIO)
        assert metadata["satlab.satlab_version"] == "0.1.0" and metadata["satlab.host_kernel"] == "6.18.0"
        assert metadata["satlab.seed"] == "1"
        assert json.loads(metadata["satlab.provenance"])["run_id"] == run.run_id


def test_the_counters_of_every_fate_reach_the_sample_exports(store):
    event = sample_event("a1b2c3", t_s=9.9)
    event["link"]["ba"] = {**event["link"]["ba"], "drops_aqm": 7}
    for endpoint in event["tunnel"]:
        endpoint["rx"] = {**endpoint["rx"], "rejected": 2, "unauthenticated": 1}
    store.add_sample(event)
    link = [row for row in read(link_samples_csv, store, "a1b2c3") if row["t_s"] == "9.9"]
    assert [(row["direction"], row["aqm_drops_packets"], row["out_packets"]) for row in link[:2]] == [
        ("forward", "7", "74"), ("return", "", "54")]
    tunnel = [row for row in read(tunnel_samples_csv, store, "a1b2c3") if row["t_s"] == "9.9"]
    assert [(row["rx_rejected_packets"], row["rx_unauthenticated_packets"]) for row in tunnel] == [("2", "1")] * 2


def test_a_run_archive_holds_every_file_with_a_manifest(store, tmp_path):
    # A run of its own: a finished run's result is kept once.
    store.create_run("b2c3d4", SCENARIO, PROVENANCE)
    store.add_sample(sample_event("b2c3d4", t_s=0.0, iteration=0))
    sink = RunArtifacts.beside(store.path).sink("b2c3d4", 1 << 20)
    qlog = tmp_path / "client.qlog"
    qlog.write_text('{"qlog_version": "draft-00", "traces": []}')
    kept = sink.keep("iteration0/flow0/picoquic-client-abc.qlog", qlog, "qlog")
    keylog = tmp_path / "keylog.txt"
    keylog.write_text("CLIENT_TRAFFIC_SECRET_0 00 11\n")
    sink.keep("iteration0/flow0/tls-keylog.txt", keylog, "keylog")
    assert store.finish_run("b2c3d4", {**run_result("b2c3d4"), "artifacts": sink.summary()})
    archive = zipfile.ZipFile(io.BytesIO(made(selection.export_run(store, "b2c3d4", "all", "parquet"))))
    manifest = json.loads(archive.read("manifest.json"))
    names = [file["name"] for file in manifest["files"]]
    assert names == ["flow-samples.parquet", "link-samples.parquet", "tunnel-samples.parquet", "pep-samples.parquet",
                     "summary.parquet", "scenario.json", "iteration0/flow0/picoquic-client-abc.qlog",
                     "iteration0/flow0/tls-keylog.txt"]
    assert kept is not None and kept.name.endswith(".qlog.gz")
    for file in manifest["files"]:
        data = archive.read(file["name"])
        assert (len(data), hashlib.sha256(data).hexdigest()) == (file["size_bytes"], file["sha256"])
    assert archive.read("iteration0/flow0/picoquic-client-abc.qlog") == qlog.read_bytes()
    assert manifest["provenance"]["scenario_sha256"] == scenario_sha256(SCENARIO)
    assert manifest["export"] == {"run_id": "b2c3d4", "what": "all", "format": "parquet"}
    qlogs = zipfile.ZipFile(io.BytesIO(made(selection.export_run(store, "b2c3d4", "qlog", "csv"))))
    assert [name for name in qlogs.namelist()] == ["iteration0/flow0/picoquic-client-abc.qlog", "manifest.json"]


@pytest.mark.parametrize(("run_id", "status", "kind", "message"), [
    ("zzz", None, "not_found", "There is no run 'zzz' in "),
    ("000000", "queued", "running", "Run 000000 is queued: only a finished run can be exported"),
    ("000000", "running", "running", "Run 000000 is running: only a finished run can be exported"),
])
def test_an_unknown_or_unfinished_run_is_refused_with_a_sentence(store, run_id, status, kind, message):
    if status is not None:
        store.create_run(run_id, SCENARIO, PROVENANCE)
        store.set_run_status(run_id, status)
    with pytest.raises(selection.Refused, match=message) as refused:
        selection.export_run(store, run_id, "all", "csv")
    assert refused.value.kind == kind


def test_a_run_that_kept_no_qlog_says_why(store):
    with pytest.raises(selection.Refused, match=r"Run a1b2c3 kept no qlog files \(no QUIC flow, or its scenario's "
                                                r"capture.qlog was false\)") as refused:
        selection.export_run(store, "a1b2c3", "qlog", "csv")
    assert refused.value.kind == "empty"


def test_a_campaign_exports_its_summary_and_its_runs_samples(store, campaign):
    summary = made(selection.export_campaign(store, campaign, "summaries", "csv"))
    assert csv_cells(summary) == csv_cells(_campaign_csv_text(store, campaign))
    samples = zipfile.ZipFile(io.BytesIO(made(selection.export_campaign(store, campaign, "samples", "parquet"))))
    flows = pq.read_table(io.BytesIO(samples.read("flow-samples.parquet")))
    assert set(flows.column("run_id").to_pylist()) == {"a1b2c3"}
    metadata = json.loads(flows.schema.metadata[b"satlab.provenance"])
    assert metadata["campaign_id"] == campaign and [run["run_id"] for run in metadata["runs"]] == ["a1b2c3", "d4e5f6"]
    with pytest.raises(selection.Refused, match="There is no campaign 'nope'"):
        selection.export_campaign(store, "nope", "summaries", "csv")


def _campaign_csv_text(store, campaign_id) -> bytes:
    out = io.StringIO()
    campaign_csv(store, campaign_id, out)
    return out.getvalue().encode()


def test_a_file_export_interrupted_leaves_nothing(tmp_path):
    target = tmp_path / "out.zip"

    def fails_half_way(out) -> None:
        out.write(b"PK half an archive")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        destination.write_file(target, fails_half_way)
    assert list(tmp_path.iterdir()) == []
    destination.write_file(target, lambda out: out.write(b"whole") and None)
    assert [path.name for path in tmp_path.iterdir()] == ["out.zip"] and target.read_bytes() == b"whole"


def test_kept_files_go_with_their_run(store, tmp_path):
    artifacts = RunArtifacts.beside(store.path)
    source = tmp_path / "keylog.txt"
    source.write_text("x")
    artifacts.sink("a1b2c3", 1 << 20).keep("iteration0/flow0/tls-keylog.txt", source, "keylog")
    assert [path.name for path in artifacts.files("a1b2c3")] == ["tls-keylog.txt.gz"]
    assert gzip.decompress(artifacts.files("a1b2c3")[0].read_bytes()) == b"x"
    store.delete_run("a1b2c3")
    assert not artifacts.directory("a1b2c3").exists()
    assert Path(store.path).exists()
