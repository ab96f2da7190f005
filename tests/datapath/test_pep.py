"""satlab-pep on a client - terminal - satlink - gateway - server path of
namespaces: the split connection seen on the wire, losses recovered on the
satellite segment alone, UDP untouched, half-close and bounded buffers, the
split's failure mode, stopping and killing, the interception's teardown, and
argument errors."""

import contextlib
import hashlib
import random
import socket
import subprocess
import time
from pathlib import Path

import pytest

import netlab
import pep_lab
from pep_lab import CLIENT_ADDR, SERVER_ADDR, pep, pep_path, serving
from satlab.engine import tcp_stack
from satlab.engine.pep import (
    PEP_PORT,
    Interception,
    install_interception,
    intercepting,
    interception_commands,
    interception_left,
    remove_interception,
)

pytestmark = pytest.mark.needs_root

PORT = 8080
DELAY_MS = 250  # GEO
RTT_S = 2 * DELAY_MS / 1e3
# What the loaded 2-core VM may add to a time the test's threads measure.
SLACK_S = RTT_S / 4
RESPONSE = bytes(1000)


def respond(connection: socket.socket) -> None:
    """A request of a few bytes, then a 1000-byte response and the end."""
    connection.recv(100)
    connection.sendall(RESPONSE)


def fetch(client_ns: str) -> tuple[float, float, str]:
    """From namespace client_ns: seconds to connect, seconds from connect()
    to the response's first byte, and the client's own address."""
    sock = netlab.socket_in(client_ns, socket.AF_INET, socket.SOCK_STREAM)
    with sock:
        sock.settimeout(10)
        start = time.monotonic()
        sock.connect((SERVER_ADDR, PORT))
        connected = time.monotonic()
        sock.sendall(b"GET /1000")
        assert sock.recv(1)
        first_byte = time.monotonic()
        pep_lab.read_all(sock)
        host, port = sock.getsockname()
    return connected - start, first_byte - start, f"{host}:{port}"


def fast_open_sysctl(*namespaces: str) -> None:
    for ns in namespaces:
        netlab.run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv4.tcp_fastopen=3")


def handshakes(segments: list[pep_lab.Segment], client: str) -> list[pep_lab.Segment]:
    """The SYN and SYN-ACK segments of the connection from address client."""
    host, port = client.split(":")
    ends = {(host, int(port)), (SERVER_ADDR, PORT)}
    return [s for s in segments if "S" in s.flags and {s.src, s.dst} == ends]


def test_the_terminal_answers_the_handshake_and_fast_open_saves_a_round_trip():
    """Distributed PEPs with Fast Open on the satellite segment: the client's
    SYN is answered at the terminal; three connections, each with its own
    handshake and initial sequence number, carry one; once the terminal PEP
    has the cookie, its SYN carries the request and the first byte comes
    one round trip sooner than end to end."""
    with pep_path("--delay-ms", str(DELAY_MS)) as path, \
            serving(path.server, SERVER_ADDR, PORT, respond) as server:
        end_to_end_connect, end_to_end_first_byte, _ = fetch(path.client)
        fast_open_sysctl(path.terminal, path.gateway)
        with pep(path, "terminal", "--sat-fastopen", "cookie") as (_, terminal_lines), \
                pep(path, "gateway", "--sat-fastopen", "cookie") as (_, gateway_lines):
            _, cookie_fetch_first_byte, _ = fetch(path.client)  # fetches the cookie
            with pep_lab.capturing(path.terminal, path.terminal_lan_dev) as ground_client, \
                    pep_lab.capturing(path.gateway, path.gateway_sat_dev) as sat, \
                    pep_lab.capturing(path.gateway, path.gateway_lan_dev) as ground_server:
                connect_s, first_byte_s, client = fetch(path.client)
                closed = [lines.wait_for("closed", lambda line: line["client"] == client, 5)
                          for lines in (terminal_lines, gateway_lines)]
    assert end_to_end_connect == pytest.approx(RTT_S, abs=SLACK_S)
    assert end_to_end_first_byte == pytest.approx(2 * RTT_S, abs=SLACK_S)
    assert cookie_fetch_first_byte == pytest.approx(2 * RTT_S, abs=SLACK_S)
    assert connect_s < SLACK_S
    assert end_to_end_first_byte - first_byte_s == pytest.approx(RTT_S, abs=SLACK_S)
    # The server saw the client's own address and port: the PEPs are transparent.
    assert f"{server.peers[-1][0]}:{server.peers[-1][1]}" == client

    by_segment = [handshakes(capture.segments, client)
                  for capture in (ground_client, sat, ground_server)]
    for syn_and_ack in by_segment:
        assert [s.flags for s in syn_and_ack] == ["S", "SA"], syn_and_ack
    syns = [syn_and_ack[0] for syn_and_ack in by_segment]
    assert len({syn.seq for syn in syns}) == 3  # three handshakes
    client_syn, client_syn_ack = by_segment[0]
    sat_syn, sat_syn_ack = by_segment[1]
    # Each handshake is answered at the near end of its segment (kernel
    # timestamps): the client's by the terminal, the satellite's by the gateway.
    assert client_syn_ack.t_ns - client_syn.t_ns < 5e6
    assert sat_syn_ack.t_ns - sat_syn.t_ns < 5e6
    assert sat_syn.payload_bytes == len(b"GET /1000")  # the request rode in the SYN
    assert all(line["state"] == "finished" and line["sat"]["syn_data"] for line in closed)


