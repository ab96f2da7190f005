"""Two captures of one link's directions merged into one pcapng file
(satlab.engine.pcapng_merge): every packet once, in timestamp order, on its
source's interface renamed after the source's label, the sections'
comments kept, the statistics at the end; tshark reads it whole."""

import shutil
import struct
import subprocess

import pytest

from satlab.engine.pcapng_merge import merge
from satlab.engine.pcapng_secrets import SECTION_HEADER_BLOCK

RAW_IPV4 = 101


def block(kind: int, body: bytes) -> bytes:
    padded = body + b"\0" * (-len(body) % 4)
    return struct.pack("<II", kind, 12 + len(padded)) + padded + struct.pack("<I", 12 + len(padded))


def options(*pairs: tuple[int, bytes]) -> bytes:
    return b"".join(struct.pack("<HH", code, len(value)) + value + b"\0" * (-len(value) % 4)
                    for code, value in pairs) + struct.pack("<HH", 0, 0)


def udp_packet(source_octet: int) -> bytes:
    """IPv4 from 10.0.0.<source_octet> to 10.2.2.2, UDP 4444 -> 4444, empty."""
    return bytes.fromhex(f"4500001c00004000401100000a0000{source_octet:02x}0a020202" "115c115c00080000")


def capture(name: str, comment: str, times_ns: list[int], source_octet: int) -> bytes:
    """A section, a packet interface (ns) and an events one, a packet at
    each time with its comment, and the packet interface's statistics."""
    data = block(SECTION_HEADER_BLOCK, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)
                 + options((1, comment.encode()), (4, b"satlink (satlab)")))
    for interface_name in (name, "events"):
        data += block(1, struct.pack("<HHI", RAW_IPV4, 0, 128) + options((2, interface_name.encode()), (9, b"\x09")))
    for seq, time_ns in enumerate(times_ns):
        packet = udp_packet(source_octet)
        data += block(6, struct.pack("<IIIII", 0, time_ns >> 32, time_ns & 0xFFFFFFFF, len(packet), len(packet))
                      + packet + options((1, f"fate=delivered seq={seq}".encode())))
    data += block(5, struct.pack("<III", 0, 0, 0) + options((1, b"closing")))
    return data


@pytest.fixture
def sources(tmp_path):
    forward, back = tmp_path / "ba.pcapng", tmp_path / "ab.pcapng"
    forward.write_bytes(capture("ba", "direction ba", [10, 30, 50], 1))
    back.write_bytes(capture("ab", "direction ab", [20, 30, 60], 2))
    return [(forward, "forward"), (back, "return")]


def blocks(data: bytes) -> list[tuple[int, bytes]]:
    found, offset = [], 0
    while offset < len(data):
        kind, total = struct.unpack_from("<II", data, offset)
        found.append((kind, data[offset + 8:offset + total - 4]))
        offset += total
    return found


def test_the_packets_come_in_time_order_on_their_renamed_interfaces(sources, tmp_path):
    target = tmp_path / "link.pcapng"
    merge(sources, target)
    found = blocks(target.read_bytes())
    assert [kind for kind, _ in found] == [SECTION_HEADER_BLOCK, 1, 1, 1, 1, 6, 6, 6, 6, 6, 6, 5, 5]
    section = found[0][1]
    assert b"direction ba" in section and b"direction ab" in section and section.count(b"satlink (satlab)") == 1
    assert [body[12:].split(b"\0")[0] for kind, body in found if kind == 1] == \
        [b"forward", b"forward-events", b"return", b"return-events"]
    packets = [struct.unpack_from("<III", body) for kind, body in found if kind == 6]
    # The forward direction first among equal times (the sources' order).
    assert [(interface, low) for interface, _, low in packets] == [(0, 10), (2, 20), (0, 30), (2, 30), (0, 50),
                                                                   (2, 60)]
    assert [struct.unpack_from("<I", body)[0] for kind, body in found if kind == 5] == [0, 2]


@pytest.mark.skipif(shutil.which("tshark") is None, reason="needs tshark (apt-get install tshark)")
def test_tshark_reads_the_merged_file_whole(sources, tmp_path):
    target = tmp_path / "link.pcapng"
    merge(sources, target)
    done = subprocess.run(["tshark", "-n", "-r", str(target), "-T", "fields", "-e", "frame.interface_name",
                           "-e", "ip.src", "-e", "frame.comment"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [line.split("\t") for line in done.stdout.splitlines()] == [
        ["forward", "10.0.0.1", "fate=delivered seq=0"], ["return", "10.0.0.2", "fate=delivered seq=0"],
        ["forward", "10.0.0.1", "fate=delivered seq=1"], ["return", "10.0.0.2", "fate=delivered seq=1"],
        ["forward", "10.0.0.1", "fate=delivered seq=2"], ["return", "10.0.0.2", "fate=delivered seq=2"]]


def test_blocks_it_does_not_know_and_cut_files_are_refused(sources, tmp_path):
    forward, _ = sources[0]
    with_secrets = tmp_path / "secrets.pcapng"
    data = forward.read_bytes()
    header_bytes = struct.unpack_from("<I", data, 4)[0]
    with_secrets.write_bytes(data[:header_bytes] + block(0x0A, struct.pack("<II", 0x544C534B, 4) + b"keys")
                             + data[header_bytes:])
    with pytest.raises(ValueError, match=r"has a block of type 0xa, which is not merged"):
        merge([(with_secrets, "forward")], tmp_path / "out.pcapng")
    cut = tmp_path / "cut.pcapng"
    cut.write_bytes(data[:-6])
    with pytest.raises(ValueError, match="cut short"):
        merge([(cut, "forward")], tmp_path / "out.pcapng")
    assert not (tmp_path / "out.pcapng").exists()
