"""The picoquic peer program (through aiopquic): one process per end of a flow,
each inside its network namespace.

    python -m satlab.engine.flows.picoquic.peer cert --out-dir DIR --address 10.0.0.1
    python -m satlab.engine.flows.picoquic.peer server --listen 10.0.0.1:4433 \\
        --cert DIR/cert.pem --key DIR/key.pem --cc bbr1
    python -m satlab.engine.flows.picoquic.peer client --connect 10.0.0.1:4433 \\
        --size-bytes 20971520 --cc bbr1 --flow-id f1 [--direction upload]

The roles live in server.py and client.py; the wire between them and the
lines this program prints on stdout, in protocol.py. It imports neither the
scenario model nor the engine (tests/test_architecture.py): a peer starts
with aiopquic and the standard library only.
"""

import argparse
import asyncio
import sys
from typing import NoReturn

from satlab.engine.flows.picoquic.client import add_client_arguments, run_client
from satlab.engine.flows.picoquic.options import add_common_arguments
from satlab.engine.flows.picoquic.protocol import PeerError, emit
from satlab.engine.flows.picoquic.server import add_server_arguments, run_server
from satlab.engine.flows.tls import CertificateError, make_self_signed_cert


def fail(message: str) -> NoReturn:
    emit({"event": "error", "message": message})
    sys.exit(1)


class SentenceArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad command line as one JSON error line and exit 1."""

    def error(self, message: str) -> NoReturn:
        fail(f"Bad command line for {self.prog}: {message}.")


def build_parser() -> argparse.ArgumentParser:
    parser = SentenceArgumentParser(
        prog="satlab.engine.flows.picoquic.peer", description="A QUIC transfer peer on picoquic for satlab flows."
    )
    roles = parser.add_subparsers(dest="role", required=True, parser_class=SentenceArgumentParser)

    cert = roles.add_parser("cert", help="write a self-signed cert.pem and key.pem")
    cert.add_argument("--out-dir", required=True)
    cert.add_argument("--address", required=True, help="server IP the certificate names")

    server = roles.add_parser("server", help="serve transfers and report path statistics")
    add_server_arguments(server)
    add_common_arguments(server)

    client = roles.add_parser("client", help="download or upload, and print a summary")
    add_client_arguments(client)
    add_common_arguments(client)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.role == "cert":
            cert_path, key_path = make_self_signed_cert(args.out_dir, args.address)
            emit({"event": "cert", "cert": cert_path, "key": key_path})
            return 0
        runner = run_server if args.role == "server" else run_client
        return asyncio.run(runner(args))
    except (PeerError, CertificateError) as error:
        fail(str(error))


if __name__ == "__main__":
    sys.exit(main())
