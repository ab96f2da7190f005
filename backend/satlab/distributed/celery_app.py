"""The Celery application that carries runs from the server to `satlab worker`s.

Delivery, for runs that last minutes and must neither vanish nor run twice:

- Late acknowledgement (task_acks_late): a run's message is acknowledged
  when the run ends, not when a worker takes it, so a worker that dies
  mid-run does not lose it; task_reject_on_worker_lost hands it back to the
  queue when the worker process is killed (SIGKILL, out of memory).
- Prefetch of one (worker_prefetch_multiplier): a worker reserves no more
  runs than it has processes to run them, so a queued run waits for the
  first free worker instead of behind a busy one.
- Redis redelivers a message nobody acknowledged within its visibility
  timeout, even to a second worker while the first still runs it: the
  timeout is VISIBILITY_FACTOR x the longest allowed run (a reserved run may
  wait for a running one before it starts, then run itself).
- task_time_limit stops a run that outlives the longest allowed run (its
  message is acknowledged: it failed, it is not retried).
- Redis keeps no redelivery count, so a run that kills its worker every
  time would come back for ever: the store keeps an idempotency key and an
  attempt count per campaign item, and a redelivered run past its one
  retry is recorded as failed instead of run (the service's part).
- JSON only, in both directions: workers run as root, and a pickled
  message runs code of the sender's choosing on whoever unpickles it.

Root: a worker must be root (its runs create network namespaces and TUN
devices). Celery refuses a root worker only when it accepts pickle, unless
C_FORCE_ROOT is set; with JSON only it runs as root with a warning. satlab
never sets C_FORCE_ROOT: that would silence the refusal that protects a
root worker if pickle were ever accepted again.
"""

from __future__ import annotations

import os
import ssl
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from celery import Celery

from satlab.distributed.connection import CONNECT_TIMEOUT_S, check_url

APP_NAME = "satlab"
RUN_QUEUE = "satlab.runs"
RUN_TASK = "satlab.run_one"
SERIALISER = "json"
# The longest a run may take on a worker before it is stopped as failed (the
# engine stops a flow that outlives 100 x its time at the bottleneck sooner).
LONGEST_RUN_VARIABLE = "SATLAB_LONGEST_RUN_S"
DEFAULT_LONGEST_RUN_S = 6 * 3600
VISIBILITY_FACTOR = 2
# Publishing a run: a few quick attempts, then an error, never a wait without end.
PUBLISH_RETRY_POLICY = {"max_retries": 3, "interval_start": 0.2, "interval_step": 0.5, "interval_max": 1.0}


def longest_run_s() -> int:
    """SATLAB_LONGEST_RUN_S, else DEFAULT_LONGEST_RUN_S."""
    text = os.environ.get(LONGEST_RUN_VARIABLE)
    if text is None:
        return DEFAULT_LONGEST_RUN_S
    if not (text.isascii() and text.isdigit() and int(text) > 0):
        raise ValueError(f"{LONGEST_RUN_VARIABLE} must be a whole number of seconds > 0, got {text!r}")
    return int(text)


def visibility_timeout_s(longest_s: float) -> float:
    return VISIBILITY_FACTOR * longest_s


# rediss:// URL query -> the certificate check Celery's Redis transport is given (it reads none from the URL,
# and without one it would take any certificate).
CERT_REQUIREMENTS = {"required": ssl.CERT_REQUIRED, "optional": ssl.CERT_OPTIONAL, "none": ssl.CERT_NONE}
TLS_FILES = ("ssl_ca_certs", "ssl_certfile", "ssl_keyfile")


def tls_options(broker_url: str) -> dict[str, Any] | None:
    """For a rediss:// URL, its TLS options (ssl_cert_reqs, default required;
    ssl_ca_certs, ssl_certfile, ssl_keyfile from its query, as redis-py reads
    them); None for redis://. ValueError naming a value that is not allowed."""
    parts = urlsplit(broker_url)
    if parts.scheme != "rediss":
        return None
    query = dict(parse_qsl(parts.query))
    requirement = query.get("ssl_cert_reqs", "required")
    if requirement not in CERT_REQUIREMENTS:
        raise ValueError(f"SATLAB_BROKER_URL: ssl_cert_reqs={requirement!r} is not allowed; allowed: "
                         f"{', '.join(CERT_REQUIREMENTS)} (required checks Redis' certificate)")
    return {"ssl_cert_reqs": CERT_REQUIREMENTS[requirement],
            **{name: query[name] for name in TLS_FILES if name in query}}


def configuration(broker_url: str, longest_s: float) -> dict[str, Any]:
    """The application's settings (see the module for why each)."""
    return {
        "broker_url": broker_url,
        "broker_use_ssl": tls_options(broker_url),
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "broker_transport_options": {"visibility_timeout": visibility_timeout_s(longest_s),
                                     "socket_connect_timeout": CONNECT_TIMEOUT_S},
        "task_time_limit": longest_s,
        "task_acks_on_failure_or_timeout": True,  # a run that failed or timed out is not run again
        "task_serializer": SERIALISER, "result_serializer": SERIALISER, "event_serializer": SERIALISER,
        "accept_content": [SERIALISER], "result_accept_content": [SERIALISER],
        # Results and live events go through the store and the event stream, not Celery's result backend.
        "task_ignore_result": True,
        "task_default_queue": RUN_QUEUE,
        "task_routes": {RUN_TASK: {"queue": RUN_QUEUE}},
        # A worker that loses Redis stops its runs: their messages are delivered again anyway.
        "worker_cancel_long_running_tasks_on_connection_loss": True,
        # Redis unreachable: a clear error at start, not retries without end.
        "broker_connection_retry_on_startup": False,
        "broker_connection_timeout": CONNECT_TIMEOUT_S,
        "broker_connection_max_retries": 3,
        "task_publish_retry_policy": PUBLISH_RETRY_POLICY,
        # The worker's own log lines stay the worker's; satlab's logging is not Celery's to replace.
        "worker_hijack_root_logger": False,
    }


def make_app(broker_url: str, longest_s: float | None = None) -> Celery:
    """The Celery application for the Redis at broker_url (with its password)."""
    check_url(broker_url)
    app = Celery(APP_NAME, set_as_current=False)
    app.conf.update(configuration(broker_url, longest_s if longest_s is not None else longest_run_s()))
    return app
