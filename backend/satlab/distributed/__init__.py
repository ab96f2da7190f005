"""Runs on many machines: Celery carries runs from the server to `satlab
worker`s, Redis is its broker and the bus that brings each run's events
back (DESIGN.md, scale-out).

connection: reaching Redis (the URL, its secret, a clear error when it cannot be
reached); celery_app: the Celery application and its delivery guarantees;
messages: a queued run request, validated like an API request before
anything runs; events: run events over a Redis stream, from workers to the
server. Beside satlab.service: it may use the engine and the top-level
modules; the service may use it, never the reverse.
"""
