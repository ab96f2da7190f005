"""Campaigns: one base scenario, a parameter matrix and iterations, expanded
into one single-iteration scenario per run, every one validated before
anything runs.

```yaml
name: cc-vs-fec
scenario: geo-optical.yaml        # a file (beside the campaign file, else in labs/) or an inline mapping
set: {flows.0.size_bytes: 2000000}   # fixed overrides: dotted path -> value
matrix:                           # dotted path -> values; the Cartesian product, in key order
  flows.0.cc: [cubic, bbr]
  tunnel: [null, {k: 5, z: 100}]
iterations: 3
parallel: 1                       # runs at once
seed: 7
```

A matrix entry may set several fields of one place together, value by value:
its path ends in the fields' names in braces, and each value (an arm) gives
every one of them. `flows.0.{cc,hystart}: [{cc: cubic, hystart: false},
{cc: bbr, hystart: null}]` keeps CUBIC's Hystart off in the CUBIC arm and
leaves it to the host in the BBR arm, which does not take it: an override is
never widened to arms it does not belong to. A configuration's parameters
name each field it sets (flows.0.cc, flows.0.hystart).

Items are iteration-major: every configuration of iteration 0, then every
configuration of iteration 1, and so on. Run in that order, a drift of the
machine over time (load, thermal throttling) is spread evenly across the
configurations instead of landing on the last ones, and a campaign stopped
half-way holds complete iterations that compare configurations fairly.
All configurations of one iteration share one seed (common random numbers:
the same channel draws for each configuration make their difference the
configuration's, not the dice's).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationError, model_validator

from satlab import scenario as scenarios
from satlab.engine.plan import derive_seed
from satlab.scenario import (
    Scenario,
    ScenarioError,
    Seed,
    Strict,
    check_depth,
    parse_yaml,
    set_path,
    short_field,
    shorten,
)

MAX_VALUES_PER_KEY = 64
MAX_RUNS = 10_000
# Run names are f"{name}-c{configuration}-i{iteration}" and must fit a scenario name (64 characters).
NAME_MAX = 64 - len(f"-c{MAX_RUNS - 1}-i{MAX_RUNS - 1}")
# What the campaign decides for each run itself.
RESERVED_PATHS = {"name": "the campaign names each run",
                  "seed": "the campaign derives each run's seed from its own seed and the iteration",
                  "iterations": "each run is one iteration; give iterations in the campaign"}


# A matrix path that sets several fields together: "flows.0.{cc,hystart}", or "{a,b}" at the top.
_JOINT_PATH = re.compile(r"^(?:(?P<place>[^{}]+)\.)?\{(?P<fields>[A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)+)\}$")


def joint_fields(path: str) -> tuple[str, list[str]] | None:
    """The place and fields of a matrix path that sets several fields
    together (see the module's doc), or None for a plain dotted path."""
    match = _JOINT_PATH.fullmatch(path.replace(" ", ""))
    return None if match is None else (match["place"] or "", match["fields"].split(","))


def matrix_paths(path: str) -> list[str]:
    """The dotted paths a matrix entry sets."""
    joint = joint_fields(path)
    if joint is None:
        return [path]
    place, fields = joint
    return [f"{place}.{field}" if place else field for field in fields]


def arm_overrides(path: str, value: Any) -> dict[str, Any]:
    """What one value of a matrix entry sets: dotted path -> value."""
    joint = joint_fields(path)
    if joint is None:
        return {path: value}
    return dict(zip(matrix_paths(path), (value[field] for field in joint[1]), strict=True))


def campaign_parameter_paths(matrix: dict[str, Any]) -> list[str]:
    """Every dotted path a matrix sets, in its order: a configuration's parameters."""
    return [path for entry in matrix for path in matrix_paths(entry)]


class CampaignSpec(Strict):
    model_config = ConfigDict(serialize_by_alias=True)  # "set", as written

    name: str = Field(pattern=rf"^[A-Za-z0-9_.-]{{1,{NAME_MAX}}}$")
    description: str = ""
    scenario: str | dict[str, Any]
    set_: dict[str, Any] = Field(default_factory=dict, alias="set")
    matrix: dict[str, Annotated[list[Any], Field(min_length=1, max_length=MAX_VALUES_PER_KEY)]] = Field(
        default_factory=dict)
    iterations: int = Field(default=1, ge=1, le=MAX_RUNS)
    parallel: int = Field(default=1, ge=1, le=8)
    seed: Seed = 1

    @model_validator(mode="after")
    def _consistent(self) -> CampaignSpec:
        # Each message starts with the field it is about: see _describe.
        for entry, values in self.matrix.items():
            joint = joint_fields(entry)
            if joint is None:
                continue
            fields = joint[1]
            if len(set(fields)) < len(fields):
                raise ValueError(f"matrix.{entry}: names a field twice")
            for number, value in enumerate(values, 1):
                if not isinstance(value, dict) or sorted(value) != sorted(fields):
                    raise ValueError(f"matrix.{entry}: value {number} must give exactly {', '.join(fields)} "
                                     f"(one arm), e.g. {{{', '.join(f'{field}: ...' for field in fields)}}}; "
                                     f"got {_shown(value)}")
        for path in self.set_:
            if path in RESERVED_PATHS:
                raise ValueError(f"set.{path}: {RESERVED_PATHS[path]}")
        seen: dict[str, str] = {}
        for entry in self.matrix:
            for path in matrix_paths(entry):
                named = "" if path == entry else f" ({path})"
                if path in RESERVED_PATHS:
                    raise ValueError(f"matrix.{entry}: {RESERVED_PATHS[path]}")
                if path in self.set_:
                    raise ValueError(f"matrix.{entry}: also in set{named}; give each path in one of them")
                if path in seen:
                    raise ValueError(f"matrix.{entry}: also in matrix.{seen[path]}{named}; give each path once")
                seen[path] = entry
        runs = self.configurations * self.iterations
        if runs > MAX_RUNS:
            raise ValueError(f"iterations: at most {MAX_RUNS} runs (configurations x iterations), got "
                             f"{self.configurations} x {self.iterations} = {runs}")
        return self

    @property
    def configurations(self) -> int:
        count = 1
        for values in self.matrix.values():
            count *= len(values)
        return count


@dataclass(frozen=True)
class CampaignItem:
    item_index: int
    configuration: int  # index into the matrix's Cartesian product, in key order
    iteration: int
    parameters: dict[str, Any]  # matrix path -> this configuration's value
    scenario: Scenario  # one iteration, the campaign's seed for it, named after the item

    def to_dict(self) -> dict[str, Any]:
        """The item as the store keeps it (campaign_items)."""
        return {"item_index": self.item_index, "configuration": self.configuration, "iteration": self.iteration,
                "parameters": self.parameters, "scenario": scenario_dict(self.scenario)}


def scenario_dict(scenario: Scenario) -> dict[str, Any]:
    """A scenario as JSON-ready data that validates back to the same scenario."""
    return scenario.model_dump(mode="json", by_alias=True)


def format_value(value: Any) -> str:
    """A parameter value as a person writes it: text as is, anything else as compact JSON."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), default=str)


def _shown(value: Any) -> str:
    """A value of untrusted input as a message shows it: as written, if short."""
    text = format_value(value) if isinstance(value, str | int | float | bool) or value is None else shorten(value)
    return text if len(text) <= 60 else shorten(text)


def _describe(error: Any) -> str:
    # The checks across fields (CampaignSpec._consistent) name their field in the message.
    if not error["loc"]:
        return str(error["msg"]).removeprefix("Value error, ")
    return scenarios.describe(error)


def parse_spec(data: Any) -> CampaignSpec:
    if not isinstance(data, dict):
        raise ScenarioError(["campaign: a campaign is a mapping of fields"])
    check_depth(data, "campaign")
    try:
        return CampaignSpec.model_validate(data)
    except ValidationError as error:
        raise ScenarioError([_describe(e) for e in error.errors()]) from None


def campaign_runs(data: Any) -> int:
    """How many runs a campaign file (untrusted data) makes, before any is
    made: ScenarioError if it is not a campaign."""
    spec = parse_spec(data)
    return spec.configurations * spec.iterations


def _read_yaml(file: Path, what: str) -> Any:
    try:
        text = file.read_text()
    except OSError as error:
        raise ScenarioError([f"{file}: cannot read the {what} file ({error.strerror})"]) from None
    return parse_yaml(text, str(file))


def _base_scenario(spec: CampaignSpec, base_dir: Path, labs_dir: Path) -> tuple[dict[str, Any], Path]:
    """The base scenario's data, and the directory its relative trace files are in."""
    if isinstance(spec.scenario, dict):
        return spec.scenario, base_dir
    # A lab may be named without its .yaml, as the labs list shows it.
    names = [spec.scenario] if spec.scenario.endswith((".yaml", ".yml")) else [spec.scenario, f"{spec.scenario}.yaml"]
    for directory in (base_dir, labs_dir):
        for name in names:
            file = directory / name
            if _is_file(file):
                try:
                    data = _read_yaml(file, "scenario")
                except ScenarioError as error:  # each problem on the field that named the file
                    raise ScenarioError([f"scenario: {problem}" for problem in error.problems]) from None
                if not isinstance(data, dict):
                    raise ScenarioError([f"scenario: {file} is not a mapping of fields"])
                return data, file.parent
    directories = " or ".join(dict.fromkeys(str(directory) for directory in (base_dir, labs_dir)))
    raise ScenarioError([f"scenario: no scenario file {shorten(spec.scenario)} in {directories}"])


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system is no file
        return False


def expand(spec: CampaignSpec, base_dir: Path, labs_dir: Path) -> list[CampaignItem]:
    """Every run of the campaign, iteration-major; ScenarioError naming each
    configuration that does not make a valid scenario."""
    base_data, scenario_dir = _base_scenario(spec, base_dir, labs_dir)
    base = copy.deepcopy(base_data)
    problems = []
    for path, value in spec.set_.items():
        try:
            set_path(base, path, copy.deepcopy(value))
        except ScenarioError as error:
            problems += [f"set.{short_field(path)}: {problem}" for problem in error.problems]
    if problems:
        raise ScenarioError(problems)
    # Each configuration is validated once; its iterations differ only in name and seed.
    configurations: list[tuple[dict[str, Any], Scenario]] = []
    for index, values in enumerate(itertools.product(*spec.matrix.values())):
        parameters = {path: value for entry, arm in zip(spec.matrix, values, strict=True)
                      for path, value in arm_overrides(entry, arm).items()}
        where = (f"configuration {index} "
                 f"({', '.join(f'{short_field(path)}={_shown(value)}' for path, value in parameters.items())})")
        data = copy.deepcopy(base)
        try:
            for path, value in parameters.items():
                set_path(data, path, copy.deepcopy(value))
            scenario = scenarios.validate(data)
            scenario.resolve_traces(_trace_dir([*spec.set_, *parameters], base_dir, scenario_dir))
            configurations.append((parameters, scenario))
        except ScenarioError as error:
            problems += [_in_matrix(problem, parameters, where) for problem in error.problems]
    if problems:
        raise ScenarioError(problems)
    items: list[CampaignItem] = []
    for iteration in range(spec.iterations):
        seed = derive_seed(spec.seed, iteration, "campaign")
        for configuration, (parameters, scenario) in enumerate(configurations):
            run = scenario.model_copy(update={"name": f"{spec.name}-c{configuration}-i{iteration}",
                                              "seed": seed, "iterations": 1})
            items.append(CampaignItem(len(items), configuration, iteration, parameters, run))
    return items


def _trace_dir(campaign_paths: list[str], campaign_dir: Path, scenario_dir: Path) -> Callable[[str], Path]:
    """Where a relative trace file is: beside the campaign file when its `set`
    or matrix gives the trace (or its file), else beside the base scenario's."""
    def directory(where: str) -> Path:
        named_by_campaign = any(where == path or where.startswith(f"{path}.") or path == f"{where}.file"
                                for path in campaign_paths)
        return campaign_dir if named_by_campaign else scenario_dir
    return directory


def _in_matrix(problem: str, parameters: dict[str, Any], where: str) -> str:
    """A problem of a configuration, named after the matrix entry it is about
    (matrix.flows.0.cc), else the matrix, else the base scenario."""
    field, _, message = problem.partition(": ")
    if field in parameters:
        return f"matrix.{field}: {where}: {message}"
    entry = next((path for path in parameters if field.startswith(f"{path}.")), None)
    if entry is not None:
        return f"matrix.{entry}: {where}: {problem}"
    return f"matrix: {where}: {problem}" if parameters else f"scenario.{problem}"


def load_campaign(file: str | Path, labs_dir: Path) -> tuple[CampaignSpec, list[CampaignItem]]:
    """A campaign file (the command line: its scenario may be any path,
    relative to the campaign file's directory, else to labs_dir)."""
    file = Path(file)
    data = _read_yaml(file, "campaign")
    spec = parse_spec(data)
    return spec, expand(spec, file.parent, labs_dir)


def campaign_from_dict(data: Any, base_dir: Path, labs_dir: Path) -> tuple[CampaignSpec, list[CampaignItem]]:
    """A campaign from untrusted input (the API): its scenario is inline, or a
    relative path without `..`, looked up in base_dir and labs_dir only."""
    spec = parse_spec(data)
    if isinstance(spec.scenario, str):
        name = PurePosixPath(spec.scenario)
        if name.is_absolute() or ".." in name.parts:
            raise ScenarioError([f"scenario: {shorten(spec.scenario)} must name a lab file relative to the labs "
                                 "directory, without '..', or be an inline scenario"])
    return spec, expand(spec, base_dir, labs_dir)
