"""Channel statistics from libswf's models (satlab.engine.channel_stats and
`satlab channel stats`): the calibrated presets measure what they were
calibrated to, a lab's channel gets the seed a run's plan gives it, the
figures are those of the shared vectors, and refusals name their field."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from satlab import scenario
from satlab.engine import channel_stats, plan
from tests.conftest import LABS

SATLAB = [str(Path(sys.executable).with_name("satlab"))]
VECTORS = LABS.parent / "tests" / "vectors" / "channel" / "stats"
HOUR = channel_stats.Stream(duration_s=3600)


def lab_stats(lab: str, stream: channel_stats.Stream = HOUR) -> channel_stats.ChannelStats:
    channel, seed, field = channel_stats.lab_channel(scenario.load(LABS / f"{lab}.yaml"), "forward")
    return channel_stats.measure(channel, seed, stream, field)


def test_optical_preset_loses_2_56_percent_of_the_time_in_16_7_ms_bursts():
    stats = lab_stats("geo-optical")
    assert stats.time_lost_ratio == pytest.approx(0.0256, abs=0.001)
    assert stats.bursts.unit == "ms" and stats.bursts.mean == pytest.approx(16.7, abs=0.5)
    assert stats.bursts.min == 10
    # The p and q derived from the statistics are shown with them.
    assert stats.channel["p"] == pytest.approx(0.0157321, rel=1e-5)
    assert stats.channel["q"] == pytest.approx(10 / 16.7)
    assert stats.channel["loss_time_ratio"] == 0.0256


def test_dvb_train_preset_loses_15_2_ms_every_258_ms():
    stats = lab_stats("geo-dvb-train")
    assert stats.time_lost_ratio == pytest.approx(15.2 / 258, abs=1e-4)
    assert stats.bursts.min == stats.bursts.max == pytest.approx(15.2)
    assert stats.packet_loss_ratio == pytest.approx(0.0589, abs=0.002)


def test_a_labs_channel_gets_the_seed_of_the_runs_plan():
    loaded = scenario.load(LABS / "geo-optical.yaml")
    for iteration in (0, 3):
        channel, seed, _ = channel_stats.lab_channel(loaded, "forward", iteration)
        planned = plan.make_plan(loaded, "abc123", iteration)
        assert planned.satellite is not None
        assert plan.channel_spec(channel, seed) in planned.satellite.args


def test_per_packet_models_have_no_time_loss():
    stats = channel_stats.measure(channel_stats.parse_channel({"model": "bernoulli", "loss": 0.05}), 1,
                                  channel_stats.Stream())
    assert not stats.time_based and stats.time_lost_ratio is None and stats.lost_ms is None
    assert stats.bursts.unit == "packets" and stats.packet_loss_ratio == pytest.approx(0.05, abs=0.005)


def test_cli_json_is_the_shared_vector_of_the_optical_preset():
    """iteration 0 of geo-optical, 60 s of 10 Mbit/s in 1400-byte packets: the
    case tests/vectors/gen_channel.py measured with the Python reference."""
    done = subprocess.run(SATLAB + ["channel", "stats", str(LABS / "geo-optical.yaml"), "--json"],
                          capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout)
    vector = json.loads((VECTORS / "ge_time_optical_preset.json").read_text())
    expected = vector["stats"]
    assert figures["seed"] == vector["seed"]
    assert figures["time_lost_ratio"] == expected["time_lost_ratio"]
    assert figures["lost_ms"] == expected["lost_us"] / 1000
    assert (figures["packets"], figures["packets_lost"]) == (expected["packets"], expected["packets_lost"])
    assert figures["packet_loss_ratio"] == expected["packet_loss_ratio"]
    bursts = figures["bursts"]
    assert (bursts["count"], bursts["min"], bursts["mean"], bursts["max"]) == (
        expected["bursts"], expected["burst_min"], expected["burst_mean"], expected["burst_max"])
    assert bursts["histogram"]["counts"] == expected["burst_histogram"]


def test_cli_shows_the_p_and_q_derived_from_statistics():
    done = subprocess.run(
        SATLAB + ["channel", "stats", "--channel",
                  "{model: ge-time, loss_time_ratio: 0.0256, mean_burst_ms: 16.7, step_ms: 10}"],
        capture_output=True, text=True, check=True)
    assert "p 0.0157321 and q 0.598802 per 10 ms step" in done.stdout
    assert "% of 60 s lost" in done.stdout and "bursts" in done.stdout


@pytest.mark.parametrize(("arguments", "field"), [
    ([str(LABS / "geo-optical.yaml"), "--duration-s", "4000"], "duration_s"),
    ([str(LABS / "geo-optical.yaml"), "--rate-mbps", "1e5"], "rate_mbps"),
    ([str(LABS / "geo-optical.yaml"), "--set", "path.forward.channel.step_ms=0.001",
      "--set", "path.forward.channel.mean_burst_ms=1", "--duration-s", "3600"], "duration_s"),
    ([str(LABS / "geo-optical.yaml"), "--direction", "lan-up"], "path.lan"),
    (["--channel", "{model: ge-time, loss_time_ratio: 0.6, mean_burst_ms: 10, step_ms: 10}"],
     "--channel.loss_time_ratio"),
    (["--channel", "{model: outage, period_ms: 10}"], "--channel.duration_ms"),
    ([str(LABS / "geo-optical.yaml"), "--channel", "{model: perfect}"], "give either a scenario file or --channel"),
], ids=["duration", "packets", "steps", "no-lan", "impossible-statistics", "missing-field", "both"])
def test_cli_refuses_naming_the_field(arguments, field):
    done = subprocess.run(SATLAB + ["channel", "stats", *arguments], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert field in done.stderr and done.stdout == ""
