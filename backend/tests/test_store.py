import dataclasses
import sqlite3
import threading

import pytest

from satlab.service.store import MIGRATIONS, FlowSampleRow, Store, sample_rows, schema

# Shapes as the engine emits them (captured from a real 2-flow run of
# geo-optical with a LAN segment and an S(5,100) tunnel), numbers trimmed.
SCENARIO = {"name": "geo-optical", "seed": 1, "iterations": 2,
            "path": {"forward": {"rate_mbps": 12, "delay_ms": 250}, "return": {"rate_mbps": 3, "delay_ms": 250}},
            "flows": [{"transport": "tcp", "cc": "cubic", "size_bytes": 300000, "count": 2}]}
PROVENANCE = {"satlab": "0.1.0", "kernel": "6.18.0", "tools": {"satlink": "abc123"}}


def _satlink_direction(packets: int, lateness: dict | None = None) -> dict:
    return {"packets_in": packets, "bytes_in": packets * 1200, "packets_out": packets - 2,
            "bytes_out": (packets - 2) * 1200, "queue_bytes": 3000, "in_flight_packets": 2, "drops_buffer": 1,
            "drops_channel": 3, "drops_overflow": 0, "write_errors": 0, "lateness_ms": lateness}


def _tunnel_endpoint(tx_sources: int, rx_sources: int, lost: int, recovered: int,
                     lateness: dict | None = None) -> dict:
    return {"t_s": 2.9, "lateness_ms": lateness,
            "tx": {"packets_in": tx_sources, "plain": 0, "sources": tx_sources, "repairs": tx_sources // 5,
                   "flush_repairs": 7, "uncovered": 0, "send_errors": 0},
            "rx": {"plain": 0, "sources": rx_sources, "repairs": 10, "lost": lost, "recovered": recovered,
                   "unrecovered": lost - recovered, "malformed": 0, "sessions": 1, "write_errors": 0,
                   "decoding_delay_ms": {"p50": 12.5, "p99": 40.1, "max": 41.0, "count": recovered} if recovered
                   else None}}


def sample_event(run_id: str, t_s: float = 2.9, iteration: int = 0) -> dict:
    return {"type": "sample", "run_id": run_id, "iteration": iteration, "t_s": t_s,
            "flows": [{"flow": 0, "goodput_mbps": 0.0, "bytes_acked": 14050, "cwnd_bytes": 28100,
                       "rtt_ms": 510.33, "retransmissions": 0, "delivery_rate_mbps": None},
                      {"flow": 1, "goodput_mbps": 0.2246738, "bytes_acked": 14050, "cwnd_bytes": 28100,
                       "rtt_ms": 513.715, "retransmissions": 2, "delivery_rate_mbps": None}],
            "link": {"t_s": 3.0, "ab": _satlink_direction(56, {"p50": 0.02, "p99": 0.03, "max": 0.05, "count": 6}),
                     "ba": _satlink_direction(76)},
            "lan": {"t_s": 2.9, "ab": _satlink_direction(44), "ba": _satlink_direction(38)},
            "tunnel": [_tunnel_endpoint(44, 38, 5, 4, {"p50": 0.02, "p99": 0.6, "max": 3.5, "count": 52}),
                       _tunnel_endpoint(46, 44, 0, 0)]}


def pep_row(flow: int, tick: int) -> dict:
    """A download's PEP counters through distributed PEPs, as the engine emits them."""
    relayed = 14050 * (tick + 1)
    return {"flow": flow, "client_bytes": relayed, "client_retransmissions": 0, "satellite_bytes": relayed + 2896,
            "satellite_retransmissions": tick, "server_bytes": relayed + 5792, "server_retransmissions": 0,
            "terminal_buffer_bytes": 1448, "terminal_pipe_bytes": 0, "gateway_buffer_bytes": 4344,
            "gateway_pipe_bytes": 1448}


