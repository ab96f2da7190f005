"""Make the reference runs the lab sheets ship: every ```satlab-run block of
labs/sheets/*.md that names a "reference" is run for real with the satlab
CLI, and its summary and samples go to labs/sheets/data/<reference>.json,
which the sheet charts when no backend is there.

    sudo backend/.venv/bin/python labs/sheets/reference_runs.py [--only ID ...]

Runs need root (network namespaces). Run it on a machine nothing else loads,
and not under nice: the runs are measurements, and an emulated link that
yields its CPU to other work measures the host. The samples are those of
GET api/runs/{id}/samples, thinned to at most MAX_POINTS per series (MAX_ROWS
per table) and five a second so that a file stays small: each bin keeps its last row (cumulative
counters stay exact), with the bin's mean goodput, RTT, delivery rate and queue.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SHEETS = Path(__file__).resolve().parent
LABS = SHEETS.parent
REPOSITORY = LABS.parent
VENV = REPOSITORY / "backend" / ".venv" / "bin"

# What the API serves of a stored run (GET api/runs/{id}, .../samples), read by the backend's own
# Python in a process of its own, so that it is the same version of satlab as the run's.
# The store returns frozen dataclass rows: read as the mappings the API serves.
READ_RUN = """import dataclasses, json, sys
from satlab.service.store import Store
store, run_id = Store(sys.argv[1]), sys.argv[2]
rows = lambda found: [dataclasses.asdict(row) for row in found]
print(json.dumps({"run": dataclasses.asdict(store.get_run(run_id)), "flows": rows(store.flow_samples(run_id)),
                  "links": rows(store.link_samples(run_id)), "tunnel": rows(store.tunnel_samples(run_id)),
                  "pep": rows(store.pep_samples(run_id))}))
