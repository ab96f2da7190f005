"""Network namespaces, the datapath tools and in-process traffic for the datapath
tests and benchmark.

Everything created here is named uniquely per process and call, and removed by
the context manager that created it, on success or failure. Sockets are opened
inside a namespace by switching the calling thread into it (setns) for the
socket() call only: a socket stays in the namespace it was created in.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import select
import shutil
import socket
import statistics
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterator

from satlab.engine.process import JsonLineChild
from satlab.tools import tool

CLONE_NEWNET = 0x40000000
# Linux values the socket module does not export.
SO_SNDBUFFORCE, SO_RCVBUFFORCE, SO_TIMESTAMPNS = 32, 33, 35
_names = itertools.count()


def missing_capability() -> str | None:
    """Why the datapath cannot run here, or None if it can."""
    if os.geteuid() != 0:
        return "needs root to create network namespaces and TUN devices"
    if not os.path.exists("/dev/net/tun"):
        return "needs /dev/net/tun"
    if shutil.which("ip") is None:
        return "needs iproute2's ip command"
    return None


def unique(prefix: str) -> str:
    """A name unique to this process and call, short enough for a device."""
    return f"{prefix}{os.getpid() % 100000}x{next(_names)}"


def run(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, text=True)


@contextlib.contextmanager
def namespace(prefix: str = "dp") -> Iterator[str]:
    """A fresh network namespace with lo up and no IPv6 (no stray router
    solicitations on the wire); deleted on exit. Its default congestion
    control cannot be set to a restricted one (cubic, here) from inside a
    namespace: choose it per socket (TCP_CONGESTION, iperf3 -C)."""
    name = unique(prefix)
    run("ip", "netns", "add", name)
    try:
        for key, value in [("net.ipv6.conf.all.disable_ipv6", "1"),
                           ("net.ipv6.conf.default.disable_ipv6", "1"),
                           ("net.ipv4.tcp_no_metrics_save", "1")]:
            run("ip", "netns", "exec", name, "sysctl", "-qw", f"{key}={value}")
        run("ip", "-n", name, "link", "set", "lo", "up")
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def _setns(fd: int) -> None:
    if hasattr(os, "setns"):
        os.setns(fd, CLONE_NEWNET)
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "setns failed")


@contextlib.contextmanager
def inside(ns: str) -> Iterator[None]:
    """Run the body with the calling thread inside namespace ns."""
    previous = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    target = os.open(f"/run/netns/{ns}", os.O_RDONLY)
    try:
        _setns(target)
        try:
            yield
        finally:
            _setns(previous)
    finally:
        os.close(target)
        os.close(previous)


def socket_in(ns: str, family: int, kind: int, proto: int = 0) -> socket.socket:
    with inside(ns):
        return socket.socket(family, kind, proto)


class Tool(JsonLineChild):
    """A running satlink or swf-tunnel, its JSON lines read by the backend's
    JsonLineChild; adds what the tests ask of it."""

    def event(self, name: str, timeout: float = 5.0) -> dict:
        """The `name` line; fails if it does not come."""
        try:
            return self.wait_event(name, timeout)
        except RuntimeError as error:
            raise AssertionError(str(error)) from None

    def wait_stats(self, condition, timeout: float) -> dict:
        """The first stats line (from now on) for which condition(line) holds."""
        def met() -> bool:
            return self.latest is not None and condition(self.latest)

        with self._changed:
            self._changed.wait_for(lambda: met() or not self.running(), timeout)
            if not met():
                raise AssertionError(f"{self.name}: stats condition not met in {timeout} s, last "
                                     f"{self.latest}; {self.stderr_text()}")
            return self.latest

    def stop(self, timeout: float = 10.0) -> dict:  # type: ignore[override]
        """SIGTERM, then the summary line; the process must exit 0."""
        assert super().stop(timeout) == 0, self.stderr_text()
        return self.event("summary", timeout)

    def kill(self) -> None:
        if self.running():
            self.process.kill()
        super().stop()


@contextlib.contextmanager
def running(args: list[str], netns: str | None = None,
            on_line: Callable[[dict], None] | None = None) -> Iterator[Tool]:
    """A tool that has printed its ready line; killed on exit if still running.
    on_line, if given, sees every JSON line it prints."""
    started = Tool(args, netns, on_line=on_line)
    try:
        started.event("ready", 10)
        yield started
    finally:
        started.kill()


# Addresses of the link's two ends: only ever inside namespaces made here.
A_ADDR, B_ADDR = "10.77.0.1", "10.77.0.2"


@contextlib.contextmanager
def satlink_path(*link_args: str, mtu: int = 1500,
                 on_line: Callable[[dict], None] | None = None) -> Iterator[tuple[str, str, Tool]]:
    """Namespaces a and b joined by satlink (A_ADDR in a, B_ADDR in b);
    on_line sees each of satlink's JSON lines."""
    with namespace("dpa") as a, namespace("dpb") as b:
        args = [tool("satlink"), "--a-netns", a, "--b-netns", b,
                "--a-dev", unique("sa"), "--b-dev", unique("sb"),
                "--a-addr", f"{A_ADDR}/24", "--b-addr", f"{B_ADDR}/24",
                "--mtu", str(mtu), *link_args]
        with running(args, on_line=on_line) as link:
            yield a, b, link


