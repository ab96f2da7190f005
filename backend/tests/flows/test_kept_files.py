"""What a QUIC flow keeps (scenario.capture): each end's qlog, compressed,
as qvis opens it, with the counts the flow's summary gives, and the TLS
key log; within the run's cap, with nothing half-written beside it."""

import gzip
import json
from pathlib import Path

import pytest

from satlab.engine import runner
from satlab.engine.artifacts import PARTIAL_PREFIX, ArtifactSink
from satlab.engine.flows.ngtcp2.programs import CLIENT_PROGRAM, SERVER_PROGRAM
from satlab.engine.host import program
from satlab.scenario import load
from tests.conftest import LABS

# The qlog versions qvis loads (quiclog/qvis, visualizations/src/data/QlogLoader.ts
# and QlogSchema02.ts `versionAliases`), and how it tells a file's format:
# by its name (.qlog: JSON, or as `qlog_format` says; .sqlog: JSON-SEQ), then
# `qlog_version` and `qlog_format` within the first 1024 characters
# (components/filemanager/data/FileLoader.ts); a JSON-SEQ file's first record
# needs `qlog_format: JSON-SEQ` and a `trace` (newlineconverter/textsequencejsontoqlog.ts).
QVIS_VERSIONS = {"0.1", "draft-00", "draft-01", "draft-02-wip", "draft-02", "draft-02-RC1", "qlog-03-WIP", "0.3"}
QVIS_HEADER_CHARS = 1024
RECORD_SEPARATOR = "\x1e"
CAP_BYTES = 50 << 20
needs_ngtcp2 = pytest.mark.skipif(program(CLIENT_PROGRAM) is None or program(SERVER_PROGRAM) is None,
                                  reason=f"needs {CLIENT_PROGRAM} and {SERVER_PROGRAM}")


def picoquic_events(text: str) -> tuple[dict, list[dict]]:
    """A picoquic qlog (one JSON document; draft-00: each event an array
    named by the trace's event_fields) as its header and its events."""
    document = json.loads(text)
    (trace,) = document["traces"]
    fields = trace["event_fields"]
    return document, [dict(zip(fields, event, strict=True)) for event in trace["events"]]


def ngtcp2_events(text: str) -> tuple[dict, list[dict]]:
    """An ngtcp2 qlog (JSON-SEQ: records after RS) as its header record and its events."""
    header, *events = [json.loads(record) for record in text.split(RECORD_SEPARATOR) if record.strip()]
    return header, events


def kept_run(tmp_path: Path, *overrides: str, cap_bytes: int = CAP_BYTES) -> tuple[runner.RunResult, Path]:
    kept = tmp_path / "kept"
    scenario = load(LABS / "geo-ideal.yaml", ["flows.0.hystart=null", "flows.0.size_bytes=1000000", *overrides])
    result = runner.run(scenario, artifacts=ArtifactSink(kept, cap_bytes))
    return result, kept


def read_kept(kept: Path, name: str) -> str:
    return gzip.decompress((kept / name).read_bytes()).decode()


@pytest.mark.needs_root
def test_a_picoquic_flow_keeps_both_qlogs_as_qvis_opens_them_and_its_key_log(tmp_path):
    result, kept = kept_run(tmp_path, "flows.0.transport=quic-picoquic", "flows.0.cc=bbr1")
    assert result.status == "done", result.error
    (flow,) = result.flows
    names = sorted(file["name"] for file in result.artifacts["files"])
    qlogs = [name for name in names if name.endswith(".qlog.gz")]
    assert [name.split("/")[-1].split("-")[1] for name in qlogs] == ["client", "server"]
    assert all(name.startswith("iteration0/flow0/picoquic-") for name in qlogs)
    for name in qlogs:
        text = read_kept(kept, name)
        assert "qlog_version" in text[:QVIS_HEADER_CHARS]
        header, events = picoquic_events(text)
        assert header["qlog_version"] in QVIS_VERSIONS and header.get("qlog_format", "JSON") == "JSON"
        if "-client-" in name:  # the receiver of a download
            sent = [event for event in events if event["event"] == "packet_sent"]
            assert len(sent) == flow["receiver_packets_sent"]
            assert sum(frame["frame_type"] == "ack" for event in sent
                       for frame in event["data"].get("frames", [])) == flow["ack_frames_sent"]
        else:
            assert sum(event["event"] == "packet_sent" for event in events) > 1_000_000 // 1500
    keylog = read_kept(kept, "iteration0/flow0/tls-keylog.txt.gz")
    assert "CLIENT_TRAFFIC_SECRET_0 " in keylog and "SERVER_TRAFFIC_SECRET_0 " in keylog
    assert result.artifacts["used_bytes"] == sum(path.stat().st_size for path in kept.rglob("*") if path.is_file())
    assert result.artifacts["refused"] == []


@needs_ngtcp2
@pytest.mark.needs_root
def test_an_ngtcp2_flow_keeps_both_qlogs_as_qvis_opens_them_and_its_key_log(tmp_path):
    result, kept = kept_run(tmp_path, "flows.0.transport=quic-ngtcp2", "flows.0.cc=cubic")
    assert result.status == "done", result.error
    (flow,) = result.flows
    ends = {}
    for end in ("client", "server"):
        text = read_kept(kept, f"iteration0/flow0/ngtcp2-{end}.sqlog.gz")
        assert "qlog_version" in text[:QVIS_HEADER_CHARS] and "JSON-SEQ" in text[:QVIS_HEADER_CHARS]
        header, events = ngtcp2_events(text)
        assert header["qlog_version"] in QVIS_VERSIONS and header["qlog_format"] == "JSON-SEQ"
        assert header["trace"]["vantage_point"]["type"] == end
        ends[end] = events
    client_sent = [event for event in ends["client"] if event["name"] == "transport:packet_sent"]
    assert len(client_sent) == flow["receiver_packets_sent"]
    assert sum(frame["frame_type"] == "ack" for event in client_sent
               for frame in event["data"]["frames"]) == flow["ack_frames_sent"]
    assert sum(event["name"] == "recovery:packet_lost" for event in ends["server"]) == flow["retransmissions"]
    keylog = read_kept(kept, "iteration0/flow0/tls-keylog.txt.gz")
    assert "CLIENT_TRAFFIC_SECRET_0 " in keylog and "SERVER_TRAFFIC_SECRET_0 " in keylog


@pytest.mark.needs_root
def test_files_past_the_runs_cap_are_refused_with_a_sentence_and_leave_nothing(tmp_path):
    result, kept = kept_run(tmp_path, "flows.0.transport=quic-picoquic", "flows.0.cc=bbr1",
                            "capture.keylog=false", cap_bytes=16384)
    assert result.status == "done", result.error
    assert result.artifacts["files"] == [] and result.artifacts["used_bytes"] == 0
    assert len(result.artifacts["refused"]) == 2
    assert all("was not kept: the run's files would pass their cap of 16384 bytes (capture.max_bytes)" in sentence
               for sentence in result.artifacts["refused"])
    assert [path for path in kept.rglob("*") if path.is_file()] == []
    assert not any(path.name.startswith(PARTIAL_PREFIX) for path in kept.rglob("*"))
