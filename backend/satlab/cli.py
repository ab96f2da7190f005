"""satlab run | campaign | study | channel | export | runs | serve | openapi |
doctor | cleanup | worker: the command-line face of the engine (the same
RunManager and store as the API; a worker runs what Redis brings).

Over 400 lines because it holds ten commands, each a handler of a few lines
over the service and its part of the one parser (main): what each command
does lives in the packages below, so splitting this file would scatter the
parser without separating any logic."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gzip
import io
import ipaddress
import json
import logging
import os
import signal
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import ValidationError

from satlab import studies
from satlab.engine import channel_stats, container, host, runner, topology
from satlab.scenario import ScenarioError, describe, load, parse_yaml
from satlab.service import campaign_record, export
from satlab.service.admission import Refused
from satlab.service.campaign import load_campaign
from satlab.service.campaign_driver import CampaignRunning
from satlab.service.export import destination, selection
from satlab.service.labs import preset_file
from satlab.service.runs import RunManager
from satlab.service.store import RunOrigin, Store
from satlab.settings import Limits, Settings

EXIT_BAD_INPUT = 2
EXIT_CANCELLED = 130
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
# The tables `satlab export KIND RUN_ID` wrote before --what and --format; still written as they were.
LEGACY_EXPORTS = tuple(export.RUN_TABLE_WRITERS)


def _say(text: str) -> None:
    print(f"satlab: {text}", file=sys.stderr, flush=True)


def _progress(event: dict[str, Any]) -> None:
    """One short line on stderr per state change, and a sample every second."""
    kind = event["type"]
    if kind == "state":
        where = f" (iteration {event['iteration']})" if "iteration" in event else ""
        _say(f"run {event['run_id']} {event['state']}{where}")
    elif kind == "error":
        _say(f"error: {event['message']}")
    elif kind == "sample" and round(event["t_s"] * runner.SAMPLE_HZ) % runner.SAMPLE_HZ == 0:
        parts = [f"t={event['t_s']:5.1f}s"]
        for flow in event["flows"]:
            goodput = flow["goodput_mbps"]
            hop = "" if flow["hop"] == "end-to-end" else f"[{flow['hop']}]"  # a PEP's split: one per connection
            parts.append(f"flow{flow['flow']}{hop}: acked={flow['bytes_acked']} "
                         f"goodput={'-' if goodput is None else f'{goodput:.2f}'}Mbit/s "
                         f"cwnd={flow['cwnd_bytes']} rtt={flow['rtt_ms']}ms")
        _say("  ".join(parts))


@contextlib.contextmanager
def _manager(args: argparse.Namespace, max_concurrent: int = 1) -> Iterator[RunManager]:
    """A RunManager on the store, after sweeping what dead runs left; SIGINT,
    SIGTERM and SIGHUP call on_signal (set by the command) instead of killing."""
    if removed := topology.sweep():
        _say(f"removed {len(removed)} namespaces left by crashed runs")
    with Store(args.db) as store:
        manager = RunManager(store, max_concurrent, Settings.from_env().limits.run_artifact_bytes)
        try:
            yield manager
        finally:
            manager.shutdown()


def _existing[Row](thing: Row | None) -> Row:
    """A run or campaign this process created (the store returns None for unknown ids)."""
    assert thing is not None
    return thing


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _signalled() -> threading.Event:
    """An event that Ctrl-C, SIGTERM or SIGHUP sets, and nothing more (see _wait)."""
    event = threading.Event()
    for signum in STOP_SIGNALS:
        signal.signal(signum, lambda *_: event.set())
    return event


def _wait(condition: Callable[[], bool], signalled: threading.Event, on_signal: Callable[[], object]) -> None:
    """Block the main thread until condition holds, calling on_signal from
    here after each signal. Never from the signal's handler: that runs
    between two steps of the main thread, maybe inside a store transaction
    whose lock on_signal takes again, and the lock is not reentrant (a
    cancelled study run once waited for itself that way)."""
    while not condition():
        if signalled.is_set():
            signalled.clear()
            on_signal()
        signalled.wait(0.1)


def _run(args: argparse.Namespace) -> int:
    scenario = load(args.file, args.set or [])
    with _manager(args) as manager:
        unsubscribe = manager.broker.subscribe(_progress)
        origin = RunOrigin("command-line", lab=preset_file(Settings.from_env().labs_dir, args.file))
        run_id = manager.submit(scenario, origin=origin)
        _wait(lambda: manager.wait(run_id, 0) is not None, _signalled(), lambda: manager.cancel(run_id))
        unsubscribe()
        run = _existing(manager.store.get_run(run_id))
    result = _existing(run.result)
    if args.json:
        print(json.dumps(result))
    else:
        for flow in result["flows"]:
            time_s, goodput = flow["download_time_s"], flow["goodput_mbps"]
            print(f"iteration {flow['iteration']} flow {flow['flow']} {flow['transport']}/{flow['cc']}: "
                  f"{flow['bytes']} bytes in {'-' if time_s is None else f'{time_s:.2f}'} s, "
                  f"{'-' if goodput is None else f'{goodput:.2f}'} Mbit/s, "
                  f"{flow['retransmissions']} retransmissions")
        # What the plan explains (engine/plan.py notes: e.g. QUIC passes a PEP untouched).
        for note in (result["iterations"][0].get("plan") or {}).get("notes", []) if result["iterations"] else []:
            _say(f"note: {note}")
        _say(f"run {run_id} is stored in {args.db}: satlab export summary {run_id}")
    return {"done": 0, "cancelled": EXIT_CANCELLED}.get(result["status"], 1)


class ProgressBar:
    """A campaign's progress on stderr: redrawn in place on a terminal, a line per change otherwise."""

    WIDTH = 30

    def __init__(self, stream: Any = sys.stderr):
        self.stream = stream
        self.started = time.monotonic()
        self.tty = stream.isatty()
        self._lock = threading.Lock()

    def update(self, event: dict[str, Any]) -> None:
        if event["type"] != "campaign":
            return
        progress = event["progress"]
        finished = progress["done"] + progress["failed"] + progress["cancelled"]
        filled = round(self.WIDTH * finished / progress["total"]) if progress["total"] else self.WIDTH
        elapsed = int(time.monotonic() - self.started)
        line = (f"campaign {event['campaign_id']} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                f"{finished}/{progress['total']} runs: {progress['done']} done, {progress['failed']} failed, "
                f"{progress['running']} running; {elapsed // 60}:{elapsed % 60:02d} elapsed")
        with self._lock:
            self.stream.write(f"\r{line}" if self.tty else f"{line}\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")


