"""The Celery application's delivery guarantees, and its messages on the wire of a real Redis."""

import base64
import json
import os
import time
import warnings

import pytest
import redis
from celery.exceptions import SecurityError
from celery.platforms import check_privileges
from kombu.exceptions import OperationalError

from satlab.distributed import celery_app
from satlab.distributed.messages import parse_run_request
from tests.distributed.conftest import RedisServer, free_loopback_port, run_request

LONGEST_S = 7200


def test_the_configuration_says_what_style_asks_of_long_tasks():
    conf = celery_app.make_app("redis://:pw@127.0.0.1:6379/0", LONGEST_S).conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_time_limit == LONGEST_S
    # Longer than the longest run, or Redis hands a running run to a second worker.
    assert conf.broker_transport_options["visibility_timeout"] == 2 * LONGEST_S
    assert conf.accept_content == ["json"] and conf.result_accept_content == ["json"]
    assert conf.task_serializer == conf.result_serializer == conf.event_serializer == "json"
    assert conf.broker_connection_retry_on_startup is False


def test_the_longest_run_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv(celery_app.LONGEST_RUN_VARIABLE, raising=False)
    assert celery_app.longest_run_s() == celery_app.DEFAULT_LONGEST_RUN_S
    monkeypatch.setenv(celery_app.LONGEST_RUN_VARIABLE, "900")
    assert celery_app.make_app("redis://:pw@127.0.0.1:6379/0").conf.task_time_limit == 900
    monkeypatch.setenv(celery_app.LONGEST_RUN_VARIABLE, "1h")
    with pytest.raises(ValueError, match=r"SATLAB_LONGEST_RUN_S must be a whole number of seconds > 0, got '1h'"):
        celery_app.longest_run_s()


def test_an_app_without_a_password_is_refused():
    with pytest.raises(ValueError, match="has no password"):
        celery_app.make_app("redis://127.0.0.1:6379/0", LONGEST_S)


@pytest.mark.skipif(os.geteuid() != 0, reason="Celery's refusal concerns root workers; this test runs as another user")
def test_a_root_worker_is_allowed_with_json_only_and_refused_with_pickle(monkeypatch):
    monkeypatch.delenv("C_FORCE_ROOT", raising=False)
    conf = celery_app.make_app("redis://:pw@127.0.0.1:6379/0", LONGEST_S).conf
    with warnings.catch_warnings(record=True):  # root is discouraged, with a warning
        check_privileges(set(conf.accept_content))
    with pytest.raises(SecurityError, match="pickle"):
        check_privileges({"json", "pickle"})


def test_a_run_request_crosses_redis_as_json_and_comes_back_valid(redis_server: RedisServer,
                                                                   redis_client: redis.Redis):
    app = celery_app.make_app(redis_server.url, LONGEST_S)
    sent = run_request()
    app.send_task(celery_app.RUN_TASK, args=[sent.to_message()])
    (raw,) = redis_client.lrange(celery_app.RUN_QUEUE, 0, -1)
    envelope = json.loads(raw)
    assert envelope["content-type"] == "application/json"
    assert envelope["headers"]["task"] == celery_app.RUN_TASK
    args, kwargs, _ = json.loads(base64.b64decode(envelope["body"]))
    assert parse_run_request(args[0]) == sent and kwargs == {}
    with app.connection_for_write() as connection:
        assert connection.default_channel.visibility_timeout == 2 * LONGEST_S


def test_sending_to_an_unreachable_redis_fails_soon():
    app = celery_app.make_app(f"redis://:pw@127.0.0.1:{free_loopback_port()}/0", LONGEST_S)
    started = time.monotonic()
    with pytest.raises(OperationalError):
        app.send_task(celery_app.RUN_TASK, args=[run_request().to_message()])
    assert time.monotonic() - started < 10
