"""Redis across a network: its own tls-port, the password still required,
the certificate checked by satlab's client and by Celery's transport alike
(rediss://…?ssl_cert_reqs=required&ssl_ca_certs=…)."""

import shutil
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from satlab.distributed import connection
from satlab.distributed.celery_app import RUN_QUEUE, RUN_TASK, make_app, tls_options
from tests.distributed.conftest import free_loopback_port


@pytest.fixture
def tls_redis(tmp_path: Path) -> Iterator[str]:
    """redis-server on a TLS port only, with a password; the rediss URL that reaches it."""
    if shutil.which("redis-server") is None or shutil.which("openssl") is None:
        pytest.skip("needs redis-server and openssl")
    key, certificate = tmp_path / "redis.key", tmp_path / "redis.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-keyout", str(key), "-out", str(certificate), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    port, password = free_loopback_port(), "a-secret-for-tests"
    process = subprocess.Popen(["redis-server", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert process.stdin is not None
    process.stdin.write(f"bind 127.0.0.1\nport 0\ntls-port {port}\ntls-cert-file {certificate}\ntls-key-file {key}\n"
                        f"tls-ca-cert-file {certificate}\ntls-auth-clients no\nrequirepass {password}\n"
                        f"dir {tmp_path}\nsave \"\"\nappendonly no\n")
    process.stdin.close()
    url = f"rediss://:{password}@localhost:{port}/0?ssl_cert_reqs=required&ssl_ca_certs={certificate}"
    try:
        from satlab.engine.wait import wait_until

        def answers() -> bool:
            try:
                connection.connect(url).close()
                return True
            except connection.BrokerUnavailable:
                if process.poll() is not None:
                    pytest.skip("this redis-server was built without TLS")
                return False
        wait_until(answers, 10, "redis-server to answer on its TLS port")
        yield url
    finally:
        process.terminate()
        process.wait(10)


def test_a_run_request_crosses_redis_over_tls(tls_redis: str) -> None:
    assert tls_options(tls_redis)["ssl_cert_reqs"] == ssl.CERT_REQUIRED
    make_app(tls_redis).send_task(RUN_TASK, args=[{"run_id": "a1b2c3"}], queue=RUN_QUEUE)
    client = connection.connect(tls_redis)
    try:
        assert client.llen(RUN_QUEUE) == 1
    finally:
        client.close()


def test_a_certificate_that_does_not_check_out_is_refused(tls_redis: str, tmp_path: Path) -> None:
    other = tmp_path / "other.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-keyout", str(tmp_path / "other.key"), "-out", str(other), "-subj", "/CN=localhost"],
                   check=True, capture_output=True)
    wrong = tls_redis.rsplit("ssl_ca_certs=", 1)[0] + f"ssl_ca_certs={other}"
    with pytest.raises(connection.BrokerUnavailable, match="cannot reach Redis at rediss://localhost"):
        connection.connect(wrong)


def test_a_certificate_check_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError, match="ssl_cert_reqs='maybe' is not allowed"):
        tls_options("rediss://:s@host:6380/0?ssl_cert_reqs=maybe")
