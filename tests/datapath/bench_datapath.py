"""Datapath benchmark: prints one JSON object per line (the contract of
issue 3) and leaves no namespace behind. Run as root after building the tools:

    backend/.venv/bin/python tests/datapath/bench_datapath.py
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import netlab  # noqa: E402
import pep_lab  # noqa: E402
from netlab import A_ADDR, B_ADDR, B_INNER  # noqa: E402

IPERF_PORT = 5201


def emit(record: dict) -> None:
    print(json.dumps(record), flush=True)


def iperf3(a: str, b: str, server_address: str, seconds: float | None, *client_args: str) -> dict:
    """A one-off iperf3 server in b and a TCP client in a (CUBIC) for
    `seconds`, or as client_args say (-n BYTES) if None; returns the
    client's JSON report. The client retries until the server listens."""
    duration = [] if seconds is None else ["-t", str(seconds)]
    server = subprocess.Popen(["ip", "netns", "exec", b, "iperf3", "-s", "-1", "-B",
                               server_address, "-p", str(IPERF_PORT)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            result = subprocess.run(
                ["ip", "netns", "exec", a, "iperf3", "-c", server_address, "-p", str(IPERF_PORT),
                 *duration, "-C", "cubic", "-J", *client_args],
                capture_output=True, text=True)
            report = json.loads(result.stdout)
            if "error" not in report:
                return report
            if time.monotonic() > deadline:
                raise RuntimeError(f"iperf3 failed: {report['error']}")
            time.sleep(0.05)  # the server is not listening yet: retry
    finally:
        server.wait(timeout=30)


def received_mbps(report: dict) -> float:
    return report["end"]["sum_received"]["bits_per_second"] / 1e6


@contextlib.contextmanager
def capture_args(capture: bool) -> Iterator[tuple[list[str], dict[str, Path]]]:
    """satlink's options to capture both directions (headers only, the
    default snap length) into a temporary directory, and the files; none
    without capture."""
    with tempfile.TemporaryDirectory() as directory:
        files = {d: Path(directory) / f"{d}.pcapng" for d in ("ab", "ba")} if capture else {}
        yield [arg for d, path in files.items() for arg in (f"--{d}-capture", str(path))], files


def capture_record(summary: dict, files: dict[str, Path]) -> dict:
    """What the capture cost and kept: its bytes (headers only), its records
    and those it dropped (queue full)."""
    if not files:
        return {"capture": False}
    stats = {d: summary[d]["capture"] for d in files}
    return {"capture": True, "snap_bytes": 128,
            "capture_bytes": {d: files[d].stat().st_size for d in files},
            "capture_records": {d: stats[d]["records"] for d in files},
            "capture_queue_full": {d: stats[d]["queue_full"] for d in files}}


def bench_forward() -> None:
    """One CUBIC flow through satlink without a rate limit or delay, without
    and with a capture of both directions."""
    for capture in (False, True):
        with capture_args(capture) as (args, files), netlab.satlink_path(*args) as (a, b, link):
            report = iperf3(a, b, B_ADDR, 5)
            summary = link.stop()
            record = capture_record(summary, files)
        emit({"bench": "satlink.forward", "mbps": round(received_mbps(report), 1), "mtu": 1500,
              **record})


def bench_rtt() -> None:
    with netlab.satlink_path("--delay-ms", "250") as (a, _, link):
        rtts = netlab.icmp_rtts(a, B_ADDR, count=50, interval=0.05)
        link.stop()
    emit({"bench": "satlink.rtt", "delay_ms": 250, "rtt_median_ms": round(netlab.median(rtts), 3),
          "rtt_p99_ms": round(netlab.percentile(rtts, 0.99), 3)})


def bench_lateness() -> None:
    """labs/geo-ideal.yaml's path (12/3 Mbit/s, 250 ms each way, 1.2 BDP) and
    download (20 MiB over CUBIC, from b to a; Hystart as the host has it),
    without and with a capture of both directions: the download direction's
    lateness, and what the capture kept."""
    link_args = ["--ba-rate-mbps", "12", "--ab-rate-mbps", "3", "--delay-ms", "250",
                 "--buffer-bdp", "1.2"]
    for capture in (False, True):
        with capture_args(capture) as (args, files), \
                netlab.satlink_path(*link_args, *args) as (a, b, link):
            for ns in (a, b):
                netlab.run("ip", "netns", "exec", ns, "sysctl", "-qw",
                           "net.ipv4.tcp_rmem=4096 131072 16777216",
                           "net.ipv4.tcp_wmem=4096 16384 16777216")
            report = iperf3(a, b, B_ADDR, None, "-R", "-n", "20M")
            summary = link.stop()
            record = capture_record(summary, files)
        lateness = summary["ba"]["lateness_ms"]
        emit({"bench": "satlink.lateness", "rate_mbps": 12, "download_bytes": 20 << 20,
              "p50_ms": lateness["p50"], "p99_ms": lateness["p99"], "max_ms": lateness["max"],
              "download_mbps": round(received_mbps(report), 2), **record})


@contextlib.contextmanager
def veth_path() -> Iterator[tuple[str, str]]:
    """Namespaces a and b joined by a veth pair (A_ADDR, B_ADDR)."""
    with netlab.namespace("dpa") as a, netlab.namespace("dpb") as b:
        end_a, end_b = netlab.unique("va"), netlab.unique("vb")
        netlab.run("ip", "link", "add", end_a, "netns", a, "type", "veth", "peer", "name", end_b,
                   "netns", b)
        for ns, end, address in ((a, end_a, A_ADDR), (b, end_b, B_ADDR)):
            netlab.run("ip", "-n", ns, "addr", "add", f"{address}/24", "dev", end)
            netlab.run("ip", "-n", ns, "link", "set", end, "up")
        yield a, b


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_tunnel_goodput() -> None:
    """TCP through the tunnel with S(10,100) over a veth pair: the tunnel's
    own cost, nothing else in the path; without and with authentication
    (--key-file, HMAC-SHA-256-128 on every datagram). cpu_us_per_datagram:
    both endpoints' CPU time over the datagrams they sent."""
    with tempfile.TemporaryDirectory() as directory:
        key = Path(directory) / "key"
        key.touch(mode=0o600)
        key.write_text(secrets.token_hex(32))
        for key_args in ([], ["--key-file", str(key)]):
            fec = ["--k", "10", "--z", "100", *key_args]
            with veth_path() as (a, b):
                with netlab.running(netlab.tunnel_args("a", *fec), a) as tunnel_a, \
                        netlab.running(netlab.tunnel_args("b", *fec), b) as tunnel_b:
                    report = iperf3(a, b, B_INNER, 5)
                    cpu_s = sum(cpu_seconds(t.process.pid) for t in (tunnel_a, tunnel_b))
                    sent = [t.stop()["tx"] for t in (tunnel_a, tunnel_b)]
            datagrams = sum(tx["sources"] + tx["repairs"] + tx["plain"] for tx in sent)
            emit({"bench": "tunnel.goodput", "k": 10, "z": 100, "authenticated": bool(key_args),
                  "mbps": round(received_mbps(report), 1),
                  "cpu_us_per_datagram": round(cpu_s / datagrams * 1e6, 2)})


def bench_residual_loss() -> None:
    count = 20000
    link_args = ["--ab-channel", "bernoulli:loss=0.05,seed=21"]
    with netlab.tunnel_path(link_args, ["--k", "5", "--z", "100"]) as (a, b, link, ta, tb):
        sink = netlab.udp_through_tunnel((ta, link, tb), a, b, count, 4000)
    received = len({seq for seq, _, _ in sink.arrivals})
    emit({"bench": "tunnel.residual_loss", "loss": 0.05, "k": 5, "z": 100,
          "residual": round(1 - received / count, 6), "packets": count})


def bench_pep() -> None:
    """satlab-pep's own cost on a path without delay (client --veth-- middle
    --veth-- server): one CUBIC connection's rate through iperf3 (5 s) and
    the round-trip time of one-byte requests and responses, first with the
    middle namespace forwarding, then with a PEP there relaying. The added
    latency is the difference of the two runs' percentiles; cpu_percent is
    the PEP's share of one core during the iperf3 run."""
    count = 5000
    with pep_lab.relay_path() as path:
        forward = iperf3(path.client, path.server, pep_lab.SERVER_ADDR, 5)
        direct_us = pep_lab.echo_rtts_us(path.client, path.server, count)
        interception = pep_lab.Interception(path.middle, path.middle_client_dev)
        with pep_lab.intercepting(interception), \
                netlab.running(pep_lab.pep_args("terminal", "--stats-interval-ms", "0"),
                               path.middle) as pep:
            cpu_before, start = cpu_seconds(pep.process.pid), time.monotonic()
            relayed = iperf3(path.client, path.server, pep_lab.SERVER_ADDR, 5)
            cpu_percent = (cpu_seconds(pep.process.pid) - cpu_before) / (time.monotonic() - start)
            pep_us = pep_lab.echo_rtts_us(path.client, path.server, count)
            pep.stop()

    def added(fraction: float) -> float:
        return round(netlab.percentile(pep_us, fraction) - netlab.percentile(direct_us, fraction), 1)

    emit({"bench": "pep", "relay_gbps": round(received_mbps(relayed) / 1e3, 2),
          "forward_gbps": round(received_mbps(forward) / 1e3, 2),
          "cpu_percent": round(100 * cpu_percent, 1),
          "added_latency_p50_us": added(0.5), "added_latency_p99_us": added(0.99),
          "rtt_p50_us": round(netlab.percentile(pep_us, 0.5), 1),
          "rtt_p99_us": round(netlab.percentile(pep_us, 0.99), 1),
          "direct_rtt_p50_us": round(netlab.percentile(direct_us, 0.5), 1),
          "direct_rtt_p99_us": round(netlab.percentile(direct_us, 0.99), 1),
          "requests": count})


def main() -> int:
    reason = netlab.missing_capability()
    if reason is not None:
        print(f"bench_datapath: cannot run: {reason}", file=sys.stderr)
        return 1
    for bench in (bench_forward, bench_rtt, bench_lateness, bench_tunnel_goodput,
                  bench_residual_loss, bench_pep):
        bench()
    return 0


if __name__ == "__main__":
    sys.exit(main())
