"""Runs: the request that queues one, a run as a list shows it and whole
(with who queued it, whether the class sees it and where it came from), its
result as the engine gives it, and its place in the queue.

Two shapes of per-flow summaries exist, and both stay as the browser knows
them: a listed run's `flows` (the store's rows, FlowSummaryRow: the figures
every transport has as fields, the rest under `details`) and a run's
`result.flows` (the engine's, FlowResult: every figure at the top level).
Fields that older runs lack are optional, and are left out, not null, where
a stored run lacks them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from satlab.api.models.common import Percentiles, Public, ScenarioObject
from satlab.api.models.fidelity import IterationFidelity, RunFidelity
from satlab.scenario import field_error
from satlab.service.store import FlowSummaryRow, OriginKind
from satlab.service.store import RunOrigin as RecordedOrigin

RunStatus = Literal["queued", "running", "done", "failed", "cancelled"]


class RunCreate(BaseModel):
    """A run of a preset (`lab`, with optional `set` overrides) or of a whole
    `scenario`, and the page that queues it (`page`, `sheet`), which the run
    records as its origin."""
    model_config = ConfigDict(extra="forbid", strict=True)  # `set`, not `overrides`; no text for a list
    lab: str | None = Field(default=None, description="A lab's name, as GET /api/labs lists them.")
    scenario: dict[str, Any] | None = Field(default=None, description="A scenario, as in labs/*.yaml.")
    overrides: list[str] = Field(default=[], alias="set",
                                 description="dotted.path=value overrides, e.g. flows.0.cc=bbr.")
    page: Literal["experiments", "sheet"] | None = Field(
        default=None, description="The page that queues it: experiments (the console's run form) or sheet (a lab "
                                  "sheet's run widget, named by `sheet`). Left out: the run's origin is api.")
    sheet: str | None = Field(default=None, max_length=64,
                              description="With page sheet: the lab sheet's id (labs/sheets/NN-<id>.md).")

    @model_validator(mode="after")
    def _one_source(self) -> RunCreate:
        if (self.lab is None) == (self.scenario is None):
            raise field_error("lab", "give exactly one of lab or scenario", self.lab)
        if (self.sheet is None) == (self.page == "sheet"):
            raise field_error("sheet", "give a lab sheet's id with page sheet, and only then", self.sheet)
        return self

    @property
    def origin(self) -> RecordedOrigin:
        """Where the run comes from, as the store records it."""
        return RecordedOrigin(self.page or "api", self.sheet, self.lab)


class RunOwner(Public):
    """Who queued a run: its own owner, else its campaign's."""
    id: str = Field(description='"instructor", "local" (whoever reaches a server without sign-in) or a student\'s '
                                "id (GET /api/class/students).")
    name: str = Field(description="As a person reads it: the student's name in the class (\"a removed student\" "
                                  "and their id, once removed), \"instructor\" or \"this machine's user\".")


class RunOrigin(Public):
    """Where a run came from: a lone run's page or tool, recorded when it was
    queued, or its campaign (a study's campaign: its study)."""
    kind: OriginKind = Field(description="experiments: the console's run form; sheet: a lab sheet's run widget; "
                                         "api: a request that named no page (POST /api/runs without `page`); "
                                         "command-line: `satlab run`; campaign or study: a run of one.")
    name: str | None = Field(description="The lab sheet's id, the campaign's name or the study's id; null for "
                                         "the other kinds.")
    lab: str | None = Field(description="The preset it ran (GET /api/labs); null: a scenario of its own.")


class FlowResult(Public):
    """One flow of one iteration as the engine summarises it: every figure,
    and the transport's own besides (they differ by transport)."""
    model_config = ConfigDict(extra="allow")
    iteration: int
    flow: int
    group: int | None
    transport: str | None
    cc: str | None
    direction: str | None
    start_s: float | None
    bytes: int | None
    download_time_s: float | None
    goodput_mbps: float | None
    retransmissions: int | None
    mean_rtt_ms: float | None
    power_mbps_per_s: float | None
    error: str | None
    bottleneck_mbps: float | None = None
    link_utilisation_ratio: float | None = None
    startup_s: float | None = Field(default=None, description="null: the flow never reached 90 % of the "
                                                              "bottleneck (all start-up).")
    startup_goodput_mbps: float | None = None
    startup_mean_rtt_ms: float | None = None
    startup_retransmissions: int | None = None
    steady_goodput_mbps: float | None = None
    steady_mean_rtt_ms: float | None = None
    steady_retransmissions: int | None = None
    latecomer: bool | None = Field(default=None, description="It started after another flow of its direction.")
    latecomer_convergence_s: float | None = Field(default=None, description="null for a latecomer: it never "
                                                                            "converged.")
    short_beside_long: bool | None = Field(default=None, description="A flow of a fixed size with a flow of "
                                                                     "another group active for its whole life.")
    time_to_first_byte_ms: float | None = Field(default=None, description="A download's first packet to its first "
                                                                          "byte of data (picoquic; TCP on the "
                                                                          "client's wire).")
    # Through a split-TCP PEP (engine/pep/metrics.py): each segment's sender's bytes and retransmissions, and
    # the bytes each PEP's pipe of the data's direction held at most; absent without a PEP.
    pep_mode: Literal["gateway", "distributed"] | None = None
    pep_connections: int | None = None
    pep_client_bytes: int | None = Field(default=None, description="null with a gateway PEP alone: no client "
                                                                   "segment.")
    pep_client_retransmissions: int | None = None
    pep_satellite_bytes: int | None = None
    pep_satellite_retransmissions: int | None = None
    pep_server_bytes: int | None = None
    pep_server_retransmissions: int | None = None
    pep_terminal_pipe_peak_bytes: int | None = None
    pep_gateway_pipe_peak_bytes: int | None = None


