"""make soak-classroom: a class on a real `satlab serve` for 10 minutes (a
short version in make test: tests/test_classroom_soak.py). One JSON line on
stdout; exit status 1 if a check fails.

    cd backend && .venv/bin/python -m bench.soak_classroom --seconds 600 --students 30

30 students, each from a loopback address of their own (127.0.1.N, as
machines of a classroom), and the instructor (127.0.0.1) use the API over
HTTP and WebSockets: they look at runs and labs, start tiny real runs
(geo-ideal, 100 kB over a 10 ms round trip), follow the event stream, sign
out and in again; interleaved, every sixth student also attacks (issue 20's
list): runs beyond the quotas (a 0.001 Mbit/s link, a scenario of their
own, a campaign), integer overflows, bodies that are not UTF-8, anonymous
requests to unknown sign-in paths, wrong class codes with forged
X-Forwarded-For, sign-ins under a classmate's name, names with control
characters, more streams than a client may hold, a logged-out cookie
replayed, slow-loris connections. Every answer is checked against what the
action may get (never a 5xx).

Afterwards, from the store: no student ever had more runs queued or running
than student_concurrent_runs, nor started more than student_runs_per_hour;
the students' queued runs never passed max_queued_runs; every student is
one row (30); the audit trail holds only signed-in actions and sign-in
attempts, from real addresses, within audit_retention_rows. The
instructor's runs were never refused; the backend's RSS at the end is
within 10 % of its RSS after the warm-up; once it stops, no network
namespace, process or work directory is left. Needs root (the runs).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import signal
import socket
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from bench.soak import RSS_GROWTH_LIMIT, Soak, rss_kib

TOKEN = "a-token-for-the-classroom-soak"
TINY_RUN = {"lab": "geo-ideal", "set": ["flows.0.size_bytes=100000", "path.forward.delay_ms=5",
                                        "path.return.delay_ms=5"]}
# The server's limits: those a classroom has, made small enough for a short soak to reach them.
LIMITS = {"SATLAB_MAX_CONCURRENT_RUNS": "2", "SATLAB_LIMIT_MAX_QUEUED_RUNS": "8",
          "SATLAB_LIMIT_STUDENT_CONCURRENT_RUNS": "2", "SATLAB_LIMIT_STUDENT_RUNS_PER_HOUR": "20",
          "SATLAB_LIMIT_MAX_WEBSOCKETS_PER_CLIENT": "3", "SATLAB_LIMIT_HEADER_TIMEOUT_S": "3",
          "SATLAB_LIMIT_BODY_TIMEOUT_S": "3", "SATLAB_LIMIT_AUDIT_RETENTION_ROWS": "3000"}
WARM_UP_RATIO = 0.3  # of the duration, before the RSS of reference
INSTRUCTOR_RUN_EVERY_S = 10.0
MISCHIEF_EVERY = 6  # every sixth student attacks
SLACK_S = 5.0  # what a loaded machine adds to a timeout


def student_address(index: int) -> str:
    return f"127.0.1.{index + 1}"


@dataclass
class Tally:
    """What the soak saw, shared by its threads."""
    answers: Counter[str] = field(default_factory=Counter)  # "action status" -> count
    problems: list[str] = field(default_factory=list)
    instructor_latencies_s: list[float] = field(default_factory=list)
    instructor_runs: Counter[int] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def saw(self, action: str, status: int, allowed: tuple[int, ...], detail: str = "") -> None:
        with self.lock:
            self.answers[f"{action} {status}"] += 1
            if status not in allowed:
                self.problems.append(f"{action}: {status} (expected {allowed}) {detail[:200]}")


class ClassroomServer(Soak):
    """bench.soak's server (its own mount namespace, leftovers, RSS), with a token and a classroom's limits."""

    def __init__(self, scratch: Path):
        super().__init__(scratch)
        self.env.update({"SATLAB_INSTRUCTOR_TOKEN": TOKEN, **LIMITS})
        self.base = f"127.0.0.1:{self.port}"

    def _answers(self) -> bool:
        try:
            return httpx2.get(f"{self.api}/auth/me", timeout=5).status_code == 200
        except httpx2.TransportError:
            return False


def client_from(address: str, base: str) -> httpx2.Client:
    """A client from address that lets an idle connection go before the
    server does (uvicorn's keep-alive is 5 s): a browser's habit."""
    return httpx2.Client(base_url=f"http://{base}/api", timeout=60,
                         transport=httpx2.HTTPTransport(local_address=address,
                                                        limits=httpx2.Limits(keepalive_expiry=2)))


@contextlib.contextmanager
def stream(address: str, base: str, cookie: str | None) -> Iterator[ClientConnection]:
    """The /api/events WebSocket from address (a refusal raises InvalidStatus)."""
    host, port = base.rsplit(":", 1)
    headers = {"Cookie": f"satlab_session={cookie}"} if cookie else {}
    with socket.create_connection((host, int(port)), timeout=30, source_address=(address, 0)) as sock, \
            connect(f"ws://{base}/api/events", sock=sock, additional_headers=headers, open_timeout=30) as events:
        yield events


class Student:
    def __init__(self, index: int, server: ClassroomServer, tally: Tally, deadline: float, seed: int):
        self.index, self.server, self.tally, self.deadline = index, server, tally, deadline
        self.address = student_address(index)
        self.name = f"student-{index:02d}"
        self.rng = random.Random(seed * 1000 + index)
        self.client = client_from(self.address, server.base)
        self.code = ""
        self.signed_in_as: str | None = None
        self.mischievous = index % MISCHIEF_EVERY == 0

    def sign_in(self, action: str = "sign in") -> bool:
        response = self.client.post("/auth/student", json={"class_code": self.code, "name": self.name})
        self.tally.saw(action, response.status_code, (200, 429), response.text)
        if response.status_code != 200:
            return False
        if self.signed_in_as not in (None, response.json()["id"]):
            self.tally.problems.append(f"{self.name} signed in again as another student")
        self.signed_in_as = response.json()["id"]
        return True

    @property
    def cookie(self) -> str | None:
        return self.client.cookies.get("satlab_session")

    def actions(self) -> list[tuple[Callable[[], None], int]]:
        everyone = [(self.look, 8), (self.start_run, 3), (self.follow_events, 2), (self.run_beyond_quota, 1),
                    (self.overflow, 1), (self.not_utf8, 1)]
        mischief = [(self.anonymous_flood, 2), (self.wrong_codes, 1), (self.take_over_a_name, 2),
                    (self.bad_name, 1), (self.stream_flood, 1), (self.replay_after_logout, 1), (self.slow_loris, 1)]
        return everyone + (mischief if self.mischievous else [])

    def live(self) -> None:
        try:
            while not self.sign_in():
                time.sleep(5)
            choices = self.actions()
            actions, weights = [action for action, _ in choices], [weight for _, weight in choices]
            while time.monotonic() < self.deadline:
                if self.cookie is None and not self.sign_in():  # signed out, and rate-limited: later
                    time.sleep(5)
                    continue
                self.rng.choices(actions, weights)[0]()
                time.sleep(self.rng.uniform(0.3, 1.5))
        except Exception as error:  # a transport error is a finding too
            with self.tally.lock:
                self.tally.problems.append(f"{self.name}: {type(error).__name__}: {error}")
        finally:
            self.client.close()

    # -- what a student does --------------------------------------------------------

    def look(self) -> None:
        for path in ("/runs", "/labs/geo-ideal", "/limits", "/auth/me"):
            response = self.client.get(path)
            self.tally.saw("look", response.status_code, (200,), response.text)

    def start_run(self) -> None:
        response = self.client.post("/runs", json=TINY_RUN)
        self.tally.saw("run", response.status_code, (201, 429), response.text)

    def follow_events(self) -> None:
        try:
            with stream(self.address, self.server.base, self.cookie) as events, \
                    contextlib.suppress(TimeoutError):
                events.recv(timeout=self.rng.uniform(0.2, 1.5))
            self.tally.saw("stream", 101, (101,))
        except InvalidStatus as refused:
            self.tally.saw("stream", refused.response.status_code, (), refused.response.body.decode()[:200])

    # -- what a student tries --------------------------------------------------------

    def run_beyond_quota(self) -> None:
        body = self.rng.choice([
            {"lab": "geo-ideal", "set": ["path.forward.rate_mbps=0.001"]},
            {"lab": "geo-ideal", "set": ["flows.0.size_bytes=1000000000", "flows.0.count=16"]},
            {"lab": "geo-ideal", "set": ["cross_traffic=[{link: forward, rate_mbps: 100}]"]},
            {"scenario": {"path": {"forward": {"rate_mbps": 12, "delay_ms": 5}, "return": {"rate_mbps": 3,
                                                                                         "delay_ms": 5}},
                          "flows": [{"size_bytes": 100000}]}}])
        response = self.client.post("/runs", json=body)
        self.tally.saw("run beyond a quota", response.status_code, (403,), response.text)
        response = self.client.post("/campaigns", json={"name": "x", "scenario": "geo-ideal",
                                                        "matrix": {"flows.0.cc": ["cubic", "bbr"]}})
        self.tally.saw("campaign", response.status_code, (403,), response.text)

    def overflow(self) -> None:
        response = self.client.get("/runs", params={"offset": str(2 ** 63)})
        self.tally.saw("offset 2^63", response.status_code, (422,), response.text)

    def not_utf8(self) -> None:
        response = self.client.post("/runs", content=b'{"lab": "geo-\xff"}',
                                    headers={"content-type": "application/json"})
        self.tally.saw("not UTF-8", response.status_code, (422,), response.text)

    def anonymous_flood(self) -> None:
        with client_from(self.address, self.server.base) as anonymous:
            for _ in range(3):
                response = anonymous.post("/auth/" + "x" * 5000)
                self.tally.saw("anonymous long path", response.status_code, (404, 405), response.text)

    def wrong_codes(self) -> None:
        with client_from(self.address, self.server.base) as anonymous:
            for attempt in range(3):
                response = anonymous.post("/auth/student", json={"class_code": "WRONG", "name": "eve"},
                                          headers={"X-Forwarded-For": f"10.66.{self.index}.{attempt}"})
                self.tally.saw("wrong code, forged address", response.status_code, (401, 429), response.text)

    def take_over_a_name(self) -> None:
        victim = f"student-{self.rng.randrange(MISCHIEF_EVERY):02d}".upper()
        with client_from(self.address, self.server.base) as anonymous:
            response = anonymous.post("/auth/student", json={"class_code": self.code, "name": victim})
            self.tally.saw("a classmate's name", response.status_code, (409, 429), response.text)

    def bad_name(self) -> None:
        name = self.rng.choice(["eve\0", "eve\r\nSet-Cookie: x", "\u202eeve", "<script>eve</script>"])
        with client_from(self.address, self.server.base) as anonymous:
            response = anonymous.post("/auth/student", json={"class_code": self.code, "name": name})
            self.tally.saw("a name with control characters", response.status_code, (422,), response.text)

    def stream_flood(self) -> None:
        refused = 0
        with contextlib.ExitStack() as opened:
            for _ in range(int(LIMITS["SATLAB_LIMIT_MAX_WEBSOCKETS_PER_CLIENT"]) + 2):
                try:
                    opened.enter_context(stream(self.address, self.server.base, self.cookie))
                except InvalidStatus as refusal:
                    self.tally.saw("stream flood", refusal.response.status_code, (429,))
                    refused += 1
        if refused < 2:
            with self.tally.lock:
                self.tally.problems.append(f"{self.name} held {5 - refused} streams (at most 3)")

    def replay_after_logout(self) -> None:
        cookie = self.cookie
        response = self.client.post("/auth/logout")
        self.tally.saw("sign out", response.status_code, (200,), response.text)
        with client_from(self.address, self.server.base) as replay:
            replay.cookies.set("satlab_session", cookie or "")
            response = replay.get("/runs")
            self.tally.saw("a signed-out cookie", response.status_code, (401,), response.text)
        self.sign_in("sign in again")

    def slow_loris(self) -> None:
        host, port = self.server.base.rsplit(":", 1)
        bound_s = float(LIMITS["SATLAB_LIMIT_HEADER_TIMEOUT_S"]) + SLACK_S
        started = time.monotonic()
        with socket.create_connection((host, int(port)), timeout=bound_s, source_address=(self.address, 0)) as sock:
            sock.sendall(b"GET /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            sock.settimeout(0.5)
            while time.monotonic() - started < bound_s:
                try:
                    sock.sendall(b"z")
                    if sock.recv(4096) == b"":
                        break
                except TimeoutError:
                    continue
                except OSError:
                    break
            held_s = time.monotonic() - started
        self.tally.saw("slow-loris closed in time", 0 if held_s < bound_s else 1, (0,), f"held {held_s:.1f} s")


class Instructor:
    def __init__(self, server: ClassroomServer, tally: Tally, deadline: float):
        self.server, self.tally, self.deadline = server, tally, deadline
        self.client = client_from("127.0.0.1", server.base)

    def timed(self, method: str, path: str, **kwargs: Any) -> httpx2.Response:
        started = time.monotonic()
        response = self.client.request(method, path, **kwargs)
        with self.tally.lock:
            self.tally.instructor_latencies_s.append(time.monotonic() - started)
        return response

    def live(self) -> None:
        next_run = time.monotonic()
        try:
            while time.monotonic() < self.deadline:
                if time.monotonic() >= next_run:
                    response = self.timed("POST", "/runs", json=TINY_RUN)
                    with self.tally.lock:
                        self.tally.instructor_runs[response.status_code] += 1
                    self.tally.saw("instructor's run", response.status_code, (201,), response.text)
                    next_run += INSTRUCTOR_RUN_EVERY_S
                for path in ("/class", "/audit", "/runs"):
                    response = self.timed("GET", path)
                    self.tally.saw("instructor looks", response.status_code, (200,), response.text)
                time.sleep(1.0)
        except Exception as error:
            with self.tally.lock:
                self.tally.problems.append(f"instructor: {type(error).__name__}: {error}")


def most_at_once(intervals: list[tuple[float, float]]) -> int:
    """The most intervals [start, end) that overlap at one moment."""
    events = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
    most = current = 0
    for _, change in events:
        current += change
        most = max(most, current)
    return most


def check_the_store(db: Path, students: int, started_s: float) -> tuple[list[str], dict[str, Any]]:
    """What held, read from the store after the server stopped: problems, figures."""
    problems: list[str] = []
    limits = {name.removeprefix("SATLAB_LIMIT_").lower(): int(value) for name, value in LIMITS.items()
              if name.startswith("SATLAB_LIMIT_")}
    with contextlib.closing(sqlite3.connect(db)) as store:
        student_ids = {row[0] for row in store.execute("SELECT student_id FROM students")}
        runs = store.execute("SELECT COALESCE(runs.owner, campaigns.owner), runs.created_at, runs.started_at, "
                             "runs.finished_at, runs.status, runs.error FROM runs "
                             "LEFT JOIN campaigns ON campaigns.campaign_id = runs.campaign_id").fetchall()
        audit = store.execute("SELECT actor, action, address FROM audit").fetchall()
    if len(student_ids) != students:
        problems.append(f"{len(student_ids)} students in the store, {students} signed in")
    end = time.time()
    for owner in student_ids:
        theirs = [(created, finished or end) for who, created, _, finished, _, _ in runs if who == owner]
        if (most := most_at_once(theirs)) > limits["student_concurrent_runs"]:
            problems.append(f"student {owner} had {most} runs queued or running at once")
        if len(theirs) > limits["student_runs_per_hour"] and end - started_s < 3600:
            problems.append(f"student {owner} started {len(theirs)} runs in less than an hour")
    queued = [(created, started or finished or end) for who, created, started, finished, _, _ in runs
              if who in student_ids]
    if (most := most_at_once(queued)) > limits["max_queued_runs"]:
        problems.append(f"the students had {most} runs queued at once")
    anonymous = {action for actor, action, _ in audit if actor == "anonymous"}
    if not anonymous <= {"POST /api/auth/student", "POST /api/auth/instructor"}:
        problems.append(f"anonymous audit rows besides sign-in attempts: {sorted(anonymous)[:5]}")
    if len(audit) > limits["audit_retention_rows"]:
        problems.append(f"{len(audit)} audit rows, more than {limits['audit_retention_rows']}")
    if forged := {address for _, _, address in audit if not str(address).startswith("127.")}:
        problems.append(f"audit rows from addresses no client had: {sorted(forged)[:5]}")
    failed = [error for _, _, _, _, status, error in runs if status == "failed"]
    problems += [f"a run failed: {error}" for error in failed[:5]]
    statuses = Counter(status for *_, status, _ in runs)
    return problems, {"runs": dict(statuses), "students": len(student_ids), "audit_rows": len(audit)}


def percentile(values: list[float], ratio: float) -> float | None:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(ratio * len(ordered)))] if ordered else None


def run_classroom_soak(seconds: float, students: int = 30, seed: int = 1) -> dict[str, Any]:
    tally = Tally()
    result: dict[str, Any] = {"soak": "classroom", "seconds": seconds, "students": students, "seed": seed}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="satlab-classroom-") as scratch_dir:
        server = ClassroomServer(Path(scratch_dir))
        try:
            server.start()
            started_at = time.time()
            deadline = time.monotonic() + seconds
            instructor = Instructor(server, tally, deadline)
            signed_in = instructor.client.post("/auth/instructor", json={"token": TOKEN})
            tally.saw("instructor signs in", signed_in.status_code, (200,), signed_in.text)
            code = instructor.client.get("/class").json()["class_code"]
            people = [Student(index, server, tally, deadline, seed) for index in range(students)]
            for student in people:
                student.code = code
            threads = [threading.Thread(target=person.live, name=f"soak-{index}")
                       for index, person in enumerate([instructor, *people])]
            for thread in threads:
                thread.start()
            time.sleep(seconds * WARM_UP_RATIO)
            rss_reference = rss_kib(server.server.pid) if server.server else 0
            for thread in threads:
                thread.join(seconds + 120)
            rss_end = rss_kib(server.server.pid) if server.server else 0
            instructor.client.close()
            status = server.stop()
            server.server = None
            if status not in (0, -signal.SIGTERM):
                tally.problems.append(f"satlab serve exited {status} on SIGTERM")
            growth = rss_end / rss_reference - 1 if rss_reference else None
            result["rss_kib"] = {"after_warm_up": rss_reference, "end": rss_end,
                                 "growth_ratio": None if growth is None else round(growth, 4)}
            if growth is None or growth > RSS_GROWTH_LIMIT:
                tally.problems.append(f"the backend's RSS grew by {growth} (limit {RSS_GROWTH_LIMIT})")
            problems, figures = check_the_store(Path(scratch_dir) / "soak.db", students, started_at)
            tally.problems += problems
            result.update(figures)
            result["leftovers"] = server.leftovers()
            if any(result["leftovers"].values()):
                tally.problems.append("something was left")
        finally:
            server.close()
    latencies = tally.instructor_latencies_s
    result.update(requests=sum(tally.answers.values()), answers=dict(sorted(tally.answers.items())),
                  instructor_runs=dict(tally.instructor_runs),
                  instructor_p99_ms=None if not latencies else round(1000 * (percentile(latencies, 0.99) or 0), 1),
                  instructor_p50_ms=None if not latencies else round(1000 * (percentile(latencies, 0.5) or 0), 1),
                  problems=tally.problems[:50], wall_s=round(time.monotonic() - started, 1))
    result["ok"] = not tally.problems
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = run_classroom_soak(args.seconds, args.students, args.seed)
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
