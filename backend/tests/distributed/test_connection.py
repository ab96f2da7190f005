"""Reaching Redis: a password always, a clear error fast when it cannot be reached."""

import time

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from satlab.distributed import connection
from tests.distributed.conftest import RedisServer, free_loopback_port


def test_connect_with_the_password_answers(redis_server: RedisServer):
    client = connection.connect(redis_server.url)
    assert client.ping() is True
    client.close()


def test_an_unauthenticated_client_is_refused(redis_server: RedisServer):
    # Without retries: the client's default retries an authentication error with back-off, for seconds.
    anonymous = redis.Redis(host="127.0.0.1", port=redis_server.port, retry=Retry(NoBackoff(), 0))
    with pytest.raises(redis.AuthenticationError):
        anonymous.ping()
    with pytest.raises(redis.AuthenticationError):
        anonymous.set("key", "value")
    anonymous.close()


def test_a_wrong_password_is_a_sentence_without_any_password(redis_server: RedisServer):
    wrong = redis_server.url.replace(redis_server.password, "guessed-secret")
    with pytest.raises(connection.BrokerUnavailable) as refused:
        connection.connect(wrong)
    assert str(refused.value) == (f"Redis at redis://127.0.0.1:{redis_server.port}/0 refused the password: "
                                  "use the secret from the stack's .env in SATLAB_BROKER_URL")


def test_unreachable_redis_is_a_clear_error_at_once():
    port = free_loopback_port()
    started = time.monotonic()
    with pytest.raises(connection.BrokerUnavailable) as unreachable:
        connection.connect(f"redis://:pw-7f3a@127.0.0.1:{port}/0")
    assert time.monotonic() - started < connection.CONNECT_TIMEOUT_S
    assert str(unreachable.value).startswith(f"cannot reach Redis at redis://127.0.0.1:{port}/0 (")
    assert "is redis-server running there, and is SATLAB_BROKER_URL right?" in str(unreachable.value)
    assert "pw-7f3a" not in str(unreachable.value)


@pytest.mark.parametrize(("url", "problem"), [
    ("redis://127.0.0.1:6379/0", "SATLAB_BROKER_URL: redis://127.0.0.1:6379/0 has no password"),
    ("redis://user@127.0.0.1:6379/0", "SATLAB_BROKER_URL: redis://127.0.0.1:6379/0 has no password"),
    ("amqp://:pw-7f3a@127.0.0.1:5672/", "SATLAB_BROKER_URL: amqp://127.0.0.1:5672/ is not a Redis URL"),
])
def test_a_url_without_a_password_or_not_redis_is_refused_before_connecting(url, problem):
    with pytest.raises(ValueError) as refused:
        connection.check_url(url)
    assert str(refused.value).startswith(problem)
    assert "pw-7f3a" not in str(refused.value)


def test_redacted_drops_the_password():
    assert connection.redacted("rediss://:s3cr3t@redis.example:6380/2") == "rediss://redis.example:6380/2"
