"""swf-tunnel over satlink: residual loss, TCP rescue, flow selection, hostile
input, restarts, delivery in order, its own lateness."""

import itertools
import os
import random
import signal
import struct
import subprocess
import threading
import time

import pytest

import netlab
from netlab import A_ADDR, B_ADDR, B_INNER, TUNNEL_PORT, running, tunnel_path

pytestmark = pytest.mark.needs_root

LOSSY = ["--ab-channel", "bernoulli:loss=0.05,seed=4"]


def test_s_5_100_over_5_percent_loss_leaves_at_most_half_a_percent():
    count = 6000
    with tunnel_path(LOSSY, ["--k", "5", "--z", "100"]) as (a, b, link, tunnel_a, tunnel_b):
        sink = netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, count, 3000)
        link_summary = link.stop()
        rx = tunnel_b.stop()["rx"]
    received = {seq for seq, _, _ in sink.arrivals}
    assert link_summary["ab"]["drops_channel"] > 0.03 * count  # the channel did lose
    assert 1 - len(received) / count <= 0.005
    assert rx["recovered"] == rx["lost"] - rx["unrecovered"]
    assert rx["sources"] + rx["recovered"] == len(received)


@pytest.mark.parametrize("delivery", ["immediate", "in-order"])
def test_delivery_in_order_writes_the_datagrams_in_sequence(delivery):
    """Immediately, a rebuilt packet is written after the sources that
    followed it: the sink reads it out of sequence. In order, those sources
    wait for it (or for its give-up): the sink reads every datagram in
    sequence."""
    count = 3000
    with tunnel_path(LOSSY, ["--k", "5", "--z", "100", "--delivery", delivery]) as \
            (a, b, link, tunnel_a, tunnel_b):
        assert tunnel_b.event("ready")["delivery"] == delivery
        sink = netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, count, 3000)
        rx = tunnel_b.stop()["rx"]
    sequence = [seq for seq, _, _ in sink.arrivals]
    out_of_sequence = sum(later < earlier for earlier, later in itertools.pairwise(sequence))
    assert rx["recovered"] > 0.02 * count
    if delivery == "in-order":
        assert out_of_sequence == 0
        assert rx["held"] > 0 and rx["hold_delay_ms"]["count"] == rx["held"]
    else:
        assert out_of_sequence > 0.5 * rx["recovered"]
        assert rx["held"] == 0 and rx["hold_delay_ms"] is None


@pytest.mark.parametrize("realtime", [True, False])
def test_the_endpoint_threads_run_sched_fifo_as_satlinks_do_unless_told_not_to(realtime):
    """A hop of the emulated path: its sender and receiver threads must wake
    on time whatever else the host runs, so they ask SCHED_FIFO as satlink's
    forwarding threads do; --no-realtime leaves them normal threads."""
    with tunnel_path([], [] if realtime else ["--no-realtime"]) as (_, _, _, tunnel_a, _):
        ready = tunnel_a.event("ready")
        policies = [os.sched_getscheduler(int(task)) for task in os.listdir(f"/proc/{ready['pid']}/task")]
    assert ready["realtime"] is realtime
    assert policies.count(os.SCHED_FIFO) == (2 if realtime else 0)
    assert os.SCHED_OTHER in policies  # the main thread, which only prints the stats


def test_an_endpoint_measures_how_long_datagrams_waited_for_it():
    """The receiving endpoint is stopped (SIGSTOP) for 300 ms in the middle
    of a stream: the datagrams that reached its socket meanwhile waited
    there, and its lateness, from the kernel's receive timestamp of each,
    says so. The sending endpoint, never stopped, measured every flush timer
    it fired: the stream's last datagram is one past a multiple of k, so at
    least the flush that covers it fires."""
    stopped_s, k, count = 0.3, 5, 3001
    assert count % k != 0
    with tunnel_path([], ["--k", str(k), "--z", "100"]) as (a, b, link, tunnel_a, tunnel_b):
        pid = tunnel_b.event("ready")["pid"]

        def pause() -> None:
            time.sleep(1.0)
            os.kill(pid, signal.SIGSTOP)
            time.sleep(stopped_s)
            os.kill(pid, signal.SIGCONT)

        pauser = threading.Thread(target=pause)
        pauser.start()
        netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, count, 1000)
        pauser.join()
        sender, receiver = tunnel_a.stop(), tunnel_b.stop()
    rx = receiver["rx"]
    lateness = receiver["lateness_ms"]
    # Every datagram received was measured (the hold timer never runs: delivery is immediate).
    assert lateness["count"] == rx["sources"] + rx["repairs"] + rx["plain"]
    # The first datagram after the stop waited nearly all of it; most did not wait at all.
    assert 0.9 * stopped_s * 1000 <= lateness["max"] < 2 * stopped_s * 1000
    assert lateness["p50"] < 0.9 * stopped_s * 1000
    # The sender received nothing but measured its flush timers: one per flush repair.
    assert sender["lateness_ms"]["count"] == sender["tx"]["flush_repairs"] > 0


