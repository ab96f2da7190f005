"""Hostile and careless input to the scenario model (issue 13, failures 2, 4
and 5): refused with a sentence naming the field, at a bounded cost, before
anything touches the system."""

import copy
import subprocess
import time

import pytest
import yaml

from satlab.engine import preflight
from satlab.scenario import (
    MAX_DEPTH,
    TUNNEL_MAX_SYMBOL_BYTES,
    TUNNEL_MIN_SYMBOL_BYTES,
    ScenarioError,
    apply_override,
    validate,
)
from satlab.service import campaign
from satlab.tools import tool
from tests.conftest import LABS

BASE = yaml.safe_load((LABS / "geo-ideal.yaml").read_text())

# Each level refers to the one before nine times: 9^8 strings from 389 bytes.
ALIAS_BOMB = "[" + ", ".join(
    ["&a0 [" + ", ".join(["lol"] * 9) + "]"]
    + [f"&a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]" for level in range(1, 8)]) + "]"


def refusal(assignments: list[str], data: dict | None = None) -> list[str]:
    """The problems of applying assignments to data (default geo-ideal) and validating."""
    data = copy.deepcopy(data or BASE)
    with pytest.raises(ScenarioError) as error:
        for assignment in assignments:
            apply_override(data, assignment)
        validate(data)
    return error.value.problems


def test_an_alias_bomb_in_a_set_value_is_refused_without_expanding_it():
    started = time.process_time()
    problems = refusal([f"description={ALIAS_BOMB}"])
    assert problems[0].startswith("description: not valid YAML: anchors and aliases")
    # A bound, not a benchmark: the expansion takes seconds and hundreds of MB.
    assert time.process_time() - started < 1.0


@pytest.mark.parametrize("value", ["!!python/object/apply:os.system ['true']", "!!python/name:os.system",
                                   "[unclosed", "{a: b", "'quoted", "- a\n- : b"])
def test_a_set_value_that_is_not_safe_yaml_names_its_field(value):
    problems = refusal([f"flows.0.cc={value}"])
    assert problems[0].startswith("flows.0.cc: not valid YAML"), problems


@pytest.mark.parametrize(("assignment", "field"), [
    ("flows.².cc=bbr", "set"),  # "²".isdigit(), but int("²") fails
    ("flows.٣.cc=bbr", "set"),
    ("flows..cc=bbr", "set"),
    ("=bbr", "set"),
    ("flows.0.cc", "set"),
    ("flows.999999.cc=bbr", "flows.999999"),
    ("flows.0.cc.x=1", "flows.0.cc.x"),
])
def test_an_odd_set_path_is_refused_naming_it(assignment, field):
    problems = refusal([assignment])
    assert problems[0].split(": ")[0] == field, problems


def test_deep_nesting_is_refused_without_recursion():
    deep = "[" * 100_000 + "]" * 100_000
    assert refusal([f"description={deep}"])[0].startswith(f"description: not valid YAML: nests deeper than {MAX_DEPTH}")
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(ScenarioError, match=f"^scenario: nests deeper than {MAX_DEPTH} levels"):
        validate({**BASE, "description": nested})


def test_a_message_about_a_huge_value_shows_a_short_excerpt():
    huge = ["lol"] * 9
    for _ in range(7):  # shared references: 9^8 items to a repr()
        huge = [huge] * 9
    started = time.process_time()
    problems = refusal([], {**BASE, "name": huge})
    assert problems[0].startswith("name: Input should be a valid string (got [[...], [...], [...], [...], ...])")
    assert len(problems[0]) < 120 and time.process_time() - started < 1.0


@pytest.mark.parametrize(("assignment", "field"), [
    ("flows.0.size_bytes='2000000'", "flows.0.size_bytes"),
    ("flows.0.size_bytes=true", "flows.0.size_bytes"),
    ("flows.0.size_bytes=2000000.0", "flows.0.size_bytes"),
    ("path.forward.rate_mbps='12'", "path.forward.rate_mbps"),
    ("path.forward.rate_mbps=true", "path.forward.rate_mbps"),
    ("flows.0.hystart=1", "flows.0.hystart"),
    ("seed='1'", "seed"),
])
def test_a_number_or_bool_of_the_wrong_type_is_refused(assignment, field):
    assert refusal([assignment])[0].startswith(f"{field}: "), assignment


def test_a_field_is_known_by_its_alias_only():
    data = copy.deepcopy(BASE)
    data["path"]["return_"] = data["path"].pop("return")
    assert "path.return_: is not a known field" in validate_problems(data)


def validate_problems(data: dict) -> list[str]:
    with pytest.raises(ScenarioError) as error:
        validate(data)
    return error.value.problems


