"""QUIC through ngtcp2's example programs: the qlog reading, and real runs.

The qlog records below are verbatim ngtcp2 0.12.1 output. Runs with the real
programs go over loopback (no root) or the engine's GEO path (root).
"""

import socket
from dataclasses import replace
from pathlib import Path

import pytest

from satlab import engine, topology
from satlab.flows.quic_ngtcp2 import (
    CLIENT_PROGRAM,
    SERVER_PROGRAM,
    Ngtcp2Flow,
    QlogTail,
    SenderState,
    last_response_data_ms,
    split_records,
)
from satlab.flows.registry import TRANSPORTS
from satlab.host import program
from satlab.plan import PlannedFlow
from satlab.scenario import load
from tests.conftest import LABS

RS = b"\x1e"
HEADER = (b'{"qlog_format":"JSON-SEQ","qlog_version":"0.3","trace":{"vantage_point":{"name":"ngtcp2",'
          b'"type":"server"},"common_fields":{"protocol_type":["QUIC"],"time_format":"relative",'
          b'"reference_time":0,"group_id":"feb5831832b6055741c4516380ca84cac0cd"}}}')
METRICS_START = (b'{"time":0,"name":"recovery:metrics_updated","data":{"smoothed_rtt":333,"latest_rtt":0,'
                 b'"rtt_variance":166,"pto_count":0,"congestion_window":14520,"bytes_in_flight":0}}')
METRICS_LATER = (b'{"time":1713,"name":"recovery:metrics_updated","data":{"min_rtt":0,"smoothed_rtt":69,'
                 b'"latest_rtt":54,"rtt_variance":6,"pto_count":0,"congestion_window":23278,"bytes_in_flight":94}}')
LOST = b'{"time":43,"name":"recovery:packet_lost","data":{"header":{"packet_type":"1RTT","packet_number":37}}}'
CONTROL_STREAMS_RECEIVED = (
    b'{"time":2,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":3,'
    b'"offset":0,"length":18},{"frame_type":"stream","stream_id":11,"offset":0,"length":1},'
    b'{"frame_type":"padding"}],"header":{"packet_type":"1RTT","packet_number":0},"raw":{"length":305}}}')
RESPONSE_FIN_RECEIVED = (
    b'{"time":1713,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":0,'
    b'"offset":1999925,"length":702,"fin":true}],"header":{"packet_type":"1RTT","packet_number":1458},'
    b'"raw":{"length":745}}}')
ACK_RECEIVED = (
    b'{"time":1715,"name":"transport:packet_received","data":{"frames":[{"frame_type":"ack","ack_delay":0,'
    b'"acked_ranges":[[333,344]],"ect1":0,"ect0":343,"ce":0}],"header":{"packet_type":"1RTT",'
    b'"packet_number":1460},"raw":{"length":45}}}')

NGTCP2_MISSING = f"needs {CLIENT_PROGRAM} and {SERVER_PROGRAM}: apt-get install ngtcp2-client ngtcp2-server"
needs_ngtcp2 = pytest.mark.skipif(program(CLIENT_PROGRAM) is None or program(SERVER_PROGRAM) is None,
                                  reason=NGTCP2_MISSING)


def qlog(*records: bytes) -> bytes:
    return b"".join(RS + record + b"\n" for record in records)


def with_time(record: bytes, time_ms: int) -> bytes:
    return record.replace(b'{"time":1713,', b'{"time":%d,' % time_ms, 1)


# ---------------------------------------------------------------- qlog


def test_split_records_keeps_a_torn_record_for_later() -> None:
    data = qlog(HEADER, METRICS_START) + RS + LOST[:30]
    records, rest = split_records(data)
    assert records == [HEADER, METRICS_START]
    assert split_records(rest + LOST[30:] + b"\n") == ([LOST], b"")


