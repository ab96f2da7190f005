"""The spoofing attack of issue 13, replayed against swf-tunnel.

During a lossy transfer (5 % Bernoulli loss, S(5,100)), an attacker in the
sender's namespace forges a datagram from the peer's address and port every
20 ms: repairs with a new session id each time, sources of the real session
with ESIs far ahead, sources of a new session; with a key, also sources of
the real session inside the window (a forger who watched the wire). The
receiver must recover as without the attack, count no loss the forgeries
invented, stay in one session, and deliver no forged packet into the TUN.
Before the receiver held what breaks its stream, the forged sessions reset
its decoder (recovery fell to nothing) and the ESI jumps counted hundreds of
millions of losses.
"""

import random
import secrets
import struct
import threading
import time

import pytest

import netlab
from netlab import A_ADDR, A_INNER, B_ADDR, B_INNER, TUNNEL_PORT, tunnel_path

pytestmark = pytest.mark.needs_root

LOSSY = ["--ab-channel", "bernoulli:loss=0.05,seed=4"]
COUNT, RATE_PPS = 3000, 1000
FORGERIES, FORGERY_INTERVAL_S = 100, 0.02  # 2 s within the 3 s transfer: it ends genuine
FORGED_SEQ = 1 << 40  # sequence numbers of forged inner packets, far above any genuine one
SINK_PORT = 9000


class Forger(threading.Thread):
    """Forges a datagram every FORGERY_INTERVAL_S, cycling through the kinds
    of the attack; `in_window_esi()` (None: not that kind) is the ESI of the
    sender's next source as a watcher of the wire sees it."""

    def __init__(self, ns: str, session: int, symbol_bytes: int, tag_bytes: int, in_window_esi):
        super().__init__(daemon=True)
        self.ns, self.session, self.symbol_bytes, self.tag_bytes = ns, session, symbol_bytes, tag_bytes
        self.in_window_esi = in_window_esi
        self.rng = random.Random(13)

    def inner_packet(self, index: int) -> bytes:
        payload = struct.pack("!Q", FORGED_SEQ + index) + bytes(200)
        return netlab.ipv4_udp((A_INNER, 4000), (B_INNER, SINK_PORT), payload)

    def forgery(self, index: int) -> bytes:
        new_session = self.rng.getrandbits(32)
        kind = index % (4 if self.in_window_esi is not None else 3)
        if kind == 0:  # a repair of a new session
            repair_id = struct.pack("!HBBI", self.rng.getrandbits(16), 0xF0 | 15, 50,
                                    self.rng.getrandbits(32))
            packet = struct.pack("!BI", 3, new_session) + repair_id + self.rng.randbytes(self.symbol_bytes)
        elif kind == 1:  # a source of the real session, its ESI far ahead
            esi = self.rng.randrange(1 << 20, 1 << 31)
            packet = struct.pack("!BII", 2, self.session, esi) + self.inner_packet(index)
        elif kind == 2:  # a source of a new session
            packet = struct.pack("!BII", 2, new_session, self.rng.getrandbits(32)) + self.inner_packet(index)
        else:  # a source of the real session within the window
            packet = struct.pack("!BII", 2, self.session, self.in_window_esi()) + self.inner_packet(index)
        return packet + self.rng.randbytes(self.tag_bytes)

    def run(self) -> None:
        start = time.monotonic()
        for index in range(FORGERIES):
            if (wait := start + index * FORGERY_INTERVAL_S - time.monotonic()) > 0:
                time.sleep(wait)
            netlab.send_forged(self.ns, [self.forgery(index)], (A_ADDR, TUNNEL_PORT),
                               (B_ADDR, TUNNEL_PORT))


def transfer_under_attack(fec_args: list[str], forge_in_window: bool) -> tuple[set[int], dict, dict]:
    """The genuine sequence numbers the sink received, anything else it
    received, the receiving endpoint's rx counters and satlink's ab ones."""
    with tunnel_path(LOSSY, ["--k", "5", "--z", "100", *fec_args]) as (a, b, link, tunnel_a, tunnel_b):
        ready = tunnel_a.event("ready")
        tag_bytes = 16 if ready["authenticated"] else 0

        def in_window_esi() -> int:
            return tunnel_a.latest["tx"]["sources"] if tunnel_a.latest else 0

        forger = Forger(a, ready["session"], ready["symbol_bytes"], tag_bytes,
                        in_window_esi if forge_in_window else None)
        sink = netlab.UdpSink(b, B_INNER, SINK_PORT)
        sender = threading.Thread(target=netlab.send_udp, args=(a, sink.address, COUNT, RATE_PPS))
        try:
            sender.start()
            # The attack starts once the transfer runs.
            tunnel_b.wait_stats(lambda s: s["rx"]["sources"] > 0, 5)
            forger.start()
            forger.join()
            sender.join()
            line = netlab.tunnel_drained(tunnel_a, link, tunnel_b, COUNT, link_baseline=FORGERIES)
            sink.wait_count(sum(line["rx"][k] for k in ("sources", "recovered", "plain")), 30)
        finally:
            sink.close()
        link_ab = link.stop()["ab"]
        rx = tunnel_b.stop()["rx"]
    sequences = [seq for seq, _, _ in sink.arrivals]
    return {s for s in sequences if s < COUNT}, {s for s in sequences if s >= COUNT}, rx | {"link": link_ab}


def assert_recovery_unchanged(genuine: set[int], forged: set[int], rx: dict) -> None:
    assert forged == set(), f"forged packets reached the TUN: {sorted(forged)[:5]}"
    # As test_tunnel's S(5,100) over 5 % loss without an attacker.
    assert 1 - len(genuine) / COUNT <= 0.005, rx
    assert rx["sessions"] == 1, rx
    # Every loss counted is a source the channel took: none invented.
    assert 0 < rx["lost"] <= rx["link"]["drops_channel"], rx
    assert rx["recovered"] == rx["lost"] - rx["unrecovered"], rx


def test_forged_sessions_and_esi_jumps_are_held_and_rejected():
    genuine, forged, rx = transfer_under_attack([], forge_in_window=False)
    assert_recovery_unchanged(genuine, forged, rx)
    assert rx["rejected"] > 0.5 * FORGERIES, rx


def test_with_a_key_no_forgery_reaches_the_decoder_or_the_tun(tmp_path):
    key = tmp_path / "key"
    key.touch(mode=0o600)
    key.write_text(secrets.token_hex(32))
    genuine, forged, rx = transfer_under_attack(["--key-file", str(key)], forge_in_window=True)
    assert_recovery_unchanged(genuine, forged, rx)
    assert rx["unauthenticated"] > 0.5 * FORGERIES and rx["rejected"] == 0, rx
