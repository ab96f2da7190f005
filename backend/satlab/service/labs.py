"""The presets in labs/: scenario files a user picks by name; and the lab
sheets of labs/sheets/, which name the runs they queue."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from satlab.scenario import Channel, DelayVariation, RateTrace, Scenario, ScenarioError, load, shorten

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# A sheet's file is NN-<id>.md (its order, then its id), as the frontend's build reads them (scripts/sheets-asset.ts).
_SHEET_ORDER = re.compile(r"^\d+-")


def preset_of(scenario: Any) -> str | None:
    """The preset (a lab's name: labs/<name>.yaml) a campaign's `scenario`
    names, or None (an inline scenario, or a file that is no preset)."""
    if not isinstance(scenario, str) or "/" in scenario:
        return None
    name = scenario.removesuffix(".yaml")
    return name if "." not in name else None


def preset_file(labs_dir: Path, file: str | Path) -> str | None:
    """The preset that file is (labs_dir/<name>.yaml, however the path to it is
    written), or None for any other file."""
    path = Path(file)
    if path.suffix != ".yaml" or not _NAME.match(path.stem):
        return None
    try:
        is_preset = path.resolve() == (labs_dir / path.name).resolve()
    except (OSError, RuntimeError):  # a loop of links is no preset
        return None
    return path.stem if is_preset else None


def sheet_ids(labs_dir: Path) -> list[str]:
    """The lab sheets of labs_dir/sheets, by id, in their order."""
    return [_SHEET_ORDER.sub("", path.stem) for path in sorted((labs_dir / "sheets").glob("*.md"))
            if path.name != "README.md"]


def check_sheet(labs_dir: Path, sheet: str) -> None:
    """ScenarioError naming the field `sheet` if labs_dir has no lab sheet of that id."""
    known = sheet_ids(labs_dir)
    if sheet not in known:
        raise ScenarioError([f"sheet: there is no lab sheet {shorten(sheet)}; the sheets are: "
                             f"{', '.join(known) or 'none'}"])


def lab_file(labs_dir: Path, name: str) -> Path:
    """The file of lab `name`; ScenarioError if there is none (names never
    reach outside labs_dir)."""
    path = labs_dir / f"{name}.yaml"
    if not _NAME.match(name) or not path.is_file():
        known = ", ".join(lab["name"] for lab in list_labs(labs_dir)) or "none"
        raise ScenarioError([f"lab: there is no lab {shorten(name)}; known labs: {known}"])
    return path


def load_lab(labs_dir: Path, name: str, overrides: Sequence[str] = ()) -> Scenario:
    return load(lab_file(labs_dir, name), overrides)


def list_labs(labs_dir: Path) -> list[dict[str, Any]]:
    """Every scenario file of labs_dir, by name, with its description (or
    why it does not load, so that a broken preset is visible, not hidden)."""
    labs = []
    for path in sorted(labs_dir.glob("*.yaml")):
        lab: dict[str, Any] = {"name": path.stem}
        try:
            scenario = load(path)
            lab.update(title=scenario.name, description=scenario.description, error=None)
        except ScenarioError as error:
            lab.update(title=path.stem, description="", error=str(error))
        labs.append(lab)
    return labs


def confine_trace(part: Channel | DelayVariation | RateTrace, labs_dir: Path, where: str) -> str | None:
    """For untrusted input: a file a scenario names (a loss, delay or rate
    trace) is read from labs_dir only, a relative one relative to it. The
    problem (naming `where`), or None. Parts without a file pass."""
    given = getattr(part, "file", None)
    if given is None:
        return None
    file = (labs_dir / given).resolve()
    if not file.is_relative_to(labs_dir.resolve()):
        return (f"{where}.file: trace files are read from the labs directory only; give a "
                f"path relative to it (got {str(given)!r})")
    part.file = file  # type: ignore[union-attr]  # only parts with a file get here
    return None


def confine_traces(scenario: Scenario, labs_dir: Path) -> None:
    """confine_trace for every file of a scenario (the API's)."""
    problems = [problem for where, part in scenario.files()
                if (problem := confine_trace(part, labs_dir, where)) is not None]
    if problems:
        raise ScenarioError(problems)
