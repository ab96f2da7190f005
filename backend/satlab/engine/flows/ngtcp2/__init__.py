"""QUIC through ngtcp2 (Debian's example programs gtlsserver and gtlsclient):
the quic-ngtcp2 transport.

    flow.py      Ngtcp2Flow, the engine's side
    programs.py  the two programs: found on the host, their options, stopping them
    qlog.py      their qlogs, read as they grow

README.md beside this file says what a flow measures, and what ngtcp2 0.12.1
can and cannot do, with the evidence.
"""
