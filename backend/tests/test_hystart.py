import pytest

from satlab.engine import hystart


@pytest.fixture
def parameter(tmp_path, monkeypatch):
    """A stand-in for the module parameter, holding the host's value 1."""
    path = tmp_path / "hystart"
    path.write_text("1\n")
    monkeypatch.setattr(hystart, "HYSTART", path)
    monkeypatch.setattr(hystart, "CLAIM_DIR", tmp_path / "locks")
    return path


def test_cubic_hystart_restores_the_host_value_after_the_last_run(parameter):
    with hystart.cubic_hystart(False, "aaaaaa"):
        with hystart.cubic_hystart(False, "bbbbbb"):
            assert parameter.read_text() == "0"
        assert parameter.read_text() == "0"  # aaaaaa still runs
    assert parameter.read_text() == "1"


def test_cubic_hystart_refuses_the_opposite_of_a_live_run(parameter):
    with hystart.cubic_hystart(False, "aaaaaa"):
        with pytest.raises(RuntimeError, match="run aaaaaa needs it off"), hystart.cubic_hystart(True, "bbbbbb"):
            pass
        assert parameter.read_text() == "0"
    assert parameter.read_text() == "1"


def test_cubic_hystart_restores_the_host_value_after_an_exception(parameter):
    with pytest.raises(KeyboardInterrupt), hystart.cubic_hystart(False, "aaaaaa"):
        raise KeyboardInterrupt
    assert parameter.read_text() == "1"


def test_cubic_hystart_none_leaves_the_host_alone(parameter):
    with hystart.cubic_hystart(None, "aaaaaa"):
        assert parameter.read_text() == "1\n"



def test_cubic_hystart_waits_for_the_opposite_run_to_end(parameter):
    other_run = hystart.cubic_hystart(False, "aaaaaa")
    other_run.__enter__()
    looks = []

    def the_other_run_ends():  # called between looks
        looks.append(parameter.read_text())
        other_run.__exit__(None, None, None)

    with hystart.cubic_hystart(True, "bbbbbb", patience_s=60, while_waiting=the_other_run_ends):
        assert (looks, parameter.read_text()) == (["0"], "1")
    assert parameter.read_text() == "1"


def test_cubic_hystart_stops_waiting_when_told(parameter):
    def cancelled():
        raise KeyboardInterrupt

    with hystart.cubic_hystart(False, "aaaaaa"), pytest.raises(KeyboardInterrupt), \
            hystart.cubic_hystart(True, "bbbbbb", patience_s=60, while_waiting=cancelled):
        pass
    assert parameter.read_text() == "1"