def flow_row(iteration: int, flow: int, goodput_mbps: float, error: str | None = None) -> dict:
    return {"iteration": iteration, "flow": flow, "group": 0, "transport": "tcp", "cc": "cubic",
            "direction": "download", "start_s": 0.0, "bytes": 300670, "download_time_s": 2.180217,
            "goodput_mbps": goodput_mbps, "retransmissions": 0, "mean_rtt_ms": 505.947,
            "power_mbps_per_s": goodput_mbps / 0.505947, "error": error, "sender_cc": "cubic",
            "receiver_cc": "cubic", "wall_time_s": 5.7957}


def iteration_outcome(iteration: int, goodputs: tuple[float, ...] = (1.10, 1.09)) -> dict:
    link = {"forward": {**_satlink_direction(615), "lateness_ms": {"p50": 0.02, "p99": 0.1, "max": 0.18,
                                                                  "count": 611}},
            "return": _satlink_direction(576)}
    return {"iteration": iteration, "flows": [flow_row(iteration, i, g) for i, g in enumerate(goodputs)],
            "jain_index": 0.99999,
            "fec": {"forward": {"sources": 491, "repairs": 120, "lost": 10, "recovered": 9, "residual_loss": 0.002,
                                "decoding_delay_ms": {"p50": 12.0, "p99": 30.0, "max": 31.0, "count": 9}},
                    "return": {"sources": 450, "repairs": 116, "lost": 0, "recovered": 0, "residual_loss": 0.0,
                               "decoding_delay_ms": None}},
            "link": link, "lan": {"forward": _satlink_direction(491), "return": _satlink_direction(458)},
            "seeds": {"path.return.channel": 3405691582, "path.forward.channel": 1234567},
            "plan": {"run_id": "81d7bf", "iteration": iteration, "base_rtt_ms": 502.0},
            "fidelity": {"measured_s": 9.1, "load_avg_1m_max": 0.8, "satlink_lateness_p99_ms": 0.1,
                         "host_kept_up": True, "problems": [], "process_cpu_s": {"link": 0.4}}}


def run_result(run_id: str, iterations: int = 2, status: str = "done", error: str | None = None) -> dict:
    outcomes = [iteration_outcome(i) for i in range(iterations)]
    return {"run_id": run_id, "status": status, "error": error,
            "flows": [row for outcome in outcomes for row in outcome["flows"]], "iterations": outcomes}


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "satlab.db") as opened:
        yield opened


def test_open_creates_the_schema_in_a_new_file(tmp_path):
    path = tmp_path / "nested" / "dir" / "satlab.db"
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS)
    db = sqlite3.connect(path)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"runs", "iterations", "flow_summaries", "flow_samples", "link_samples", "tunnel_samples",
            "campaigns", "campaign_items"} <= tables
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_reopen_keeps_the_data_and_the_version(tmp_path):
    with Store(tmp_path / "satlab.db") as store:
        store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    with Store(tmp_path / "satlab.db") as store:
        assert store.schema_version == len(MIGRATIONS)
        assert store.get_run("a1b2c3").scenario == SCENARIO


