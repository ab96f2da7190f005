"""What both peers take on their command line (congestion control, ALPN,
windows, statistics, qlog), its checks, and the QuicConfiguration it makes.

A bad value is a PeerError whose sentence names the option.
"""

from __future__ import annotations

import argparse
import ipaddress
import math
import os
import socket
from typing import Any

from aiopquic.quic.configuration import QuicConfiguration

from satlab.engine.flows.picoquic.protocol import PeerError
from satlab.transports import MAX_WINDOW_BYTES, MIN_WINDOW_BYTES, TRANSPORTS

# Names picoquic registers, matched exactly ("bbr1" is BBRv1, "bbr" is BBRv3).
CONGESTION_CONTROLS = TRANSPORTS["quic-picoquic"].congestion_controls
DEFAULT_ALPN = "satlab"
# Both flow-control windows must exceed the path's bandwidth-delay product or
# the receiver, not the congestion control, sets the pace: 16 MiB covers
# 50 Mbit/s over a 600 ms RTT (3.75 MB) four times over.
FLOW_CONTROL_WINDOW_BYTES = 16 * 1024 * 1024


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cc", required=True, metavar="ALGO")
    parser.add_argument("--alpn", default=DEFAULT_ALPN)
    parser.add_argument("--stats-interval-ms", type=float, default=100.0)
    parser.add_argument("--connection-window-bytes", type=int, default=FLOW_CONTROL_WINDOW_BYTES,
                        help="initial_max_data this end announces")
    parser.add_argument("--stream-window-bytes", type=int, default=FLOW_CONTROL_WINDOW_BYTES,
                        help="initial_max_stream_data this end announces")
    parser.add_argument("--qlog-dir", help="write a qlog per connection into this directory")
    parser.add_argument("--keylog-file", help="append the TLS secrets of each connection to this file "
                                              "(NSS key log format: Wireshark decrypts a capture with it)")


def configuration(args: argparse.Namespace, host: str, **options: Any) -> QuicConfiguration:
    """The QuicConfiguration both ends share: ALPN, congestion control, windows, qlog."""
    check_congestion_control(args.cc)
    for option, value in (("--connection-window-bytes", args.connection_window_bytes),
                          ("--stream-window-bytes", args.stream_window_bytes)):
        if not MIN_WINDOW_BYTES <= value <= MAX_WINDOW_BYTES:
            raise PeerError(f"{option} must be within {MIN_WINDOW_BYTES}..{MAX_WINDOW_BYTES} bytes, got {value}.")
    if args.qlog_dir is not None and not os.path.isdir(args.qlog_dir):
        raise PeerError(f"--qlog-dir {args.qlog_dir!r} is not a directory.")
    check_positive(args.stats_interval_ms, "--stats-interval-ms")
    return QuicConfiguration(
        alpn_protocols=[args.alpn],
        congestion_control_algorithm=args.cc,
        # Windows are announced by both ends; the receiver's bound the transfer.
        max_data=args.connection_window_bytes,
        max_stream_data=args.stream_window_bytes,
        qlog_dir=args.qlog_dir,
        secrets_log_file=args.keylog_file,
        # picoquic binds the wildcard address of this family, not `host`.
        ip_family=ip_family(host),
        **options,
    )


def parse_endpoint(text: str, option: str) -> tuple[str, int]:
    """Split "10.0.0.1:4433" or "[fd00::1]:4433" into an IP literal and a port."""
    host, separator, port_text = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    try:
        address = ipaddress.ip_address(host)
        port = int(port_text)
    except ValueError:
        address, port = None, 0
    if not separator or address is None or not 1 <= port <= 65535:
        raise PeerError(
            f"{option} must be IP:PORT with an IP literal and a port in 1..65535, got {text!r}."
        )
    return str(address), port


def check_congestion_control(name: str) -> None:
    if name not in CONGESTION_CONTROLS:
        raise PeerError(
            f"--cc {name!r} is not a congestion control picoquic offers; "
            f"choose one of {', '.join(CONGESTION_CONTROLS)}."
        )


def check_positive(value: float, option: str) -> None:
    if not value > 0 or not math.isfinite(value):
        raise PeerError(f"{option} must be a positive number, got {value}.")


def ip_family(address: str) -> int:
    return socket.AF_INET6 if ipaddress.ip_address(address).version == 6 else socket.AF_INET
