"""Writes the channel-model test vectors, tests/vectors/channel/<case>.json,
and the channel-statistics vectors, tests/vectors/channel/stats/<case>.json.

Each file is one case: the channel config (kind, seed, params named as the
fields of swf_channel_config), then either the packet schedule (packet i is
sent at t_us = i * interval_us, for i < packets, and with air_us on the air
for the cases decided by overlap) and the indices of the packets that
channel_reference.py (channel_stats_reference.py by overlap) loses, or a
stream (swf_stream) and the
figures channel_stats_reference.py measures. See tests/vectors/README.md,
sections "channel" and "channel/stats".

Deterministic: running it again rewrites the same bytes.
Usage: python3 tests/vectors/gen_channel.py
"""

import argparse
import json
from pathlib import Path

from channel_reference import Params, lost_indices
from channel_stats_reference import lost_by_overlap, measure

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

# Packets on the air for air_us from their send time, decided by overlap
# (swf_channel_lost_during). name: (kind, seed, params, interval_us, air_us)
OVERLAP_CASES: dict[str, tuple[str, int, Params, int, int]] = {
    # 1400 bytes at 12 Mbit/s (934 us on the air), sent at 10 Mbit/s.
    "ge_time_optical_overlap": ("ge_time", 7, OPTICAL, 1120, 934),
    "outage_dvb_train_jitter_overlap": ("outage", 16, {**DVB_TRAIN, "phase_ms": 40.0, "jitter_ms": 20.0},
                                        1120, 934),
    # Back to back, and longer than a step: a packet meets two or three steps.
    "ge_time_uneven_step_overlap": ("ge_time", 14, {"p": 0.05, "q": 0.5, "step_ms": 7.3}, 9000, 9000),
    "trace_repeating_overlap": ("trace", 19, CASES["trace_repeating"][2], 1000, 500),
    # Air time 0: the instant at the start, as swf_channel_lost.
    "outage_instant_overlap": ("outage", 3, {"period_ms": 10.0, "duration_ms": 2.5}, 700, 0),
    # Per-packet models decide at the start whatever the air time.
    "bernoulli_overlap": ("bernoulli", 7, {"loss": 0.01}, 1000, 5000),
    "ge_packet_overlap": ("ge_packet", 11, CASES["ge_packet"][2], 1000, 5000),
}

# The optical preset of labs/geo-optical.yaml: p and q from 2.56 % of the time
# lost in bursts of mean 16.7 ms (q = step / burst, p = q * r / (1 - r)), with
# the seed a run's plan gives its forward channel in iteration 0.
OPTICAL_Q = 10.0 / 16.7
OPTICAL_PRESET: Params = {"p": OPTICAL_Q * 0.0256 / (1 - 0.0256), "q": OPTICAL_Q, "step_ms": 10.0}
DVB_TRAIN_PRESET: Params = {"period_ms": 258.0, "duration_ms": 15.2}
UDP_10_MBPS = {"rate_mbps": 10.0, "packet_bytes": 1400}
OVERLAP_12_MBPS = {"loss_rule": "overlap", "link_rate_mbps": 12.0}

