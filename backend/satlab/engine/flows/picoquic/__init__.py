"""QUIC through picoquic (the `aiopquic` package): the quic-picoquic transport.

A peer process runs at each end of a flow, in its namespace; PicoquicFlow
(flow.py) drives the two for the engine. README.md beside this file lists
the modules and says what a flow measures, and what aiopquic can and cannot
do, with the evidence. Nothing is imported here: a peer process loads only
what it needs.
"""
