# ruff: noqa: E501 (ss prints each socket on one long line)
import csv
from pathlib import Path

import pytest

from satlab.engine.pep.segments import client_hop
from satlab.engine.samplers import (
    DataConnection,
    GoodputMeter,
    SocketStats,
    bottleneck_mbps,
    hop_bottleneck_mbps,
    parse_ss,
)
from satlab.scenario import SatellitePath

# `ss -tinH state established` in a server namespace during an iperf3
# download: the control connection, then the data connection.
SS_OUTPUT = """\
0      0      10.78.2.2:5201 10.78.0.2:40930
\t cubic wscale:7,7 rto:704 rtt:503.3/0.9 ato:40 mss:1448 pmtu:1500 rcvmss:536 advmss:1448 cwnd:10 bytes_sent:6 bytes_acked:7 bytes_received:171 segs_out:6 segs_in:8 data_segs_out:3 send 230kbps lastsnd:708 pacing_rate 460kbps delivery_rate 56kbps delivered:4 app_limited busy:12ms rcv_space:14480 minrtt:500.9
0      289600 10.78.2.2:5201 10.78.0.2:40944
\t cubic wscale:7,7 rto:1372 rtt:925.8/61.2 mss:1448 pmtu:1500 rcvmss:536 advmss:1448 cwnd:950 ssthresh:812 bytes_sent:20066744 bytes_retrans:2319696 bytes_acked:17400000 segs_out:15500 data_segs_out:15498 send 11.9Mbps pacing_rate 14.3Mbps delivery_rate 11.5Mbps delivered:12000 busy:19000ms unacked:950 retrans:12/1602 lost:12 sacked:300 reordering:30 notsent:1000 minrtt:500.2
"""


def test_parse_ss_reads_ports_and_fields():
    control, data = parse_ss(SS_OUTPUT)
    assert (data.local_port, data.peer_port) == (5201, 40944)
    assert data.info["cc"] == "cubic"
    assert data.number("rtt") == 925.8
    assert data.number("cwnd") == 950
    assert data.retransmissions == 1602
    assert control.retransmissions == 0


def test_parse_ss_reads_lines_with_a_state_column():
    line = "ESTAB 0 0 10.1.0.2:5000 10.1.2.2:5201\n\t bbr rtt:10/1 cwnd:20 retrans:0/4\n"
    (sock,) = parse_ss(line)
    assert (sock.local_port, sock.peer_port, sock.info["cc"], sock.retransmissions) == (5000, 5201, "bbr", 4)


def test_parse_ss_ignores_garbage():
    assert parse_ss("nothing here\n\t cubic rtt:1/1\n\n") == []


class FakeStats(SocketStats):
    """ss output from a string instead of a namespace."""

    def __init__(self, text: str):
        super().__init__("no-namespace")
        self.text = text

    def sockets(self):
        return parse_ss(self.text)


def test_data_connection_is_the_socket_of_the_data_port_never_the_control_connection():
    stats = FakeStats(SS_OUTPUT.split("0      289600")[0])  # the control connection alone, before the data's
    follow = DataConnection(stats, 5201, 40944)
    assert follow.socket() is None
    stats.text = SS_OUTPUT
    assert follow.socket().peer_port == 40944
    stats.text = SS_OUTPUT.split("0      289600")[0]  # the data connection closed
    assert follow.socket() is None


# Goodput. The recorded series are flow 0 of real runs (tests/recorded/goodput-*.csv): the
# engine's samples at 10 Hz, with what the old per-interval difference made of them.
RECORDED = Path(__file__).parent / "recorded"
GEO_FORWARD_MBPS = 12.0  # geo-ideal and geo-optical: 12 Mbit/s forward


def recorded(name: str) -> list[dict[str, str]]:
    with (RECORDED / f"goodput-{name}.csv").open() as file:
        return list(csv.DictReader(line for line in file if not line.startswith("#")))


def goodputs(rows: list[dict[str, str]], bottleneck_mbps: float = GEO_FORWARD_MBPS) -> list[float]:
    meter = GoodputMeter(bottleneck_mbps, 0.0)  # flow 0 starts the iteration's clock
    values = [meter.add(float(row["t_s"]), int(row["delivered_bytes"]), float(row["rtt_ms"])) for row in rows]
    return [value for value in values if value is not None]


def old_goodputs(rows: list[dict[str, str]]) -> list[float]:
    return [float(row["old_goodput_mbps"]) for row in rows if row["old_goodput_mbps"]]


