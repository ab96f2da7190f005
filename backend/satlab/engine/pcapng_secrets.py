"""TLS secrets embedded in a pcapng capture as a Decryption Secrets Block
(pcapng, draft-ietf-opsawg-pcapng, "Decryption Secrets Block": block type
0x0000000A, secrets type 0x544c534b "TLS Key Log", the NSS key log text),
placed as `editcap --inject-secrets tls,FILE` places it: right after the
section header, before any packet, so that Wireshark and tshark decrypt the
capture's QUIC (and TLS) with no other file.

Block layout, in the section's byte order: block type, block total length,
secrets type, secrets length, the secrets padded to 32 bits, block total
length again (no options)."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

SECTION_HEADER_BLOCK = 0x0A0D0D0A
DECRYPTION_SECRETS_BLOCK = 0x0000000A
TLS_KEY_LOG = 0x544C534B
BYTE_ORDER_MAGIC = 0x1A2B3C4D


def decryption_secrets_block(secrets: bytes, byte_order: str) -> bytes:
    """The block for secrets; byte_order "<" or ">" (the section's)."""
    padded = secrets + b"\0" * (-len(secrets) % 4)
    total_bytes = 4 * 5 + len(padded)
    return (struct.pack(f"{byte_order}IIII", DECRYPTION_SECRETS_BLOCK, total_bytes, TLS_KEY_LOG, len(secrets))
            + padded + struct.pack(f"{byte_order}I", total_bytes))


def section_byte_order(header: bytes) -> str:
    """"<" or ">" from the first 12 bytes of a pcapng file; ValueError if it is not one."""
    if len(header) < 12 or struct.unpack("<I", header[:4])[0] != SECTION_HEADER_BLOCK:
        raise ValueError("not a pcapng file: it does not start with a section header block")
    for order in ("<", ">"):
        if struct.unpack(f"{order}I", header[8:12])[0] == BYTE_ORDER_MAGIC:
            return order
    raise ValueError("not a pcapng file: its section header has no byte-order magic")


def inject_tls_secrets(source: Path, keylog: bytes, target: Path) -> None:
    """target = source with a Decryption Secrets Block of keylog after its
    first section header (target may not be source)."""
    with source.open("rb") as reading, target.open("wb") as writing:
        head = reading.read(12)
        byte_order = section_byte_order(head)
        (header_bytes,) = struct.unpack(f"{byte_order}I", head[4:8])
        writing.write(head + reading.read(header_bytes - 12))
        writing.write(decryption_secrets_block(keylog, byte_order))
        shutil.copyfileobj(reading, writing, 1 << 20)