def _follow_campaign(args: argparse.Namespace, max_concurrent: int, start: Callable[[RunManager], str],
                     next_step: str) -> int:
    """Start a campaign (start returns its id), show its progress until it
    ends; Ctrl-C cancels it, resumable. next_step: what to do with the results."""
    bar = ProgressBar()
    with _manager(args, max_concurrent) as manager:
        # This process runs one campaign: every campaign event is its progress.
        unsubscribe = manager.broker.subscribe(bar.update)
        campaign_id = start(manager)
        signalled = _signalled()

        def finished() -> bool:
            return _existing(manager.store.get_campaign(campaign_id)).status != "running"

        def cancel() -> None:
            manager.cancel_campaign(campaign_id)
        _wait(finished, signalled, cancel)
        rounds = args.redo_unfaithful_rounds
        for round_ in range(1, rounds + 1):
            # Only a campaign that ended well: a cancelled one is resumed, not redone.
            if _existing(manager.store.get_campaign(campaign_id)).status != "done":
                break
            count = manager.redo_unfaithful(campaign_id, parallel=args.parallel)
            if not count:
                break
            _say(f"campaign {campaign_id}: running again {count} of its runs whose host did not keep up "
                 f"(round {round_} of {rounds})")
            _wait(finished, signalled, cancel)
        unsubscribe()
        bar.close()
        campaign = _existing(manager.store.get_campaign(campaign_id))
    if args.json:
        print(json.dumps({"campaign_id": campaign.campaign_id, "name": campaign.name, "status": campaign.status,
                          "progress": dataclasses.asdict(campaign.progress)}))
    if campaign.status == "cancelled":
        _say(f"campaign {campaign_id} cancelled; resume it with: satlab campaign --resume {campaign_id}")
        return EXIT_CANCELLED
    _say(f"campaign {campaign_id} {campaign.status}: {next_step.format(campaign_id=campaign_id)}")
    return 1 if campaign.progress.failed else 0


