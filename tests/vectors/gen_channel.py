"""Writes the channel-model test vectors, tests/vectors/channel/<case>.json.

Each file is one case: the channel config (kind, seed, params named as the
fields of swf_channel_config), the packet schedule (packet i is sent at
t_us = i * interval_us, for i < packets) and the indices of the packets that
channel_reference.py loses. See tests/vectors/README.md, section "channel".

Deterministic: running it again rewrites the same bytes.
Usage: python3 tests/vectors/gen_channel.py
"""

import argparse
import json
from pathlib import Path

from channel_reference import Params, lost_indices

OUT_DIR = Path(__file__).resolve().parent / "channel"
PACKETS = 10000

# The DVB train (catenary masts) and optical satellite channels of DESIGN.md.
DVB_TRAIN: Params = {"period_ms": 258.0, "duration_ms": 15.5}
OPTICAL: Params = {"p": 0.01, "q": 0.167, "step_ms": 10.0}
TRACE = [
    {"start_ms": 100.0, "end_ms": 350.5},
    {"start_ms": 2000.0, "end_ms": 2040.0},
    {"start_ms": 2040.0, "end_ms": 2041.25},
    {"start_ms": 5000.25, "end_ms": 5010.0},
    {"start_ms": 9990.0, "end_ms": 12000.0},
]

# name: (kind, seed, params, interval_us)
CASES: dict[str, tuple[str, int, Params, int]] = {
    "perfect": ("perfect", 1, {}, 1000),
    "bernoulli_1pct": ("bernoulli", 7, {"loss": 0.01}, 1000),
    "bernoulli_5pct": ("bernoulli", 8, {"loss": 0.05}, 1000),
    "bernoulli_loss0": ("bernoulli", 9, {"loss": 0.0}, 1000),
    "bernoulli_loss1": ("bernoulli", 10, {"loss": 1.0}, 1000),
    "ge_packet": (
        "ge_packet",
        11,
        {"p": 0.02, "q": 0.25, "loss_good": 0.001, "loss_bad": 0.6},
        1000,
    ),
    # p = q = 1 flips the state after every packet: exactly the odd packets are lost.
    "ge_packet_alternating": (
        "ge_packet",
        12,
        {"p": 1.0, "q": 1.0, "loss_good": 0.0, "loss_bad": 1.0},
        1000,
    ),
    "ge_time_optical": ("ge_time", 7, OPTICAL, 1000),
    # One packet every 25 ms: 2 or 3 steps pass between packets, 25,000 steps in all.
    "ge_time_optical_sparse": ("ge_time", 13, OPTICAL, 25000),
    # A step that is no multiple of the interval, with a short mean burst.
    "ge_time_uneven_step": ("ge_time", 14, {"p": 0.05, "q": 0.5, "step_ms": 7.3}, 1000),
    "outage_dvb_train": ("outage", 15, DVB_TRAIN, 1000),
    "outage_dvb_train_jitter": (
        "outage",
        16,
        {**DVB_TRAIN, "phase_ms": 40.0, "jitter_ms": 20.0},
        1000,
    ),
    # Times in half microseconds (exact in binary): each rounds up to a whole one.
    "outage_half_microseconds": (
        "outage",
        20,
        {"period_ms": 1.0625, "duration_ms": 0.3125, "phase_ms": 0.0625},
        1,
    ),
    "outage_always": ("outage", 17, {"period_ms": 10.0, "duration_ms": 10.0}, 1000),
    "trace": ("trace", 18, {"intervals": TRACE}, 1000),
    "trace_repeating": (
        "trace",
        19,
        {
            "intervals": [
                {"start_ms": 10.0, "end_ms": 25.5},
                {"start_ms": 100.0, "end_ms": 101.2},
                {"start_ms": 300.0, "end_ms": 480.0},
            ],
            "trace_period_ms": 500.0,
        },
        1000,
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="where to write the vectors")
    out_dir = parser.parse_args().out
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("*.json"):
        stale.unlink()
    for name, (kind, seed, params, interval_us) in CASES.items():
        lost = lost_indices(kind, seed, params, interval_us, PACKETS)
        case = {
            "kind": kind,
            "seed": seed,
            "params": params,
            "interval_us": interval_us,
            "packets": PACKETS,
            "lost": lost,
        }
        (out_dir / f"{name}.json").write_text(json.dumps(case) + "\n")


if __name__ == "__main__":
    main()