class FecDirection(Public):
    """One direction of the FEC tunnel, counted (packets) at its receiving endpoint."""
    sources: int
    repairs: int
    lost: int
    recovered: int
    residual_loss: float = Field(description="(lost - recovered) / (sources + lost).")
    rejected: int | None = Field(default=None, description="Datagrams held and not believed.")
    unauthenticated: int | None = Field(default=None, description="With a key: datagrams whose tag did not verify.")
    decoding_delay_ms: Percentiles | None = None
    held: int | None = Field(default=None, description="In-order delivery: packets held behind a gap.")
    hold_timeouts: int | None = Field(default=None, description="In-order delivery: gaps passed over at the "
                                                                "hold time.")
    hold_delay_ms: Percentiles | None = Field(default=None, description="In-order delivery: how long packets "
                                                                        "were held.")
    lateness_ms: Percentiles | None = Field(default=None, description="How late the receiving endpoint was: how "
                                            "long datagrams waited in its socket, and its timers past their "
                                            "deadlines (the run's fidelity evidence judges it).")


class FecSummary(Public):
    forward: FecDirection | None
    return_: FecDirection | None = Field(alias="return")


class LinkDirectionCounters(Public):
    """One direction of a link at the end of an iteration (satlink's summary
    counters; netem has only some, and counts its drops in `drops`)."""
    model_config = ConfigDict(extra="allow")  # a newer satlink may count more
    packets_in: int | None = None
    bytes_in: int | None = None
    packets_out: int | None = None
    bytes_out: int | None = None
    queue_bytes: int | None = None
    in_flight_packets: int | None = None
    in_flight_bytes: int | None = None
    drops_buffer: int | None = None
    drops_aqm: int | None = None
    drops_channel: int | None = None
    drops_overflow: int | None = None
    drops: int | None = None
    write_errors: int | None = None
    lateness_ms: Percentiles | None = None


class LinkSummary(Public):
    forward: LinkDirectionCounters | None
    return_: LinkDirectionCounters | None = Field(alias="return")


class CrossTrafficResult(Public):
    """A UDP cross-traffic stream: what was sent and what arrived."""
    index: int
    link: str
    rate_mbps: float
    start_s: float
    started: bool
    seconds: float | None
    sent_bytes: int | None
    sent_mbps: float | None
    received_bytes: int | None
    packets: int | None
    lost_packets: int | None
    loss_ratio: float | None
    error: str | None


class IterationCapture(Public):
    """One packet capture of an iteration: the tool and side it captured, the
    file that keeps it, what it holds, and the counters of the side it
    captured (tshark's counts per fate equal these)."""
    name: str = Field(description="The kept file's path in the run's directory, before compression.")
    kept_as: str | None = Field(description="The kept (compressed) file; null: nothing was captured.")
    interface: str = Field(description="The capture's interface name inside the file (forward, return, sent...).")
    tool: str = Field(description="The tool that wrote it: link, lan, tunnel.0, tunnel.1.")
    side: str
    direction: str
    snap_bytes: int
    max_bytes: int
    secrets_embedded: bool = Field(description="Whether the QUIC flows' TLS key log is in the file.")
    capture: dict[str, Any] | None = Field(description="The tool's capture statistics, as it prints them.")
    counters: dict[str, Any] | None = Field(description="The captured side's counters, as the tool prints them.")


class IterationResult(Public):
    iteration: int
    flows: list[FlowResult]
    jain_index: float | None = Field(description="Jain's fairness index of the flows' goodputs (two flows or more).")
    fec: FecSummary | None = Field(default=None, description="null: no FEC tunnel.")
    link: LinkSummary | None = None
    lan: LinkSummary | None = Field(default=None, description="null: no LAN segment.")
    cross_traffic: list[CrossTrafficResult] | None = None
    tcp_stack: dict[str, dict[str, int | None]] | None = Field(
        default=None, description="The kernel's TCP counters of the server's and the client's namespace.")
    pep: dict[str, Any] | None = Field(default=None, description="The split-TCP PEPs: their mode and each one's "
                                                                 "summary line (accepted, finished, failed, "
                                                                 "bytes each way); null: no PEP.")
    seeds: dict[str, int] | None = Field(default=None, description="Each channel's seed, by its path.")
    captures: list[IterationCapture] | None = Field(default=None, description="The iteration's packet "
                                                    "captures (scenario capture.packets); null or empty: none.")
    plan: dict[str, Any] | None = Field(default=None, description="The engine's plan of the iteration (names, "
                                                                  "addresses, buffers, tool arguments).")
    fidelity: IterationFidelity | None = Field(default=None, description="Whether the host kept up (absent from "
                                                                         "runs before it was recorded).")


