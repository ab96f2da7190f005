"""QUIC through picoquic (the `aiopquic` package): the quic-picoquic transport.

A peer program runs in each namespace (peer); PicoquicFlow drives the two
for the engine. README.md beside this file says what a flow measures and
what aiopquic can and cannot do, with the evidence.

Nothing is imported here: a peer process loads only what it needs.
"""
