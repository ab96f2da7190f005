"""The one export surface, for the command line (`satlab export {run,campaign}
ID --what ... --format ...`) and the API (GET /api/runs/{id}/export,
GET /api/campaigns/{id}/export) alike: what to export of a run or a
campaign, in which format, as one file or an archive.

- `samples`: the flow, link, tunnel and PEP sample tables;
- `summaries`: a run's summary (a row per iteration and flow), or a
  campaign's (a row per item and flow, a column per matrix parameter);
- `qlog`: every kept qlog, as qvis opens them (`.qlog`: picoquic's JSON;
  `.sqlog`: ngtcp2's JSON-SEQ);
- `pcap`: every kept packet capture (pcapng, the QUIC secrets embedded);
- `all`: everything of the run (or of each run of the campaign), its
  scenario and its TLS key logs.

Tables are CSV or Parquet (`format`); `summaries` is that one file, the
others a zip archive with a manifest (archive.py). A run still queued or
running has nothing final to export (`Refused`, kind `running`); a
campaign's unfinished runs are left out of its files.
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Literal

from satlab.service.artifacts import RunArtifacts
from satlab.service.export import tables
from satlab.service.export.archive import MEDIA_TYPE as ZIP_MEDIA_TYPE
from satlab.service.export.archive import ExportFile, write_zip
from satlab.service.export.csv_files import write_csv
from satlab.service.export.parquet_files import write_parquet
from satlab.service.export.provenance import campaign_provenance, run_provenance
from satlab.service.store import FINISHED, RunRow, Store

What = Literal["samples", "summaries", "pcap", "qlog", "all"]
Format = Literal["csv", "parquet"]
WHAT: tuple[What, ...] = ("samples", "summaries", "pcap", "qlog", "all")
FORMATS: tuple[Format, ...] = ("csv", "parquet")
MEDIA_TYPES = {"csv": "text/csv", "parquet": "application/vnd.apache.parquet"}
# A kept file's kind (satlab.engine.artifacts) -> the exports it belongs to.
KEPT_KINDS: dict[str, tuple[What, ...]] = {"qlog": ("qlog", "all"), "pcapng": ("pcap", "all"), "keylog": ("all",)}


class Refused(Exception):
    """Why nothing is exported, as a sentence; kind says which refusal
    (the API answers not_found 404, running 409, empty 404)."""

    def __init__(self, kind: Literal["not_found", "running", "empty"], message: str):
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Export:
    """What to send: a file name to suggest, its media type, and its writer."""
    filename: str
    media_type: str
    write: Callable[[BinaryIO], None]


def _table_file(table: tables.Table, fmt: Format, provenance: dict[str, Any], directory: str = "") -> ExportFile:
    def write(out: BinaryIO) -> None:
        if fmt == "csv":
            text = io.StringIO(newline="")
            write_csv(table, text)
            out.write(text.getvalue().encode())
        else:
            buffer = io.BytesIO()  # Parquet wants to seek; an archive's member cannot
            write_parquet(table, buffer, provenance)
            out.write(buffer.getvalue())
    return ExportFile(f"{directory}{table.name}.{fmt}", write)


def _kept_file(path: Path, name: str) -> ExportFile:
    """A kept file as the tools open it: decompressed (qvis reads no .gz it is given)."""
    def write(out: BinaryIO) -> None:
        with gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb") as source:
            shutil.copyfileobj(source, out, 1 << 20)
    return ExportFile(name.removesuffix(".gz"), write)


def _finished_run(store: Store, run_id: str) -> RunRow:
    run = store.get_run(run_id)
    if run is None:
        raise Refused("not_found", f"There is no run {run_id!r} in {store.path}.")
    if run.status not in FINISHED:
        raise Refused("running", f"Run {run_id} is {run.status}: only a finished run can be exported; wait for it "
                                 "to end, or cancel it.")
    return run


def _kept_files(store: Store, run: RunRow, what: What, directory: str = "") -> list[ExportFile]:
    artifacts = RunArtifacts.beside(store.path)
    kept = {file["name"]: file["kind"] for file in ((run.result or {}).get("artifacts") or {}).get("files", [])}
    run_directory = artifacts.directory(run.run_id)
    return [_kept_file(path, f"{directory}{path.relative_to(run_directory).as_posix()}")
            for path in artifacts.files(run.run_id)
            if what in KEPT_KINDS.get(kept.get(path.relative_to(run_directory).as_posix(), ""), ())]


def _nothing_kept(run_id: str, what: What, refused: list[str]) -> str:
    why = {"qlog": "no QUIC flow, or its scenario's capture.qlog was false",
           "pcap": "its scenario's capture.packets was false"}[what]
    cap = f"; past the cap: {'; '.join(refused)}" if refused else ""
    return f"Run {run_id} kept no {what} files ({why}{cap})."


def _run_files(store: Store, run: RunRow, what: What, fmt: Format, directory: str = "") -> list[ExportFile]:
    provenance = run_provenance(run)
    files = []
    if what in ("samples", "all"):
        files += [_table_file(make(store, run.run_id), fmt, provenance, directory) for make in tables.SAMPLE_TABLES]
    if what in ("summaries", "all"):
        files.append(_table_file(tables.summary(store, run.run_id), fmt, provenance, directory))
    if what == "all":
        files.append(_scenario_file(run, directory))
    if what in ("qlog", "pcap", "all"):
        files += _kept_files(store, run, what, directory)
    return files


def _scenario_file(run: RunRow, directory: str) -> ExportFile:
    def write(out: BinaryIO) -> None:
        out.write(json.dumps(run.scenario, indent=1, sort_keys=True).encode() + b"\n")
    return ExportFile(f"{directory}scenario.json", write)


def _refusals(run: RunRow) -> list[str]:
    return list(((run.result or {}).get("artifacts") or {}).get("refused", []))


def export_run(store: Store, run_id: str, what: What, fmt: Format) -> Export:
    run = _finished_run(store, run_id)
    files = _run_files(store, run, what, fmt)
    if not files and what in ("qlog", "pcap"):
        raise Refused("empty", _nothing_kept(run_id, what, _refusals(run)))
    if what == "summaries":  # one table: the file itself
        (file,) = files
        return Export(f"satlab-{run_id}-{file.name}", MEDIA_TYPES[fmt], file.write)
    manifest = {"export": {"run_id": run_id, "what": what, "format": fmt}, "provenance": run_provenance(run),
                "not_kept": _refusals(run)}
    return Export(f"satlab-{run_id}-{what}.zip", ZIP_MEDIA_TYPE, lambda out: write_zip(files, out, manifest))


def export_campaign(store: Store, campaign_id: str, what: What, fmt: Format) -> Export:
    try:
        run_ids = tables.campaign_run_ids(store, campaign_id)
    except KeyError:
        raise Refused("not_found", f"There is no campaign {campaign_id!r} in {store.path}.") from None
    runs = [run for run_id in run_ids if (run := store.get_run(run_id)) is not None and run.status in FINISHED]
    provenance = campaign_provenance(campaign_id, runs)
    files = []
    if what in ("summaries", "all"):
        files.append(_table_file(tables.campaign_summary(store, campaign_id), fmt, provenance))
    if what in ("samples", "all"):
        files += [_table_file(table, fmt, provenance) for table in tables.campaign_samples(store, campaign_id)]
    if what in ("qlog", "pcap", "all"):
        for run in runs:  # the tables above hold every run's rows already
            directory = f"runs/{run.run_id}/"
            files += [_scenario_file(run, directory)] if what == "all" else []
            files += _kept_files(store, run, what, directory)
    if not files:
        raise Refused("empty", f"Campaign {campaign_id} has no finished run that kept {what} files.")
    if what == "summaries":  # one table: the file itself
        (file,) = files
        return Export(f"satlab-{campaign_id}-{file.name}", MEDIA_TYPES[fmt], file.write)
    manifest = {"export": {"campaign_id": campaign_id, "what": what, "format": fmt}, "provenance": provenance,
                "not_kept": {run.run_id: refused for run in runs if (refused := _refusals(run))}}
    return Export(f"satlab-{campaign_id}-{what}.zip", ZIP_MEDIA_TYPE, lambda out: write_zip(files, out, manifest))
