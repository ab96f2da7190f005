"""Packet captures with fates, read back by tshark: satlink's pcapng of each
direction and swf-tunnel's of the datagrams it sends and receives. For a
lossy run, the frames per fate equal the tools' counters for the same run;
the comments' times are in order; a capture past its cap stops within it,
tshark reads it whole and its last line says so."""

import struct
import threading

import pytest

import netlab
import tshark
from netlab import A_ADDR, B_ADDR, TUNNEL_PORT, running, satlink_path, tunnel_args

pytestmark = [pytest.mark.needs_root,
              pytest.mark.skipif(tshark.missing() is not None, reason=str(tshark.missing()))]

SNAP_BYTES = 128


def expected_link_fates(counters: dict) -> dict[str, int]:
    """satlink's counters as capture fates (link_capture.h)."""
    expected = {"delivered": counters["packets_out"], "write-error": counters["write_errors"],
                "buffer-drop": counters["drops_buffer"] - counters["drops_aqm"],
                "aqm-drop": counters["drops_aqm"], "channel-loss": counters["drops_channel"],
                "overflow": counters["drops_overflow"], "in-flight": counters["in_flight_packets"]}
    return {fate: count for fate, count in expected.items() if count}


def send_both_ways(a: str, b: str, count: int, rate_pps: float, size: int) -> None:
    """UDP from a to b and from b to a at once (to closed ports: the ICMP
    errors they draw are traffic too)."""
    senders = [threading.Thread(target=netlab.send_udp, args=(a, (B_ADDR, 9000), count, rate_pps, size)),
               threading.Thread(target=netlab.send_udp, args=(b, (A_ADDR, 9000), count, rate_pps, size))]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()


def test_satlink_counts_each_fate_as_its_counters(tmp_path):
    """8 Mbit/s offered 14.7 in each direction, a 40-packet buffer behind an
    AQM and 3 % channel loss: every fate but overflow and write errors
    happens, and satlink stops while packets are still propagating."""
    files = {"ab": tmp_path / "ab.pcapng", "ba": tmp_path / "ba.pcapng"}
    link_args = ["--rate-mbps", "8", "--delay-ms", "30", "--buffer-packets", "40",
                 "--aqm-threshold-bytes", "20000", "--aqm-drop-ratio", "0.2",
                 "--channel", "bernoulli:loss=0.03,seed=5",
                 "--ab-capture", str(files["ab"]), "--ba-capture", str(files["ba"])]
    with satlink_path(*link_args) as (a, b, link):
        ready = link.event("ready")
        send_both_ways(a, b, count=3000, rate_pps=1500, size=1200)
        summary = link.stop()
    for direction, path in files.items():
        counters = summary[direction]
        assert ready[direction]["capture"] == {"file": str(path), "snap_bytes": SNAP_BYTES,
                                              "max_bytes": 1 << 30}
        assert counters["capture"]["queue_full"] == 0 and not counters["capture"]["stopped"]
        found = tshark.frames(path)
        packets = [f for f in found if f.interface == direction]
        assert len(packets) == counters["packets_in"] == counters["capture"]["records"]
        assert tshark.fates(packets) == expected_link_fates(counters)
        for fate in ("delivered", "buffer-drop", "aqm-drop", "channel-loss", "in-flight"):
            assert tshark.fates(packets)[fate] > 0, (direction, fate)
            # The documented display filter selects as many.
            assert tshark.count_matching(path, f'frame.comment contains "fate={fate}"') == \
                tshark.fates(packets)[fate]
        # Headers only; the arrivals numbered in order.
        assert all(f.captured_bytes == min(SNAP_BYTES, f.wire_bytes) for f in packets)
        assert [int(f.fields()["seq"]) for f in packets] == list(range(len(packets)))
        for frame in packets:
            times = frame.fields()
            order = [int(times[key]) for key in ("arrival_ns", "tx_start_ns", "tx_end_ns", "due_ns",
                                                 "departure_ns") if key in times]
            assert order == sorted(order), frame.comment
        # The file ends with its statistics: nothing on the events interface.
        assert not [f for f in found if f.interface == "events"]


def test_a_satlink_capture_past_its_cap_stops_cleanly(tmp_path):
    path, cap = tmp_path / "ab.pcapng", 20000
    with satlink_path("--ab-capture", str(path), "--capture-max-bytes", str(cap)) as (a, b, link):
        netlab.udp_through(link, a, b, count=1000, rate_pps=2000, size=200)
        line = link.wait_stats(lambda s: s["ab"]["capture"]["stopped"], 5)
        assert line["ab"]["capture"]["error"] is None
        summary = link.stop()["ab"]
    assert path.stat().st_size == summary["capture"]["bytes"] <= cap
    found = tshark.frames(path)  # tshark reads it whole
    packets = [f for f in found if f.interface == "ab"]
    written = summary["capture"]["records"]
    assert 0 < len(packets) == written < 1000
    assert written + summary["capture"]["after_stop"] == summary["packets_in"]
    last = found[-1]
    assert (last.interface, last.comment) == (
        "events", f"capture stopped: the file reached its cap of {cap} bytes after {written} "
                  "records; later packets were not captured")
    assert tshark.count_matching(path, 'frame.comment contains "capture stopped"') == 1


