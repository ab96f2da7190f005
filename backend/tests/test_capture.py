"""Packet captures of real runs (scenario capture.packets), as a researcher
gets them: exported as `satlab export run ID --what pcap` and GET
/api/runs/{id}/export?what=pcap export them, read by tshark. The frames per
fate equal satlink's and swf-tunnel's counters for the same run; Wireshark
decrypts a picoquic flow from the secrets the capture holds, and nothing
without them; a capture past its cap is a valid file whose last line says
so, as the run's result does; a cancelled run keeps nothing. And without
root: how the plan shares the run's cap between the captures, and a
student's limit on it."""

from __future__ import annotations

import collections
import io
import re
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

from satlab.engine import host, runner
from satlab.engine.captures import MIN_FILE_BYTES, CaptureRoom
from satlab.engine.pcapng_secrets import DECRYPTION_SECRETS_BLOCK
from satlab.engine.plan import make_plan, new_run_id
from satlab.scenario import load
from satlab.service.artifacts import RunArtifacts
from satlab.service.export import selection
from satlab.service.scenario_quotas import problems
from satlab.service.store import Store
from satlab.settings import Limits
from tests.conftest import LABS
from tests.test_store import PROVENANCE

needs_tshark = pytest.mark.skipif(shutil.which("tshark") is None, reason="needs tshark (apt-get install tshark)")
# A small download of every run (a few hundred kB): the tests are about the files, not the transfer.
SMALL = ["capture.packets=true", "flows.0.hystart=null", "flows.0.size_bytes=300000"]
LOSSY = ["path.forward.channel={model: bernoulli, loss: 0.03}", "path.return.channel={model: bernoulli, loss: 0.02}"]
# What tshark prints on stderr when it runs as root: not an error.
ROOT_WARNING = re.compile(r'^Running as user "root" and group "root"\. This could be dangerous\.$')


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "satlab.db") as opened:
        yield opened


def stored_run(store: Store, *overrides: str, cap_bytes: int = 50 << 20,
               cancel_when_sampled: bool = False) -> runner.RunResult:
    """A run of geo-ideal with overrides, kept and stored as the service's
    run queue keeps and stores it; cancelled at its first sample if asked."""
    scenario = load(LABS / "geo-ideal.yaml", [*SMALL, *overrides])
    run_id = new_run_id()
    store.create_run(run_id, scenario.model_dump(mode="json", by_alias=True), PROVENANCE)
    cancel = runner.CancelToken()

    def on_event(event: runner.Event) -> None:
        if event["type"] == "sample" and cancel_when_sampled:
            cancel.cancel()

    result = runner.run(scenario, on_event, cancel, run_id, RunArtifacts.beside(store.path).sink(run_id, cap_bytes))
    store.finish_run(run_id, result.to_dict())
    return result


def exported(store: Store, run_id: str, directory: Path) -> dict[str, Path]:
    """The run's pcap export, unpacked: each file's name in the archive -> its path."""
    export = selection.export_run(store, run_id, "pcap", "csv")
    assert (export.filename, export.media_type) == (f"satlab-{run_id}-pcap.zip", "application/zip")
    buffer = io.BytesIO()
    export.write(buffer)
    with zipfile.ZipFile(buffer) as archive:
        archive.extractall(directory)
        names = [name for name in archive.namelist() if name != "manifest.json"]
    return {name: directory / name for name in names}


def tshark(path: Path, *args: str) -> list[str]:
    """tshark's output lines for the capture at path; fails on any error
    (a file it cannot read whole, a bad filter)."""
    done = subprocess.run(["tshark", "-n", "-r", str(path), *args], capture_output=True, text=True, timeout=120)
    errors = [line for line in done.stderr.splitlines() if line and not ROOT_WARNING.match(line)]
    assert done.returncode == 0 and not errors, f"tshark on {path}: {done.stderr}"
    return done.stdout.splitlines()


def frames(path: Path) -> list[tuple[str, dict[str, str]]]:
    """Every frame's interface and the key=value pairs of its comment, in file order."""
    found = []
    for row in tshark(path, "-T", "fields", "-E", "separator=/t", "-e", "frame.interface_name",
                      "-e", "frame.comment"):
        interface, comment = row.split("\t")
        found.append((interface, dict(re.findall(r'(\w+)=("[^"]*"|\S+)', comment)) | {"text": comment}))
    return found


def fates(found: list[tuple[str, dict[str, str]]], interfaces: tuple[str, ...]) -> dict[str, int]:
    return dict(collections.Counter(fields["fate"] for interface, fields in found if interface in interfaces))


