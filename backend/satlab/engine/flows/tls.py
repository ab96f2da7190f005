"""TLS for the QUIC servers: a self-signed certificate (their clients do not
verify it: it only lets QUIC's TLS handshake complete), and host:port text."""

from __future__ import annotations

import ipaddress
import os
import subprocess


class CertificateError(RuntimeError):
    """openssl could not make the certificate; the message is a sentence."""


def make_self_signed_cert(out_dir: str, address: str) -> tuple[str, str]:
    """Write cert.pem and key.pem (EC P-256, self-signed for IP `address`) into out_dir.

    Returns (cert_path, key_path). The client does not verify the chain; the
    certificate only lets the TLS handshake of QUIC complete.
    """
    try:
        ipaddress.ip_address(address)
    except ValueError:
        raise CertificateError(f"A certificate needs an IP address, got {address!r}.") from None
    cert_path = os.path.join(out_dir, "cert.pem")
    key_path = os.path.join(out_dir, "key.pem")
    # The key file exists, private (0600), before openssl writes into it
    # (whatever the umask or openssl's habits); it goes with the run's work
    # directory at teardown.
    os.close(os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    command = [
        "openssl", "req", "-x509", "-newkey", "ec",
        "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "30",
        "-keyout", key_path, "-out", cert_path,
        "-subj", "/CN=satlab", "-addext", f"subjectAltName=IP:{address}",
    ]
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    if result.returncode != 0:
        raise CertificateError(
            f"openssl could not make a self-signed certificate in {out_dir!r}: "
            f"{result.stderr.strip()}"
        )
    return cert_path, key_path


def endpoint(address: str, port: int) -> str:
    return f"[{address}]:{port}" if ipaddress.ip_address(address).version == 6 else f"{address}:{port}"
