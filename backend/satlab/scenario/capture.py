"""What a run keeps beside its samples and summaries, for the field's own
tools: each QUIC flow's qlog from both ends (qvis), its TLS secrets (an NSS
key log: Wireshark decrypts a capture with it), and packet captures of the
satellite link and the tunnel with each packet's fate (pcapng). Kept files
go to the run's directory of the service (satlab.service.artifacts),
compressed, within a cap on their bytes per run."""

from __future__ import annotations

from pydantic import Field

from satlab.scenario.base import Strict

# The most a scenario may raise its run's cap to (the service's default cap,
# SATLAB_LIMIT_RUN_ARTIFACT_BYTES, applies when it names none).
MAX_CAPTURE_BYTES = 16 << 30
MIN_CAPTURE_BYTES = 1 << 20
# Headers only: IPv4 (20) + UDP (8) or TCP with options (60) + a QUIC short
# header or the tunnel's, with room to spare; the payload is not kept.
DEFAULT_SNAP_BYTES = 128


class Capture(Strict):
    """What the run keeps; packet captures are off by default, qlogs and key logs on."""
    packets: bool = Field(default=False, description="pcapng of the satellite link (each direction), the LAN "
                                                     "segment and the tunnel (each endpoint's datagrams sent and "
                                                     "received), each packet with its fate (delivered, dropped by "
                                                     "the buffer or the AQM, lost on the channel; the tunnel's "
                                                     "source, repair, rebuilt, given up, rejected)")
    snap_bytes: int = Field(default=DEFAULT_SNAP_BYTES, ge=64, le=65535,
                            description="bytes of each captured packet kept (headers only by default; Wireshark "
                                        "decrypts QUIC only from whole packets: 1500 or more)")
    qlog: bool = Field(default=True, description="each QUIC flow's qlog from both ends (for qvis)")
    keylog: bool = Field(default=True, description="each QUIC flow's TLS secrets (NSS key log), embedded into "
                                                   "the packet captures so that Wireshark decrypts them")
    max_bytes: int | None = Field(default=None, ge=MIN_CAPTURE_BYTES, le=MAX_CAPTURE_BYTES,
                                  description="the most bytes the run's kept files may take, compressed; null: "
                                              "the service's default (run_artifact_bytes in GET /api/limits)")
