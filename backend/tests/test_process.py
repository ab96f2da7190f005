import sys

import pytest

from satlab.engine.process import Child, JsonLineChild


def test_child_that_writes_more_than_a_pipe_holds_does_not_block():
    # 1 MB on stderr and on stdout: both pipes would fill at 64 kB if nobody read them.
    script = "import sys; sys.stdout.write('o' * 1000000); [print(i, file=sys.stderr) for i in range(100000)]"
    child = Child([sys.executable, "-c", script])
    assert child.process.wait(30) == 0
    assert child.stderr_text().splitlines()[-1] == "99999"


def test_json_line_child_keeps_the_latest_stats_and_events():
    script = ("import json\n"
              "for line in [{'event': 'ready'}, {'event': 'stats', 'n': 1}, 'not json',"
              " {'event': 'stats', 'n': 2}, {'event': 'summary', 'n': 2}]:\n"
              "    print(line if isinstance(line, str) else json.dumps(line), flush=True)\n")
    child = JsonLineChild([sys.executable, "-c", script])
    assert child.wait_event("summary", 10) == {"event": "summary", "n": 2}
    assert child.latest == {"event": "stats", "n": 2}
    assert child.process.wait(10) == 0


def test_json_line_child_that_exits_early_names_its_error():
    child = JsonLineChild([sys.executable, "-c", "import sys; sys.exit('no TUN here')"], name="satlink")
    with pytest.raises(RuntimeError, match="satlink exited 1 before its ready line: no TUN here"):
        child.wait_event("ready", 10)


def test_child_stop_kills_what_ignores_sigterm():
    script = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
              "print('{\"event\": \"ready\"}', flush=True); time.sleep(60)")
    child = JsonLineChild([sys.executable, "-c", script])
    child.wait_event("ready", 10)
    assert child.stop(timeout=0.5) == -9