def _campaign(args: argparse.Namespace) -> int:
    settings = Settings.from_env()

    def start(manager: RunManager) -> str:
        if args.resume:
            if manager.store.get_campaign(args.resume) is None:
                raise ScenarioError([f"--resume: there is no campaign {args.resume!r} in {args.db}"])
            manager.resume_campaign(args.resume, parallel=args.parallel)
            return str(args.resume)
        if args.redo_unfaithful:
            if manager.store.get_campaign(args.redo_unfaithful) is None:
                raise ScenarioError([f"--redo-unfaithful: there is no campaign {args.redo_unfaithful!r} in {args.db}"])
            try:
                count = manager.redo_unfaithful(args.redo_unfaithful, parallel=args.parallel)
            except CampaignRunning as error:
                raise ScenarioError([f"--redo-unfaithful: {error}"]) from error
            _say(f"campaign {args.redo_unfaithful}: running again {count} of its runs whose host did not keep up")
            return str(args.redo_unfaithful)
        spec, items = load_campaign(args.file, settings.labs_dir)
        if args.parallel:
            spec = spec.model_copy(update={"parallel": args.parallel})
        return manager.start_campaign(spec, items)
    return _follow_campaign(args, args.parallel or 8, start, "satlab export campaign {campaign_id} -o results.csv")


def _only(assignments: list[str] | None) -> dict[str, list[str]]:
    """--only AXIS=LEVEL[,LEVEL...] (repeatable) as {axis: [levels]}."""
    only: dict[str, list[str]] = {}
    for assignment in assignments or []:
        axis, equals, levels = assignment.partition("=")
        if not equals or not axis or not levels:
            raise ScenarioError([f"--only {assignment!r}: expected AXIS=LEVEL[;LEVEL...]"])
        only.setdefault(axis, []).extend(levels.split(";"))
    return only


def _study(args: argparse.Namespace) -> int:
    labs_dir = Settings.from_env().labs_dir
    if args.study_command == "list":
        for study in studies.list_studies(labs_dir):
            print(f"{study.id}  {study.spec.title}  ({len(study.published)} published figures, "
                  f"{len(study.spec.checks)} checks)")
        return 0
    try:
        study = studies.find_study(labs_dir, args.id)
    except KeyError as error:
        raise ScenarioError([str(error.args[0])]) from None
    if args.study_command == "run":
        spec, items = studies.campaign(study, _only(args.only), args.iterations, args.parallel, args.quick)
        return _follow_campaign(
            args, spec.parallel,
            lambda manager: manager.start_campaign(spec, items, study=study.id, study_quick=args.quick),
            f"satlab study report {study.id}")
    with Store(args.db) as store:
        report = studies.make_report(study, store, args.campaign or None, args.prefer)
    print(json.dumps(report, indent=1) if args.json else
          studies.format_markdown(report) if args.markdown else studies.format_report(report))
    return 0


def _channel(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.channel is None):
        raise ScenarioError(["channel stats: give either a scenario file or --channel"])
    try:
        stream = channel_stats.Stream(duration_s=args.duration_s, rate_mbps=args.rate_mbps,
                                      packet_bytes=args.packet_bytes)
    except ValidationError as error:
        raise ScenarioError([describe(e) for e in error.errors()]) from None
    if args.channel is not None:
        channel = channel_stats.parse_channel(parse_yaml(args.channel, "--channel"), "--channel")
        seed = channel.seed if channel.seed is not None else channel_stats.DEFAULT_SEED
        field = "--channel"
    else:
        scenario = load(args.file, args.set or ())
        scenario.resolve_traces(Path(args.file).parent)
        channel, seed, field = channel_stats.lab_channel(scenario, args.direction, args.iteration)
    stats = channel_stats.measure(channel, seed, stream, field)
    print(stats.model_dump_json(indent=1) if args.json else channel_stats.report(stats, channel))
    return 0


def _interrupt_on_signals() -> None:
    """A signal stops what the main thread does at once (a long write), as Ctrl-C does."""
    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt
    for signum in STOP_SIGNALS:
        signal.signal(signum, interrupt)


