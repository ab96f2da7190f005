"""pcapng captures of one link's directions merged into one file, as
mergecap merges them, so that Wireshark follows each connection both ways:
it decrypts a QUIC connection only with its client's and its server's
handshake in one file.

The merged file has one section: its header holds every source's comments
(the first source's other options once), then each source's interfaces,
renamed after the source's label (its first interface, the packets, is the
label itself; the others label-name, e.g. forward-events), then every
source's packets in timestamp order (the sources' order among equal
times), then each source's Interface Statistics Blocks. Timestamps are
compared as they are, so every interface must have the same resolution
(satlink writes ns). Only the blocks satlink and swf-tunnel write are
understood (codec/tools/pcapng.h: section header, interface description,
enhanced packet, interface statistics); a file with another, or with more
than one section, is refused (ValueError).

Block layout (draft-ietf-opsawg-pcapng): type, total length, body, total
length; options are code, length, value padded to 32 bits, then an
end-of-options (code 0, length 0).
"""

from __future__ import annotations

import heapq
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from satlab.engine.pcapng_secrets import SECTION_HEADER_BLOCK, section_byte_order

INTERFACE_BLOCK, STATISTICS_BLOCK, PACKET_BLOCK = 1, 5, 6
OPT_END, OPT_COMMENT, IF_NAME, IF_TSRESOL = 0, 1, 2, 9
# The section header's fixed part: byte-order magic, version, section length.
SECTION_FIXED_BYTES, INTERFACE_FIXED_BYTES = 16, 8

Option = tuple[int, bytes]


@dataclass
class _Source:
    path: Path
    label: str
    order: str = "<"
    section_options: list[Option] = field(default_factory=list)
    interfaces: list[tuple[bytes, list[Option]]] = field(default_factory=list)  # fixed part, options
    statistics: list[bytes] = field(default_factory=list)  # ISB bodies
    first_interface: int = 0  # its interfaces' first index in the merged file


def _options(data: bytes, order: str) -> list[Option]:
    found, offset = [], 0
    while offset + 4 <= len(data):
        code, length = struct.unpack_from(f"{order}HH", data, offset)
        if code == OPT_END:
            break
        found.append((code, data[offset + 4:offset + 4 + length]))
        offset += 4 + length + (-length % 4)
    return found


def _encode_options(options: list[Option], order: str) -> bytes:
    encoded = b"".join(struct.pack(f"{order}HH", code, len(value)) + value + b"\0" * (-len(value) % 4)
                       for code, value in options)
    return encoded + struct.pack(f"{order}HH", OPT_END, 0)


def _block(kind: int, body: bytes, order: str) -> bytes:
    total = 12 + len(body)
    return struct.pack(f"{order}II", kind, total) + body + struct.pack(f"{order}I", total)


def _blocks(reading: BinaryIO, source: _Source) -> Iterator[tuple[int, bytes]]:
    """The blocks after the section header, as (type, body)."""
    while head := reading.read(8):
        if len(head) < 8:
            raise ValueError(f"{source.path}: a block is cut short at its header")
        kind, total = struct.unpack(f"{source.order}II", head)
        rest = reading.read(total - 8)
        if total < 12 or len(rest) != total - 8:
            raise ValueError(f"{source.path}: a block of type {kind} is cut short")
        yield kind, rest[:-4]


def _open(source: _Source, reading: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """Reads source's section header and interfaces; returns its remaining blocks."""
    head = reading.read(12)
    source.order = section_byte_order(head)
    (total,) = struct.unpack(f"{source.order}I", head[4:8])
    body = head[8:] + reading.read(total - 12)
    source.section_options = _options(body[SECTION_FIXED_BYTES:-4], source.order)
    blocks = _blocks(reading, source)
    for kind, body in blocks:
        if kind != INTERFACE_BLOCK:
            return _rest(source, (kind, body), blocks)
        source.interfaces.append((body[:INTERFACE_FIXED_BYTES], _options(body[INTERFACE_FIXED_BYTES:], source.order)))
    return iter(())


def _rest(source: _Source, first: tuple[int, bytes], blocks: Iterator[tuple[int, bytes]]
          ) -> Iterator[tuple[int, bytes]]:
    yield first
    yield from blocks


def _packets(source: _Source, index: int, blocks: Iterator[tuple[int, bytes]]) -> Iterator[tuple[int, int, bytes]]:
    """source's packets as (timestamp, its index among the sources, the merged
    file's block); its statistics blocks set aside."""
    order = source.order
    for kind, body in blocks:
        if kind == PACKET_BLOCK:
            interface, high, low = struct.unpack_from(f"{order}III", body)
            renumbered = struct.pack(f"{order}I", interface + source.first_interface) + body[4:]
            yield (high << 32) | low, index, _block(PACKET_BLOCK, renumbered, order)
        elif kind == STATISTICS_BLOCK:
            (interface,) = struct.unpack_from(f"{order}I", body)
            source.statistics.append(struct.pack(f"{order}I", interface + source.first_interface) + body[4:])
        else:
            what = "a second section" if kind == SECTION_HEADER_BLOCK else f"a block of type {kind:#x}"
            raise ValueError(f"{source.path} has {what}, which is not merged")


def _renamed(options: list[Option], name: str) -> list[Option]:
    return [(IF_NAME, name.encode())] + [(code, value) for code, value in options if code != IF_NAME]


def merge(sources: list[tuple[Path, str]], target: Path) -> None:
    """target = the captures at sources' paths merged, each source's
    interfaces renamed after its label; no target if they cannot be."""
    try:
        _merge([_Source(path, label) for path, label in sources], target)
    except BaseException:
        target.unlink(missing_ok=True)
        raise


def _merge(opened: list[_Source], target: Path) -> None:
    with target.open("wb") as writing:
        readers = [source.path.open("rb") for source in opened]
        try:
            rests = [_open(source, reader) for source, reader in zip(opened, readers, strict=True)]
            order = opened[0].order
            if any(source.order != order for source in opened):
                raise ValueError("the captures to merge are not in one byte order")
            resolutions = {bytes(dict(options).get(IF_TSRESOL, b"\x06"))
                           for source in opened for _, options in source.interfaces}
            if len(resolutions) > 1:
                raise ValueError("the captures to merge do not time their packets with one resolution")
            comments = [(code, value) for source in opened for code, value in source.section_options
                        if code == OPT_COMMENT]
            others = [(code, value) for code, value in opened[0].section_options if code != OPT_COMMENT]
            section = struct.pack(f"{order}IHHq", 0x1A2B3C4D, 1, 0, -1) + _encode_options(comments + others, order)
            writing.write(_block(SECTION_HEADER_BLOCK, section, order))
            count = 0
            for source in opened:
                source.first_interface = count
                for position, (fixed, options) in enumerate(source.interfaces):
                    name = dict(options).get(IF_NAME, b"").decode()
                    label = source.label if position == 0 else f"{source.label}-{name}"
                    writing.write(_block(INTERFACE_BLOCK, fixed + _encode_options(_renamed(options, label), order),
                                         order))
                count += len(source.interfaces)
            streams = [_packets(source, index, rest) for index, (source, rest) in enumerate(zip(opened, rests,
                                                                                               strict=True))]
            for _, _, block in heapq.merge(*streams, key=lambda packet: packet[:2]):
                writing.write(block)
            for source in opened:
                for body in source.statistics:
                    writing.write(_block(STATISTICS_BLOCK, body, order))
        finally:
            for reader in readers:
                reader.close()
