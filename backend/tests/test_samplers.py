# ruff: noqa: E501 (ss prints each socket on one long line)
from satlab.samplers import DataConnection, SocketStats, parse_ss

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


def test_data_connection_is_not_confused_with_the_control_connection_after_it_closes():
    stats = FakeStats(SS_OUTPUT)
    follow = DataConnection(stats, 5201)
    assert follow.socket().peer_port == 40944
    stats.text = SS_OUTPUT.split("0      289600")[0]  # the data connection closed
    assert follow.socket() is None