def _export(args: argparse.Namespace) -> int:
    if args.kind in LEGACY_EXPORTS:  # satlab export summary RUN_ID: one table as CSV
        with Store(args.db) as store:
            out = open(args.output, "w", newline="") if args.output else sys.stdout  # noqa: SIM115
            try:
                export.KIND_WRITERS[args.kind](store, args.id, out)
            except KeyError as error:
                raise ScenarioError([f"{args.kind} {args.id}: {error.args[0]} in {args.db}"]) from None
            finally:
                if out is not sys.stdout:
                    out.close()
        return 0
    select = selection.export_run if args.kind == "run" else selection.export_campaign
    with Store(args.db) as store:
        try:
            made = select(store, args.id, args.what, args.format)
        except selection.Refused as refusal:
            raise ScenarioError([f"export {args.kind} {args.id}: {refusal}"]) from None
        if args.output is None and made.media_type != "text/csv" and sys.stdout.isatty():
            raise ScenarioError([f"export {args.kind} {args.id}: {made.filename} is binary; give -o FILE "
                                 f"(e.g. -o {made.filename}) or redirect stdout"])
        # SIGTERM and SIGHUP end the export as Ctrl-C does: the partial file is removed.
        _interrupt_on_signals()
        if args.output is None:
            made.write(sys.stdout.buffer)
            sys.stdout.flush()
        else:
            destination.write_file(Path(args.output), made.write)
            _say(f"wrote {args.output}")
    return 0


def _runs(args: argparse.Namespace) -> int:
    with Store(args.db) as store:
        runs, count = store.list_runs(campaign_id=args.campaign, limit=args.limit)
    for run in runs:
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(run.created_at))
        print(f"{run.run_id}  {started}  {run.status:9}  {run.name}" + (f"  ({run.error})" if run.error else ""))
    if count > len(runs):
        print(f"… {count - len(runs)} older runs (--limit)")
    return 0


def _record(args: argparse.Namespace) -> int:
    with Store(args.db) as store:
        text = io.StringIO()  # a record is about 11 kB a run
        try:
            done = campaign_record.write_record(store, args.campaign_id, text)
        except KeyError as error:
            raise ScenarioError([f"record: {error.args[0]}"]) from None
    if args.output is None:
        sys.stdout.write(text.getvalue())
        return 0
    data = text.getvalue().encode()
    if args.output.endswith(".gz"):
        data = gzip.compress(data, mtime=0)  # the same record, the same bytes

    def write(out: BinaryIO) -> None:
        out.write(data)
    destination.write_file(Path(args.output), write)
    _say(f"wrote {args.output}: campaign {args.campaign_id}, {done} items done")
    return 0