@pytest.mark.parametrize("symbol_bytes", [64, 300, TUNNEL_MIN_SYMBOL_BYTES - 1, TUNNEL_MAX_SYMBOL_BYTES + 1])
def test_a_symbol_size_the_tunnel_refuses_is_refused_at_validation(symbol_bytes):
    problems = refusal(["tunnel={k: 5, z: 50}", f"tunnel.symbol_bytes={symbol_bytes}"])
    assert problems[0].startswith("tunnel.symbol_bytes: "), problems


@pytest.mark.parametrize(("symbol_bytes", "accepted"), [
    (TUNNEL_MIN_SYMBOL_BYTES - 1, False), (TUNNEL_MIN_SYMBOL_BYTES, True),
    (TUNNEL_MAX_SYMBOL_BYTES, True), (TUNNEL_MAX_SYMBOL_BYTES + 1, False)])
def test_the_symbol_size_limits_are_the_tunnels(symbol_bytes, accepted, tmp_path):
    """swf-tunnel itself, in a network namespace of its own that goes with it,
    with a key as every run's tunnel has."""
    key = tmp_path / "key"
    key.touch(mode=0o600)
    key.write_text("ab" * 32)
    data = copy.deepcopy(BASE)
    data["tunnel"] = {"k": 5, "z": 50, "symbol_bytes": symbol_bytes}
    if accepted:
        validate(data)
    else:
        validate_problems(data)
    script = (f"ip link set lo up && exec {tool('swf-tunnel')} --dev t0 --addr 10.9.0.1/24 "
              f"--local 127.0.0.1:7000 --remote 127.0.0.1:7001 --symbol-bytes {symbol_bytes} --key-file {key}")
    with subprocess.Popen(["unshare", "--net", "sh", "-c", script], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as child:
        first_line = child.stdout.readline()  # the ready event, or nothing once it exits
        child.terminate()
        stderr = child.stderr.read()
        child.wait(10)
    assert ('"event":"ready"' in first_line) == accepted, stderr
    if not accepted:
        assert "--symbol-bytes" in stderr


@pytest.mark.parametrize("protect", ["udp:99999", "tcp:0", "udp:", "tcp,,udp", "", ",", "sctp", "tcp:+80"])
def test_a_protect_rule_the_tunnel_refuses_is_refused(protect):
    problems = refusal(["tunnel={k: 5, z: 50}", f"tunnel.protect='{protect}'"])
    assert problems[0].startswith("tunnel.protect: "), problems


@pytest.mark.parametrize("protect", ["all", "none", "tcp", "udp:443", "tcp:1,udp:65535"])
def test_a_protect_rule_the_tunnel_takes_is_accepted(protect):
    data = copy.deepcopy(BASE)
    data["tunnel"] = {"k": 5, "z": 50, "protect": protect}
    assert validate(data).tunnel.protect == protect


@pytest.mark.parametrize(("text", "accepted"), [
    ("# outages\n100 200\n300 400.5  # a comment\n\n", True),
    ("name: geo-ideal\npath: {}\n", False),
    ("100 200\n150 300\n", False),  # overlapping
    ("200 100\n", False),
    ("100 200 300\n", False),
])
def test_preflight_refuses_a_trace_file_that_is_not_a_trace(tmp_path, text, accepted):
    trace = tmp_path / "trace.txt"
    trace.write_text(text)
    scenario = validate({**BASE, "path": {**BASE["path"], "forward": {
        **BASE["path"]["forward"], "channel": {"model": "trace", "file": str(trace)}}}})
    if accepted:
        preflight.check(scenario)
        return
    with pytest.raises(ScenarioError) as error:
        preflight.check(scenario)
    assert any(problem.startswith(f"path.forward.channel.file: {trace} line") for problem in error.value.problems)


def test_a_campaign_set_with_an_odd_path_names_the_entry(tmp_path):
    spec = {"name": "odd", "scenario": "geo-ideal", "set": {"flows.².cc": "bbr", "flows.9.cc": "bbr"}}
    with pytest.raises(ScenarioError) as error:
        campaign.campaign_from_dict(spec, LABS, LABS)
    assert [problem.split(": ")[0] for problem in error.value.problems] == ["set.flows.².cc", "set.flows.9.cc"]


def test_a_campaign_file_with_an_alias_bomb_is_refused(tmp_path):
    file = tmp_path / "bomb.yaml"
    file.write_text(f"name: bomb\nscenario: geo-ideal\ndescription: {ALIAS_BOMB}\n")
    with pytest.raises(ScenarioError, match="anchors and aliases"):
        campaign.load_campaign(file, LABS)
