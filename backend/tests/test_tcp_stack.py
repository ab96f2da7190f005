import os
import subprocess

import pytest

from satlab.engine import tcp_stack

NETSTAT = """TcpExt: SyncookiesSent TCPSackRecovery TCPRenoRecovery TCPTimeouts TCPLossProbes TCPSpuriousRTOs
TcpExt: 0 7 1 3 12 2
IpExt: InNoRoutes InOctets
IpExt: 0 123456
"""
SNMP = """Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens RetransSegs OutSegs
Tcp: 1 200 120000 -1 2 345 15000
"""


def test_parse_reads_the_section_pairs():
    sections = tcp_stack.parse(NETSTAT + SNMP)
    assert sections["TcpExt"]["TCPTimeouts"] == 3
    assert sections["IpExt"]["InOctets"] == 123456
    assert sections["Tcp"]["MaxConn"] == -1
    assert sections["Tcp"]["RetransSegs"] == 345


@pytest.mark.needs_root
def test_counters_of_a_new_namespace_are_zero():
    netns = f"tcpstack-test-{os.getpid()}"
    subprocess.run(["ip", "netns", "add", netns], check=True)
    try:
        assert tcp_stack.counters(netns) == dict.fromkeys(tcp_stack.COUNTERS, 0)
    finally:
        subprocess.run(["ip", "netns", "delete", netns], check=True)