def test_tcp_through_the_tunnel_beats_tcp_over_the_lossy_link():
    """CUBIC over 5 % loss at 20 ms RTT crawls; the tunnel hides the loss."""
    size = 1 << 20
    link = ["--rate-mbps", "20", "--delay-ms", "10", "--buffer-bdp", "2", *LOSSY]
    with tunnel_path(link, ["--k", "5", "--z", "100"]) as (a, b, _, _, tunnel_b):
        bare = netlab.tcp_transfer_seconds(a, b, B_ADDR, size)
        tunnelled = netlab.tcp_transfer_seconds(a, b, B_INNER, size)
        assert tunnel_b.stop()["rx"]["recovered"] > 0
    assert tunnelled * 3 < bare, (tunnelled, bare)


def test_only_selected_flows_are_protected():
    with tunnel_path([], ["--protect", "udp:9000"]) as (a, b, link, tunnel_a, tunnel_b):
        netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, 50, 1000, port=9000)
        netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, 30, 1000, port=9001)
        tx = tunnel_a.stop()["tx"]
    assert (tx["sources"], tx["plain"]) == (50, 30)


def hostile_datagrams(seed: int, count: int) -> list[bytes]:
    """Random bytes, and well-typed headers with wrong lengths, forged payload
    IDs and forged repairs over the real session's ESIs."""
    rng = random.Random(seed)
    datagrams = []
    for _ in range(count):
        kind = rng.choice([1, 2, 3, 0, 255])
        body = rng.randbytes(rng.choice([0, 1, 4, 7, 12, 13, 20, 100, 1458, 1459, 1460, 1467]))
        datagrams.append(bytes([kind]) + rng.randbytes(4) + body)
        repair_id = struct.pack("!HBBI", rng.getrandbits(16), rng.choice([0x0F, 0xF0, 0xFF]),
                                rng.getrandbits(8), rng.getrandbits(32))
        datagrams.append(bytes([3]) + rng.randbytes(4) + repair_id + rng.randbytes(1459))
    return datagrams


def test_hostile_udp_input_is_counted_and_harmless():
    with tunnel_path([], []) as (a, b, link, tunnel_a, tunnel_b):
        datagrams = hostile_datagrams(seed=9, count=500)
        # The endpoint's socket is connected: only datagrams from the peer's
        # address and port reach it, so the attacker forges them.
        netlab.send_forged(a, datagrams, (A_ADDR, TUNNEL_PORT), (B_ADDR, TUNNEL_PORT))
        delivered = netlab.link_drained(link, len(datagrams))
        sink = netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, 200, 1000,
                                         link_baseline=delivered["packets_in"])
        rx = tunnel_b.stop()["rx"]
    assert len({seq for seq, _, _ in sink.arrivals}) == 200
    # Counted and dropped: no random session was believed.
    assert rx["malformed"] > 0 and rx["rejected"] > 0 and rx["sessions"] == 1


def test_bad_argument_is_named_in_the_error():
    result = subprocess.run([netlab.tool("swf-tunnel"), "--dev", "x", "--local", "1.2.3.4:1",
                             "--remote", "1.2.3.4:2", "--k", "0"], capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (
        2, "swf-tunnel: --k must be in [1, 65535], got 0\n")
    result = subprocess.run([netlab.tool("swf-tunnel"), "--dev", "x", "--local", "1.2.3.4:1",
                             "--remote", "1.2.3.4:2", "--symbol-bytes", "1460"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "--symbol-bytes 1460 makes repair datagrams of 1501 bytes" in result.stderr


def test_sigkill_and_restart_of_an_endpoint():
    """A killed endpoint frees its device and port; its restart is a new
    session that the peer decodes from scratch."""
    with tunnel_path(LOSSY, ["--k", "5"]) as (a, b, link, tunnel_a, tunnel_b):
        netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, 100, 1000)
        baseline = netlab.link_drained(link, 0)["packets_in"]
        tunnel_a.kill()
        device = tunnel_a.args[tunnel_a.args.index("--dev") + 1]
        assert subprocess.run(["ip", "-n", a, "link", "show", device],
                              capture_output=True).returncode != 0
        with running(tunnel_a.args, a) as restarted:
            sink = netlab.udp_through_tunnel((restarted, link, tunnel_b), a, b, 500, 1000,
                                             link_baseline=baseline)
            rx = tunnel_b.stop()["rx"]
    assert rx["sessions"] == 2
    assert rx["recovered"] > 0
    assert len({seq for seq, _, _ in sink.arrivals}) >= 495

