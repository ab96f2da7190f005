"""Forwarded headers are believed from SATLAB_TRUSTED_PROXIES only, so that
limits apply per real client (issue 20, defect 5): directly, a client that
sends X-Forwarded-For is counted under its own address; behind a real nginx
(Debian's, started here with backend/README.md's configuration), each
client behind it is counted under its own. Clients come from distinct
loopback addresses (127.0.0.2, 127.0.0.3...), as machines of a classroom."""

import contextlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus

from satlab.engine.wait import wait_until
from satlab.settings import Limits
from tests.api.served import TOKEN, answers, http_from, serving, stream_from
from tests.test_serve import free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
README = Path(__file__).parents[2] / "README.md"
ATTEMPTS = Limits().login_attempts_per_minute


def wrong_tokens(client, forged: bool) -> list[int]:
    """ATTEMPTS + 1 sign-ins with a wrong token, each claiming another address if forged."""
    return [client.post("/api/auth/instructor", json={"token": "guess"},
                        headers={"X-Forwarded-For": f"10.9.8.{attempt}"} if forged else None).status_code
            for attempt in range(ATTEMPTS + 1)]


def signed_in(client) -> str:
    response = client.post("/api/auth/instructor", json={"token": TOKEN})
    assert response.status_code == 200, response.text
    return str(response.cookies["satlab_session"])


def streams_allowed(source: str, base: str, cookie: str, tries: int) -> int:
    """How many of tries streams source may hold open at once."""
    with contextlib.ExitStack() as opened:
        allowed = 0
        for _ in range(tries):
            try:
                opened.enter_context(stream_from(source, f"ws://{base}/api/events", cookie))
                allowed += 1
            except InvalidStatus as refused:
                assert refused.response.status_code == 429
                assert b"max_websockets_per_client" in refused.response.body
        return allowed


def test_a_direct_client_cannot_choose_its_address(tmp_path):
    """The defect: uvicorn believed X-Forwarded-For from 127.0.0.1, so a client
    there (or behind a proxy that does not set it) named its own address."""
    with serving(tmp_path, {"SATLAB_LIMIT_MAX_WEBSOCKETS_PER_CLIENT": "2"}) as base:
        with http_from("127.0.0.1", f"http://{base}") as client:
            assert wrong_tokens(client, forged=True) == [401] * ATTEMPTS + [429]
        with http_from("127.0.0.2", f"http://{base}") as client:
            cookie = signed_in(client)
            audit = client.get("/api/audit", params={"limit": 1000}).json()["data"]
        assert {entry["address"] for entry in audit} == {"127.0.0.1", "127.0.0.2"}
        # Streams claiming other addresses count as the client's own.
        with contextlib.ExitStack() as opened:
            for index in range(2):
                opened.enter_context(stream_from("127.0.0.2", f"ws://{base}/api/events", cookie,
                                                 forwarded_for=f"10.9.9.{index}"))
            with pytest.raises(InvalidStatus) as refused, \
                    stream_from("127.0.0.2", f"ws://{base}/api/events", cookie, forwarded_for="10.9.9.9"):
                pass
            assert refused.value.response.status_code == 429


def nginx_location(backend: str) -> str:
    """The nginx configuration backend/README.md gives, pointed at backend."""
    block = re.search(r"```nginx\n(.*?)```", README.read_text(), re.DOTALL)
    assert block is not None, "backend/README.md has no ```nginx block"
    assert "proxy_pass http://127.0.0.1:8000;" in block.group(1)
    return block.group(1).replace("127.0.0.1:8000", backend)


def nginx_config(directory: Path, port: int, backend: str) -> Path:
    config = directory / "nginx.conf"
    temp = {name: directory / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    config.write_text(f"""
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {temp['body']};
    proxy_temp_path {temp['proxy']};
    fastcgi_temp_path {temp['fastcgi']};
    uwsgi_temp_path {temp['uwsgi']};
    scgi_temp_path {temp['scgi']};
    server {{
        listen 127.0.0.1:{port};
        {nginx_location(backend)}
    }}
}}
""")
    return config


@pytest.fixture
def nginx_in_front(tmp_path):
    """A function: nginx in front of a backend (host:port), its address; stopped by its PID at the end."""
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (Debian's nginx: make deps installs it)")
    started: list[subprocess.Popen[bytes]] = []

    def start(backend: str) -> str:
        directory = tmp_path / f"nginx-{len(started)}"
        directory.mkdir()
        port = free_port()
        config = nginx_config(directory, port, backend)
        nginx = subprocess.Popen([NGINX, "-c", str(config), "-p", str(directory), "-e", str(directory / "error.log"),
                                  "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started.append(nginx)
        wait_until(lambda: answers(f"http://127.0.0.1:{port}/api/auth/me") or nginx.poll() is not None, 30,
                   "nginx to pass a request on")
        assert nginx.poll() is None, (directory / "error.log").read_text()
        return f"127.0.0.1:{port}"

    yield start
    for nginx in started:
        nginx.terminate()
        nginx.wait(30)


def test_behind_nginx_limits_apply_per_real_client(tmp_path, nginx_in_front):
    env = {"SATLAB_TRUSTED_PROXIES": "127.0.0.1", "SATLAB_LIMIT_MAX_WEBSOCKETS_PER_CLIENT": "2"}
    with serving(tmp_path, env) as backend:
        proxy = nginx_in_front(backend)
        with http_from("127.0.0.2", f"http://{proxy}") as alice:
            assert wrong_tokens(alice, forged=True) == [401] * ATTEMPTS + [429]
        with http_from("127.0.0.3", f"http://{proxy}") as bob:
            assert bob.post("/api/auth/instructor", json={"token": "guess"}).status_code == 401  # not alice's 429
            bob_cookie = signed_in(bob)
            audit = bob.get("/api/audit", params={"limit": 1000}).json()["data"]
            assert bob.get("/api/auth/me").headers["x-frame-options"] == "DENY"
        assert {entry["address"] for entry in audit} == {"127.0.0.2", "127.0.0.3"}
        with http_from("127.0.0.4", f"http://{proxy}") as carol:
            carol_cookie = signed_in(carol)
        assert streams_allowed("127.0.0.3", proxy, bob_cookie, 3) == 2
        assert streams_allowed("127.0.0.4", proxy, carol_cookie, 3) == 2


def test_behind_an_untrusted_proxy_everyone_is_the_proxy(tmp_path, nginx_in_front):
    """Without SATLAB_TRUSTED_PROXIES the forwarded address is not believed:
    every client behind nginx is nginx's 127.0.0.1, one client's limits
    are everyone's (why the instructor names their proxy)."""
    with serving(tmp_path, {"SATLAB_LIMIT_MAX_WEBSOCKETS_PER_CLIENT": "2"}) as backend:
        proxy = nginx_in_front(backend)
        with http_from("127.0.0.3", f"http://{proxy}") as bob:
            bob_cookie = signed_in(bob)
        with http_from("127.0.0.4", f"http://{proxy}") as carol:
            carol_cookie = signed_in(carol)
            assert {entry["address"] for entry in carol.get("/api/audit").json()["data"]} == {"127.0.0.1"}
        with stream_from("127.0.0.3", f"ws://{proxy}/api/events", bob_cookie), \
                stream_from("127.0.0.3", f"ws://{proxy}/api/events", bob_cookie):
            assert streams_allowed("127.0.0.4", proxy, carol_cookie, 1) == 0
