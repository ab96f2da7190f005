"""The split-TCP PEP's bench: a client - terminal - satellite - gateway - server
path of namespaces, the interception a run sets up for a PEP (iptables TPROXY,
a fwmark rule and a local route table) and removes, a packet capture on an
interface, and small TCP peers.

The interception (iptables TPROXY, a fwmark rule, a local route table) is
the engine's own, imported from satlab.engine.pep: one definition for the
engine's runs and these tests.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import netlab
from netlab import A_ADDR, B_ADDR, Tool
from satlab.engine.pep import PEP_PORT, Interception, intercepting

# The ground networks on either side of the satellite link (A_ADDR at the
# terminal, B_ADDR at the gateway).
CLIENT_ADDR, TERMINAL_LAN_ADDR = "10.77.1.2", "10.77.1.1"
SERVER_ADDR, GATEWAY_LAN_ADDR = "10.77.2.2", "10.77.2.1"
CLIENT_NET, SERVER_NET = "10.77.1.0/24", "10.77.2.0/24"
ETH_P_ALL, ETH_P_IP = 0x0003, 0x0800
# struct tcp_info: 8 one-byte fields, then 32-bit ones; tcpi_total_retrans is
# the 24th of those (linux/tcp.h).
TCPI_TOTAL_RETRANS_OFFSET = 8 + 23 * 4


@dataclass(frozen=True)
class PepPath:
    client: str
    terminal: str
    gateway: str
    server: str
    terminal_lan_dev: str  # the terminal's end of the client's veth
    terminal_sat_dev: str  # satlink's TUN at the terminal
    gateway_sat_dev: str   # satlink's TUN at the gateway
    gateway_lan_dev: str   # the gateway's end of the server's veth
    link: Tool


def veth(ns_a: str, ns_b: str, addr_a: str, addr_b: str) -> tuple[str, str]:
    end_a, end_b = netlab.unique("pa"), netlab.unique("pb")
    netlab.run("ip", "link", "add", end_a, "netns", ns_a, "type", "veth", "peer", "name", end_b,
               "netns", ns_b)
    for ns, end, address in ((ns_a, end_a, addr_a), (ns_b, end_b, addr_b)):
        netlab.run("ip", "-n", ns, "addr", "add", f"{address}/24", "dev", end)
        netlab.run("ip", "-n", ns, "link", "set", end, "up")
    return end_a, end_b


@contextlib.contextmanager
def pep_path(*link_args: str) -> Iterator[PepPath]:
    """client --veth-- terminal --satlink(link_args)-- gateway --veth-- server,
    routed end to end, no PEP yet."""
    with netlab.namespace("pc") as client, netlab.namespace("pt") as terminal, \
            netlab.namespace("pg") as gateway, netlab.namespace("ps") as server:
        for ns in (terminal, gateway):
            netlab.run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        _, terminal_lan = veth(client, terminal, CLIENT_ADDR, TERMINAL_LAN_ADDR)
        gateway_lan, _ = veth(gateway, server, GATEWAY_LAN_ADDR, SERVER_ADDR)
        terminal_sat, gateway_sat = netlab.unique("sa"), netlab.unique("sb")
        args = [netlab.tool("satlink"), "--a-netns", terminal, "--b-netns", gateway,
                "--a-dev", terminal_sat, "--b-dev", gateway_sat,
                "--a-addr", f"{A_ADDR}/24", "--b-addr", f"{B_ADDR}/24", *link_args]
        with netlab.running(args) as link:
            netlab.run("ip", "-n", client, "route", "add", "default", "via", TERMINAL_LAN_ADDR)
            netlab.run("ip", "-n", server, "route", "add", "default", "via", GATEWAY_LAN_ADDR)
            netlab.run("ip", "-n", terminal, "route", "add", SERVER_NET, "via", B_ADDR)
            netlab.run("ip", "-n", gateway, "route", "add", CLIENT_NET, "via", A_ADDR)
            yield PepPath(client, terminal, gateway, server, terminal_lan, terminal_sat,
                          gateway_sat, gateway_lan, link)


@dataclass(frozen=True)
class RelayPath:
    client: str
    middle: str
    server: str
    middle_client_dev: str  # the middle's end of the client's veth


@contextlib.contextmanager
def relay_path() -> Iterator[RelayPath]:
    """client --veth-- middle --veth-- server, routed, no delay: what a PEP
    in the middle costs, and nothing else."""
    with netlab.namespace("rc") as client, netlab.namespace("rm") as middle, \
            netlab.namespace("rs") as server:
        netlab.run("ip", "netns", "exec", middle, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        _, middle_client_dev = veth(client, middle, CLIENT_ADDR, TERMINAL_LAN_ADDR)
        veth(middle, server, GATEWAY_LAN_ADDR, SERVER_ADDR)
        netlab.run("ip", "-n", client, "route", "add", "default", "via", TERMINAL_LAN_ADDR)
        netlab.run("ip", "-n", server, "route", "add", "default", "via", GATEWAY_LAN_ADDR)
        yield RelayPath(client, middle, server, middle_client_dev)


# ---------------------------------------------------------------------------
# A PEP and its interception


def pep_args(role: str, *options: str, port: int = PEP_PORT) -> list[str]:
    return [netlab.tool("satlab-pep"), "--role", role, "--listen", f"127.0.0.1:{port}", *options]


@contextlib.contextmanager
def pep(path: PepPath, role: str, *options: str) -> Iterator[tuple[Tool, Lines]]:
    """A PEP in the terminal or gateway namespace of path with its
    interception (TCP arriving from the client's side), and every line it
    prints; both removed on exit."""
    ns, inbound = ((path.terminal, path.terminal_lan_dev) if role == "terminal"
                   else (path.gateway, path.gateway_sat_dev))
    with intercepting(Interception(ns, inbound)):
        lines = Lines()
        started = Tool(pep_args(role, *options), ns, on_line=lines)
        try:
            started.event("ready", 10)
            yield started, lines
        finally:
            started.kill()


class Lines:
    """Every JSON line of a tool, as its on_line callback sees them."""

    def __init__(self) -> None:
        self.lines: list[dict] = []
        self._lock = threading.Lock()

    def __call__(self, line: dict) -> None:
        with self._lock:
            self.lines.append(line)

    def of(self, event: str) -> list[dict]:
        with self._lock:
            return [line for line in self.lines if line.get("event") == event]

    def wait_for(self, event: str, condition: Callable[[dict], bool], timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            found = [line for line in self.of(event) if condition(line)]
            if found:
                return found[0]
            assert time.monotonic() < deadline, f"no {event} line as wanted in {timeout} s: " \
                                                f"{self.lines[-3:]}"
            time.sleep(0.01)


# ---------------------------------------------------------------------------
# On the wire


@dataclass(frozen=True)
class Segment:
    t_ns: int
    src: tuple[str, int]
    dst: tuple[str, int]
    flags: str  # "S", "SA", "A", "FA", "R"...: SYN, ACK, FIN, RST, PSH as letters
    seq: int
    payload_bytes: int


def _flags(bits: int) -> str:
    return "".join(letter for bit, letter in ((0x02, "S"), (0x01, "F"), (0x04, "R"), (0x08, "P"),
                                              (0x10, "A")) if bits & bit)


class Capture:
    """The TCP segments crossing one interface of a namespace, both ways,
    with the kernel's timestamps (an AF_PACKET socket: no tcpdump needed)."""

    def __init__(self, ns: str, dev: str):
        # ETH_P_ALL: a socket bound to one protocol sees only what arrives.
        self.sock = netlab.socket_in(ns, socket.AF_PACKET, socket.SOCK_DGRAM,
                                     socket.htons(ETH_P_ALL))
        self.sock.bind((dev, ETH_P_ALL))
        self.sock.setsockopt(socket.SOL_SOCKET, netlab.SO_TIMESTAMPNS, 1)
        self.sock.settimeout(0.05)
        self.segments: list[Segment] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                packet, ancillary, _, address = self.sock.recvmsg(65536, 64)
            except TimeoutError:
                continue
            if address[1] != ETH_P_IP or len(packet) < 40 or packet[9] != socket.IPPROTO_TCP:
                continue
            ip_header = (packet[0] & 0x0F) * 4
            total = struct.unpack_from("!H", packet, 2)[0]
            sport, dport, seq, _, offset, bits = struct.unpack_from("!HHIIBB", packet, ip_header)
            tcp_header = (offset >> 4) * 4
            self.segments.append(Segment(
                netlab.kernel_stamp_ns(ancillary),
                (socket.inet_ntoa(packet[12:16]), sport), (socket.inet_ntoa(packet[16:20]), dport),
                _flags(bits), seq, total - ip_header - tcp_header))

    def close(self) -> list[Segment]:
        self._stop.set()
        self._thread.join()
        self.sock.close()
        return self.segments


@contextlib.contextmanager
def capturing(ns: str, dev: str) -> Iterator[Capture]:
    capture = Capture(ns, dev)
    try:
        yield capture
    finally:
        capture.close()


# ---------------------------------------------------------------------------
# TCP peers


def tcp_total_retrans(sock: socket.socket) -> int:
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return struct.unpack_from("I", info, TCPI_TOTAL_RETRANS_OFFSET)[0]


class Server:
    """A TCP server in a namespace; `handle(connection)` runs in a thread
    per connection. Records each connection's peer address and, after the
    handler, its total_retrans."""

    def __init__(self, ns: str, address: str, port: int,
                 handle: Callable[[socket.socket], None]):
        self.listener = netlab.socket_in(ns, socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((address, port))
        self.listener.listen(16)
        self.listener.settimeout(0.05)
        self.address = (address, port)
        self.peers: list[tuple[str, int]] = []
        self.retransmissions: list[int] = []
        self.errors: list[BaseException] = []
        self._handle = handle
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                connection, peer = self.listener.accept()
            except TimeoutError:
                continue
            self.peers.append(peer)
            thread = threading.Thread(target=self._serve, args=(connection,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            try:
                connection.settimeout(60)
                self._handle(connection)
                self.retransmissions.append(tcp_total_retrans(connection))
            except BaseException as error:  # reported by close()
                self.errors.append(error)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        for thread in self._threads:
            thread.join(60)
        self.listener.close()
        assert not self.errors, self.errors


@contextlib.contextmanager
def serving(ns: str, address: str, port: int,
            handle: Callable[[socket.socket], None]) -> Iterator[Server]:
    server = Server(ns, address, port, handle)
    try:
        yield server
    finally:
        server.close()


def read_all(connection: socket.socket) -> int:
    """Read until the peer's end of stream; returns the byte count."""
    total = 0
    while chunk := connection.recv(1 << 16):
        total += len(chunk)
    return total


# A one-byte echo server in its own process (not a thread of the measuring
# one, whose interpreter lock would add to the times): prints "ready" once
# listening, serves one connection.
_ECHO_SERVER = """
import socket, sys
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind((sys.argv[1], int(sys.argv[2])))
listener.listen(1)
print("ready", flush=True)
connection, _ = listener.accept()
connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
while data := connection.recv(1):
    connection.sendall(data)
"""


def echo_rtts_us(client: str, server: str, count: int, port: int = 9100,
                 warmup: int = 200) -> list[float]:
    """Round-trip times (us) of `count` one-byte requests and responses over
    one TCP connection from namespace client to SERVER_ADDR in namespace
    server, after `warmup` untimed ones."""
    echo = subprocess.Popen(["ip", "netns", "exec", server, sys.executable, "-c", _ECHO_SERVER,
                             SERVER_ADDR, str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert echo.stdout is not None and echo.stdout.readline().strip() == "ready"
        rtts = []
        with netlab.socket_in(client, socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.settimeout(10)
            sock.connect((SERVER_ADDR, port))
            for i in range(warmup + count):
                start = time.perf_counter_ns()
                sock.sendall(b"x")
                assert sock.recv(1) == b"x"
                if i >= warmup:
                    rtts.append((time.perf_counter_ns() - start) / 1e3)
        return rtts
    finally:
        echo.wait(10)
