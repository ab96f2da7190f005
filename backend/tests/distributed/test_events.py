"""Run events from workers to the server over a real Redis stream."""

import json

import redis

from satlab.distributed.events import EVENTS_STREAM, EventConsumer, EventPublisher


def state(run_id: str, name: str) -> dict:
    return {"type": "state", "state": name, "run_id": run_id}


SAMPLE = {"type": "sample", "run_id": "a1b2c3", "iteration": 0, "t_s": 0.1,
          "flows": [{"flow": 0, "goodput_mbps": 11.5, "cwnd_bytes": 65160}], "link": None}


def test_events_published_by_two_workers_reach_the_server_in_order(redis_client: redis.Redis):
    server = EventConsumer(redis_client, "server")
    first, second = EventPublisher(redis_client, "worker-1"), EventPublisher(redis_client, "worker-2")
    first.publish(state("a1b2c3", "started"))
    second.publish(state("d4e5f6", "started"))
    first.publish(SAMPLE)
    received = server.read(block_ms=100)
    assert [(event.worker, event.event) for event in received] == [
        ("worker-1", state("a1b2c3", "started")), ("worker-2", state("d4e5f6", "started")), ("worker-1", SAMPLE)]
    server.acknowledge(received)
    assert redis_client.xlen(EVENTS_STREAM) == 0  # stored: gone from the stream
    assert server.read(block_ms=50) == []
    assert server.refused == []


def test_events_published_while_the_server_is_away_wait_for_it(redis_client: redis.Redis):
    EventPublisher(redis_client, "worker-1").publish(state("a1b2c3", "started"))
    server = EventConsumer(redis_client, "server")  # its first start, after the event
    assert [event.event for event in server.read(block_ms=100)] == [state("a1b2c3", "started")]


def test_events_read_but_not_stored_before_a_restart_are_read_again(redis_client: redis.Redis):
    publisher = EventPublisher(redis_client, "worker-1")
    before_restart = EventConsumer(redis_client, "server")
    publisher.publish(state("a1b2c3", "started"))
    publisher.publish(state("a1b2c3", "running"))
    read_then_lost = before_restart.read(block_ms=100)
    assert len(read_then_lost) == 2  # and the server stops before storing them
    publisher.publish(state("a1b2c3", "done"))
    after_restart = EventConsumer(redis_client, "server")
    again = after_restart.read(block_ms=100)
    assert [event.entry_id for event in again] == [event.entry_id for event in read_then_lost]
    after_restart.acknowledge(again)
    assert [event.event["state"] for event in after_restart.read(block_ms=100)] == ["done"]


def test_entries_that_are_not_run_events_are_refused_and_dropped(redis_client: redis.Redis):
    server = EventConsumer(redis_client, "server")
    redis_client.xadd(EVENTS_STREAM, {"worker": "w", "event": "not json {"})
    redis_client.xadd(EVENTS_STREAM, {"worker": "w", "event": json.dumps({"type": "rm -rf", "run_id": "x"})})
    redis_client.xadd(EVENTS_STREAM, {"worker": "w", "event": json.dumps(["state"])})
    redis_client.xadd(EVENTS_STREAM, {"event": json.dumps(state("a1b2c3", "started"))})
    redis_client.xadd(EVENTS_STREAM, {"worker": "w", "event": json.dumps({"type": "state"})})
    EventPublisher(redis_client, "worker-1").publish(state("a1b2c3", "started"))
    received = server.read(block_ms=100)
    assert [event.event for event in received] == [state("a1b2c3", "started")]
    assert [sentence.split(": ", 1)[1] for sentence in server.refused] == [
        "event: not JSON text (Expecting value: line 1 column 1 (char 0))",
        "type: must be one of state, sample, summary, error, got 'rm -rf'",
        "an event is a JSON object, got list",
        "an entry has the fields worker and event (a file's: worker, file and data)",
        "run_id: every run event names its run"]
    server.acknowledge(received)
    assert redis_client.xlen(EVENTS_STREAM) == 0
