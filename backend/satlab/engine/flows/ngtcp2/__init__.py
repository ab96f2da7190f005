"""QUIC through ngtcp2 (Debian's example programs gtlsserver and gtlsclient):
the quic-ngtcp2 transport. README.md beside this file lists the modules and
says what a flow measures, and what ngtcp2 0.12.1 can and cannot do, with
the evidence.
"""
