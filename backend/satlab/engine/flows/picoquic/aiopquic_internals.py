"""The only place that touches aiopquic's private members (aiopquic 0.6.1).

The peer needs two things aiopquic 0.6.1 keeps private:
- the QuicConnection behind a protocol (`QuicConnectionProtocol._quic`):
  `connect()` yields the protocol, and only its connection can open a stream
  and write before the handshake completes (`wait_connected=False`, the
  request in 0-RTT), read path_quality() and connection_ids; the server's
  protocol sends and resets streams on it. aioquic and qh3, whose API
  aiopquic copies, keep it private too.
- whether the handshake resumed a session, now
  (`QuicConnection._session_resumed`): HandshakeCompleted.session_resumed
  reads aiopquic's cached snapshot of picoquic's connection, which may
  predate the handshake (README.md beside this file).

When a release of aiopquic exposes them, this module is what changes.
"""

from __future__ import annotations

from aiopquic.asyncio.protocol import QuicConnectionProtocol
from aiopquic.quic.connection import QuicConnection

# aiopquic's handle for "this QuicConnection's own picoquic connection".
_OWN_CONNECTION = 0


class ConnectionProtocol(QuicConnectionProtocol):
    """aiopquic's protocol with its connection in reach."""

    @property
    def quic(self) -> QuicConnection:
        return self._quic


def session_resumed(quic: QuicConnection) -> bool:
    """Whether the handshake resumed a session, by aiopquic's latest snapshot
    of the connection (QuicConnection.path_quality() asks for a fresh one)."""
    return bool(quic._session_resumed(_OWN_CONNECTION))
