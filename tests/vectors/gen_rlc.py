#!/usr/bin/env python3
"""Writes tests/vectors/rlc/*.json: one RFC 8681 repair symbol per file.

Each file: {"symbol_bytes", "first_esi", "repair_key", "dt", "sources": [hex...],
"repair": hex}, where "sources" is the encoding window in ESI order. Computed by
reference.py, independently of the C library. Deterministic: rerunning it
rewrites the same bytes.
"""
import argparse
import json
import random
from pathlib import Path

from reference import repair_symbol

# (window size, dt, symbol bytes, repair key): window sizes 1 to 255, sparse
# and dense coefficients, symbol sizes 1 to 1500, keys across the 16-bit range.
CASES = [
    (1, 15, 1, 0), (1, 15, 16, 1), (2, 15, 1, 2), (2, 0, 32, 3), (3, 15, 9, 4),
    (3, 7, 64, 5), (4, 15, 100, 6), (5, 15, 1400, 7), (7, 1, 33, 8), (8, 15, 8, 9),
    (9, 15, 31, 10), (10, 15, 1400, 11), (10, 3, 200, 12), (15, 15, 17, 13),
    (16, 15, 256, 14), (20, 15, 1400, 15), (20, 9, 63, 16), (31, 15, 65, 255),
    (32, 15, 128, 256), (50, 15, 1500, 1000), (50, 5, 500, 1001), (64, 15, 1, 4096),
    (64, 12, 95, 4097), (100, 15, 1400, 65535), (100, 15, 1500, 32768),
    (100, 2, 1400, 777), (127, 15, 129, 12345), (128, 14, 3, 54321), (200, 15, 48, 222),
    (254, 15, 7, 65534), (255, 15, 160, 42), (255, 0, 11, 43), (255, 11, 96, 44),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "rlc",
                        help="where to write the vectors")
    out_dir = parser.parse_args().out
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.json"):
        old.unlink()
    for window, dt, symbol_bytes, repair_key in CASES:
        rng = random.Random(f"{window}/{dt}/{symbol_bytes}/{repair_key}")
        first_esi = rng.randrange(1 << 32)
        sources = [rng.randbytes(symbol_bytes) for _ in range(window)]
        vector = {
            "symbol_bytes": symbol_bytes,
            "first_esi": first_esi,
            "repair_key": repair_key,
            "dt": dt,
            "sources": [s.hex() for s in sources],
            "repair": repair_symbol(repair_key, dt, sources).hex(),
        }
        name = f"w{window:03d}-dt{dt:02d}-s{symbol_bytes:04d}-key{repair_key:05d}.json"
        (out_dir / name).write_text(json.dumps(vector, indent=1) + "\n")


if __name__ == "__main__":
    main()
