"""Counting a picoquic qlog."""

from pathlib import Path

from satlab.engine.flows.picoquic.qlog import count_qlog

# A client's qlog as picoquic 1.1.53 writes it (abridged, verbatim lines): an
# event per line, each frame of a packet on a line of its own.
CLIENT_QLOG = b"""{ "qlog_version": "draft-00", "title": "picoquic", "traces": [
"events": [
[420, "transport", "parameters_set", {
    "owner": "local",
    "initial_max_data" : 16777216}],
[931, "transport", "packet_sent", { "packet_type": "initial", "header": { "packet_size": 415 }, "frames": [{
    "frame_type": "ping"}, {
    "frame_type": "crypto", "offset": 0, "length": 380}]}],
[1399, "transport", "packet_sent", { "packet_type": "0RTT", "header": { "packet_size": 37 }, "frames": [{
    "frame_type": "stream", "id": 0, "offset": 0, "length": 5, "fin": true , "begins_with": "68656c6c6f"}]}],
[2756, "transport", "packet_received", { "packet_type": "initial", "header": { "packet_size": 158 }, "frames": [{
    "frame_type": "ack", "ack_delay": 123, "acked_ranges": [[108889, 108889]], "ect0": 1, "ect1": 0, "ce": 0}, {
    "frame_type": "crypto", "offset": 0, "length": 90}]}],
[210931, "transport", "packet_received", { "packet_type": "1RTT", "header": { "packet_size": 1236 }, "frames": [{
    "frame_type": "stream", "id": 0, "offset": 0, "length": 1200}]}],
[211000, "transport", "packet_sent", { "packet_type": "1RTT", "header": { "packet_size": 40 }, "frames": [{
    "frame_type": "ack_frequency", "sequence_number": 1}, {
    "frame_type": "ack", "ack_delay": 3, "acked_ranges": [[0, 1]]}]}],
[412931, "transport", "packet_received", { "packet_type": "1RTT", "header": { "packet_size": 1236 }, "frames": [{
    "frame_type": "stream", "id": 0, "offset": 1200, "length": 1200, "fin": true}]}],
[413000, "transport", "packet_sent", { "packet_type": "1RTT", "header": { "packet_size": 40 }, "frames": [{
    "frame_type": "ack", "ack_delay": 3, "acked_ranges": [[0, 2]]}]}]]}]}
"""


def test_count_qlog_counts_what_the_end_sent(tmp_path: Path) -> None:
    path = tmp_path / "cid.client.qlog"
    path.write_bytes(CLIENT_QLOG)
    counts = count_qlog(path)
    # Four packets sent, one in 0-RTT; two ACK frames among their frames (not
    # ACK_FREQUENCY, not the ACK the server sent).
    assert (counts.packets_sent, counts.zero_rtt_packets_sent, counts.ack_frames_sent) == (4, 1, 2)
    # The first packet left at 931 us; stream data came at 210,931 and 412,931 us.
    assert counts.time_to_first_byte_ms == 210.0
    assert counts.transfer_time_s == 0.412
