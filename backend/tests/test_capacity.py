"""Kinds of runs and a host's calibration record."""

import json
from fractions import Fraction

import pytest

from satlab.engine import capacity
from satlab.engine.capacity import Calibration, KindCapacity
from satlab.scenario import load
from tests.conftest import LABS


@pytest.mark.parametrize(("overrides", "kind"), [
    ([], "kernel_tcp"),
    (["tunnel.k=5", "tunnel.z=100"], "tunnel"),
    (["flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000000}"], "quic"),
    (["flows.1={transport: quic-ngtcp2, cc: cubic, size_bytes: 1000000}"], "quic"),
    # A QUIC stack in userspace costs the host more than a tunnel: quic wins.
    (["flows.0={transport: quic-picoquic, cc: bbr1, size_bytes: 1000000}", "tunnel.k=5", "tunnel.z=100"], "quic"),
])
def test_run_kind_of_a_scenario(overrides, kind):
    assert capacity.run_kind(load(LABS / "geo-ideal.yaml", overrides)) == kind


def test_cost_is_the_share_of_the_host_one_run_takes():
    assert KindCapacity(max_concurrent=8).cost == 0.125
    assert sum([KindCapacity(max_concurrent=3).exact_cost] * 3) == Fraction(1)
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        KindCapacity(max_concurrent=0)


def test_save_then_load_gives_the_same_calibration_with_costs_in_the_file(tmp_path):
    calibration = Calibration(measured_at="2026-11-27T10:00:00+00:00", host={"host_name": "vm"},
                              parameters={"size_bytes": 5_000_000},
                              kinds={"kernel_tcp": KindCapacity(max_concurrent=16, evidence={"steps": []}),
                                     "quic": KindCapacity(max_concurrent=4)},
                              unavailable={"tunnel": "swf-tunnel is not built"})
    path = tmp_path / "sub" / "calibration.json"
    capacity.save(calibration, path)
    assert capacity.load(path) == calibration
    on_disk = json.loads(path.read_text())
    assert on_disk["kinds"]["quic"] == {"max_concurrent": 4, "evidence": {}, "cost": 0.25}
    assert [entry.name for entry in path.parent.iterdir()] == ["calibration.json"]  # no partial file left


def test_load_without_a_file_is_none_and_a_wrong_file_is_named(tmp_path):
    assert capacity.load(tmp_path / "absent.json") is None
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"measured_at": "x", "host": {}, "parameters": {},
                                "kinds": {"kernel_tcp": {"max_concurrent": 0}, "udp": {"max_concurrent": 2}}}))
    with pytest.raises(ValueError) as wrong:
        capacity.load(path)
    assert str(wrong.value).startswith(f"{path} is not a satlab calibration (kinds.kernel_tcp.max_concurrent: "
                                       "Input should be greater than or equal to 1; kinds.udp.[key]: ")
    assert str(wrong.value).endswith("calibrate this host again")
