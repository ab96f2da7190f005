"""The time to first byte of a TCP download, seen on the client's wire: from
the SYN of one of the flow's connections leaving the client to the first
byte of the server's data reaching it, by the kernel's own timestamps
(SO_TIMESTAMPNS) on an AF_PACKET socket in the client's namespace. A
classic BPF filter lets only the flow's port through, and the socket closes
at that first byte: a download's bulk never reaches Python.

Why on the wire: with a split-TCP PEP the client's handshake ends at the
terminal, so the client socket's own round-trip time no longer tells when
the server's first byte can come (it may be one round trip across the
satellite, or two); the packets tell.
"""

from __future__ import annotations

import ctypes
import os
import socket
import struct
import threading
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
SO_ATTACH_FILTER = 26
SO_TIMESTAMPNS = 35  # its control messages carry the same number (SCM_TIMESTAMPNS)
CLONE_NEWNET = 0x40000000
TCP_SYN, TCP_ACK = 0x02, 0x10
# The IPv4 and TCP headers with their options fit in this.
HEADER_BYTES = 128
READ_TIMEOUT_S = 0.1
# The packet's protocol (skb->protocol, host order) in a filter's load: SKF_AD_OFF + SKF_AD_PROTOCOL.
_SKF_AD_PROTOCOL = (-0x1000) & 0xFFFFFFFF


def _instruction(code: int, jump_true: int, jump_false: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jump_true, jump_false, k)


def port_filter(port: int) -> bytes:
    """A classic BPF program (struct sock_filter[]) that accepts IPv4 TCP
    segments from or to `port`, and nothing else. A packet socket of type
    SOCK_DGRAM hands the filter the packet from its network header on."""
    ld_h_abs, ld_b_abs, ld_h_ind, ldx_b_msh = 0x28, 0x30, 0x48, 0xB1
    jeq, jset, ret = 0x15, 0x45, 0x06
    return b"".join([
        _instruction(ld_h_abs, 0, 0, _SKF_AD_PROTOCOL),  # 0
        _instruction(jeq, 0, 10, ETH_P_IP),              # 1: not IPv4 -> 12
        _instruction(ld_b_abs, 0, 0, 9),                 # 2: IP protocol
        _instruction(jeq, 0, 8, socket.IPPROTO_TCP),     # 3: not TCP -> 12
        _instruction(ld_h_abs, 0, 0, 6),                 # 4: flags and fragment offset
        _instruction(jset, 6, 0, 0x1FFF),                # 5: a later fragment -> 12
        _instruction(ldx_b_msh, 0, 0, 0),                # 6: X = the IP header's length
        _instruction(ld_h_ind, 0, 0, 0),                 # 7: TCP source port
        _instruction(jeq, 2, 0, port),                   # 8: -> 11
        _instruction(ld_h_ind, 0, 0, 2),                 # 9: TCP destination port
        _instruction(jeq, 0, 1, port),                   # 10: -> 11, else 12
        _instruction(ret, 0, 0, 0xFFFF),                 # 11: accept
        _instruction(ret, 0, 0, 0),                      # 12: drop
    ])


def _attach(sock: socket.socket, program: bytes) -> None:
    instructions = ctypes.create_string_buffer(program, len(program))
    fprog = struct.pack("HL", len(program) // 8, ctypes.addressof(instructions))  # struct sock_fprog
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)


class FirstByteWatch:
    """Watches the TCP connections a client opens to `port` in namespace
    netns; `first_byte_ms`: from the SYN of the connection_index-th of them
    (0 the first) to the first byte of data from the server on it, once seen;
    `syn_ns`: that SYN's time (time.monotonic_ns()'s clock), the connection's first
    packet. With syn_only the watch ends at that SYN (an upload: the server
    sends no data, and the client's bulk must not reach Python). Its thread
    enters the namespace (setns of that thread only) and ends with the watch."""

    def __init__(self, netns: str, port: int, connection_index: int, syn_only: bool = False):
        self.netns, self.port, self.connection_index, self.syn_only = netns, port, connection_index, syn_only
        self.first_byte_ms: float | None = None
        self._syns_ns: dict[int, int] = {}  # the client's port -> its first SYN's time
        self._order: list[int] = []  # client ports by their first SYN
        self._ready = threading.Event()
        self._stopped = threading.Event()
        self._error: OSError | None = None
        self._thread = threading.Thread(target=self._watch, name=f"first-byte-{port}", daemon=True)

    def start(self, timeout_s: float = 5.0) -> None:
        """Start watching; returns once the socket sees packets. RuntimeError
        if it cannot be opened."""
        self._thread.start()
        if not self._ready.wait(timeout_s) or self._error is not None:
            self.stop()
            raise RuntimeError(f"cannot watch the time to first byte on port {self.port} in namespace "
                               f"{self.netns}: {self._error or 'the watch did not start'}")

    def stop(self) -> None:
        self._stopped.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join()

    def _open(self) -> socket.socket:
        namespace = os.open(f"/run/netns/{self.netns}", os.O_RDONLY)
        try:
            os.setns(namespace, CLONE_NEWNET)
        finally:
            os.close(namespace)
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_ALL))
        try:
            _attach(sock, port_filter(self.port))
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            sock.settimeout(READ_TIMEOUT_S)
        except OSError:
            sock.close()
            raise
        return sock

    def _watch(self) -> None:
        try:
            sock = self._open()
        except OSError as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        with sock:
            while not self._stopped.is_set() and self.first_byte_ms is None and not (self.syn_only and self.syn_ns):
                try:
                    packet, ancillary, _, address = sock.recvmsg(HEADER_BYTES, socket.CMSG_SPACE(16))
                except TimeoutError:
                    continue
                # Packets queued before the filter was attached may be anything.
                if address[1] == ETH_P_IP and ancillary:
                    seconds, nanoseconds = struct.unpack("qq", ancillary[0][2][:16])
                    # The kernel's stamp is CLOCK_REALTIME: taken to the monotonic clock as the
                    # packet is read, milliseconds after it, so a later step of the wall clock
                    # cannot move it.
                    realtime_ahead_ns = time.time_ns() - time.monotonic_ns()
                    self._segment(packet, seconds * 1_000_000_000 + nanoseconds - realtime_ahead_ns)

    @property
    def syn_ns(self) -> int | None:
        """The watched connection's SYN time, once seen."""
        if len(self._order) <= self.connection_index:
            return None
        return self._syns_ns[self._order[self.connection_index]]

    def _segment(self, packet: bytes, t_ns: int) -> None:
        ip_header = (packet[0] & 0x0F) * 4
        if len(packet) < ip_header + 20 or packet[9] != socket.IPPROTO_TCP:
            return
        total = struct.unpack_from("!H", packet, 2)[0]
        source, destination = struct.unpack_from("!HH", packet, ip_header)
        flags = packet[ip_header + 13]
        payload_bytes = total - ip_header - (packet[ip_header + 12] >> 4) * 4
        if destination == self.port and flags & TCP_SYN and not flags & TCP_ACK and source not in self._syns_ns:
            self._syns_ns[source] = t_ns
            self._order.append(source)
        elif (self.first_byte_ms is None and source == self.port and payload_bytes > 0
              and len(self._order) > self.connection_index
              and destination == self._order[self.connection_index]):
            self.first_byte_ms = (t_ns - self._syns_ns[destination]) / 1e6
