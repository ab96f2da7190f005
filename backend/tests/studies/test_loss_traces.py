"""The loss traces a study's experiment replays are libswf's ge-time channel
itself, cut to its first 30 s by swf-channel intervals: each trace measures
as the ge-time channel of its seed does (swf-channel stats, the codec's own
model), and the traces kept beside the study (written by an earlier, Python
copy of libswf's generator: an independent check) are exactly what the tool
writes."""

import pytest

from satlab.engine.channel_stats import Stream, measure
from satlab.scenario import Trace
from satlab.studies.loss_traces import STUDY_TRACES, ge_time_intervals
from tests.conftest import LABS

OPTICAL = STUDY_TRACES["petrou2022"]
KEPT = LABS / "studies" / "petrou2022" / "experiments" / "traces"


@pytest.mark.parametrize("seed", [1, 7, 20])
def test_a_trace_measures_as_the_ge_time_channel_of_its_seed(seed, tmp_path):
    file = tmp_path / OPTICAL.file_name(seed)
    file.write_text(OPTICAL.text(seed))
    stream = Stream(duration_s=OPTICAL.duration_ms / 1000)
    model = measure(OPTICAL.channel, seed, stream)
    trace = measure(Trace(model="trace", file=file, trace_period_ms=OPTICAL.duration_ms), 0, stream)
    assert (trace.lost_ms, trace.packets_lost, trace.bursts.count, trace.bursts.max) == (
        model.lost_ms, model.packets_lost, model.bursts.count, model.bursts.max)
    assert model.lost_ms == sum(end - start for start, end in ge_time_intervals(OPTICAL.channel, seed, 30_000))


def test_the_kept_traces_are_the_generators():
    assert sorted(file.name for file in KEPT.glob("*.txt")) == [OPTICAL.file_name(seed) for seed in OPTICAL.seeds]
    for seed in OPTICAL.seeds:
        assert (KEPT / OPTICAL.file_name(seed)).read_text() == OPTICAL.text(seed), seed


def test_twenty_traces_spread_around_the_measured_loss():
    # Each 30 s is one draw of the calibrated channel (2.56 % of the time): the spread H3 is about.
    ratios = [sum(end - start for start, end in ge_time_intervals(OPTICAL.channel, seed, 30_000)) / 30_000
              for seed in OPTICAL.seeds]
    assert min(ratios) < 0.0256 < max(ratios)