def kernel_stamp_ns(ancillary: list[tuple[int, int, bytes]]) -> int:
    """A received packet's SO_TIMESTAMPNS stamp: the kernel's arrival time
    (CLOCK_REALTIME ns). A busy machine may wake a reader late, never the
    kernel's stamps."""
    seconds, nanoseconds = struct.unpack("qq", ancillary[0][2][:16])
    return seconds * 1_000_000_000 + nanoseconds


def icmp_rtts(ns: str, destination: str, count: int, interval: float) -> list[float]:
    """Round-trip times in ms of `count` ICMP echoes sent every `interval` s
    from namespace ns; lost echoes are missing from the list."""
    return icmp_rtts_together([(ns, destination)], count, interval)[0]


def icmp_rtts_together(targets: list[tuple[str, str]], count: int, interval: float) -> list[list[float]]:
    """Round-trip times in ms of `count` ICMP echoes to each (namespace,
    destination) of targets, one to each in turn at every tick, `interval` s
    apart, from this one thread: the lists were measured at the same times on
    the same host. Lost echoes are missing from their list."""
    ident = os.getpid() & 0xFFFF
    sent: list[dict[int, int]] = [{} for _ in targets]
    rtts: list[list[float]] = [[] for _ in targets]

    def checksum(data: bytes) -> int:
        total = sum(struct.unpack(f"!{len(data) // 2}H", data))
        total = (total >> 16) + (total & 0xFFFF)
        return ~(total + (total >> 16)) & 0xFFFF

    def receive_until(socks: list[socket.socket], deadline: float) -> None:
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select(socks, [], [], left)
            if not readable:
                return
            for sock in readable:
                target = socks.index(sock)
                packet, ancillary, _, _ = sock.recvmsg(2048, 64)
                arrival = kernel_stamp_ns(ancillary)
                header = (packet[0] & 0x0F) * 4
                kind, _, _, their_ident, seq = struct.unpack("!BBHHH", packet[header:header + 8])
                if kind == 0 and their_ident == ident and seq in sent[target]:
                    rtts[target].append((arrival - sent[target].pop(seq)) / 1e6)

    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(socket_in(ns, socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))
                 for ns, _ in targets]
        for sock in socks:
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        start = time.monotonic()
        for seq in range(count):
            body = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + bytes(56)
            body = body[:2] + struct.pack("!H", checksum(body)) + body[4:]
            for target, (sock, (_, destination)) in enumerate(zip(socks, targets, strict=True)):
                sent[target][seq] = time.time_ns()  # the clock of SO_TIMESTAMPNS
                sock.sendto(body, (destination, 0))
            receive_until(socks, start + (seq + 1) * interval)
        longest_ms = max((rtt for target_rtts in rtts for rtt in target_rtts), default=1000)
        receive_until(socks, time.monotonic() + 3 * longest_ms / 1e3 + 1)
    return rtts


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def median(values: list[float]) -> float:
    return statistics.median(values)