def link_fates(counters: dict[str, int]) -> dict[str, int]:
    """satlink's counters of a direction as capture fates (codec/tools/link_capture.h)."""
    expected = {"delivered": counters["packets_out"], "write-error": counters["write_errors"],
                "buffer-drop": counters["drops_buffer"] - counters["drops_aqm"], "aqm-drop": counters["drops_aqm"],
                "channel-loss": counters["drops_channel"], "overflow": counters["drops_overflow"],
                "in-flight": counters["in_flight_packets"]}
    return {fate: count for fate, count in expected.items() if count}


def received_fates(rx: dict[str, int]) -> dict[str, int]:
    """swf-tunnel's receiver counters as capture fates (codec/tools/tunnel_capture.h)."""
    expected = {"source": rx["sources"], "repair": rx["repairs"], "plain": rx["plain"], "rebuilt": rx["recovered"],
                "given-up": rx["unrecovered"], "malformed": rx["malformed"], "rejected": rx["rejected"],
                "unauthenticated": rx["unauthenticated"]}
    return {fate: count for fate, count in expected.items() if count}


def without_secrets(path: Path, target: Path) -> None:
    """target = path without its Decryption Secrets Block, which must come
    right after the section header (where editcap --inject-secrets puts it)."""
    data = path.read_bytes()
    header_bytes = struct.unpack_from("<I", data, 4)[0]
    kind, block_bytes = struct.unpack_from("<II", data, header_bytes)
    assert kind == DECRYPTION_SECRETS_BLOCK
    target.write_bytes(data[:header_bytes] + data[header_bytes + block_bytes:])


@needs_tshark
@pytest.mark.needs_root
def test_a_lossy_runs_link_capture_counts_each_fate_as_satlinks_counters(store, tmp_path):
    """3 % loss forward, 2 % back, a buffer of 12 packets: both directions in
    one file, each on its interface, every packet with its fate."""
    result = stored_run(store, *LOSSY, "path.forward.buffer={packets: 12}")
    assert result.status == "done", result.error
    (iteration,) = result.iterations
    files = exported(store, result.run_id, tmp_path / "export")
    assert list(files) == ["iteration0/satellite.pcapng"]
    found = frames(files["iteration0/satellite.pcapng"])
    for direction in ("forward", "return"):
        counters = iteration["link"][direction]
        assert counters["capture"]["queue_full"] == 0 and not counters["capture"]["stopped"]
        packets = [fields for interface, fields in found if interface == direction]
        assert len(packets) == counters["packets_in"] == counters["capture"]["records"]
        assert fates(found, (direction,)) == link_fates(counters)
        assert fates(found, (direction,))["channel-loss"] > 0
        # Arrivals numbered in order, headers only.
        assert [int(fields["seq"]) for fields in packets] == list(range(len(packets)))
    assert [fields for interface, fields in found if interface.endswith("-events")] == []
    captured = {entry["interface"]: entry for entry in iteration["captures"]}
    assert captured["forward"]["counters"]["drops_channel"] == iteration["link"]["forward"]["drops_channel"]
    assert all(int(length) <= 128 for length in tshark(files["iteration0/satellite.pcapng"], "-T", "fields",
                                                       "-e", "frame.cap_len"))
    assert result.artifacts["incomplete"] == [] and result.artifacts["refused"] == []


@needs_tshark
@pytest.mark.needs_root
def test_a_tunnel_runs_captures_count_each_fate_as_the_tunnels_counters(store, tmp_path):
    """S(5,100) over 5 % loss: each tunnel direction's file holds what its
    encoder sent and what its decoder received, rebuilt and gave up, as the
    endpoints' counters say: which losses the FEC repaired."""
    result = stored_run(store, "tunnel={k: 5, z: 100}", "path.forward.channel={model: bernoulli, loss: 0.05}")
    assert result.status == "done", result.error
    (iteration,) = result.iterations
    files = exported(store, result.run_id, tmp_path / "export")
    assert sorted(files) == ["iteration0/satellite.pcapng", "iteration0/tunnel-forward.pcapng",
                             "iteration0/tunnel-return.pcapng"]
    counters = {(entry["name"], entry["interface"]): entry["counters"] for entry in iteration["captures"]}
    for direction in ("forward", "return"):
        name = f"iteration0/tunnel-{direction}.pcapng"
        found = frames(files[name])
        tx, rx = counters[(name, "sent")], counters[(name, "received")]
        sent = [fields for interface, fields in found if interface == "sent"]
        assert fates(found, ("sent",)) == {"sent": tx["sources"] + tx["repairs"] + tx["plain"]}
        types = collections.Counter(fields["type"] for fields in sent)
        assert {kind: types[kind] for kind in ("source", "repair", "plain")} == \
            {"source": tx["sources"], "repair": tx["repairs"], "plain": tx["plain"]}
        assert fates(found, ("received", "received-rebuilt", "received-events")) == received_fates(rx)
    forward = iteration["fec"]["forward"]
    found = frames(files["iteration0/tunnel-forward.pcapng"])
    assert fates(found, ("received-rebuilt",))["rebuilt"] == forward["recovered"] > 0
    assert fates(found, ("received",))["source"] == forward["sources"]