def test_qlog_tail_reads_each_record_once(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlog"
    tail = QlogTail(path)
    assert list(tail.records()) == []  # not written yet
    path.write_bytes(qlog(HEADER) + RS + METRICS_START[:40])
    assert list(tail.records()) == [HEADER]
    with path.open("ab") as written:
        written.write(METRICS_START[40:] + b"\n" + qlog(LOST))
    assert list(tail.records()) == [METRICS_START, LOST]
    assert list(tail.records()) == []


def test_sender_state_follows_metrics_and_counts_losses() -> None:
    sender = SenderState()
    for record in split_records(qlog(HEADER, METRICS_START, LOST, LOST, METRICS_LATER, ACK_RECEIVED))[0]:
        sender.observe(record)
    assert sender == SenderState(cwnd_bytes=23278, rtt_ms=69.0, lost_packets=2)


@pytest.mark.parametrize("bad", [
    METRICS_LATER[:60],  # torn
    b'["recovery:metrics_updated"]',  # not an object
    b'{"name":"recovery:metrics_updated","data":{"congestion_window":"big","smoothed_rtt":null}}',
    b'{"name":"recovery:metrics_updated","data":7}',
    b'\xff"recovery:',
])
def test_sender_state_ignores_a_bad_record(bad: bytes) -> None:
    sender = SenderState(cwnd_bytes=14520, rtt_ms=333.0, lost_packets=1)
    sender.observe(bad)
    assert sender == SenderState(cwnd_bytes=14520, rtt_ms=333.0, lost_packets=1)


def test_last_response_data_is_the_latest_packet_of_a_request_stream() -> None:
    retransmitted_later = with_time(RESPONSE_FIN_RECEIVED, 1790)
    sent_later = with_time(RESPONSE_FIN_RECEIVED, 1800).replace(b"packet_received", b"packet_sent")
    control_later = CONTROL_STREAMS_RECEIVED.replace(b'{"time":2,', b'{"time":1900,')
    records = [CONTROL_STREAMS_RECEIVED, retransmitted_later, RESPONSE_FIN_RECEIVED, ACK_RECEIVED,
               sent_later, control_later, b'{"frame_type":"stream"', b"\xff"]
    # Only received packets of stream 0 count, whatever order they came in.
    assert last_response_data_ms(records) == 1790


def test_last_response_data_is_none_without_a_response() -> None:
    assert last_response_data_ms([HEADER, CONTROL_STREAMS_RECEIVED, ACK_RECEIVED]) is None


# ---------------------------------------------------------------- the flow


def planned_flow(**changes: object) -> PlannedFlow:
    """A flow over the host's loopback (no namespace) on a UDP port that is free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    flow = PlannedFlow(index=2, group=0, transport="quic-ngtcp2", cc="cubic", size_bytes=2_000_000,
                       duration_s=None, start_s=0.0, direction="download", port=port,
                       client_netns="", server_netns="", server_addr="127.0.0.1")
    return replace(flow, **changes)


@pytest.mark.parametrize("changes", [{"direction": "upload"}, {"size_bytes": None, "duration_s": 10.0}])
def test_ngtcp2_flow_refuses_what_the_programs_cannot_run(tmp_path: Path, changes: dict[str, object]) -> None:
    flow = Ngtcp2Flow(planned_flow(**changes), tmp_path)
    with pytest.raises(RuntimeError, match="downloads of size_bytes only"):
        flow.setup()
    flow.stop()


@needs_ngtcp2
@pytest.mark.parametrize("cc", TRANSPORTS["quic-ngtcp2"].congestion_controls)
def test_ngtcp2_server_accepts_each_registered_congestion_control(tmp_path: Path, cc: str) -> None:
    flow = Ngtcp2Flow(planned_flow(cc=cc), tmp_path)
    try:
        flow.setup()
        flow.start_server()  # gtlsserver exits at once on a --cc it does not know
        assert flow.server is not None and flow.server.running()
    finally:
        flow.stop()


@needs_ngtcp2
def test_ngtcp2_flow_reports_a_short_response_as_an_error(tmp_path: Path) -> None:
    """A server that serves at most 1000 bytes answers /2000000 with a 404 page,
    and the client exits 0: the byte count alone tells the failure."""
    small = Ngtcp2Flow(planned_flow(size_bytes=1000), tmp_path / "small")
    large = Ngtcp2Flow(replace(small.planned, size_bytes=2_000_000), tmp_path / "large")
    for flow in (small, large):
        flow.workdir.mkdir()
    try:
        small.setup()
        small.start_server()
        large.setup()
        large.start_client()  # on small's port: large has no server of its own
        assert large.client is not None
        large.client.process.wait(30)
        assert large.done()
        result = large.collect()
    finally:
        small.stop()
        large.stop()
    assert result.download_time_s is None
    assert result.bytes < 1000
    assert result.error is not None
    assert result.error.startswith(f"The ngtcp2 client of flow 2 received {result.bytes} of 2000000 bytes (exit 0)")


# ---------------------------------------------------------------- real runs


def namespaces_of(run_id: str) -> list[str]:
    return [name for name in topology.existing_namespaces() if run_id in name]


def processes_of(run_id: str) -> list[str]:
    """Command lines naming the run: its namespaces (satlink) or its work directory (the flows' programs)."""
    marker = f"satlab-{run_id}-".encode()
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes()
        except OSError:  # it exited meanwhile
            continue
        if marker in text:
            found.append(text.replace(b"\0", b" ").decode(errors="replace"))
    return found


NGTCP2_2MB = ["flows.0.transport=quic-ngtcp2", "flows.0.cc=cubic", "flows.0.hystart=null",
              "flows.0.size_bytes=2000000"]


@needs_ngtcp2
@pytest.mark.needs_root
def test_run_downloads_2mb_with_ngtcp2_over_geo_ideal() -> None:
    events: list[dict] = []
    result = engine.run(load(LABS / "geo-ideal.yaml", NGTCP2_2MB), events.append)
    assert result.status == "done", result.error
    (flow,) = result.flows
    assert flow["bytes"] == 2_000_000
    # 2 MB need 1.33 s at 12 Mbit/s, after the handshake's round trip of 500 ms;
    # slow start over that RTT adds a few seconds more.
    assert 2_000_000 * 8 / 12e6 + 0.5 <= flow["download_time_s"] < 15
    assert flow["download_time_s"] <= flow["wall_time_s"]
    assert isinstance(flow["retransmissions"], int)
    assert flow["mean_rtt_ms"] >= 500
    live = [sample for event in events if event["type"] == "sample" for sample in event["flows"]]
    received = [sample["bytes_acked"] for sample in live if sample["bytes_acked"] is not None]
    assert len(received) >= 10 and received == sorted(received)
    assert 0 < received[-1] <= 2_000_000
    assert any(sample["cwnd_bytes"] and sample["rtt_ms"] and sample["rtt_ms"] >= 500 for sample in live)
    assert namespaces_of(result.run_id) == []
    assert processes_of(result.run_id) == []


@needs_ngtcp2
@pytest.mark.needs_root
def test_run_with_an_ngtcp2_server_that_cannot_start_fails_with_a_sentence() -> None:
    scenario = load(LABS / "geo-ideal.yaml", NGTCP2_2MB)
    # Past validation on purpose: only gtlsserver itself can refuse it.
    scenario.flows[0] = scenario.flows[0].model_copy(update={"cc": "vegas"})
    result = engine.run(scenario)
    assert result.status == "failed"
    assert result.error is not None
    assert result.error.startswith("The ngtcp2 server of flow 0 exited 1 instead of listening on ")
    assert "cc: specify cubic, reno, bbr, or bbr2" in result.error
    assert namespaces_of(result.run_id) == []
    assert processes_of(result.run_id) == []
