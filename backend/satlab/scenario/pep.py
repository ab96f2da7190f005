"""The split-TCP performance-enhancing proxy (RFC 3135) a scenario may put
on the path, as operators of GEO access networks do: a PEP terminates the
user's TCP connection and carries its bytes over the satellite on its own
connection, with its own settings (codec/README.md, satlab-pep).

`mode: distributed` puts one at the terminal and one at the gateway (three
connections: client - terminal PEP - gateway PEP - server, the middle one
over the satellite); `mode: gateway` one at the gateway alone (the client's
own connection crosses the satellite to it). Each segment has its settings:
`satellite` for the PEPs' sockets on the connection across the satellite,
`ground` for those toward the end hosts. QUIC and other UDP pass untouched.

Any Linux congestion control makes a valid scenario; whether this host's
kernel runs it is satlab.engine.preflight's question, as for flows.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from satlab.scenario.base import Strict, field_error
from satlab.tcp_congestion import LINUX_TCP_CONGESTION_CONTROLS

# satlab-pep's own bounds (codec/tools/pep.c): socket buffers (the kernel
# doubles them) and each direction's pipe per connection.
MIN_SOCKET_BUFFER_BYTES = 4096
MAX_SOCKET_BUFFER_BYTES = 1 << 30
MIN_PIPE_BYTES = 4096
MAX_PIPE_BYTES = 64 << 20
DEFAULT_PIPE_BYTES = 1 << 20
# The route's initcwnd and initrwnd, in segments. Linux takes any, but a
# window beyond a GEO path's BDP at 10 Gbit/s (about 600 000 segments) has no meaning.
MAX_INITIAL_WINDOW_PACKETS = 1 << 20
FAST_OPEN_MODES = ("off", "cookie", "no-cookie")

SocketBufferBytes = Field(default=None, ge=MIN_SOCKET_BUFFER_BYTES, le=MAX_SOCKET_BUFFER_BYTES)


class PepGround(Strict):
    """The PEPs' sockets toward the end hosts."""
    cc: str = "cubic"  # TCP_CONGESTION of these sockets
    # SO_SNDBUF / SO_RCVBUF (setting one turns the kernel's autotuning of it
    # off, and the kernel doubles it); None: autotuning within tcp_wmem / tcp_rmem.
    sndbuf_bytes: int | None = SocketBufferBytes
    rcvbuf_bytes: int | None = SocketBufferBytes

    @field_validator("cc")
    @classmethod
    def _cc_of_linux(cls, cc: str) -> str:
        if cc not in LINUX_TCP_CONGESTION_CONTROLS:
            raise ValueError(f"is not a congestion control of Linux TCP; allowed: "
                             f"{', '.join(LINUX_TCP_CONGESTION_CONTROLS)}")
        return cc


class PepSatellite(PepGround):
    """The PEPs' sockets on the connection across the satellite: the terminal
    PEP's connections to the gateway PEP and the gateway PEP's accepted ones
    (in gateway mode, the client's own connections)."""
    # The route attributes initcwnd and initrwnd (segments) on the routes these
    # sockets take across the satellite; None: the kernel's (10 segments).
    initcwnd_packets: int | None = Field(default=None, ge=1, le=MAX_INITIAL_WINDOW_PACKETS)
    initrwnd_packets: int | None = Field(default=None, ge=1, le=MAX_INITIAL_WINDOW_PACKETS)
    # TCP Fast Open between the PEPs (RFC 7413): cookie (the first connection
    # fetches a cookie; later SYNs carry the client's first bytes), no-cookie
    # (every SYN carries them); distributed mode only.
    fast_open: Literal["off", "cookie", "no-cookie"] = "off"

    @field_validator("fast_open", mode="before")
    @classmethod
    def _fast_open_from_yaml_booleans(cls, fast_open: Any) -> Any:
        # YAML 1.1 reads a bare off as false; a bare on (true) names no mode.
        if fast_open is False:
            return "off"
        if fast_open is True:
            raise ValueError(f"names no mode; allowed: {', '.join(FAST_OPEN_MODES)}")
        return fast_open


class Pep(Strict):
    """A split-TCP PEP: absent or null in the scenario, none."""
    mode: Literal["gateway", "distributed"]
    satellite: PepSatellite = Field(default_factory=PepSatellite)
    ground: PepGround = Field(default_factory=PepGround)
    # Each direction's buffer of a relayed connection (satlab-pep --pipe-bytes).
    pipe_bytes: int = Field(default=DEFAULT_PIPE_BYTES, ge=MIN_PIPE_BYTES, le=MAX_PIPE_BYTES)

    @model_validator(mode="after")
    def _fast_open_between_peps(self) -> Pep:
        if self.satellite.fast_open != "off" and self.mode == "gateway":
            raise field_error("satellite.fast_open", "needs mode distributed: in gateway mode the connection "
                              "across the satellite is the client's own, whose SYN no PEP fills; give off",
                              self.satellite.fast_open)
        return self

    @property
    def roles(self) -> tuple[str, ...]:
        """Where a PEP runs: the namespaces' roles."""
        return ("terminal", "gateway") if self.mode == "distributed" else ("gateway",)