def test_migrate_applies_a_new_migration_once_only(tmp_path, monkeypatch):
    with Store(tmp_path / "satlab.db"):
        pass
    monkeypatch.setattr(schema, "MIGRATIONS",
                        (*MIGRATIONS, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('once');"))
    for _ in range(2):
        with Store(tmp_path / "satlab.db") as store:
            assert store.schema_version == len(MIGRATIONS) + 1
    rows = sqlite3.connect(tmp_path / "satlab.db").execute("SELECT text FROM notes").fetchall()
    assert rows == [("once",)]


def test_migrate_rolls_back_a_failing_migration(tmp_path, monkeypatch):
    with Store(tmp_path / "satlab.db"):
        pass
    monkeypatch.setattr(schema, "MIGRATIONS",
                        (*MIGRATIONS, "CREATE TABLE notes (text TEXT); INSERT INTO nowhere VALUES (1);"))
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        Store(tmp_path / "satlab.db")
    db = sqlite3.connect(tmp_path / "satlab.db")
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'notes'").fetchone()[0] == 0


def test_open_migrates_once_when_several_connections_open_a_new_file_at_once(tmp_path):
    openers = 6
    start = threading.Barrier(openers)
    errors: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            with Store(tmp_path / "satlab.db") as store:
                assert store.schema_version == len(MIGRATIONS)
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=open_store) for _ in range(openers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_open_rejects_a_database_newer_than_the_code(tmp_path):
    db = sqlite3.connect(tmp_path / "satlab.db")
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(RuntimeError, match=f"schema version {len(MIGRATIONS) + 1}, newer"):
        Store(tmp_path / "satlab.db")


def test_create_run_round_trips(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    run = store.get_run("a1b2c3")
    assert (run.name, run.status, run.error) == ("geo-optical", "queued", None)
    assert (run.scenario, run.provenance, run.result) == (SCENARIO, PROVENANCE, None)
    assert run.created_at > 1.7e9 and run.started_at is None and run.flows == ()
    assert (run.owner, run.shared) == (None, False)
    assert store.get_run("ffffff") is None


def test_set_run_status_sets_start_and_finish_times(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    store.set_run_status("a1b2c3", "running")
    running = store.get_run("a1b2c3")
    assert running.started_at >= running.created_at and running.finished_at is None
    store.set_run_status("a1b2c3", "cancelled", "the run was cancelled")
    cancelled = store.get_run("a1b2c3")
    assert (cancelled.status, cancelled.error) == ("cancelled", "the run was cancelled")
    assert cancelled.finished_at >= running.started_at == cancelled.started_at


def test_set_run_status_rejects_an_unknown_run(store):
    with pytest.raises(KeyError, match="no run 'ffffff'"):
        store.set_run_status("ffffff", "running")


def test_set_run_status_rejects_an_unknown_status(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    with pytest.raises(ValueError, match="run status must be one of queued, .*got 'paused'"):
        store.set_run_status("a1b2c3", "paused")


def test_add_sample_stores_each_hop_of_a_split_flow_and_its_pep_counters(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    event = sample_event("a1b2c3", t_s=2.9)
    event["flows"] = [{**event["flows"][0], "hop": hop} for hop in ("client", "satellite", "server")]
    store.add_sample({**event, "pep": [pep_row(0, 0)]})
    assert [row.hop for row in store.flow_samples("a1b2c3")] == ["client", "satellite", "server"]
    (pep,) = store.pep_samples("a1b2c3")
    assert (pep.flow, pep.client_bytes, pep.satellite_retransmissions, pep.gateway_buffer_bytes) == (0, 14050, 0, 4344)
    assert store.samples("a1b2c3").pep == (pep,)


def test_flow_samples_stored_before_hops_say_the_hop_they_described(tmp_path):
    """A database of before issue 22's samples: a flow's samples were its
    sender's socket's; through PEPs (its summary counts connections they
    relayed) that was the server's hop of a download, the client's of an
    upload, the satellite's of an upload through a gateway PEP alone."""
    version = next(index for index, script in enumerate(MIGRATIONS) if "CREATE TABLE pep_samples" in script)
    db = sqlite3.connect(tmp_path / "satlab.db")
    for script in MIGRATIONS[:version]:
        db.executescript(script)
    db.execute(f"PRAGMA user_version = {version}")
    db.execute("INSERT INTO runs (run_id, name, status, scenario_json, provenance_json, created_at) "
               "VALUES ('a1b2c3', 'geo-ideal', 'done', '{}', '{}', 0)")
    flows = [("download", '{"pep_mode": "distributed", "pep_connections": 2}'),
             ("upload", '{"pep_mode": "distributed", "pep_connections": 2}'),
             ("upload", '{"pep_mode": "gateway", "pep_connections": 2}'),
             ("download", '{"pep_mode": "distributed", "pep_connections": 0}'),  # QUIC: untouched
             ("download", '{}')]  # no PEP
    for flow, (direction, details) in enumerate(flows):
        db.execute("INSERT INTO flow_summaries (run_id, iteration, flow, direction, details_json) "
                   "VALUES ('a1b2c3', 0, ?, ?, ?)", (flow, direction, details))
    db.executemany("INSERT INTO flow_samples (run_id, iteration, t_s, flow) VALUES ('a1b2c3', 0, 0.1, ?)",
                   [(flow,) for flow in range(len(flows) + 1)])  # the last flow has no summary
    db.commit()
    db.close()
    with Store(tmp_path / "satlab.db") as store:
        assert [row.hop for row in store.flow_samples("a1b2c3")] == [
            "server", "client", "satellite", "end-to-end", "end-to-end", "end-to-end"]
        assert store.pep_samples("a1b2c3") == ()


def test_add_sample_stores_flows_links_and_tunnel_directions(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    store.add_sample(sample_event("a1b2c3", t_s=2.9))
    flows = store.flow_samples("a1b2c3")
    # An event of a flow that names no hop: the sample is end to end.
    assert flows == (FlowSampleRow(iteration=0, t_s=2.9, flow=0, hop="end-to-end", bytes_acked=14050,
                                   goodput_mbps=0.0, cwnd_bytes=28100, rtt_ms=510.33, retransmissions=0,
                                   delivery_rate_mbps=None),
                     FlowSampleRow(iteration=0, t_s=2.9, flow=1, hop="end-to-end", bytes_acked=14050,
                                   goodput_mbps=0.2246738, cwnd_bytes=28100, rtt_ms=513.715, retransmissions=2,
                                   delivery_rate_mbps=None))
    links = {(row.link, row.direction): row for row in store.link_samples("a1b2c3")}
    assert sorted(links) == [("lan", "down"), ("lan", "up"), ("satellite", "forward"), ("satellite", "return")]
    # a -> b is the return direction of the satellite link, b -> a the forward one.
    assert (links["satellite", "return"].packets_in, links["satellite", "forward"].packets_in) == (56, 76)
    assert (links["lan", "up"].packets_in, links["lan", "down"].packets_in) == (44, 38)
    assert (links["satellite", "return"].lateness_p99_ms, links["satellite", "forward"].lateness_p99_ms) \
        == (0.03, None)
    assert links["satellite", "forward"].drops_channel == 3
    forward = links["satellite", "forward"]
    assert forward.drops == forward.drops_buffer + forward.drops_channel + forward.drops_overflow
    tunnel = {row.direction: row for row in store.tunnel_samples("a1b2c3")}
    # Forward: received by the terminal's endpoint (first), sent by the gateway's.
    assert (tunnel["forward"].rx_sources, tunnel["forward"].rx_lost, tunnel["forward"].rx_recovered,
            tunnel["forward"].tx_sources) == (38, 5, 4, 46)
    assert (tunnel["return"].rx_sources, tunnel["return"].tx_sources) == (44, 44)
    assert (tunnel["forward"].rx_decoding_delay_p99_ms, tunnel["return"].rx_decoding_delay_p99_ms) \
        == (40.1, None)
    # The terminal's endpoint, receiving the forward direction, says how late it was; the gateway's measured nothing.
    assert (tunnel["forward"].rx_lateness_p99_ms, tunnel["forward"].rx_lateness_max_ms) == (0.6, 3.5)
    assert (tunnel["return"].rx_lateness_p99_ms, tunnel["return"].rx_lateness_max_ms) == (None, None)


def test_add_sample_ignores_unknown_keys_and_absent_stats(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    first = {**sample_event("a1b2c3", t_s=0.0), "flows": [], "link": None, "lan": None, "tunnel": [None, None],
             "cross_traffic": {"rate_mbps": 1.0}}
    store.add_sample(first)
    store.add_sample({**sample_event("a1b2c3", t_s=0.1), "lan": None, "tunnel": []})
    assert store.flow_samples("a1b2c3")[0].t_s == 0.1
    assert {row.link for row in store.link_samples("a1b2c3")} == {"satellite"}
    assert store.tunnel_samples("a1b2c3") == ()


def test_add_sample_rejects_an_unknown_run(store):
    with pytest.raises(KeyError, match="no run 'ffffff'"):
        store.add_sample(sample_event("ffffff"))


def test_samples_come_back_ordered_by_iteration_and_time(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    for iteration, t_s in ((1, 0.2), (0, 0.3), (1, 0.1), (0, 0.1)):
        store.add_sample(sample_event("a1b2c3", t_s=t_s, iteration=iteration))
    order = [(row.iteration, row.t_s, row.flow) for row in store.flow_samples("a1b2c3")]
    assert order == sorted(order) and len(order) == 8
    tunnel = [(row.iteration, row.t_s) for row in store.tunnel_samples("a1b2c3")]
    assert tunnel == sorted(tunnel)


def test_finish_run_stores_result_iterations_and_flow_summaries(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    result = run_result("a1b2c3", status="failed", error="iteration 1 flow 0: iperf3 exited 1")
    store.finish_run("a1b2c3", result)
    run = store.get_run("a1b2c3")
    assert (run.status, run.error, run.result) == ("failed", result["error"], result)
    assert run.finished_at is not None
    iterations = store.iterations("a1b2c3")
    assert [i.iteration for i in iterations] == [0, 1]
    assert dataclasses.asdict(iterations[1]) == {key: value for key, value in iteration_outcome(1).items()
                                                 if key != "flows"}
    summaries = store.flow_summaries("a1b2c3")
    assert [(row.iteration, row.flow) for row in summaries] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # The known fields as columns ("group" as the engine names it), the transport's own in details.
    assert dataclasses.asdict(summaries[1]) == {
        **{key: value for key, value in flow_row(0, 1, 1.09).items()
           if key not in ("sender_cc", "receiver_cc", "wall_time_s")},
        "details": {"sender_cc": "cubic", "receiver_cc": "cubic", "wall_time_s": 5.7957}}
    assert run.flows == summaries


def test_add_iteration_again_replaces_it(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    store.add_iteration("a1b2c3", iteration_outcome(0, goodputs=(1.0, 2.0, 3.0)))
    store.add_iteration("a1b2c3", iteration_outcome(0, goodputs=(4.0,)))
    assert [row.goodput_mbps for row in store.flow_summaries("a1b2c3")] == [4.0]
    assert len(store.iterations("a1b2c3")) == 1


def test_finish_run_rejects_an_unknown_run(store):
    with pytest.raises(KeyError, match="no run 'ffffff'"):
        store.finish_run("ffffff", run_result("ffffff"))


def test_list_runs_pages_newest_first_with_filters(store):
    store.create_campaign("c1", "sweep", {"name": "sweep"}, [])
    for index in range(5):
        store.create_run(f"00000{index}", SCENARIO, PROVENANCE, campaign_id="c1" if index % 2 else None,
                         item_index=index if index % 2 else None)
    store.finish_run("000003", run_result("000003", iterations=1))
    runs, count = store.list_runs(limit=2, offset=1)
    assert ([run.run_id for run in runs], count) == (["000003", "000002"], 5)
    assert [row.goodput_mbps for row in runs[0].flows] == [1.10, 1.09]
    assert not hasattr(runs[0], "scenario") and not hasattr(runs[0], "result")
    assert [run.run_id for run in store.list_runs(campaign_id="c1")[0]] == ["000003", "000001"]
    assert store.list_runs(status="done")[1] == 1
    assert store.list_runs(status="queued", campaign_id="c1")[1] == 1


def test_a_listed_run_carries_its_fidelity_verdict(store):
    for run_id, kept_up in (("000001", True), ("000002", False), ("000003", None)):
        store.create_run(run_id, SCENARIO, PROVENANCE)
        store.finish_run(run_id, {**run_result(run_id, iterations=1),
                                  "fidelity": {"host_kept_up": kept_up, "problems": []}})
    store.create_run("000004", SCENARIO, PROVENANCE)  # not finished: no verdict yet
    verdicts = {run.run_id: run.host_kept_up for run in store.list_runs()[0]}
    assert verdicts == {"000001": True, "000002": False, "000003": None, "000004": None}
    assert store.get_run("000002").host_kept_up is False


def test_interrupt_unfinished_fails_runs_and_frees_their_items(store):
    items = [{"item_index": i, "configuration": i, "iteration": 0, "parameters": {"flows.0.cc": cc},
              "scenario": SCENARIO} for i, cc in enumerate(("cubic", "bbr", "reno"))]
    store.create_campaign("c1", "sweep", {"name": "sweep"}, items)
    for index, status in enumerate(("done", "running", "queued")):
        run_id = f"00000{index}"
        store.create_run(run_id, SCENARIO, PROVENANCE, "c1", index)
        store.set_item("c1", index, "running", run_id)
        if status != "queued":
            store.set_run_status(run_id, status)
    store.set_item("c1", 0, "done")
    assert store.interrupt_unfinished("the backend stopped") == ["000001", "000002"]
    assert [store.get_run(f"00000{i}").status for i in range(3)] == ["done", "failed", "failed"]
    assert store.get_run("000002").error == "the backend stopped"
    campaign = store.get_campaign("c1")
    assert [(item.status, item.run_id) for item in campaign.items] == [
        ("done", "000000"), ("pending", None), ("pending", None)]
    assert store.interrupt_unfinished("again") == []


def test_interrupt_unfinished_leaves_runs_another_process_drives(store):
    for run_id in ("000000", "000001"):
        store.create_run(run_id, SCENARIO, PROVENANCE)
        store.set_run_status(run_id, "running")
    assert store.interrupt_unfinished("the backend stopped", alive=lambda run_id: run_id == "000001") == ["000000"]
    assert [store.get_run(run_id).status for run_id in ("000000", "000001")] == ["failed", "running"]


def test_campaign_round_trips_with_progress(store):
    spec = {"name": "sweep", "matrix": {"flows.0.cc": ["cubic", "bbr"]}, "iterations": 2}
    items = [{"item_index": index, "configuration": index % 2, "iteration": index // 2,
              "parameters": {"flows.0.cc": ("cubic", "bbr")[index % 2]},
              "scenario": {**SCENARIO, "name": f"sweep-c{index % 2}-i{index // 2}"}} for index in range(4)]
    store.create_campaign("c1", "sweep", spec, items)
    store.create_run("000000", items[0]["scenario"], PROVENANCE, "c1", 0)
    store.set_item("c1", 0, "running", "000000")
    store.set_item("c1", 0, "done")
    store.set_item("c1", 1, "failed")
    campaign = store.get_campaign("c1")
    assert (campaign.name, campaign.status, campaign.spec) == ("sweep", "running", spec)
    assert dataclasses.asdict(campaign.progress) == {"total": 4, "pending": 2, "running": 0, "done": 1, "failed": 1,
                                                     "cancelled": 0}
    assert dataclasses.asdict(campaign.items[0]) == {"item_index": 0, "configuration": 0, "iteration": 0,
                                                     "parameters": {"flows.0.cc": "cubic"}, "status": "done",
                                                     "run_id": "000000", "idempotency_key": "c1:0",
                                                     "attempts": ({"run_id": "000000", "attempt": 1, "worker": None,
                                                                   "status": "queued", "error": None,
                                                                   "started_at": None, "finished_at": None},)}
    pending = store.pending_items("c1")
    assert [item.item_index for item in pending] == [2, 3]
    assert pending[1].scenario["name"] == "sweep-c1-i1"
    assert store.campaigns_with_status("running") == ["c1"]
    store.set_campaign_status("c1", "cancelled")
    assert store.get_campaign("c1").finished_at is not None
    assert store.campaigns_with_status("running") == []
    campaigns, count = store.list_campaigns()
    assert (count, campaigns[0].campaign_id, campaigns[0].progress.total) == (1, "c1", 4)
    assert not hasattr(campaigns[0], "items")
    assert store.get_campaign("c2") is None


def test_a_run_its_time_limit_stopped_lists_what_its_flows_had_taken(store):
    timed_out = {"iteration": 0, "limit_s": 1458.0, "flows": [
        {"flow": 0, "direction": "download", "finished": False, "download_time_at_least_s": 1457.5,
         "bytes_acked": 12_070_528}]}
    for run_id, result in (("000000", {**run_result("000000", iterations=0, status="failed",
                                                   error="the flows did not finish within 1458 s"),
                                       "timed_out": timed_out}),
                           ("000001", run_result("000001"))):
        store.create_run(run_id, SCENARIO, PROVENANCE)
        store.set_run_status(run_id, "running")
        store.finish_run(run_id, result)
    runs, _ = store.list_runs()
    assert {run.run_id: run.timed_out for run in runs} == {"000000": timed_out, "000001": None}
    assert store.get_run("000000").timed_out == timed_out


def test_unfaithful_items_are_the_finished_ones_whose_host_did_not_keep_up(store):
    items = [{"item_index": index, "configuration": 0, "iteration": index, "parameters": {},
              "scenario": SCENARIO} for index in range(5)]
    store.create_campaign("c1", "sweep", {"name": "sweep"}, items)
    # done and late, done and kept up, timed out and late, failed without evidence, late and still running
    for index, (status, kept_up) in enumerate((("done", False), ("done", True), ("failed", False),
                                               ("failed", None), ("running", False))):
        run_id = f"00000{index}"
        store.create_run(run_id, SCENARIO, PROVENANCE, "c1", index)
        store.set_run_status(run_id, "running")
        if status != "running":
            store.finish_run(run_id, {**run_result(run_id, iterations=1, status=status),
                                      "fidelity": None if kept_up is None else {"host_kept_up": kept_up}})
        store.set_item("c1", index, status, run_id)
    assert [item.item_index for item in store.unfaithful_items("c1")] == [0, 2]


def test_set_item_rejects_an_unknown_item(store):
    store.create_campaign("c1", "sweep", {}, [])
    with pytest.raises(KeyError, match="no item 3 in campaign 'c1'"):
        store.set_item("c1", 3, "done")
    with pytest.raises(KeyError, match="no campaign 'c2'"):
        store.set_campaign_status("c2", "done")


def test_add_sample_from_many_threads_at_once(store):
    threads_count, samples_per_thread = 8, 40
    run_ids = [f"{index:06x}" for index in range(threads_count)]
    for run_id in run_ids:
        store.create_run(run_id, SCENARIO, PROVENANCE)
    errors: list[BaseException] = []
    start = threading.Barrier(threads_count + 1)

    def add(run_id: str) -> None:
        try:
            start.wait()
            for tick in range(samples_per_thread):
                store.add_sample(sample_event(run_id, t_s=tick / 10))
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=add, args=(run_id,)) for run_id in run_ids]
    for thread in threads:
        thread.start()
    start.wait()
    while any(thread.is_alive() for thread in threads):
        store.list_runs()  # readers share the connection with the writers
    for thread in threads:
        thread.join()
    assert errors == []
    for run_id in run_ids:
        assert len(store.flow_samples(run_id)) == 2 * samples_per_thread
        assert len(store.link_samples(run_id)) == 4 * samples_per_thread
        assert len(store.tunnel_samples(run_id)) == 2 * samples_per_thread


def test_add_sample_returns_the_rows_it_stored(store):
    store.create_run("a1b2c3", SCENARIO, PROVENANCE)
    rows = store.add_sample(sample_event("a1b2c3"))
    assert rows == store.samples("a1b2c3")
    assert (rows.flows, rows.links, rows.tunnel) == (store.flow_samples("a1b2c3"), store.link_samples("a1b2c3"),
                                                      store.tunnel_samples("a1b2c3"))


def test_sample_rows_take_netem_drops_as_all_drops():
    event = {"run_id": "a1b2c3", "iteration": 0, "t_s": 1.0,
             "link": {"ab": {"packets_out": 5, "drops": 2}, "ba": {"packets_out": 9, "drops": 7}}}
    links = {row.direction: row for row in sample_rows(event).links}
    assert (links["forward"].drops, links["return"].drops) == (7, 2)
    assert links["forward"].drops_buffer is None
