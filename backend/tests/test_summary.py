import pytest

from satlab.summary import fec_summary, goodput_mbps, jain_index, power


def test_jain_index_of_equal_shares_is_one():
    assert jain_index([3.0, 3.0, 3.0]) == pytest.approx(1.0)


def test_jain_index_of_one_greedy_flow_is_one_over_n():
    assert jain_index([8.0, 0.0, 0.0, 0.0]) == pytest.approx(0.25)


def test_jain_index_of_unequal_shares():
    assert jain_index([1.0, 2.0, 3.0]) == pytest.approx(36 / 42)


def test_jain_index_without_throughput_is_none():
    assert jain_index([]) is None
    assert jain_index([0.0, 0.0]) is None


def test_goodput_of_20_mib_in_17_84_s():
    assert goodput_mbps(20971520, 17.84) == pytest.approx(9.404, abs=1e-3)
    assert goodput_mbps(100, None) is None


def test_power_divides_goodput_by_rtt_in_seconds():
    assert power(10.0, 500.0) == pytest.approx(20.0)
    assert power(None, 500.0) is None


def test_fec_summary_counts_residual_loss_over_source_packets():
    line = {"rx": {"sources": 900, "repairs": 200, "lost": 100, "recovered": 90,
                   "decoding_delay_ms": None}}
    fec = fec_summary(line)
    assert (fec["recovered"], fec["residual_loss"]) == (90, pytest.approx(0.01))