class KeptFile(Public):
    """A file the run kept for the researcher (a qlog, a TLS key log, a packet capture)."""
    name: str = Field(description="Its path in the run's directory, e.g. iteration0/flow0/client.qlog.gz.")
    kind: Literal["qlog", "keylog", "pcapng"]
    size_bytes: int = Field(description="As kept (compressed).")
    sha256: str = Field(description="Of the file as kept.")


class RunArtifacts(Public):
    """The files a run kept, within its cap on their bytes."""
    max_bytes: int
    used_bytes: int
    files: list[KeptFile]
    refused: list[str] = Field(description="Why each file that would have passed the cap was not kept.")
    incomplete: list[str] = Field(default_factory=list, description="Why each kept file lacks records (a capture "
                                                                    "that reached its cap), a sentence each.")


class FlowAtTimeLimit(Public):
    """A flow when its iteration's time limit stopped it."""
    flow: int
    direction: str
    finished: bool
    download_time_at_least_s: float | None = Field(description="How long it had been sending, from its first data "
                                                               "packet: the least its download would have taken "
                                                               "(null: finished, or never started).")
    bytes_acked: int | None = Field(description="Its sender's bytes acknowledged at its last sample: how far it had "
                                                "got (null: never sampled).")


class TimedOut(Public):
    """The iteration a run's time limit stopped: its flows had not all
    finished within 60 s + 100 x their time at the bottleneck rate."""
    iteration: int
    limit_s: float
    flows: list[FlowAtTimeLimit]


class RunResult(Public):
    """The engine's result: the run's `result`, and its stream's last event."""
    run_id: str
    status: RunStatus
    error: str | None
    flows: list[FlowResult]
    iterations: list[IterationResult]
    fidelity: RunFidelity | None = Field(default=None, description="Whether the host kept up with the run, and who "
                                                                   "measured (absent from runs before it was recorded; "
                                                                   "null for a run that never started).")
    timed_out: TimedOut | None = Field(default=None, description="Set when its time limit stopped the run (a "
                                                                 "censored time, not a broken path; absent from "
                                                                 "older runs).")
    artifacts: RunArtifacts | None = Field(default=None, description="The files the run kept (null: the scenario "
                                                                     "keeps none; absent from older runs).")


class RunBase(Public):
    run_id: str
    name: str = Field(description="The scenario's name (the lab's, for a lab).")
    status: RunStatus
    error: str | None
    campaign_id: str | None
    item_index: int | None
    created_at: float = Field(description="Unix time, seconds.")
    started_at: float | None = Field(description="Unix time, seconds.")
    finished_at: float | None = Field(description="Unix time, seconds.")
    owner: RunOwner | None = Field(description="Who queued it. null: nobody signed in (the command line); to a "
                                               "student, also another's run that the instructor shared.")
    shared: bool = Field(description="The instructor shows it to the class (POST /api/runs/{id}/share).")
    origin: RunOrigin | None = Field(description="Where it came from; null: not recorded (a run queued before "
                                                 "satlab recorded it).")
    host_kept_up: bool | None = Field(default=None, description="Its fidelity verdict: whether the host kept up "
                                                                "with the emulated path (the run's result.fidelity "
                                                                "says why); null: unknown, or not finished.")


class RunSummary(RunBase):
    flows: list[FlowSummaryRow] = Field(description="Per-flow summaries (empty until the run ends).")
    timed_out: TimedOut | None = Field(default=None, description="A failed run its time limit stopped: what each "
                                                                 "flow of that iteration had taken (its "
                                                                 "result.timed_out).")


class RunPublic(RunBase):
    """A whole run (its per-flow summaries are in result.flows)."""
    scenario: ScenarioObject
    provenance: dict[str, Any] = Field(description="Versions of the kernel, satlab and tools; host state.")
    result: RunResult | None = Field(description="Per-flow and per-iteration summaries, once finished.")
    worker: str | None = Field(default=None, description="The `satlab worker` that ran it (GET /api/workers); null: "
                                                         "the server's own process.")
    attempt: int = Field(default=1, description="Of its campaign item: 2 when the first attempt's worker vanished "
                                                "mid-run (that run's error says so).")


class RunsPublic(Public):
    data: list[RunSummary]
    count: int


class QueuePlace(Public):
    queue_position: int | None = Field(description="1: the next run to start; null once it runs.")
    estimated_start_s: float | None = Field(description="About when it starts, in seconds from now (null until "
                                                        "a run has finished).")
