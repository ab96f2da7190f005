"""/api/channels/stats: a lab's channel (GET) or a channel as in the scenario
model (POST), measured by libswf; refusals name their field."""

import pytest

OPTICAL_BY_STATISTICS = {"model": "ge-time", "loss_time_ratio": 0.0256, "mean_burst_ms": 16.7, "step_ms": 10}


def test_get_a_labs_channel_stats(client):
    response = client.get("/api/channels/stats", params={"lab": "geo-dvb-train", "duration_s": 600})
    assert response.status_code == 200, response.text
    stats = response.json()
    assert stats["model"] == "outage" and stats["duration_s"] == 600
    assert stats["time_lost_ratio"] == pytest.approx(15.2 / 258, abs=2e-4)
    assert stats["bursts"]["unit"] == "ms" and stats["bursts"]["mean"] == pytest.approx(15.2)


def test_get_and_post_of_the_same_channel_and_seed_agree(client):
    lab = client.get("/api/channels/stats", params={"lab": "geo-optical"}).json()
    posted = client.post("/api/channels/stats", json={"channel": {**OPTICAL_BY_STATISTICS, "seed": lab["seed"]}})
    assert posted.status_code == 200, posted.text
    assert posted.json() == lab


def test_post_shows_the_p_and_q_derived_from_statistics(client):
    stats = client.post("/api/channels/stats", json={"channel": OPTICAL_BY_STATISTICS, "duration_s": 10}).json()
    assert stats["seed"] == 1
    assert stats["channel"]["p"] == pytest.approx(0.0157321, rel=1e-5)
    assert stats["channel"]["q"] == pytest.approx(10 / 16.7)
    assert stats["spec"].startswith("ge-time:p=0.0157")


@pytest.mark.parametrize(("body", "field"), [
    ({"channel": OPTICAL_BY_STATISTICS, "duration_s": 3601}, "duration_s"),
    ({"channel": OPTICAL_BY_STATISTICS, "rate_mbps": 1e5}, "rate_mbps"),
    ({"channel": {**OPTICAL_BY_STATISTICS, "loss_time_ratio": 0.9}}, "loss_time_ratio"),
    ({"channel": {"model": "outage", "period_ms": 0.001, "duration_ms": 0}, "duration_s": 3600}, "duration_s"),
    ({"channel": {"model": "trace", "file": "/etc/passwd"}}, "file"),
], ids=["duration", "packets", "impossible-statistics", "changes", "trace-outside-labs"])
def test_post_refuses_naming_the_field(client, body, field):
    response = client.post("/api/channels/stats", json=body)
    assert response.status_code == 422, response.text
    assert any(field in ".".join(map(str, problem["loc"])) for problem in response.json()["detail"]), response.text


def test_get_refuses_an_unknown_lab_and_a_long_duration(client):
    assert client.get("/api/channels/stats", params={"lab": "nothing"}).status_code == 422
    response = client.get("/api/channels/stats", params={"lab": "geo-optical", "duration_s": 4000})
    assert response.status_code == 422
    assert "duration_s" in response.json()["detail"][0]["loc"]