class UdpSink:
    """A UDP receiver in a namespace that records (sequence, arrival ns,
    size) of datagrams whose first 8 bytes are a sequence number; arrival
    times are the kernel's stamps, on CLOCK_MONOTONIC (satlink's clock)."""

    def __init__(self, ns: str, address: str, port: int = 9000):
        self.sock = socket_in(ns, socket.AF_INET, socket.SOCK_DGRAM)
        # FORCE: beyond rmem_max, so that the sink never drops what arrived.
        self.sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 32 << 20)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.bind((address, port))
        self.address = (address, port)
        self.arrivals: list[tuple[int, int, int]] = []
        self._realtime_ns = time.time_ns() - time.monotonic_ns()  # CLOCK_REALTIME - CLOCK_MONOTONIC
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._receive, daemon=True)
        self._thread.start()

    def _receive(self) -> None:
        self.sock.settimeout(0.05)
        while not self._stop.is_set():
            try:
                data, ancillary, _, _ = self.sock.recvmsg(65536, 64)
            except TimeoutError:
                continue
            self.arrivals.append((struct.unpack_from("!Q", data)[0],
                                  kernel_stamp_ns(ancillary) - self._realtime_ns, len(data)))

    def wait_count(self, count: int, timeout: float) -> None:
        """Wait until `count` datagrams arrived; fail after `timeout` s."""
        deadline = time.monotonic() + timeout
        while len(self.arrivals) < count:
            assert time.monotonic() < deadline, \
                f"{len(self.arrivals)} of {count} datagrams arrived in {timeout} s"
            time.sleep(0.01)

    def close(self) -> list[tuple[int, int, int]]:
        self._stop.set()
        self._thread.join()
        self.sock.close()
        return self.arrivals


def send_udp(ns: str, destination: tuple[str, int], count: int, rate_pps: float,
             size: int = 1000) -> list[int]:
    """Send `count` datagrams of `size` bytes numbered 0.. at rate_pps, paced
    against an absolute schedule so that late wake-ups catch up. Returns the
    monotonic send time (ns) of each."""
    sent = []
    with socket_in(ns, socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, 32 << 20)
        padding = bytes(size - 8)
        start = time.monotonic()
        for seq in range(count):
            due = start + seq / rate_pps
            if (wait := due - time.monotonic()) > 0:
                time.sleep(wait)
            sent.append(time.monotonic_ns())
            sock.sendto(struct.pack("!Q", seq) + padding, destination)
    return sent


def udp_through(link: Tool, a: str, b: str, count: int, rate_pps: float,
                size: int = 200, timeout: float = 30.0) -> tuple[list[int], UdpSink]:
    """Send numbered datagrams from a to B_ADDR and wait until satlink has
    delivered or dropped every one of them and the sink has read what it
    delivered. Returns the send times and the (closed) sink."""
    sink = UdpSink(b, B_ADDR)
    try:
        sent = send_udp(a, sink.address, count, rate_pps, size)
        line = link.wait_stats(lambda s: s["ab"]["packets_in"] >= count
                               and s["ab"]["in_flight_packets"] == 0, timeout)
        sink.wait_count(line["ab"]["packets_out"], timeout)
    finally:
        sink.close()
    return sent, sink


def loss_runs(received: set[int], count: int) -> list[tuple[int, int]]:
    """(first sequence, length) of each run of consecutive lost datagrams."""
    runs, start = [], None
    for seq in range(count):
        if seq not in received:
            start = seq if start is None else start
        elif start is not None:
            runs.append((start, seq - start))
            start = None
    if start is not None:
        runs.append((start, count - start))
    return runs


def ipv4_udp(source: tuple[str, int], destination: tuple[str, int], payload: bytes) -> bytes:
    """An IPv4 packet carrying one UDP datagram (no checksums: the kernel
    fills the IP one on a raw socket, and a UDP checksum of 0 means none)."""
    udp = struct.pack("!HHHH", source[1], destination[1], 8 + len(payload), 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28 + len(payload), 0, 0, 64, 17, 0,
                     socket.inet_aton(source[0]), socket.inet_aton(destination[0]))
    return ip + udp + payload


def send_forged(ns: str, datagrams: list[bytes], source: tuple[str, int],
                destination: tuple[str, int]) -> None:
    """Send UDP datagrams from namespace ns that claim to come from `source`
    (a raw socket writes the whole IP header)."""
    with socket_in(ns, socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW) as raw:
        for datagram in datagrams:
            raw.sendto(ipv4_udp(source, destination, datagram), (destination[0], 0))


# Inner addresses of the tunnel, inside the same namespaces.
A_INNER, B_INNER = "10.88.0.1", "10.88.0.2"
TUNNEL_PORT = 7000


def tunnel_args(side: str, *fec_args: str) -> list[str]:
    """swf-tunnel arguments for the endpoint in namespace a or b of a
    satlink_path."""
    local, remote = (A_ADDR, B_ADDR) if side == "a" else (B_ADDR, A_ADDR)
    inner = A_INNER if side == "a" else B_INNER
    return [tool("swf-tunnel"), "--dev", unique("ft"), "--addr", f"{inner}/24",
            "--local", f"{local}:{TUNNEL_PORT}", "--remote", f"{remote}:{TUNNEL_PORT}",
            *fec_args]


