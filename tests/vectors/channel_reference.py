"""An independent Python reference of libswf's channel models, for test vectors.

Written from the contract in codec/include/swf.h and the rules stated at the
top of codec/src/channel.c (times in whole microseconds, probabilities as
thresholds on 32-bit TinyMT32 outputs, the order of the draws), sharing no code
with the C library, so that vectors generated here check it.
Plain and slow on purpose.
"""

from collections.abc import Callable
from typing import Any, Protocol

from reference import TinyMT32

Params = dict[str, Any]  # swf_channel_config's fields by name; intervals as dicts

TWO_TO_32 = 4294967296.0


def ms_to_us(ms: float) -> int:
    """Nearest whole microsecond of ms * 1000.0 (a binary64 product), halves up."""
    us = ms * 1000.0
    whole = int(us)
    return whole + 1 if us - whole >= 0.5 else whole


def threshold(probability: float) -> int:
    """floor(probability * 2^32): an event happens when a draw is below it."""
    return int(probability * TWO_TO_32)


class Perfect:
    def __init__(self, seed: int, params: Params):
        pass

    def lost(self, t_us: int) -> bool:
        return False


class Bernoulli:
    def __init__(self, seed: int, params: Params):
        self.rng = TinyMT32(seed)
        self.loss = threshold(params["loss"])

    def lost(self, t_us: int) -> bool:
        return self.rng.next() < self.loss


class GilbertElliottPacket:
    """Per packet: the loss draw in the current state, then the transition draw."""

    def __init__(self, seed: int, params: Params):
        self.rng = TinyMT32(seed)
        self.p, self.q = threshold(params["p"]), threshold(params["q"])
        self.loss = {
            False: threshold(params["loss_good"]),
            True: threshold(params["loss_bad"]),
        }
        self.bad = False

    def lost(self, t_us: int) -> bool:
        lost = self.rng.next() < self.loss[self.bad]
        u = self.rng.next()
        self.bad = u >= self.q if self.bad else u < self.p
        return lost


class GilbertElliottTime:
    """One transition draw on entering each step after step 0 (which is good)."""

    def __init__(self, seed: int, params: Params):
        self.rng = TinyMT32(seed)
        self.p, self.q = threshold(params["p"]), threshold(params["q"])
        self.step_us = ms_to_us(params["step_ms"])
        self.states = [False]  # states[s] is True when step s is bad

    def lost(self, t_us: int) -> bool:
        step = t_us // self.step_us
        while len(self.states) <= step:
            u = self.rng.next()
            bad = self.states[-1]
            self.states.append(u >= self.q if bad else u < self.p)
        return self.states[step]


class Outage:
    """Outage n covers [phase + n * period + j_n, + duration), j_n drawn in order."""

    def __init__(self, seed: int, params: Params):
        self.rng = TinyMT32(seed)
        self.period = ms_to_us(params["period_ms"])
        self.duration = ms_to_us(params["duration_ms"])
        self.phase = ms_to_us(params.get("phase_ms", 0.0))
        self.jitter = ms_to_us(params.get("jitter_ms", 0.0))
        # starts[n] is the start of outage n, in microseconds
        self.starts: list[int] = []

    def _start(self, n: int) -> int:
        while len(self.starts) <= n:
            j = (self.rng.next() * self.jitter) >> 32
            self.starts.append(self.phase + len(self.starts) * self.period + j)
        return self.starts[n]

    def lost(self, t_us: int) -> bool:
        if t_us < self.phase:
            return False
        n = (t_us - self.phase) // self.period
        start = self._start(n)
        return start <= t_us < start + self.duration


class Trace:
    def __init__(self, seed: int, params: Params):
        self.intervals = [
            (ms_to_us(i["start_ms"]), ms_to_us(i["end_ms"]))
            for i in params["intervals"]
        ]
        period_ms = params.get("trace_period_ms", 0.0)
        self.period = ms_to_us(period_ms) if period_ms > 0 else 0

    def lost(self, t_us: int) -> bool:
        offset = t_us % self.period if self.period else t_us
        return any(start <= offset < end for start, end in self.intervals)


class Model(Protocol):
    def lost(self, t_us: int) -> bool: ...


MODELS: dict[str, Callable[[int, Params], Model]] = {
    "perfect": Perfect,
    "bernoulli": Bernoulli,
    "ge_packet": GilbertElliottPacket,
    "ge_time": GilbertElliottTime,
    "outage": Outage,
    "trace": Trace,
}


class Channel:
    """A model, and the rule that an earlier time counts as the latest one seen."""

    def __init__(self, kind: str, seed: int, params: Params):
        self.model = MODELS[kind](seed, params)
        self.latest_us = 0

    def lost(self, t_us: int) -> bool:
        self.latest_us = max(self.latest_us, t_us)
        return self.model.lost(self.latest_us)


def lost_indices(
    kind: str, seed: int, params: Params, interval_us: int, packets: int
) -> list[int]:
    """Indices of the lost packets when packet i is sent at i * interval_us."""
    channel = Channel(kind, seed, params)
    return [i for i in range(packets) if channel.lost(i * interval_us)]
