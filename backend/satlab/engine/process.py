"""Child processes of a run: started inside a namespace, tied to this process's
life, stopped politely then firmly."""

from __future__ import annotations

import collections
import ctypes
import json
import signal
import subprocess
import threading
from collections.abc import Callable
from typing import Any

PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def _die_with_parent() -> None:
    # If the backend is SIGKILLed its children get SIGKILL too, instead of
    # running on in namespaces nobody owns (the sweep removes the namespaces).
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def in_netns(netns: str | None, args: list[str]) -> list[str]:
    return ["ip", "netns", "exec", netns, *args] if netns else list(args)


def run(args: list[str], netns: str | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a short command; on failure raise RuntimeError naming the command and its error."""
    done = subprocess.run(in_netns(netns, args), capture_output=True, text=True)
    if check and done.returncode != 0:
        where = f" in namespace {netns}" if netns else ""
        raise RuntimeError(f"{' '.join(args)}{where} failed ({done.returncode}): {done.stderr.strip()}")
    return done


class Child:
    """A long-running child process. Its stderr is drained by a thread (a
    full pipe would block the child), keeping the last lines for error
    messages; stdout is discarded unless a subclass reads it. Note:
    PR_SET_PDEATHSIG fires when the thread that started the child exits, so
    start children from the thread that owns the run."""

    STDERR_LINES_KEPT = 20

    def __init__(self, args: list[str], netns: str | None = None, name: str | None = None,
                 stdout: int = subprocess.DEVNULL):
        self.name = name or args[0].rsplit("/", 1)[-1]
        self.args = args
        self.process = subprocess.Popen(in_netns(netns, args), stdout=stdout,
                                        stderr=subprocess.PIPE, text=True,
                                        preexec_fn=_die_with_parent)
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=self.STDERR_LINES_KEPT)
        self._stderr_reader = threading.Thread(target=self._drain_stderr, name=f"{self.name}-stderr",
                                               daemon=True)
        self._stderr_reader.start()

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._stderr_tail.append(line)

    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 5.0) -> int:
        """SIGTERM, wait up to timeout, then SIGKILL. Returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def stderr_text(self) -> str:
        """The last lines the child wrote on stderr (all of them once it has exited)."""
        if self.process.poll() is not None:
            self._stderr_reader.join(1.0)
        return "".join(self._stderr_tail).strip()


class JsonLineChild(Child):
    """A child printing one JSON object per line (satlink, swf-tunnel, QUIC
    peers): a thread reads them; `latest` holds the last `stats` line, other
    events are kept by name, and on_line sees every line."""

    def __init__(self, args: list[str], netns: str | None = None, name: str | None = None,
                 on_line: Callable[[dict[str, Any]], None] | None = None):
        super().__init__(args, netns, name, stdout=subprocess.PIPE)
        self.latest: dict[str, Any] | None = None
        self.events: dict[str, dict[str, Any]] = {}
        self._on_line = on_line
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name=f"{self.name}-stdout", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # not ours to judge: only JSON lines carry counters
            with self._changed:
                if record.get("event") == "stats":
                    self.latest = record
                else:
                    self.events[record.get("event", "")] = record
                self._changed.notify_all()
            if self._on_line is not None:
                self._on_line(record)
        with self._changed:
            self._changed.notify_all()

    def wait_event(self, name: str, timeout: float) -> dict[str, Any]:
        """The `name` line; RuntimeError if the child exits or it does not come in time."""
        with self._changed:
            if not self._changed.wait_for(lambda: name in self.events or not self._reader.is_alive(),
                                          timeout):
                raise RuntimeError(f"{self.name} printed no {name} line within {timeout} s")
            if name not in self.events:
                self.process.wait()
                raise RuntimeError(f"{self.name} exited {self.process.returncode} before its "
                                   f"{name} line: {self.stderr_text()}")
            return self.events[name]

    def stop(self, timeout: float = 5.0) -> int:
        status = super().stop(timeout)
        self._reader.join(timeout)
        return status


def start_ready(args: list[str], netns: str | None, name: str, timeout: float = 10.0,
                on_line: Callable[[dict[str, Any]], None] | None = None) -> JsonLineChild:
    """Start a tool (satlink, swf-tunnel, satlab-pep) and return once it
    printed its `ready` line (its devices are up, it listens); stop it if
    that does not come. on_line sees every line (JsonLineChild)."""
    child = JsonLineChild(args, netns=netns, name=name, on_line=on_line)
    try:
        child.wait_event("ready", timeout)
    except BaseException:
        child.stop()
        raise
    return child