def expected_rx_fates(rx: dict) -> dict[str, int]:
    expected = {"source": rx["sources"], "repair": rx["repairs"], "plain": rx["plain"],
                "rebuilt": rx["recovered"], "given-up": rx["unrecovered"],
                "malformed": rx["malformed"], "rejected": rx["rejected"],
                "unauthenticated": rx["unauthenticated"]}
    return {fate: count for fate, count in expected.items() if count}


def forged_datagrams() -> list[bytes]:
    """Sources of 20 sessions, each a whole (empty) IPv4 packet, that no
    second datagram agrees with (rejected), and datagrams that do not
    parse (malformed)."""
    empty_ipv4 = bytes([0x45, 0, 0, 20]) + bytes(16)
    believable = [struct.pack("!BII", 2, 0xDEAD0000 + i, 5) + empty_ipv4 for i in range(20)]
    return believable + [bytes([2]) + bytes(40), bytes([3]) + bytes(20)] * 10


def test_swf_tunnel_counts_each_fate_as_its_counters(tmp_path):
    """S(10,100) over 10 % loss rebuilds losses and gives some up; forged
    datagrams are malformed or rejected; a plain flow crosses too. The tx
    capture of one end and the rx capture of the other hold every datagram
    with its fate and FEC payload ID, the rebuilt packets and the ESIs
    given up: which losses the FEC repaired."""
    tx_file, rx_file = tmp_path / "a-tx.pcapng", tmp_path / "b-rx.pcapng"
    fec = ["--k", "10", "--z", "100", "--protect", "udp:9000"]
    with satlink_path("--ab-channel", "bernoulli:loss=0.1,seed=8") as (a, b, link), \
            running(tunnel_args("a", *fec, "--tx-capture", str(tx_file)), a) as tunnel_a, \
            running(tunnel_args("b", *fec, "--rx-capture", str(rx_file)), b) as tunnel_b:
        forged = forged_datagrams()
        netlab.send_forged(a, forged, (A_ADDR, TUNNEL_PORT), (B_ADDR, TUNNEL_PORT))
        baseline = netlab.link_drained(link, len(forged))["packets_in"]
        # The stream first: its first datagram rejects the last forged one
        # held; its last 5 sources wait for a flush repair.
        netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, 4005, 2000,
                                  link_baseline=baseline)
        netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, 50, 1000, port=9001,
                                  link_baseline=baseline)
        tx = tunnel_a.stop()
        rx = tunnel_b.stop()
    assert tx["capture"]["tx"]["queue_full"] == rx["capture"]["rx"]["queue_full"] == 0

    sent = tshark.frames(tx_file)
    assert {f.interface for f in sent} == {"outer"}
    types = tshark.fates([tshark.Frame("", f"fate={f.fields()['type']}", 0, 0) for f in sent])
    counters = tx["tx"]
    assert tshark.fates(sent) == {"sent": len(sent)} and counters["send_errors"] == 0
    assert counters["plain"] == 50
    assert types == {"source": counters["sources"], "repair": counters["repairs"],
                     "plain": counters["plain"]}
    assert sum(f.fields().get("flush") == "1" for f in sent) == counters["flush_repairs"] > 0
    # The outer IPv4 and UDP headers, made up, dissected by tshark.
    assert tshark.count_matching(tx_file, f"ip.src == {A_ADDR} && udp.dstport == {TUNNEL_PORT}") \
        == len(sent)

    received = tshark.frames(rx_file)
    assert tshark.fates(received) == expected_rx_fates(rx["rx"])
    assert rx["rx"]["unrecovered"] > 0 and rx["rx"]["malformed"] > 0 and rx["rx"]["rejected"] > 0
    by_interface = {f.fate: f.interface for f in received}
    assert (by_interface["rebuilt"], by_interface["given-up"], by_interface["source"]) == \
        ("rebuilt", "events", "outer")
    # Which losses FEC repaired: the ESIs sent that did not arrive were each
    # rebuilt or given up, but for the last window's, still undecided (and
    # any lost before the stream was believed).
    sent_esis = {int(f.fields()["esi"]) for f in sent if f.fields()["type"] == "source"}

    def esis(fate: str) -> set[int]:
        return {int(f.fields()["esi"]) for f in received
                if f.fate == fate and f.fields().get("type", "source") == "source"}

    arrived, rebuilt, given_up = esis("source"), esis("rebuilt"), esis("given-up")
    assert not (arrived & rebuilt) and not ((arrived | rebuilt) & given_up)
    undecided = sent_esis - arrived - rebuilt - given_up
    assert all(esi > max(sent_esis) - 256 or esi < min(arrived) for esi in undecided), \
        sorted(undecided)[:10]


def test_a_tunnel_capture_past_its_cap_stops_cleanly(tmp_path):
    rx_file, cap = tmp_path / "rx.pcapng", 16384
    capture = ["--rx-capture", str(rx_file), "--capture-max-bytes", str(cap)]
    with satlink_path() as (a, b, link), running(tunnel_args("a"), a) as tunnel_a, \
            running(tunnel_args("b", *capture), b) as tunnel_b:
        netlab.udp_through_tunnel((tunnel_a, link, tunnel_b), a, b, 400, 2000)
        summary = tunnel_b.stop()["capture"]["rx"]
    assert summary["stopped"] and summary["after_stop"] > 0
    assert rx_file.stat().st_size == summary["bytes"] <= cap
    found = tshark.frames(rx_file)
    assert found[-1].comment.startswith(f"capture stopped: the file reached its cap of {cap} bytes")