@needs_tshark
@pytest.mark.needs_root
def test_wireshark_decrypts_a_picoquic_flow_from_the_secrets_in_its_capture(store, tmp_path):
    """Whole packets (snap_bytes 1500) and the flow's TLS key log embedded:
    tshark finds the STREAM frames that carried the download, and none once
    the secrets block is taken out."""
    result = stored_run(store, "flows.0.transport=quic-picoquic", "flows.0.cc=bbr1", "flows.0.size_bytes=150000",
                        "capture.snap_bytes=1500", "capture.qlog=false")
    assert result.status == "done", result.error
    assert [entry["secrets_embedded"] for entry in result.iterations[0]["captures"]] == [True, True]
    capture = exported(store, result.run_id, tmp_path / "export")["iteration0/satellite.pcapng"]
    stream_data = tshark(capture, "-Y", 'frame.interface_name == "forward" && quic.stream.stream_id',
                         "-T", "fields", "-e", "quic.stream_data")
    # Every byte of the download in some STREAM frame (hex, a packet's frames separated by commas).
    assert sum(len(data) // 2 for row in stream_data for data in row.split(",")) >= 150_000
    bare = tmp_path / "bare.pcapng"
    without_secrets(capture, bare)
    assert len(tshark(bare)) == len(tshark(capture))
    assert tshark(bare, "-Y", "quic.stream.stream_id") == []


@needs_tshark
@pytest.mark.needs_root
def test_a_capture_past_its_cap_is_valid_says_so_and_the_run_says_so(store, tmp_path):
    """The run's cap at its least (1 MiB) and whole packets: the forward
    direction's share (two thirds: it carries the data) fills, the file
    ends with a line that says so, and the run's result says which."""
    result = stored_run(store, "flows.0.size_bytes=1000000", "capture.snap_bytes=1500", "capture.max_bytes=1048576",
                        cap_bytes=1 << 20)
    assert result.status == "done", result.error
    forward = next(entry for entry in result.iterations[0]["captures"] if entry["interface"] == "forward")
    stats, packets_in = forward["capture"], forward["counters"]["packets_in"]
    assert stats["stopped"] and stats["error"] is None
    assert 0 < stats["records"] < packets_in == stats["records"] + stats["after_stop"]
    assert forward["max_bytes"] == (1 << 20) * 2 // 3
    assert result.artifacts["incomplete"] == [
        f"iteration0/satellite.pcapng, interface forward, stopped at its cap of {forward['max_bytes']} bytes after "
        f"{stats['records']} records; {stats['after_stop']} later were not captured (each capture's cap is its "
        "share of the run's, capture.max_bytes)"]
    found = frames(exported(store, result.run_id, tmp_path / "export")["iteration0/satellite.pcapng"])
    assert len([fields for interface, fields in found if interface == "forward"]) == stats["records"]
    (note,) = [fields["text"] for interface, fields in found if interface == "forward-events"]
    assert note == (f"capture stopped: the file reached its cap of {forward['max_bytes']} bytes after "
                    f"{stats['records']} records; later packets were not captured")


@pytest.mark.needs_root
def test_a_cancelled_run_keeps_no_capture_and_leaves_nothing(store):
    result = stored_run(store, *LOSSY, "tunnel={k: 5, z: 100}", cancel_when_sampled=True)
    assert result.status == "cancelled"
    assert result.artifacts is not None and result.artifacts["files"] == []
    artifacts = RunArtifacts.beside(store.path)
    assert artifacts.files(result.run_id) == []
    assert not artifacts.directory(result.run_id).exists() or \
        [path for path in artifacts.directory(result.run_id).rglob("*") if path.is_file()] == []
    assert not host.work_dir(result.run_id).exists()
    with pytest.raises(selection.Refused, match="kept no pcap files"):
        selection.export_run(store, result.run_id, "pcap", "csv")


def scenario_of(*overrides: str):
    return load(LABS / "geo-ideal.yaml", ["capture.packets=true", *overrides])


def test_the_plan_shares_the_runs_cap_between_the_captures_of_every_iteration():
    """A download: the directions that carry data get twice the share of
    those that carry acknowledgements; each swf-tunnel's two files the mean
    of theirs (one cap per process); together within the run's cap."""
    scenario = scenario_of("iterations=2", "tunnel={k: 5, z: 100}", "path.lan={delay_ms: 1}")
    cap = 120 << 20
    plans = [make_plan(scenario, "a1b2c3", iteration, CaptureRoom(Path(f"/w/iteration{iteration}"), cap))
             for iteration in range(2)]
    captures = {capture.name: capture for capture in plans[0].captures}
    unit = cap / (2 * (3 + 3 + 6))  # two iterations of: link and LAN 2 + 1 each, the tunnel (2 + 1) x 2
    assert captures["satellite-forward.pcapng"].max_bytes == int(2 * unit)
    assert captures["satellite-return.pcapng"].max_bytes == int(unit)
    assert captures["lan-down.pcapng"].max_bytes == int(2 * unit)
    assert {captures[name].max_bytes for name in captures if name.startswith("tunnel-")} == {int(1.5 * unit)}
    assert sum(capture.max_bytes for plan in plans for capture in plan.captures) <= cap
    assert {(c.kept_in, c.interface) for c in plans[0].captures} == {
        ("satellite.pcapng", "forward"), ("satellite.pcapng", "return"), ("lan.pcapng", "down"),
        ("lan.pcapng", "up"), ("tunnel-forward.pcapng", "sent"), ("tunnel-forward.pcapng", "received"),
        ("tunnel-return.pcapng", "sent"), ("tunnel-return.pcapng", "received")}
    satlink = plans[1].satellite
    assert satlink is not None
    assert satlink.args[-6:] == ["--ab-capture", "/w/iteration1/captures/satellite-return.pcapng",
                                 "--ab-capture-snap-bytes", "128", "--ab-capture-max-bytes", str(int(unit))]
    assert plans[0].tunnel[0].args[-8:] == [
        "--rx-capture", "/w/iteration0/captures/tunnel-forward-received.pcapng",
        "--tx-capture", "/w/iteration0/captures/tunnel-return-sent.pcapng",
        "--capture-snap-bytes", "128", "--capture-max-bytes", str(int(1.5 * unit))]


def test_an_upload_gets_the_larger_share_back_and_a_tiny_cap_its_least():
    upload = make_plan(scenario_of("flows.0.direction=upload"), "a1b2c3", 0, CaptureRoom(Path("/w"), 3 << 20))
    assert [(c.interface, c.max_bytes) for c in upload.captures] == [("forward", 1 << 20), ("return", 2 << 20)]
    many = make_plan(scenario_of("iterations=100"), "a1b2c3", 0, CaptureRoom(Path("/w"), 1 << 20))
    assert {c.max_bytes for c in many.captures} == {MIN_FILE_BYTES}


def test_nothing_is_captured_unless_asked_and_kept_and_netem_captures_nothing():
    assert make_plan(scenario_of(), "a1b2c3").captures == []  # no room: the run keeps no files
    off = load(LABS / "geo-ideal.yaml")
    assert make_plan(off, "a1b2c3", 0, CaptureRoom(Path("/w"), 1 << 20)).captures == []
    netem = make_plan(scenario_of("path.link_backend=netem"), "a1b2c3", 0, CaptureRoom(Path("/w"), 1 << 20))
    assert netem.captures == [] and any(note.startswith("capture.packets: the satellite link is netem's")
                                        for note in netem.notes)


def test_a_students_run_keeps_no_more_than_student_capture_bytes():
    limits = Limits(student_capture_bytes=64 << 20)
    raised = problems(scenario_of("capture.max_bytes=1073741824"), limits)
    assert [p.sentence for p in raised if p.field == "capture.max_bytes"] == [
        "capture.max_bytes: 1073741824 bytes is more than a student's run may keep (67108864, student_capture_bytes)"]
    defaulted = [p.sentence for p in problems(scenario_of(), limits) if p.field == "capture.max_bytes"]
    assert defaulted == ["capture.max_bytes: 268435456 bytes (null: run_artifact_bytes, as it captures packets) is "
                         "more than a student's run may keep (67108864, student_capture_bytes)"]
    within = scenario_of("capture.max_bytes=67108864")
    assert [p for p in problems(within, limits) if p.field == "capture.max_bytes"] == []
    # Without packet captures and without a cap of its own, the service's cap applies (qlogs, key logs).
    assert [p for p in problems(load(LABS / "geo-ideal.yaml"), limits) if p.field == "capture.max_bytes"] == []