@contextlib.contextmanager
def tunnel_path(link_args: list[str], fec_args: list[str]
                ) -> Iterator[tuple[str, str, Tool, Tool, Tool]]:
    """satlink_path with an swf-tunnel endpoint in each namespace."""
    with satlink_path(*link_args) as (a, b, link):
        with running(tunnel_args("a", *fec_args), a) as tunnel_a, \
                running(tunnel_args("b", *fec_args), b) as tunnel_b:
            yield a, b, link, tunnel_a, tunnel_b


def link_drained(link: Tool, packets_in: int, timeout: float = 30.0) -> dict:
    """Wait until satlink has read `packets_in` packets from a and delivered
    or dropped all of them; returns its ab counters then."""
    return link.wait_stats(lambda s: s["ab"]["packets_in"] >= packets_in
                           and s["ab"]["in_flight_packets"] == 0, timeout)["ab"]


def tunnel_drained(tunnel_a: Tool, link: Tool, tunnel_b: Tool, inner_count: int,
                   link_baseline: int = 0, timeout: float = 30.0) -> dict:
    """Wait until the `inner_count` packets sent into tunnel a crossed it:
    a has read them all and covered them with a repair, satlink has
    delivered or dropped everything a sent (on top of the link_baseline
    packets it read before), and b has taken all of it. Returns b's last
    stats line."""
    sent = tunnel_a.wait_stats(lambda s: s["tx"]["packets_in"] >= inner_count
                               and s["tx"]["uncovered"] == 0, timeout)["tx"]
    datagrams = sent["sources"] + sent["repairs"] + sent["plain"] - sent["send_errors"]
    delivered = link_drained(link, link_baseline + datagrams, timeout)
    return tunnel_b.wait_stats(
        lambda s: sum(s["rx"][k] for k in ("sources", "repairs", "plain", "malformed", "rejected",
                                           "unauthenticated")) >= delivered["packets_out"], timeout)


def udp_through_tunnel(tunnels: tuple[Tool, Tool, Tool], a: str, b: str, count: int,
                       rate_pps: float, port: int = 9000, size: int = 1000,
                       link_baseline: int = 0) -> UdpSink:
    """Numbered datagrams from a to B_INNER:port through the tunnel; returns
    the closed sink once everything that crossed was read. link_baseline:
    packets satlink had read from a before (other traffic, an earlier
    endpoint)."""
    tunnel_a, link, tunnel_b = tunnels

    def delivered(line: dict | None) -> int:
        return 0 if line is None else sum(line["rx"][k] for k in ("sources", "recovered", "plain"))

    # Accurate when the traffic before was drained as it is here.
    delivered_before = delivered(tunnel_b.latest)
    read_before = 0 if tunnel_a.latest is None else tunnel_a.latest["tx"]["packets_in"]
    sink = UdpSink(b, B_INNER, port)
    try:
        send_udp(a, sink.address, count, rate_pps, size)
        line = tunnel_drained(tunnel_a, link, tunnel_b, read_before + count, link_baseline)
        sink.wait_count(delivered(line) - delivered_before, 30)
    finally:
        sink.close()
    return sink


def tcp_transfer_seconds(a: str, b: str, destination: str, size_bytes: int,
                         congestion: str = "cubic", timeout: float = 120.0) -> float:
    """Seconds from connect() in namespace a to the last of size_bytes read
    by a receiver listening in b at destination."""
    listener = socket_in(b, socket.AF_INET, socket.SOCK_STREAM)
    listener.bind((destination, 0))
    listener.listen(1)
    listener.settimeout(timeout)
    received = []
    finished = threading.Event()

    def receive() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.settimeout(timeout)
            total = 0
            while chunk := connection.recv(1 << 16):
                total += len(chunk)
            received.append((total, time.monotonic()))
        finished.set()

    receiver = threading.Thread(target=receive, daemon=True)
    receiver.start()
    with listener, socket_in(a, socket.AF_INET, socket.SOCK_STREAM) as sender:
        sender.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, congestion.encode())
        sender.settimeout(timeout)
        start = time.monotonic()
        sender.connect(listener.getsockname())
        sender.sendall(bytes(size_bytes))
        sender.shutdown(socket.SHUT_WR)
        assert finished.wait(timeout), f"transfer of {size_bytes} bytes took over {timeout} s"
    receiver.join()
    total, end = received[0]
    assert total == size_bytes
    return end - start
