"""The scenario and override parser as a fuzz target (issue 13): whatever a
client sends as a scenario's YAML, a campaign or `set` assignments, the
parser answers with a Scenario (or campaign items) or a ScenarioError whose
problems each start with a field and stay short; never another exception,
never an unbounded message.

An input is text: the whole text is a scenario document and a campaign
document, and each of its lines is also a `set` assignment applied to
geo-ideal.
"""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from hypothesis import strategies as st

from satlab.scenario import ScenarioError, apply_override, parse_yaml, validate
from satlab.service.campaign import campaign_from_dict

LABS = Path(__file__).resolve().parents[3] / "labs"
BASE = yaml.safe_load((LABS / "geo-ideal.yaml").read_text())
MAX_PROBLEM_CHARS = 600


def check_problems(error: ScenarioError) -> None:
    assert error.problems, "a ScenarioError without a problem"
    for problem in error.problems:
        field, colon, sentence = problem.partition(": ")
        assert colon and field and sentence, f"not 'field: sentence': {problem[:200]!r}"
        assert len(problem) <= MAX_PROBLEM_CHARS, f"a problem of {len(problem)} characters: {problem[:200]!r}"


def check(text: str) -> None:
    """Raises AssertionError (a finding) if the parser misbehaves on text."""
    try:
        data = parse_yaml(text, "scenario")
    except ScenarioError as error:
        check_problems(error)
        data = None
    if isinstance(data, dict):
        for parse in (validate, lambda data: campaign_from_dict(data, LABS, LABS)):
            try:
                parse(copy.deepcopy(data))
            except ScenarioError as error:
                check_problems(error)
    for line in text.splitlines():
        data = copy.deepcopy(BASE)
        try:
            apply_override(data, line)
            validate(data)
        except ScenarioError as error:
            check_problems(error)


FIELDS = ["scenario", "set", "matrix", "parallel", "name", "description", "seed", "iterations", "path", "forward",
          "return", "return_", "lan", "rate_mbps",
          "delay_ms", "buffer", "bytes", "packets", "bdp", "channel", "model", "loss", "p", "q", "step_ms",
          "loss_time_ratio", "mean_burst_ms", "file", "tunnel", "k", "z", "symbol_bytes", "protect", "flush_ms",
          "flows", "transport", "cc", "hystart", "size_bytes", "duration_s", "count", "start_s", "direction",
          "cross_traffic", "link_backend"]
ODD_PARTS = ["0", "1", "999999", "-1", "²", "٣", "", " ", "0x1", "1e3", "flows", "__class__", "a" * 300]
VALUES = ["1", "0", "-5", "1e400", "nan", ".inf", "true", "null", "~", "'2000000'", "[unclosed", "{a: b",
          "!!python/object/apply:os.system ['true']", "!!python/name:os.system", "!!binary aGk=", "!!set {a}",
          "&a [1]", "*a", "[&a x, *a]", "{model: trace, file: /etc/passwd}", "{k: 5, z: 50}", "'udp:99999'",
          "'tcp:0'", "[" * 40 + "]" * 40, "2001-01-01", "0o17", "0b101", "1_000", "\"\\uD800\""]


def assignments() -> st.SearchStrategy[str]:
    part = st.one_of(st.sampled_from(FIELDS), st.sampled_from(ODD_PARTS), st.text(max_size=8))
    path = st.lists(part, min_size=0, max_size=5).map(".".join)
    value = st.one_of(st.sampled_from(VALUES), st.text(max_size=40),
                      st.recursive(st.sampled_from(VALUES[:10]), lambda inner: st.one_of(
                          st.lists(inner, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
                          st.dictionaries(st.sampled_from(FIELDS), inner, max_size=3).map(
                              lambda items: "{" + ", ".join(f"{k}: {v}" for k, v in items.items()) + "}")),
                                   max_leaves=12))
    return st.one_of(st.builds(lambda p, v: f"{p}={v}", path, value), st.text(max_size=60))


def inputs() -> st.SearchStrategy[str]:
    """Texts: lines of assignments, or a scenario document with odd values."""
    documents = st.lists(st.tuples(st.sampled_from(FIELDS), st.sampled_from(VALUES)), max_size=6).map(
        lambda items: "\n".join(f"{key}: {value}" for key, value in items))
    paths = st.lists(st.one_of(st.sampled_from(FIELDS), st.sampled_from(ODD_PARTS)), min_size=1, max_size=4).map(
        ".".join)
    campaigns = st.tuples(st.sampled_from(["geo-ideal", "geo-optical", "a" * 300, "../x", "/etc/passwd", "{}"]),
                          st.dictionaries(paths, st.sampled_from(VALUES), max_size=3),
                          st.dictionaries(paths, st.lists(st.sampled_from(VALUES), max_size=3), max_size=2)).map(
        lambda spec: f"name: fuzz\nscenario: {spec[0]}\n"
                     + "set: {" + ", ".join(f"'{k}': {v}" for k, v in spec[1].items()) + "}\n"
                     + "matrix: {" + ", ".join(f"'{k}': [{', '.join(v)}]" for k, v in spec[2].items()) + "}\n")
    return st.one_of(st.lists(assignments(), min_size=1, max_size=4).map("\n".join), documents, campaigns, st.text())