"""

RUN_BLOCK = re.compile(r"^```satlab-run[ \t]*\n(.*?)\n```", re.MULTILINE | re.DOTALL)
MAX_POINTS = 100
# And per table: a run with a LAN segment has four link series, not two, and its file would pass 100 kB.
MAX_ROWS = 2 * MAX_POINTS
# Five samples a second at most: enough to see a slow start on a 500 ms path.
MIN_BIN_S = 0.2
# Gauges: a bin shows their mean; every other figure is the bin's last value.
GAUGES = ("goodput_mbps", "rtt_ms", "delivery_rate_mbps", "queue_bytes", "terminal_buffer_bytes",
          "terminal_pipe_bytes", "gateway_buffer_bytes", "gateway_pipe_bytes")
# What the scenario of a reference keeps: what the sheet's charts and captions read.
SCENARIO_FIELDS = ("name", "description", "iterations", "path", "tunnel", "pep", "flows")


def run_blocks() -> list[dict[str, Any]]:
    """The run blocks of every sheet that name a reference, each with the sheet it is in."""
    blocks = []
    for sheet in sorted(SHEETS.glob("*.md")):
        if sheet.name == "README.md":
            continue
        for match in RUN_BLOCK.finditer(sheet.read_text()):
            block = json.loads(match.group(1))
            if "reference" in block:
                blocks.append({**block, "sheet": sheet.name})
    return blocks


def rounded(value: Any) -> Any:
    """Four significant digits: the charts draw no finer, and the file stays small."""
    return float(f"{value:.4g}") if isinstance(value, float) else value


def thinned(rows: list[dict[str, Any]], series_key: tuple[str, ...]) -> list[dict[str, Any]]:
    """At most MAX_POINTS rows per series (iteration and series_key), and MAX_ROWS in all, on a
    common time grid."""
    if not rows:
        return []
    end_s = max(row["t_s"] for row in rows)
    series = len({(row["iteration"], *(row[field] for field in series_key)) for row in rows})
    bin_s = max(MIN_BIN_S, end_s / min(MAX_POINTS, MAX_ROWS // series))
    bins: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in rows:
        key = (row["iteration"], *(row[field] for field in series_key), int(row["t_s"] // bin_s))
        bins.setdefault(key, []).append(row)
    kept = []
    for members in bins.values():
        row = dict(members[-1])
        for gauge in GAUGES:
            values = [member[gauge] for member in members if member.get(gauge) is not None]
            if gauge in row and values:
                row[gauge] = sum(values) / len(values)
        kept.append({field: rounded(value) for field, value in row.items()})
    return sorted(kept, key=lambda row: (row["iteration"], row["t_s"], *(str(row[field]) for field in series_key)))


def git_commit() -> str:
    commit = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--short=12", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPOSITORY), "status", "--porcelain", "--", "backend", "codec"],
                           capture_output=True, text=True, check=True).stdout.strip()
    return f"{commit}{' (with uncommitted changes in backend/ or codec/)' if dirty else ''}"


def make_reference(block: dict[str, Any], store_path: Path) -> dict[str, Any]:
    """Run one block with the CLI and read back what the API would serve of it."""
    command = [str(VENV / "satlab"), "--db", str(store_path), "run", str(LABS / f"{block['lab']}.yaml"), "--json"]
    for assignment in block.get("set", []):
        command += ["--set", assignment]
    finished = subprocess.run(command, capture_output=True, text=True)
    if finished.returncode != 0:
        raise SystemExit(f"{block['reference']}: satlab run failed ({finished.returncode}): {finished.stderr[-2000:]}")
    run_id = json.loads(finished.stdout)["run_id"]
    stored = json.loads(subprocess.run([str(VENV / "python"), "-c", READ_RUN, str(store_path), run_id],
                                       capture_output=True, text=True, check=True).stdout)
    run = stored["run"]
    result = run["result"]
    shown = " ".join(["satlab run", f"labs/{block['lab']}.yaml",
                      *(f"--set '{assignment}'" for assignment in block.get("set", []))])
    return {
        "reference": block["reference"],
        "sheet": block["sheet"],
        "lab": block["lab"],
        "set": block.get("set", []),
        "command": shown,
        "run_id": run_id,
        "made_at": run["finished_at"],
        "provenance": {key: run["provenance"].get(key) for key in ("satlab", "kernel", "machine", "cpus", "iperf3")}
        | {"git": git_commit()},
        "scenario": {field: run["scenario"].get(field) for field in SCENARIO_FIELDS},
        # What the host did meanwhile (load, steal, satlink's lateness): a reference is only as good as its host.
        "fidelity": run.get("fidelity"),
        "result": {
            "run_id": run_id,
            "status": result["status"],
            "error": result["error"],
            "flows": [{key: rounded(value) for key, value in flow.items()} for flow in result["flows"]],
            "iterations": [
                {"iteration": iteration["iteration"], "jain_index": rounded(iteration["jain_index"]),
                 "flows": [{key: rounded(value) for key, value in flow.items()} for flow in iteration["flows"]],
                 "fec": iteration["fec"]}
                for iteration in result["iterations"]
            ],
        },
        "samples": {
            "flows": thinned(stored["flows"], ("flow", "hop")),
            "links": thinned(stored["links"], ("link", "direction")),
            "tunnel": thinned(stored["tunnel"], ("direction",)),
            "pep": thinned(stored["pep"], ("flow",)),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], metavar="ID", help="make only this reference")
    arguments = parser.parse_args()
    blocks = [block for block in run_blocks() if not arguments.only or block["reference"] in arguments.only]
    with tempfile.TemporaryDirectory(prefix="satlab-sheets-") as scratch:
        for block in blocks:
            reference = make_reference(block, Path(scratch) / "satlab.db")
            target = SHEETS / "data" / f"{block['reference']}.json"
            target.write_text(json.dumps(reference, separators=(",", ":")) + "\n")
            flows = ", ".join(f"flow {flow['flow']} {flow['cc']} {flow['download_time_s']} s "
                              f"{flow['goodput_mbps']} Mbit/s" for flow in reference["result"]["flows"])
            print(f"{block['reference']}: run {reference['run_id']}, {target.stat().st_size} bytes; {flows}",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
