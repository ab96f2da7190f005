"""Counting a picoquic qlog: what one end sent on a connection (packets, ACK
frames, 0-RTT packets) and when stream data first and last reached it, by
picoquic's clock. A qlog runs to hundreds of megabytes: it is read line by
line, never parsed whole."""

from __future__ import annotations

import re
from pathlib import Path


class QlogCounts:
    """What one end sent on a connection, and when stream data first and last reached it, from its qlog."""

    def __init__(self) -> None:
        self.packets_sent = 0
        self.ack_frames_sent = 0
        self.zero_rtt_packets_sent = 0
        self.first_sent_us: int | None = None
        self.first_stream_data_us: int | None = None
        self.last_stream_data_us: int | None = None

    @property
    def time_to_first_byte_ms(self) -> float | None:
        """From this end's first packet to the first stream data it received, by picoquic's clock."""
        if self.first_sent_us is None or self.first_stream_data_us is None:
            return None
        return (self.first_stream_data_us - self.first_sent_us) / 1000

    @property
    def transfer_time_s(self) -> float | None:
        """From this end's first packet to the last stream data it received, by picoquic's clock."""
        if self.first_sent_us is None or self.last_stream_data_us is None:
            return None
        return (self.last_stream_data_us - self.first_sent_us) / 1e6


# An ACK frame (type 0x02/0x03), not ack_frequency; picoquic logs each frame
# of a packet on its own line after the packet's event line.
ACK_FRAME = re.compile(rb'"frame_type": "ack"[,}]')


def count_qlog(path: Path) -> QlogCounts:
    """Read a picoquic qlog line by line (one runs to hundreds of megabytes).

    picoquic writes each event as a line "[relative_time_us, category, event,
    {...": the lines that follow, up to the next event, are its frames.
    """
    counts = QlogCounts()
    event = b""
    time_us = 0
    with path.open("rb") as qlog:
        for line in qlog:
            if line.startswith(b"["):
                time_text, _, rest = line[1:].partition(b",")
                time_us = int(time_text) if time_text.isdigit() else time_us
                event = rest.split(b'"', 4)[3] if rest.count(b'"') >= 4 else b""
                if event == b"packet_sent":
                    counts.packets_sent += 1
                    counts.zero_rtt_packets_sent += b'"packet_type": "0RTT"' in line
                    if counts.first_sent_us is None:
                        counts.first_sent_us = time_us
            if event == b"packet_sent":
                counts.ack_frames_sent += len(ACK_FRAME.findall(line))
            elif event == b"packet_received" and b'"frame_type": "stream"' in line:
                if counts.first_stream_data_us is None:
                    counts.first_stream_data_us = time_us
                counts.last_stream_data_us = time_us
    return counts
