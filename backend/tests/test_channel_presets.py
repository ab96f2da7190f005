"""labs/channels.json: the one table of channel presets that the browser
labs read at build time (frontend/src/lib/channel/channel-presets.ts) and
that each of the backend's labs named in it has on its forward link."""

import json

import pytest
from pydantic import TypeAdapter

from satlab.scenario.channels import Channel, Outage
from satlab.service.labs import load_lab
from tests.conftest import LABS

PRESETS = json.loads((LABS / "channels.json").read_text())["presets"]
CHANNEL = TypeAdapter(Channel)


@pytest.mark.parametrize("preset", PRESETS, ids=[preset["id"] for preset in PRESETS])
def test_preset_is_a_valid_scenario_channel(preset):
    # A calibrated ge-time preset gives its statistics and the p and q the
    # browser uses: the model refuses them unless they are the ones it derives.
    CHANNEL.validate_python(preset["channel"])


@pytest.mark.parametrize("preset", [preset for preset in PRESETS if "lab" in preset],
                         ids=[preset["id"] for preset in PRESETS if "lab" in preset])
def test_lab_forward_channel_is_its_preset(preset):
    lab = load_lab(LABS, preset["lab"])
    assert lab.path.forward.channel == CHANNEL.validate_python(preset["channel"])


def test_dvb_outage_is_15_2_ms_with_its_phase_drawn_per_iteration():
    dvb = CHANNEL.validate_python(next(p for p in PRESETS if p["id"] == "dvb-train")["channel"])
    assert isinstance(dvb, Outage)
    assert (dvb.period_ms, dvb.duration_ms, dvb.phase_ms) == (258, 15.2, None)


def test_stated_parameters_only_under_the_stated_name():
    stated = [p["label"] for p in PRESETS if p["channel"].get("p") == 0.01 and p["channel"].get("q") == 0.167]
    assert stated == ["Optical satellite (stated p/q)"]