@pytest.mark.parametrize("name", ["geo-ideal-tcp-cubic-2MB", "geo-ideal-picoquic-bbr1-2MB"])
def test_goodput_of_a_2MB_geo_ideal_run_stays_under_the_bottleneck(name: str):
    rows = recorded(name)
    # What the console showed: an end above the 12 Mbit/s link (13.5 and 15.8 Mbit/s).
    assert max(old_goodputs(rows)) > GEO_FORWARD_MBPS
    values = goodputs(rows)
    assert max(values) <= GEO_FORWARD_MBPS
    # Still the real rate: the transfer reaches most of the link before it ends.
    assert max(values) > 0.6 * GEO_FORWARD_MBPS


def test_goodput_spreads_a_cumulative_ack_jump_after_a_hole_fills():
    rows = recorded("geo-optical-S5-100-tcp-cubic-5MB")
    assert max(old_goodputs(rows)) > 80  # 2.4 MB acknowledged at once after 1.2 s of repair: 97.8 Mbit/s
    assert max(goodputs(rows)) <= GEO_FORWARD_MBPS


def test_goodput_is_never_negative_when_the_count_steps_back():
    rows = recorded("geo-ideal-tcp-cubic-2MB")
    assert min(old_goodputs(rows)) < 0  # -0.00016 Mbit/s at 2.30 s: the count went from 2 bytes to 0
    assert min(goodputs(rows)) == 0


def test_goodput_is_the_rate_over_the_last_rtt():
    meter = GoodputMeter(100.0, 0.0)
    # 1 Mbit/s steadily, an RTT of 500 ms: each 100 ms tick brings 12 500 bytes.
    values = [meter.add(tick / 10, tick * 12_500, 500.0) for tick in range(30)]
    assert values[0] is None
    assert values[-1] == pytest.approx(1.0)
    # A counter read late (its tick's clock says 2.9 s, the read happened at 2.95 s) moves the rate a little, not 50 %.
    late = meter.add(3.05, 31 * 12_500, 500.0)
    assert late == pytest.approx(1.0, rel=0.1)


def test_bottleneck_is_the_slowest_rate_in_the_flows_direction():
    path = SatellitePath.model_validate({"forward": {"rate_mbps": 12, "delay_ms": 250},
                                         "return": {"rate_mbps": 3, "delay_ms": 250},
                                         "lan": {"rate_mbps": 8}})
    assert bottleneck_mbps(path, "download") == 8
    assert bottleneck_mbps(path, "upload") == 3


def test_each_hop_is_metered_at_the_links_it_crosses():
    path = SatellitePath.model_validate({"forward": {"rate_mbps": 12, "delay_ms": 250},
                                         "return": {"rate_mbps": 3, "delay_ms": 250},
                                         "lan": {"rate_mbps": 8}})
    assert hop_bottleneck_mbps(path, "download", None, "end-to-end") == bottleneck_mbps(path, "download") == 8
    assert hop_bottleneck_mbps(path, "download", "distributed", "client") == 8  # the Wi-Fi alone
    assert hop_bottleneck_mbps(path, "download", "distributed", "satellite") == 12  # between the PEPs
    assert hop_bottleneck_mbps(path, "upload", "distributed", "satellite") == 3
    assert hop_bottleneck_mbps(path, "download", "gateway", "satellite") == 8  # the client's own connection
    assert hop_bottleneck_mbps(path, "download", "gateway", "server") is None  # the host's speed
    no_lan = SatellitePath.model_validate({"forward": {"rate_mbps": 12, "delay_ms": 250},
                                           "return": {"rate_mbps": 3, "delay_ms": 250}})
    assert hop_bottleneck_mbps(no_lan, "download", "distributed", "client") is None
    assert [client_hop(mode) for mode in (None, "distributed", "gateway")] == ["end-to-end", "client", "satellite"]


def test_a_hop_that_takes_its_bytes_before_its_first_sample_shows_them_as_goodput():
    # The server's hop to a gateway PEP: 1 MB acknowledged by its first sample, 0.1 s after the start, then no more.
    meter = GoodputMeter(None, 0.0)
    values = [meter.add(t_s, 1_000_000, 1.0) for t_s in (0.1, 0.2, 0.4)]
    assert values == pytest.approx([80.0, 40.0, 0.0])  # over the last 0.2 s (the window's least)
    capped = GoodputMeter(12.0, 0.0)  # the same count on a 12 Mbit/s hop is spread over the time the link needs
    assert capped.add(0.1, 1_000_000, 1.0) == pytest.approx(12.0)