# name: (kind, seed, params, stream)
STATS_CASES: dict[str, tuple[str, int, Params, dict]] = {
    "perfect": ("perfect", 1, {}, {"duration_ms": 1000.0, **UDP_10_MBPS}),
    "ge_time_optical_preset": ("ge_time", 2521958666, OPTICAL_PRESET, {"duration_ms": 60000.0, **UDP_10_MBPS}),
    "ge_time_optical_stated": ("ge_time", 7, OPTICAL, {"duration_ms": 30000.0, **UDP_10_MBPS}),
    # A step that is no multiple of the packet interval (2.8 ms, 3 Mbit/s).
    "ge_time_uneven_step": ("ge_time", 14, {"p": 0.05, "q": 0.5, "step_ms": 7.3},
                            {"duration_ms": 20000.0, "rate_mbps": 3.0, "packet_bytes": 1050}),
    "outage_dvb_train_preset": ("outage", 2521958666, DVB_TRAIN_PRESET, {"duration_ms": 60000.0, **UDP_10_MBPS}),
    # 933.33 us between packets: times that are not whole microseconds.
    "outage_jitter": ("outage", 16, {**DVB_TRAIN, "phase_ms": 40.0, "jitter_ms": 20.0},
                      {"duration_ms": 20000.0, "rate_mbps": 12.0, "packet_bytes": 1400}),
    # A burst cut by the end of the duration keeps the length it had.
    "outage_cut_at_the_end": ("outage", 3, {"period_ms": 100.0, "duration_ms": 50.0},
                              {"duration_ms": 125.0, "rate_mbps": 8.0, "packet_bytes": 1000}),
    # Touching intervals are one burst.
    "trace": ("trace", 18, {"intervals": TRACE}, {"duration_ms": 15000.0, **UDP_10_MBPS}),
    "trace_repeating": ("trace", 19, CASES["trace_repeating"][2], {"duration_ms": 10000.0, **UDP_10_MBPS}),
    "bernoulli_1pct": ("bernoulli", 7, {"loss": 0.01}, {"duration_ms": 20000.0, **UDP_10_MBPS}),
    "ge_packet": ("ge_packet", 11, CASES["ge_packet"][2], {"duration_ms": 20000.0, **UDP_10_MBPS}),
    # By overlap: the presets' 10 Mbit/s stream on their 12 Mbit/s link (934 us on the air).
    "ge_time_optical_preset_overlap": ("ge_time", 2521958666, OPTICAL_PRESET,
                                       {"duration_ms": 60000.0, **UDP_10_MBPS, **OVERLAP_12_MBPS}),
    "outage_dvb_train_preset_overlap": ("outage", 2521958666, DVB_TRAIN_PRESET,
                                        {"duration_ms": 60000.0, **UDP_10_MBPS, **OVERLAP_12_MBPS}),
    # Back to back at 12 Mbit/s: 933 or 934 us apart, 934 on the air.
    "outage_jitter_overlap": ("outage", 16, {**DVB_TRAIN, "phase_ms": 40.0, "jitter_ms": 20.0},
                              {"duration_ms": 20000.0, "rate_mbps": 12.0, "packet_bytes": 1400,
                               "loss_rule": "overlap"}),
    "trace_overlap": ("trace", 18, {"intervals": TRACE},
                      {"duration_ms": 15000.0, **UDP_10_MBPS, **OVERLAP_12_MBPS}),
    "bernoulli_1pct_overlap": ("bernoulli", 7, {"loss": 0.01},
                               {"duration_ms": 20000.0, **UDP_10_MBPS, **OVERLAP_12_MBPS}),
}


def write_stats_cases(out_dir: Path) -> None:
    for name, (kind, seed, params, stream) in STATS_CASES.items():
        case = {"kind": kind, "seed": seed, "params": params, "stream": stream,
                "stats": measure(kind, seed, params, stream)}
        (out_dir / f"{name}.json").write_text(json.dumps(case) + "\n")


def write_case(path: Path, kind: str, seed: int, params: Params, schedule: dict, lost: list[int]) -> None:
    """One channel case: the config, the packet schedule, the lost indices."""
    case = {"kind": kind, "seed": seed, "params": params, **schedule, "packets": PACKETS, "lost": lost}
    path.write_text(json.dumps(case) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="where to write the vectors")
    out_dir = parser.parse_args().out
    stats_dir = out_dir / "stats"
    stats_dir.mkdir(parents=True, exist_ok=True)
    for stale in [*out_dir.glob("*.json"), *stats_dir.glob("*.json")]:
        stale.unlink()
    for name, (kind, seed, params, interval_us) in CASES.items():
        lost = lost_indices(kind, seed, params, interval_us, PACKETS)
        write_case(out_dir / f"{name}.json", kind, seed, params, {"interval_us": interval_us}, lost)
    for name, (kind, seed, params, interval_us, air_us) in OVERLAP_CASES.items():
        starts = [i * interval_us for i in range(PACKETS)]
        decisions = lost_by_overlap(kind, seed, params, starts, air_us)
        write_case(out_dir / f"{name}.json", kind, seed, params, {"interval_us": interval_us, "air_us": air_us},
                   [i for i, lost in enumerate(decisions) if lost])
    write_stats_cases(stats_dir)


if __name__ == "__main__":
    main()
