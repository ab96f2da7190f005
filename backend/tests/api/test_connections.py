"""What every answer tells the browser, the Origin compared by scheme, and
clients that trickle their requests (issue 20: headers and connections)."""

import dataclasses
import socket
import time

import pytest
from fastapi.testclient import TestClient

from satlab.api.main import create_app
from satlab.api.security import CONTENT_SECURITY_POLICY
from satlab.engine.wait import wait_until
from tests.api.conftest import instructor, refusal
from tests.api.served import TOKEN, http_from, serving, stream_from

TIMEOUT_S = 2  # header_timeout_s and body_timeout_s of the served tests
SLACK_S = 3  # what a loaded machine adds to a timer


@pytest.mark.parametrize("path", ["/", "/api/auth/me", "/api/nothere", "/api/docs-assets/swagger-ui.css"])
def test_every_answer_carries_the_security_headers(client, path):
    response = client.get(path)
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_the_policy_allows_no_inline_script_and_names_wasm_and_workers():
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY and "'unsafe-eval'" not in CONTENT_SECURITY_POLICY
    assert directives["worker-src"] == "'self' blob:"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


def test_the_api_documentation_runs_its_one_inline_script_by_hash(client):
    response = client.get("/api/docs")
    policy = response.headers["content-security-policy"]
    assert response.status_code == 200 and "script-src 'self' 'sha256-" in policy
    assert policy.count("'sha256-") == 1 and "unsafe-inline" not in policy


def test_an_origin_of_another_scheme_is_another_site(settings):
    """The defect: the Origin check compared host and port only."""
    with TestClient(create_app(settings)) as client:
        response = client.post("/api/runs/x/cancel", headers={"origin": "https://testserver"})
        assert (response.status_code, response.json()["detail"][0]["loc"]) == (403, ["header", "origin"])
        assert refusal(response) == "Cross-site request refused: https://testserver is not this site (testserver)."
        assert client.post("/api/runs/x/cancel", headers={"origin": "http://testserver"}).status_code == 404


def test_behind_a_trusted_https_proxy_the_https_origin_is_this_site(settings):
    proxied = dataclasses.replace(settings, trusted_proxies=("testclient",))  # TestClient's address
    with TestClient(create_app(proxied)) as client:
        https = {"x-forwarded-proto": "https"}
        assert client.post("/api/runs/x/cancel", headers={**https, "origin": "https://testserver"}).status_code == 404
        assert client.post("/api/runs/x/cancel", headers={**https, "origin": "http://testserver"}).status_code == 403
    with TestClient(create_app(settings)) as client:  # not trusted: its X-Forwarded-Proto means nothing
        response = client.post("/api/runs/x/cancel", headers={"x-forwarded-proto": "https",
                                                               "origin": "https://testserver"})
        assert response.status_code == 403


def test_the_session_cookie_is_secure_behind_a_trusted_https_proxy(classroom):
    proxied = dataclasses.replace(classroom, trusted_proxies=("testclient",))
    with TestClient(create_app(proxied)) as app_client:
        response = app_client.post("/api/auth/instructor", json={"token": "a-token-for-tests-only"},
                                   headers={"x-forwarded-proto": "https"})
        assert "Secure" in response.headers["set-cookie"]
    with TestClient(create_app(classroom)) as app_client:
        assert "Secure" not in instructor(app_client).post("/api/auth/logout").headers.get("set-cookie", "")


def closed_after_s(sock: socket.socket, trickle: bytes, every_s: float = 0.5) -> float:
    """Send trickle a byte at a time until the server closes the connection; how long that took."""
    started = time.monotonic()
    for byte in trickle:
        try:
            sock.sendall(bytes([byte]))
        except OSError:  # reset: closed
            return time.monotonic() - started
        sock.settimeout(every_s)
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - started
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - started
    raise AssertionError(f"the server kept the connection for {time.monotonic() - started:.1f} s")


SLOW_HEADERS = b"GET /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: " + b"a" * 200


def test_slow_clients_are_closed_within_the_timeouts(tmp_path):
    """The defect: 30 trickling clients were held for the whole 30 s test.
    Each connection of a client that trickles its headers (a byte every half
    second, slow-loris) is closed after header_timeout_s; one that trickles
    its body, after body_timeout_s; others are answered meanwhile."""
    env = {"SATLAB_LIMIT_HEADER_TIMEOUT_S": str(TIMEOUT_S), "SATLAB_LIMIT_BODY_TIMEOUT_S": str(TIMEOUT_S)}
    with serving(tmp_path, env) as base:
        host, port = base.rsplit(":", 1)
        sockets = [socket.create_connection((host, int(port)), timeout=5, source_address=(f"127.0.0.{2 + n}", 0))
                   for n in range(30)]
        try:
            started = time.monotonic()
            for sock in sockets:
                sock.sendall(b"GET /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: a")

            def all_closed() -> bool:
                for sock in sockets:
                    sock.setblocking(False)
                    try:
                        if sock.recv(4096) != b"":
                            return False
                    except BlockingIOError:
                        return False
                    except OSError:
                        pass
                return True
            wait_until(all_closed, TIMEOUT_S + SLACK_S + 5, "30 trickling connections to be closed")
            assert time.monotonic() - started <= TIMEOUT_S + SLACK_S + 5
        finally:
            for sock in sockets:
                sock.close()

        with socket.create_connection((host, int(port)), timeout=5) as sock:
            assert TIMEOUT_S - 0.5 <= closed_after_s(sock, SLOW_HEADERS) <= TIMEOUT_S + SLACK_S
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            sock.sendall(b"POST /api/auth/instructor HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 400\r\n\r\n")
            assert TIMEOUT_S - 0.5 <= closed_after_s(sock, b"{" + b" " * 399) <= TIMEOUT_S + SLACK_S
        with socket.create_connection((host, int(port)), timeout=5) as sock:  # an idle connection
            sock.settimeout(TIMEOUT_S + SLACK_S + 5)
            assert sock.recv(4096) == b""
        with socket.create_connection((host, int(port)), timeout=5) as sock:  # a prompt one is answered
            sock.sendall(b"GET /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.1 200 ")


def test_a_websocket_outlives_the_request_deadlines(tmp_path):
    """The defect: uvicorn hands an upgraded connection to its WebSocket
    protocol before h11 has read the request's (empty) body, so the body's
    deadline ran on and closed every stream after body_timeout_s (30 s): a
    study run followed on the Studies page stopped at its last progress."""
    env = {"SATLAB_LIMIT_HEADER_TIMEOUT_S": str(TIMEOUT_S), "SATLAB_LIMIT_BODY_TIMEOUT_S": str(TIMEOUT_S)}
    with serving(tmp_path, env) as base:
        with http_from("127.0.0.1", f"http://{base}") as client:
            cookie = str(client.post("/api/auth/instructor", json={"token": TOKEN}).cookies["satlab_session"])
        with stream_from("127.0.0.1", f"ws://{base}/api/events", cookie) as stream:
            time.sleep(TIMEOUT_S + SLACK_S)  # a quiet stream: what is measured is that nothing closes it
            assert stream.ping().wait(5), "the stream did not answer a ping"
