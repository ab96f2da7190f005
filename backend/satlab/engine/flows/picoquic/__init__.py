"""QUIC through picoquic (the `aiopquic` package): the quic-picoquic transport.

A peer process runs at each end of a flow, in its namespace; PicoquicFlow
drives the two for the engine.

    flow.py                PicoquicFlow, the engine's side (imports no aiopquic)
    qlog.py                counting a picoquic qlog (ACK frames, 0-RTT, first and last byte)
    peer.py                the peer program: python -m satlab.engine.flows.picoquic.peer
    server.py, client.py   its two roles
    protocol.py            the wire between them, and the lines a peer prints (pure)
    options.py             the options both roles take, and their QuicConfiguration
    sending.py, signals.py the zero payload and the stats lines; how a peer stops
    aiopquic_internals.py  the only use of aiopquic's private members

README.md beside this file says what a flow measures, and what aiopquic can
and cannot do, with the evidence. Nothing is imported here: a peer process
loads only what it needs.
"""
