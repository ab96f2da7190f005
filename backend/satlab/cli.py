"""satlab run | cleanup | doctor: the command-line face of the engine."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from typing import Any

from satlab import engine, host, topology
from satlab.scenario import ScenarioError, load

EXIT_BAD_INPUT = 2


def _progress(event: dict[str, Any]) -> None:
    """One short line on stderr per state change, and a sample every second."""
    kind = event["type"]
    if kind == "state":
        where = f" (iteration {event['iteration']})" if "iteration" in event else ""
        print(f"satlab: run {event['run_id']} {event['state']}{where}", file=sys.stderr)
    elif kind == "error":
        print(f"satlab: error: {event['message']}", file=sys.stderr)
    elif kind == "sample" and round(event["t_s"] * engine.SAMPLE_HZ) % engine.SAMPLE_HZ == 0:
        parts = [f"t={event['t_s']:5.1f}s"]
        for flow in event["flows"]:
            goodput = flow["goodput_mbps"]
            parts.append(f"flow{flow['flow']}: acked={flow['bytes_acked']} "
                         f"goodput={'-' if goodput is None else f'{goodput:.2f}'}Mbit/s "
                         f"cwnd={flow['cwnd_bytes']} rtt={flow['rtt_ms']}ms")
        print("satlab: " + "  ".join(parts), file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    try:
        scenario = load(args.file, args.set or [])
        if removed := topology.sweep():
            print(f"satlab: removed {len(removed)} namespaces left by crashed runs", file=sys.stderr)
        cancel = engine.CancelToken()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, lambda *_: cancel.cancel())
        result = engine.run(scenario, _progress, cancel)
    except ScenarioError as error:
        for problem in error.problems:
            print(f"satlab: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        for flow in result.flows:
            time_s, goodput = flow["download_time_s"], flow["goodput_mbps"]
            print(f"iteration {flow['iteration']} flow {flow['flow']} {flow['transport']}/{flow['cc']}: "
                  f"{flow['bytes']} bytes in {'-' if time_s is None else f'{time_s:.2f}'} s, "
                  f"{'-' if goodput is None else f'{goodput:.2f}'} Mbit/s, "
                  f"{flow['retransmissions']} retransmissions")
    return {"done": 0, "cancelled": 130}.get(result.status, 1)


def _cleanup(_: argparse.Namespace) -> int:
    removed = topology.sweep()
    print(f"satlab: removed {len(removed)} leftover namespaces" + (f": {' '.join(removed)}" if removed else ""))
    return 0


def _doctor(_: argparse.Namespace) -> int:
    for key, value in host.capabilities().items():
        print(f"{key}: {json.dumps(value)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="satlab", description="Transport experiments over emulated GEO paths.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a scenario file")
    run.add_argument("file")
    run.add_argument("--set", action="append", metavar="DOTTED.PATH=VALUE",
                     help="override a field (a YAML scalar), e.g. --set flows.0.cc=bbr")
    run.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    run.set_defaults(handler=_run)
    commands.add_parser("cleanup", help="remove leftovers of crashed runs").set_defaults(handler=_cleanup)
    commands.add_parser("doctor", help="what this host offers").set_defaults(handler=_doctor)
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