def upload(client_ns: str, size: int) -> tuple[int, int]:
    """Send `size` random bytes (seeded) to the server, end, wait for the
    server's end; returns the client's total_retrans then and the server's
    digest check value."""
    data = random.Random(size).randbytes(size)
    with netlab.socket_in(client_ns, socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(60)
        sock.connect((SERVER_ADDR, PORT))
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        digest = sock.recv(64)
        assert sock.recv(1) == b""
        return pep_lab.tcp_total_retrans(sock), int(digest == hashlib.sha256(data).digest())


def digest_reply(connection: socket.socket) -> None:
    """Read to the end of stream, answer the SHA-256 of what came."""
    digest = hashlib.sha256()
    while chunk := connection.recv(1 << 16):
        digest.update(chunk)
    connection.sendall(digest.digest())


LOSSY_LINK = ["--delay-ms", "10"]
SIZE = 4 << 20


def told_of_no_loss(before: dict[str, int | None], after: dict[str, int | None],
                    retransmissions: int) -> bool:
    """Whether a TCP end, its namespace's counters before and after its
    connection, was never told of a loss: it resent nothing, or what it
    resent it resent after a timeout alone, in no recovery. A satellite
    loss reaching this end would come back as SACKs, a recovery and a
    retransmission. A steal of the VM's CPU does neither on a veth that
    lost nothing, but can look like a part of it: past the 200 ms minimum
    RTO it fires a timeout that resends the flight, and ACKs it held back
    can start a recovery that ends before anything is resent (seen in CI:
    one recovery, no retransmission)."""
    recoveries = after["loss_recoveries"] - before["loss_recoveries"]
    rtos = after["rtos"] - before["rtos"]
    return retransmissions == 0 or (recoveries == 0 and rtos > 0)


def without_loss_probes(*namespaces: str) -> None:
    """Tail loss probes fire 2 SRTT + 2 jiffies after a silence: on a veth
    of microseconds a scheduling hiccup of the loaded VM is one, counted as
    a retransmission that no loss caused. End hosts without them count only
    what a loss made them resend."""
    for ns in namespaces:
        netlab.run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv4.tcp_early_retrans=0")


def test_upload_losses_on_the_satellite_are_recovered_by_the_terminal_pep():
    """2 % loss from terminal to gateway: end to end, the client resends
    what the link lost; through distributed PEPs the terminal PEP's
    satellite-side socket does, and the client never does. The segments'
    settings are those asked for."""
    link = [*LOSSY_LINK, "--ab-channel", "bernoulli:loss=0.02,seed=5"]
    with pep_path(*link) as path, serving(path.server, SERVER_ADDR, PORT, digest_reply) as server:
        without_loss_probes(path.client, path.server)
        end_to_end_retrans, intact_end_to_end = upload(path.client, SIZE)
        end_to_end_drops = netlab.link_drained(path.link, 0)["drops_channel"]
        client_before = tcp_stack.counters(path.client)
        with pep(path, "terminal", "--sat-congestion", "cubic", "--ground-congestion", "reno",
                 "--sat-sndbuf-bytes", "1000000") as (_, terminal_lines), \
                pep(path, "gateway") as (_, gateway_lines):
            client_retrans, intact = upload(path.client, SIZE)
            terminal = terminal_lines.wait_for("closed", lambda _: True, 5)
            gateway = gateway_lines.wait_for("closed", lambda _: True, 5)
        client_after = tcp_stack.counters(path.client)
        drops = path.link.stop()["ab"]["drops_channel"] - end_to_end_drops
    assert intact_end_to_end and intact and server.retransmissions == [0, 0]
    assert end_to_end_retrans >= end_to_end_drops > 0
    assert told_of_no_loss(client_before, client_after, client_retrans)
    # Every loss is the terminal PEP's to repair (a repair can be lost too).
    assert terminal["sat"]["total_retrans"] >= drops > 0
    assert (terminal["sat"]["congestion"], terminal["ground"]["congestion"]) == ("cubic", "reno")
    assert terminal["sat"]["sndbuf_bytes"] == 2000000  # the kernel doubles SO_SNDBUF
    assert terminal["to_server"]["bytes"] == gateway["to_server"]["bytes"] == SIZE


def download(client_ns: str) -> tuple[int, bytes]:
    with netlab.socket_in(client_ns, socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(60)
        start = time.monotonic()
        sock.connect((SERVER_ADDR, PORT))
        connect_s = time.monotonic() - start
        sock.sendall(b"x")
        chunks = []
        while chunk := sock.recv(1 << 16):
            chunks.append(chunk)
    return connect_s, b"".join(chunks)


DOWNLOAD = random.Random(7).randbytes(SIZE)


def send_download(connection: socket.socket) -> None:
    """After the request, the download and its end; then wait for the
    client's end, when everything sent has been acknowledged."""
    connection.recv(1)
    connection.sendall(DOWNLOAD)
    connection.shutdown(socket.SHUT_WR)
    pep_lab.read_all(connection)


def test_download_losses_are_recovered_by_a_gateway_pep_alone():
    """Gateway mode, 2 % loss from gateway to terminal: the gateway PEP's
    accepted (satellite-side) socket retransmits, the server never does; the
    client's handshake crosses the satellite to the gateway PEP."""
    link = [*LOSSY_LINK, "--ba-channel", "bernoulli:loss=0.02,seed=6"]
    with pep_path(*link) as path, \
            serving(path.server, SERVER_ADDR, PORT, send_download) as server:
        without_loss_probes(path.client, path.server)
        server_before = tcp_stack.counters(path.server)
        with pep(path, "gateway") as (_, lines):
            connect_s, received = download(path.client)
            gateway = lines.wait_for("closed", lambda _: True, 5)
        server_after = tcp_stack.counters(path.server)
        drops = path.link.stop()["ba"]["drops_channel"]
    assert received == DOWNLOAD
    assert connect_s >= 0.02  # the handshake crossed the satellite
    assert len(server.retransmissions) == 1
    assert told_of_no_loss(server_before, server_after, server.retransmissions[0])
    assert gateway["sat"]["total_retrans"] >= drops > 0
    assert gateway["state"] == "finished" and gateway["to_client"]["bytes"] == SIZE


def test_udp_and_icmp_cross_the_peps_untouched():
    """QUIC is UDP: datagrams cross both PEPs' namespaces with the client's
    address and port and their bytes as sent, and no PEP sees them."""
    with pep_path("--delay-ms", "5") as path, pep(path, "terminal") as (terminal, _), \
            pep(path, "gateway") as (gateway, _):
        # The pings first: they also resolve the neighbours, whose queue
        # would drop a burst sent before.
        rtts = netlab.icmp_rtts(path.client, SERVER_ADDR, count=5, interval=0.05)
        rng = random.Random(3)
        payloads = [rng.randbytes(rng.randrange(8, 1400)) for _ in range(200)]
        receiver = netlab.socket_in(path.server, socket.AF_INET, socket.SOCK_DGRAM)
        sender = netlab.socket_in(path.client, socket.AF_INET, socket.SOCK_DGRAM)
        with receiver, sender:
            receiver.setsockopt(socket.SOL_SOCKET, netlab.SO_RCVBUFFORCE, 8 << 20)
            receiver.bind((SERVER_ADDR, 4433))
            receiver.settimeout(5)
            sender.bind((CLIENT_ADDR, 50000))
            for payload in payloads:
                sender.sendto(payload, (SERVER_ADDR, 4433))
            arrived = [receiver.recvfrom(2048) for _ in payloads]
            receiver.sendto(b"reply", (CLIENT_ADDR, 50000))
            sender.settimeout(5)
            reply = sender.recvfrom(64)
        stats = [tool.stop() for tool in (terminal, gateway)]
    assert arrived == [(payload, (CLIENT_ADDR, 50000)) for payload in payloads]
    assert reply == (b"reply", (SERVER_ADDR, 4433))
    assert len(rtts) == 5
    assert [line["accepted"] for line in stats] == [0, 0]


def test_half_close_both_ways_through_bounded_pipes():
    """20 MB up, the client's end, then 5 MB down: every byte arrives, each
    end passes on, no pipe ever holds more than its size, and the sockets
    report the bytes of the streams they hold (the PEP's buffer occupancy)."""
    up = random.Random(1).randbytes(20 << 20)
    down = random.Random(2).randbytes(5 << 20)

    def exchange(connection: socket.socket) -> None:
        # The server reads nothing for a while: the upload backs up into the PEP's sockets, so that the
        # stats lines (every 20 ms) see bytes queued however fast the host moves the rest.
        time.sleep(0.3)
        digest = hashlib.sha256()
        while chunk := connection.recv(1 << 16):
            digest.update(chunk)
        assert digest.digest() == hashlib.sha256(up).digest()
        connection.sendall(down)

    with pep_lab.relay_path() as path, serving(path.server, SERVER_ADDR, PORT, exchange), \
            intercepting(Interception(path.middle, path.middle_client_dev)):
        lines = pep_lab.Lines()
        relay = netlab.Tool(pep_lab.pep_args("terminal", "--pipe-bytes", "65536",
                                             "--stats-interval-ms", "20"), path.middle,
                            on_line=lines)
        try:
            relay.event("ready")
            with netlab.socket_in(path.client, socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.settimeout(30)
                sock.connect((SERVER_ADDR, PORT))
                sock.sendall(up)
                sock.shutdown(socket.SHUT_WR)
                received = b"".join(iter(lambda: sock.recv(1 << 16), b""))
            closed = lines.wait_for("closed", lambda _: True, 5)
            relay.stop()
        finally:
            relay.kill()
    assert received == down
    assert closed["state"] == "finished"
    assert (closed["to_server"]["bytes"], closed["to_client"]["bytes"]) == (len(up), len(down))
    peaks = [line[way]["pipe_peak_bytes"] for line in lines.of("connection") + [closed]
             for way in ("to_server", "to_client")]
    assert max(peaks) <= 65536
    queued = [line[side][queue] for line in lines.of("connection") for side in ("sat", "ground") if line[side]
              for queue in ("inq_bytes", "outq_bytes")]
    assert all(isinstance(count, int) and count >= 0 for count in queued) and max(queued) > 0


def test_a_refused_connection_reaches_the_client_as_a_reset():
    """The split's one visible difference: the terminal accepted the client
    before the server refused, so the client's connect succeeds and the
    refusal arrives as a reset."""
    with pep_path() as path, pep(path, "terminal") as (_, lines):
        with netlab.socket_in(path.client, socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            # A client slower than the PEP sees it before connect() returns.
            with pytest.raises(ConnectionResetError):
                sock.connect((SERVER_ADDR, PORT))
                sock.recv(1)
        closed = lines.wait_for("closed", lambda _: True, 5)
    assert closed["state"] == "failed"
    assert closed["error"] == "connect to the server: Connection refused"


def test_connections_beyond_the_maximum_are_reset():
    with pep_path() as path, serving(path.server, SERVER_ADDR, PORT, read_until_reset), \
            pep(path, "terminal", "--max-connections", "1") as (relay, lines):
        first = netlab.socket_in(path.client, socket.AF_INET, socket.SOCK_STREAM)
        second = netlab.socket_in(path.client, socket.AF_INET, socket.SOCK_STREAM)
        with first, second:
            first.connect((SERVER_ADDR, PORT))
            lines.wait_for("connection", lambda line: line["state"] == "relaying", 5)
            second.settimeout(5)
            # The reset may come before connect() returns.
            with pytest.raises(ConnectionResetError):
                second.connect((SERVER_ADDR, PORT))
                second.recv(1)
            first.sendall(b"still relayed")
            lines.wait_for("connection", lambda line: line["to_server"]["bytes"] == 13, 5)
        summary = relay.stop()
    assert (summary["accepted"], summary["refused"]) == (2, 1)


def in_namespace(ns: str, *command: str) -> str:
    return subprocess.run(["ip", "netns", "exec", ns, *command], capture_output=True, text=True,
                          check=True).stdout


def nothing_of_the_pep_runs(ns: str) -> bool:
    """No process in the namespace and no TCP socket on the PEP's port."""
    processes = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True,
                               check=True).stdout
    sockets = in_namespace(ns, "ss", "-Htan", f"sport = :{PEP_PORT}")
    return processes.strip() == "" and sockets.strip() == ""


def read_until_reset(connection: socket.socket) -> None:
    with contextlib.suppress(ConnectionResetError):  # the stopped PEP's reset
        pep_lab.read_all(connection)


@pytest.mark.parametrize("how", ["sigterm", "sigkill"])
def test_stopping_or_killing_the_pep_leaves_nothing(how):
    """SIGTERM: the open connection is reset, a closed line says stopped,
    then the summary, exit 0. SIGKILL: the kernel closes its sockets. Either
    way no process or socket of it remains, and the teardown removes the
    interception."""
    with pep_path() as path, serving(path.server, SERVER_ADDR, PORT, read_until_reset):
        interception = Interception(path.terminal, path.terminal_lan_dev)
        install_interception(interception)
        lines = pep_lab.Lines()
        relay = netlab.Tool(pep_lab.pep_args("terminal"), path.terminal, on_line=lines)
        try:
            relay.event("ready")
            with netlab.socket_in(path.client, socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.settimeout(5)
                sock.connect((SERVER_ADDR, PORT))
                sock.sendall(b"open")
                lines.wait_for("connection", lambda line: line["to_server"]["bytes"] == 4, 5)
                if how == "sigterm":
                    summary = relay.stop()
                    assert lines.of("closed")[0]["state"] == "stopped"
                    assert summary["open"] == 0
                    with pytest.raises(ConnectionResetError):
                        sock.recv(1)
                else:
                    relay.process.kill()
                    assert relay.process.wait(5) == -9
            assert nothing_of_the_pep_runs(path.terminal)
        finally:
            relay.kill()
        assert interception_left(interception) != []
        remove_interception(interception)
        assert interception_left(interception) == []


def test_teardown_removes_a_partial_interception_and_tolerates_none():
    with netlab.namespace("pi") as ns:
        netlab.run("ip", "-n", ns, "link", "add", "lan0", "type", "veth", "peer", "name", "lan1")
        interception = Interception(ns, "lan0")
        for command in interception_commands(interception)[:2]:
            netlab.run("ip", "netns", "exec", ns, *command)
        assert interception_left(interception) != []
        remove_interception(interception)
        assert interception_left(interception) == []
        remove_interception(interception)  # nothing to remove


@pytest.fixture(scope="module")
def ns():
    with netlab.namespace("pargs") as name:
        yield name


def refusal(ns: str, *args: str) -> str:
    """satlab-pep's stderr; it must exit 2 within the timeout."""
    command = ["ip", "netns", "exec", ns, netlab.tool("satlab-pep"), *args]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args} was accepted: the PEP ran instead of refusing")
    assert result.returncode == 2, result.stderr
    return result.stderr.removeprefix("satlab-pep: ").rstrip("\n")


BASE = ("--role", "terminal", "--listen", "127.0.0.1:7000")


def test_bad_arguments_are_refused_with_a_sentence(ns):
    available = Path("/proc/sys/net/ipv4/tcp_available_congestion_control").read_text().strip()
    assert refusal(ns, *BASE, "--sat-congestion", "hybla") == (
        "--sat-congestion must be a congestion control this kernel has "
        f"(/proc/sys/net/ipv4/tcp_available_congestion_control: {available}), got \"hybla\"")
    # A new namespace's net.ipv4.tcp_fastopen is 1: connect, not accept.
    assert refusal(ns, "--role", "gateway", "--listen", "127.0.0.1:7000",
                   "--sat-fastopen", "cookie") == (
        "--sat-fastopen cookie needs bit 0x2 (accept with Fast Open) of net.ipv4.tcp_fastopen "
        "in this namespace, which is 1: set it first (sysctl -w net.ipv4.tcp_fastopen=3)")
    assert refusal(ns, *BASE, "--ground-fastopen", "always") == (
        '--ground-fastopen must be off, cookie or no-cookie, got "always"')
    assert refusal(ns, "--role", "satellite", "--listen", "127.0.0.1:7000") == (
        '--role must be terminal or gateway, got "satellite"')
    assert refusal(ns, "--role", "terminal", "--listen", "127.0.0.1") == (
        '--listen must be IPv4:PORT like 127.0.0.1:7000, got "127.0.0.1"')
    assert refusal(ns, "--role", "terminal") == "--role and --listen are required (see --help)"
    assert refusal(ns, *BASE, "--pipe-bytes", "100") == (
        "--pipe-bytes must be in [4096, 268435456], got 100")
