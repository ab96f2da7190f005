"""The scenario: what a lab file (labs/*.yaml), a campaign's configuration or
an API request describes, validated before anything touches the system.

    base.py            strict parsing, seeds, the nesting bound, field errors
    channels.py        the channel models (how a link loses packets)
    satellite_path.py  the path: each direction's bottleneck, the LAN, the link backend
    pep.py             the split-TCP PEP: where it runs, each segment's settings
    tcp_stack.py       the hosts' TCP loss recovery settings (SACK, DSACK, RACK, reordering)
    models.py          the tunnel, the flows, cross traffic, the Scenario itself
    capture.py         what a run keeps: qlogs, TLS key logs, packet captures, and their cap
    errors.py          ScenarioError and how a refusal reads (describe, shorten)
    yaml.py            safe YAML from untrusted text
    overrides.py       dotted `--set` overrides of a scenario's data
    validation.py      the ways in: validate(data), load(file, overrides)
    traces.py          the trace files a scenario names, read as satlink reads them

A scenario's validity depends on nothing but the scenario; what this host
can run is satlab.engine.preflight's to check, before a run.
"""

from satlab.scenario.base import MAX_DEPTH, SEED_MAX, Probability, Seed, Strict, field_error
from satlab.scenario.capture import DEFAULT_SNAP_BYTES, MAX_CAPTURE_BYTES, MIN_CAPTURE_BYTES, Capture
from satlab.scenario.channels import (
    CHANNEL_MODELS,
    Bernoulli,
    Channel,
    GilbertElliottPacket,
    GilbertElliottTime,
    Outage,
    Perfect,
    Trace,
)
from satlab.scenario.errors import ScenarioError, describe, short_field, shorten
from satlab.scenario.models import (
    MAX_CROSS_TRAFFIC,
    MAX_DURATION_S,
    MAX_FLOWS,
    MAX_SIZE_BYTES,
    PATH_MTU,
    TUNNEL_MAX_SYMBOL_BYTES,
    TUNNEL_MIN_SYMBOL_BYTES,
    CrossTraffic,
    FlowControl,
    FlowGroup,
    Scenario,
    Tunnel,
)
from satlab.scenario.overrides import apply_override, set_path
from satlab.scenario.pep import FAST_OPEN_MODES, Pep, PepGround, PepSatellite
from satlab.scenario.satellite_path import (
    NETEM_CANNOT,
    NETEM_CHANNELS,
    Aqm,
    Buffer,
    DelayBin,
    DelayVariation,
    Direction,
    Lan,
    RateTrace,
    SatellitePath,
)
from satlab.scenario.tcp_stack import TcpStack
from satlab.scenario.traces import file_problem, lowest_rate_mbps, step_trace_problem, trace_problem
from satlab.scenario.validation import check_depth, load, validate
from satlab.scenario.yaml import parse_yaml
from satlab.transports import MAX_WINDOW_BYTES, MIN_WINDOW_BYTES

__all__ = [
    "FAST_OPEN_MODES", "Pep", "PepGround", "PepSatellite",
    "CHANNEL_MODELS", "DEFAULT_SNAP_BYTES", "MAX_CAPTURE_BYTES", "MIN_CAPTURE_BYTES", "Capture",
    "MAX_CROSS_TRAFFIC", "MAX_DEPTH", "MAX_DURATION_S", "MAX_FLOWS", "MAX_SIZE_BYTES",
    "MAX_WINDOW_BYTES", "MIN_WINDOW_BYTES", "NETEM_CANNOT", "NETEM_CHANNELS", "PATH_MTU", "SEED_MAX",
    "TUNNEL_MAX_SYMBOL_BYTES", "TUNNEL_MIN_SYMBOL_BYTES", "Aqm", "Bernoulli", "Buffer", "Channel", "CrossTraffic",
    "DelayBin", "DelayVariation", "Direction", "FlowControl", "FlowGroup", "GilbertElliottPacket",
    "GilbertElliottTime", "Lan", "Outage", "Perfect", "Probability", "RateTrace", "SatellitePath", "Scenario",
    "ScenarioError", "Seed", "Strict", "TcpStack", "Trace", "Tunnel", "apply_override", "check_depth", "describe",
    "field_error", "file_problem", "load", "lowest_rate_mbps", "parse_yaml", "set_path", "short_field", "shorten",
    "step_trace_problem", "trace_problem", "validate",
]
