"""A Decryption Secrets Block injected into a pcapng file, as the pcapng
specification lays it out and where editcap puts it."""

import shutil
import struct
import subprocess

import pytest

from satlab.engine.pcapng_secrets import (
    DECRYPTION_SECRETS_BLOCK,
    SECTION_HEADER_BLOCK,
    TLS_KEY_LOG,
    inject_tls_secrets,
)

KEYLOG = b"CLIENT_TRAFFIC_SECRET_0 0011 2233\nSERVER_TRAFFIC_SECRET_0 00112 4455\n"  # 69 bytes: padded to 72


def block(order: str, kind: int, body: bytes) -> bytes:
    total = 12 + len(body)
    return struct.pack(f"{order}II", kind, total) + body + struct.pack(f"{order}I", total)


def capture(order: str) -> bytes:
    """A section header, an interface (raw IPv4, linktype 228) and one packet: a tiny pcapng."""
    header = block(order, SECTION_HEADER_BLOCK, struct.pack(f"{order}IHHq", 0x1A2B3C4D, 1, 0, -1))
    interface = block(order, 1, struct.pack(f"{order}HHI", 228, 0, 65535))
    ip = bytes.fromhex("4500001c00004000401100000a0000020a020202") + bytes.fromhex("115c115c00080000")
    packet = block(order, 6, struct.pack(f"{order}IIIII", 0, 0, 1, len(ip), len(ip)) + ip)
    return header + interface + packet


def blocks(data: bytes, order: str) -> list[tuple[int, bytes]]:
    found, offset = [], 0
    while offset < len(data):
        kind, total = struct.unpack(f"{order}II", data[offset:offset + 8])
        found.append((kind, data[offset + 8:offset + total - 4]))
        offset += total
    return found


@pytest.mark.parametrize("order", ["<", ">"])
def test_the_secrets_block_follows_the_section_header(tmp_path, order):
    source, target = tmp_path / "link.pcapng", tmp_path / "link-secrets.pcapng"
    source.write_bytes(capture(order))
    inject_tls_secrets(source, KEYLOG, target)
    kinds = blocks(target.read_bytes(), order)
    assert [kind for kind, _ in kinds] == [SECTION_HEADER_BLOCK, DECRYPTION_SECRETS_BLOCK, 1, 6]
    body = kinds[1][1]
    secrets_type, length = struct.unpack(f"{order}II", body[:8])
    assert (secrets_type, length, len(body)) == (TLS_KEY_LOG, 69, 8 + 72)
    assert body[8:8 + length] == KEYLOG and body[8 + length:] == b"\0\0\0"
    assert target.read_bytes().replace(target.read_bytes()[28:28 + 12 + len(body)], b"") == source.read_bytes()


def test_a_file_that_is_not_pcapng_is_refused(tmp_path):
    source = tmp_path / "x.pcap"
    source.write_bytes(bytes.fromhex("d4c3b2a1") + bytes(20))
    with pytest.raises(ValueError, match="not a pcapng file"):
        inject_tls_secrets(source, KEYLOG, tmp_path / "y.pcapng")


@pytest.mark.skipif(shutil.which("tshark") is None, reason="needs tshark (apt-get install tshark)")
def test_tshark_reads_the_secrets_and_the_packet(tmp_path):
    source, target = tmp_path / "link.pcapng", tmp_path / "link-secrets.pcapng"
    source.write_bytes(capture("<"))
    inject_tls_secrets(source, KEYLOG, target)
    done = subprocess.run(["tshark", "-r", str(target), "-T", "fields", "-e", "ip.dst"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["10.2.2.2"]
    listed = subprocess.run(["capinfos", str(target)], capture_output=True, text=True, timeout=60)
    assert "Number of packets:   1" in listed.stdout or "Number of packets = 1" in listed.stdout
