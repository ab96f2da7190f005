"""Reading ngtcp2's qlogs. The records below are verbatim ngtcp2 0.12.1
output (a few with their numbers changed)."""

import gzip
import re
from pathlib import Path

import pytest

from satlab.engine.flows.ngtcp2.qlog import Endpoint, QlogTail, server_clock_ms, split_records

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
ZERO_RTT_REQUEST_RECEIVED = (
    b'{"time":0,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":2,'
    b'"offset":0,"length":18},{"frame_type":"stream","stream_id":0,"offset":0,"length":43,"fin":true},'
    b'{"frame_type":"padding"}],"header":{"packet_type":"0RTT","packet_number":0},"raw":{"length":478}}}')
ACK_SENT = (
    b'{"time":1716,"name":"transport:packet_sent","data":{"frames":[{"frame_type":"ack","ack_delay":0,'
    b'"acked_ranges":[[1456,1458]],"ect1":0,"ect0":1100,"ce":0}],"header":{"packet_type":"1RTT",'
    b'"packet_number":420},"raw":{"length":45}}}')
PING_SENT = (
    b'{"time":22,"name":"transport:packet_sent","data":{"frames":[{"frame_type":"ping"},{"frame_type":"padding"}],'
    b'"header":{"packet_type":"1RTT","packet_number":2},"raw":{"length":1406}}}')
ACK_RECEIVED = (
    b'{"time":1715,"name":"transport:packet_received","data":{"frames":[{"frame_type":"ack","ack_delay":0,'
    b'"acked_ranges":[[333,344]],"ect1":0,"ect0":343,"ce":0}],"header":{"packet_type":"1RTT",'
    b'"packet_number":1460},"raw":{"length":45}}}')

def qlog(*records: bytes) -> bytes:
    return b"".join(RS + record + b"\n" for record in records)


def with_time(record: bytes, time_ms: int) -> bytes:
    return re.sub(rb'^\{"time":\d+,', b'{"time":%d,' % time_ms, record, count=1)


def response_data(time_ms: int, offset: int, length: int, fin: bool = False) -> bytes:
    """A received packet of the response (stream 0) at time_ms."""
    return (with_time(RESPONSE_FIN_RECEIVED, time_ms)
            .replace(b'"offset":1999925,"length":702,"fin":true',
                     b'"offset":%d,"length":%d%s' % (offset, length, b',"fin":true' if fin else b"")))


def observed(*records: bytes) -> Endpoint:
    side = Endpoint()
    for record in split_records(qlog(*records))[0]:
        side.observe(record)
    return side


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


def test_endpoint_follows_the_senders_metrics_and_counts_losses() -> None:
    sender = observed(HEADER, METRICS_START, LOST, LOST, METRICS_LATER, ACK_RECEIVED)
    assert (sender.cwnd_bytes, sender.rtt_ms, sender.lost_packets) == (23278, 69.0, 2)


@pytest.mark.parametrize("bad", [
    METRICS_LATER[:60],  # torn
    b'["recovery:metrics_updated"]',  # not an object
    b'{"name":"recovery:metrics_updated","data":{"congestion_window":"big","smoothed_rtt":null}}',
    b'{"name":"recovery:metrics_updated","data":7}',
    b'\xff"recovery:',
])
def test_endpoint_ignores_a_bad_record(bad: bytes) -> None:
    side = observed(METRICS_START, LOST)
    side.observe(bad)
    assert (side.cwnd_bytes, side.rtt_ms, side.lost_packets) == (14520, 333.0, 1)


def test_endpoint_counts_stream_0_in_order_and_completes_at_its_fin() -> None:
    # 0-1000 at 10 ms, 2000-3000 (ahead of a gap) at 20, 1000-2000 (the
    # gap's repair) and the FIN's 3000-3500 at 30; control streams and a
    # duplicate late packet change nothing.
    side = observed(response_data(10, 0, 1000), CONTROL_STREAMS_RECEIVED, response_data(20, 2000, 1000))
    assert (side.stream_bytes, side.final_bytes, side.complete_ms) == (1000, None, None)
    for record in split_records(qlog(response_data(30, 1000, 1000), response_data(30, 3000, 500, fin=True),
                                     response_data(40, 2000, 1000)))[0]:
        side.observe(record)
    assert (side.stream_bytes, side.final_bytes, side.complete_ms) == (3500, 3500, 30)
    assert [side.bytes_at(ms) for ms in (9, 10, 29.5, 30, 1e9)] == [0, 1000, 1000, 3500, 3500]
    assert not side.zero_rtt_stream_data


def test_endpoint_ignores_what_is_not_received_stream_0_data() -> None:
    sent = response_data(10, 0, 1000).replace(b"packet_received", b"packet_sent")
    side = observed(sent, CONTROL_STREAMS_RECEIVED, b'{"name":"transport:packet_received","frame_type":"stream"',
                    response_data(10, 0, 1000)[:90], b'\xff"frame_type":"stream"')
    assert (side.stream_bytes, side.final_bytes) == (0, None)


def test_endpoint_counts_the_packets_and_ack_frames_it_sent_and_its_first_exchange() -> None:
    side = observed(HEADER, PING_SENT, CONTROL_STREAMS_RECEIVED, ACK_SENT, ACK_RECEIVED, ACK_SENT)
    assert (side.packets_sent, side.ack_frames_sent) == (3, 2)
    assert (side.first_sent_ms, side.first_received_ms) == (22, 2)


def test_endpoint_tells_a_request_in_0rtt_apart() -> None:
    assert observed(ZERO_RTT_REQUEST_RECEIVED).zero_rtt_stream_data
    assert not observed(ZERO_RTT_REQUEST_RECEIVED.replace(b'"stream_id":0', b'"stream_id":4')).zero_rtt_stream_data


def test_the_server_clock_starts_half_the_first_round_trip_after_the_clients_first_packet() -> None:
    # The client's Initial leaves at 2 ms, the server replies 10 ms after it
    # arrived, the reply comes in at 512 ms: 250 ms each way.
    client = observed(with_time(PING_SENT, 2), with_time(ACK_RECEIVED, 512))
    server = observed(with_time(PING_SENT, 10))
    assert server_clock_ms(client, server) == 252
    assert server_clock_ms(client, Endpoint()) is None
    assert server_clock_ms(Endpoint(), server) is None


def test_a_tailed_qlog_gives_back_the_disk_it_was_read_from_and_keeps_a_compressed_copy(tmp_path):
    path, kept = tmp_path / "client.sqlog", tmp_path / "client.sqlog.gz"
    record = b'\x1e{"time":1,"name":"transport:packet_sent","data":{"frames":[{"frame_type":"ack"}]}}\n'
    tail = QlogTail(path, kept)
    written = b""
    with path.open("wb") as writer:  # a program that writes on at its offset, as gtlsclient does
        for _ in range(4):
            chunk = record * 4000  # ~340 kB
            writer.write(chunk)
            writer.flush()
            written += chunk
            assert len(list(tail.records())) == 4000
            # The bytes read no longer take disk: only a block or two past the read offset would.
            assert path.stat().st_blocks * 512 < 64 << 10
    assert path.stat().st_size == len(written)
    assert tail.close() == kept
    assert gzip.decompress(kept.read_bytes()) == written