def _restore(args: argparse.Namespace) -> int:
    try:
        with open(args.file, "rb") as raw:
            gzipped = raw.read(2) == b"\x1f\x8b"
        with (gzip.open if gzipped else open)(args.file, "rt", encoding="utf-8") as lines:
            record = campaign_record.read_record(lines)
    except OSError as error:
        raise ScenarioError([f"restore: cannot read {args.file}: {error.strerror or error}"]) from None
    except (UnicodeDecodeError, EOFError, zlib.error):
        raise ScenarioError([f"restore: {args.file} is not UTF-8 text, gzipped or not: not a campaign's record"]
                            ) from None
    with Store(args.db) as store:
        campaign_record.restore(store, record)
    campaign_id = record.campaign["campaign_id"]
    next_step = (f"run the {record.left} left with: satlab campaign --resume {campaign_id}" if record.left
                 else "nothing is left to run")
    _say(f"restored campaign {campaign_id} ({record.campaign['name']}) into {args.db}: {record.done} of "
         f"{len(record.items)} items done, {len(record.runs)} runs; {next_step}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    metrics = args.metric or ["download_time_s"]
    with Store(args.db) as store:
        try:
            configurations = studies.compare_campaign(store, args.campaign_id, metrics, args.with_late)
        except KeyError as error:
            raise ScenarioError([f"compare: {error.args[0]}"]) from None
    print(studies.comparison_json(configurations) if args.json else
          studies.comparison_markdown(configurations, metrics) if args.markdown else
          studies.comparison_text(configurations, metrics))
    return 0


def _is_loopback(address: str) -> bool:
    try:
        return address == "localhost" or ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _serve(args: argparse.Namespace) -> int:
    from satlab.api import server
    from satlab.api.main import create_app
    # Bound to loopback without a token, nobody else can reach the server: no sign-in.
    settings = dataclasses.replace(Settings.from_env(), db_path=Path(args.db), open_access=_is_loopback(args.host),
                                   new_token=args.new_token)
    if not settings.open_access and settings.instructor_token is None and not args.new_token:
        with Store(args.db) as store:
            if store.get_state("instructor_token_hash") is None:
                raise ScenarioError([f"serve: --host {args.host} lets other machines in, and then the lab needs an "
                                     "instructor token: set SATLAB_INSTRUCTOR_TOKEN, or add --new-token to have one "
                                     "made and printed once (or bind to 127.0.0.1)"])
    satlab_log = logging.getLogger("satlab")
    satlab_log.addHandler(logging.StreamHandler())
    satlab_log.setLevel(logging.INFO)
    _say(f"the lab on http://{args.host}:{args.port}/ (API documentation: /api/docs); Ctrl-C stops")
    _say(f"answering requests addressed to: {', '.join(settings.allowed_hosts)} (SATLAB_ALLOWED_HOSTS)")
    server.serve(create_app(settings), settings.limits, args.host, args.port)
    return 0


def _openapi(args: argparse.Namespace) -> int:
    from satlab.api.main import create_app
    # The limits' table as written, not this environment's: the same document on every machine.
    settings = dataclasses.replace(Settings.from_env(), db_path=Path(args.db), limits=Limits(),
                                   ceilings=Limits.ceilings())
    # Building the app warns when the frontend is not built: it does not matter to the document.
    logging.getLogger("satlab").addHandler(logging.NullHandler())
    text = json.dumps(create_app(settings).openapi(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def _cleanup(_: argparse.Namespace) -> int:
    removed = topology.sweep()
    print(f"satlab: removed {len(removed)} leftover namespaces" + (f": {' '.join(removed)}" if removed else ""))
    return 0


def _worker(args: argparse.Namespace) -> int:
    from satlab.service.worker import command  # Celery loads for this command only
    return command.main(args.name, args.max_runs, args.calibrate, args.quick, _say)


def _doctor(_: argparse.Namespace) -> int:
    for key, value in host.capabilities().items():
        print(f"{key}: {json.dumps(value)}")
    print(f"in_container: {json.dumps(container.in_container())}")
    for problem in container.limitations():
        print(f"cannot: {problem}")
    for limit in Settings.from_env().limits.table():
        print(f"limit {limit['name']}: {limit['value']} ({limit['description']})")
    return 0


def _db_after_the_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Every command takes --db after its name too (`satlab serve --db PATH`), as
    the README says; given there, it overrides the one before the command (whose
    default stands otherwise: SUPPRESS sets nothing)."""
    for command in commands.choices.values():
        command.add_argument("--db", default=argparse.SUPPRESS, help="the SQLite store (as --db before the command)")
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                _db_after_the_command(action)


def _redo_rounds_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--redo-unfaithful-rounds", type=int, choices=range(0, 6), default=0, metavar="0..5",
                        help="once the campaign is done, run again its runs whose host did not keep up, as "
                             "--redo-unfaithful does, up to this many times while any are left (default: 0)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="satlab", description="Transport experiments over emulated GEO paths.")
    parser.add_argument("--db", default=str(Settings.from_env().db_path),
                        help="the SQLite store (default: $SATLAB_DB or /var/lib/satlab/satlab.db)")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run a scenario file")
    run.add_argument("file")
    run.add_argument("--set", action="append", metavar="DOTTED.PATH=VALUE",
                     help="override a field (a YAML scalar), e.g. --set flows.0.cc=bbr")
    run.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    run.set_defaults(handler=_run)

    campaign = commands.add_parser("campaign", help="run a campaign file (a parameter matrix x iterations)")
    which = campaign.add_mutually_exclusive_group(required=True)
    which.add_argument("file", nargs="?")
    which.add_argument("--resume", metavar="CAMPAIGN_ID", help="run what an interrupted campaign has left")
    which.add_argument("--redo-unfaithful", metavar="CAMPAIGN_ID",
                       help="run again a finished campaign's runs whose host did not keep up (satlink's or the "
                            "tunnel's lateness at or above its limit); the old runs stay stored, the campaign's "
                            "results take the new")
    campaign.add_argument("--parallel", type=int, choices=range(1, 9), metavar="1..8",
                          help="runs at once (default: the campaign's `parallel`); with --resume or "
                               "--redo-unfaithful, from now on")
    campaign.add_argument("--json", action="store_true", help="print the campaign's final state as JSON")
    _redo_rounds_argument(campaign)
    campaign.set_defaults(handler=_campaign)

    study = commands.add_parser("study", help="published studies: run them, compare with the published figures")
    study_commands = study.add_subparsers(dest="study_command", required=True)
    study_commands.add_parser("list", help="the studies in labs/studies")
    study_run = study_commands.add_parser("run", help="run a study's campaign (resumable: satlab campaign --resume)")
    study_run.add_argument("id")
    study_run.add_argument("--only", action="append", metavar="AXIS=LEVEL[;LEVEL...]",
                           help="only these levels of an axis, e.g. --only 'tunnel=none;S(5,100)'")
    study_run.add_argument("--iterations", type=int, choices=range(1, 1001), metavar="1..1000",
                           help="(default: the study's)")
    study_run.add_argument("--parallel", type=int, choices=range(1, 9), metavar="1..8",
                           help="runs at once (default: the study's)")
    study_run.add_argument("--quick", action="store_true",
                           help="the configurations that finish fast, few iterations: a smoke test, not a result")
    study_run.add_argument("--json", action="store_true", help="print the campaign's final state as JSON")
    _redo_rounds_argument(study_run)
    study_report = study_commands.add_parser("report", help="satlab's figures beside the published ones, and checks")
    study_report.add_argument("id")
    study_report.add_argument("--campaign", action="append",
                              help="only this study run (repeatable; default: every full run, else the quick ones)")
    study_report.add_argument("--prefer", choices=studies.PREFER_CHOICES, default="all",
                              help="all: pool every study run's runs (default); latest: each configuration's runs "
                                   "from the latest study run that measured it (a rerun supersedes)")
    report_format = study_report.add_mutually_exclusive_group()
    report_format.add_argument("--json", action="store_true", help="the report as JSON")
    report_format.add_argument("--markdown", action="store_true", help="the tables as Markdown")
    study.set_defaults(handler=_study)

    channel = commands.add_parser("channel", help="a channel model's statistics, computed by libswf")
    channel_commands = channel.add_subparsers(dest="channel_command", required=True)
    channel_stats_parser = channel_commands.add_parser(
        "stats", help="time lost, bursts and a constant-rate stream's losses of a scenario's channel or of --channel")
    channel_stats_parser.add_argument("file", nargs="?", help="a scenario file (its channel in --direction)")
    channel_stats_parser.add_argument("--set", action="append", metavar="DOTTED.PATH=VALUE",
                                      help="override a field of the scenario, as for satlab run")
    channel_stats_parser.add_argument("--direction", choices=list(channel_stats.DIRECTIONS), default="forward",
                                      help="which of the scenario's channels (default forward)")
    channel_stats_parser.add_argument("--iteration", type=int, default=0,
                                      help="the iteration whose seed a run's plan gives the channel (default 0)")
    channel_stats_parser.add_argument("--channel", metavar="YAML",
                                      help="a channel as in a scenario, e.g. '{model: ge-time, loss_time_ratio: "
                                           "0.0256, mean_burst_ms: 16.7, step_ms: 10}' (seed 1 unless given)")
    channel_stats_parser.add_argument("--duration-s", type=float, default=60.0,
                                      help=f"how long the channel runs (default 60, at most "
                                           f"{channel_stats.MAX_DURATION_S:g})")
    channel_stats_parser.add_argument("--rate-mbps", type=float, default=10.0,
                                      help="the stream's rate (default 10)")
    channel_stats_parser.add_argument("--packet-bytes", type=int, default=1400,
                                      help="the stream's packet size (default 1400)")
    channel_stats_parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    channel.set_defaults(handler=_channel)

    exporter = commands.add_parser(
        "export", help="a run's or a campaign's results: tables as CSV or Parquet, qlogs, packet captures, or all "
                       "of it as a zip archive with a manifest")
    exporter.add_argument("kind", choices=["run", "campaign", *LEGACY_EXPORTS],
                          help=f"run or campaign ({', '.join(LEGACY_EXPORTS)}: one table of a run as CSV, as before)")
    exporter.add_argument("id", help="a run id, or a campaign id")
    exporter.add_argument("--what", choices=selection.WHAT, default="summaries",
                          help="samples, summaries (default), qlog, pcap, or all (an archive of everything)")
    exporter.add_argument("--format", choices=selection.FORMATS, default="csv", help="of the tables (default csv)")
    exporter.add_argument("-o", "--output", help="a file, written whole or not at all (default: stdout)")
    exporter.set_defaults(handler=_export)

    record = commands.add_parser(
        "record", help="a campaign's record: its spec, items and finished runs with their results (no samples or "
                       "files), as JSON lines that satlab restore takes into another database")
    record.add_argument("campaign_id")
    record.add_argument("-o", "--output", help="a file, written whole or not at all, gzipped if its name ends in .gz "
                                               "(default: stdout)")
    record.set_defaults(handler=_record)
    restore = commands.add_parser(
        "restore", help="a campaign's record (satlab record) into this database; then satlab campaign --resume "
                        "runs what it has left")
    restore.add_argument("file", help="a record, gzipped or not")
    restore.set_defaults(handler=_restore)

    comparison = commands.add_parser(
        "compare", help="a campaign's configurations side by side: per configuration, its runs done, late (the host "
                        "did not keep up: left out) and failed, and over the others each metric's median [quartiles] "
                        "(range), the runs at once beside them and the worst lateness")
    comparison.add_argument("campaign_id")
    comparison.add_argument("--metric", action="append", choices=list(studies.METRICS), metavar="METRIC",
                            help="a metric of the studies' (repeatable; default download_time_s): "
                                 + ", ".join(studies.METRICS))
    comparison.add_argument("--with-late", action="store_true",
                            help="the figures take the runs whose host did not keep up too (they stay counted apart)")
    compare_format = comparison.add_mutually_exclusive_group()
    compare_format.add_argument("--json", action="store_true", help="every figure as JSON")
    compare_format.add_argument("--markdown", action="store_true", help="the table as Markdown")
    comparison.set_defaults(handler=_compare)

    listing = commands.add_parser("runs", help="list the stored runs, newest first")
    listing.add_argument("--campaign", help="only this campaign's runs")
    listing.add_argument("--limit", type=int, default=50)
    listing.set_defaults(handler=_runs)

    serve = commands.add_parser("serve", help="the HTTP API and the web UI")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--new-token", action="store_true",
                       help="at first start without SATLAB_INSTRUCTOR_TOKEN, make the instructor's token and "
                            "print it once")
    serve.set_defaults(handler=_serve)

    openapi = commands.add_parser("openapi", help="print the API's OpenAPI document (JSON, sorted keys), without "
                                                  "starting a server: what the browser's client is generated from")
    openapi.add_argument("-o", "--output", help="a file (default: stdout)")
    openapi.set_defaults(handler=_openapi)

    commands.add_parser("cleanup", help="remove leftovers of crashed runs").set_defaults(handler=_cleanup)
    worker = commands.add_parser("worker", help="take runs from Redis (SATLAB_BROKER_URL) and run them on this "
                                                "host, as its calibration allows (root)")
    worker.add_argument("--name", help="unique among the workers (default: $SATLAB_WORKER_NAME, else the host's name)")
    worker.add_argument("--max-runs", type=int, choices=range(1, 65), metavar="1..64",
                        help="runs at once at most, whatever the calibration allows (without a calibration: 1 "
                             "unless given)")
    worker.add_argument("--calibrate", action="store_true",
                        help="measure how many runs of each kind this host runs faithfully at once, save it "
                             "($SATLAB_CALIBRATION) and exit (minutes)")
    worker.add_argument("--quick", action="store_true",
                        help="with --calibrate: a check that calibration works, in seconds; not one to use")
    worker.set_defaults(handler=_worker)
    commands.add_parser("doctor", help="what this host offers").set_defaults(handler=_doctor)
    _db_after_the_command(commands)
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
        return status
    except ScenarioError as error:
        for problem in error.problems:
            _say(problem)
        return EXIT_BAD_INPUT
    except Refused as refusal:  # a limit of the environment (SATLAB_LIMIT_<NAME>): the database is full
        for reason in refusal.problems:
            _say(reason.sentence)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader stopped early (`satlab export … | head`): not our error. Send what
        # Python would still flush at exit to /dev/null, and exit as a killed writer would.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
