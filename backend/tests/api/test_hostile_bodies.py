"""Hostile and careless request bodies (issue 13, failures 2 and 4): each is
a 422 in the documented shape, `loc` naming the field and `msg` a sentence
starting with it, or a 413 with a sentence; none is a 500 or creates a run."""

import dataclasses
import json

import pytest
import yaml
from fastapi.testclient import TestClient

from satlab.api.main import create_app
from tests.api.conftest import refusal
from tests.conftest import LABS
from tests.test_hostile_input import ALIAS_BOMB

GEO_IDEAL = yaml.safe_load((LABS / "geo-ideal.yaml").read_text())
RETURN_ = {**GEO_IDEAL, "path": {"forward": GEO_IDEAL["path"]["forward"], "return_": GEO_IDEAL["path"]["return"]}}
TOO_MANY_FLOWS = {**GEO_IDEAL, "flows": [{**GEO_IDEAL["flows"][0], "count": 9}] * 2}


def lab(*assignments):
    return {"lab": "geo-ideal", "set": list(assignments)}


RUN_BODIES = [
    (lab("flows.0.cc=[unclosed"), ["flows", "0", "cc"]),
    (lab("flows.0.cc=!!python/object/apply:os.system ['true']"), ["flows", "0", "cc"]),
    (lab("flows.0.cc=!!python/name:os.system"), ["flows", "0", "cc"]),
    (lab("flows.².cc=bbr"), ["set"]),
    (lab("flows.999999=bbr"), ["flows", "999999"]),
    (lab("=bbr"), ["set"]),
    (lab(".=bbr"), ["set"]),
    (lab(f"description={ALIAS_BOMB}"), ["description"]),
    (lab("flows.0.size_bytes='2000000'"), ["flows", "0", "size_bytes"]),
    (lab("flows.0.size_bytes=true"), ["flows", "0", "size_bytes"]),
    (lab("tunnel={k: 5, z: 50, symbol_bytes: 64}"), ["tunnel", "symbol_bytes"]),
    (lab("tunnel={k: 5, z: 50, symbol_bytes: 300}"), ["tunnel", "symbol_bytes"]),
    (lab("tunnel={k: 5, z: 50, protect: 'udp:99999'}"), ["tunnel", "protect"]),
    (lab("tunnel={k: 5, z: 50, protect: 'tcp:0'}"), ["tunnel", "protect"]),
    (lab("path.forward.channel={model: trace, file: geo-ideal.yaml}"), ["path", "forward", "channel", "file"]),
    ({"lab": "geo-ideal", "scenario": GEO_IDEAL}, ["lab"]),
    ({"lab": "geo-ideal", "overrides": ["flows.0.cc=bbr"]}, ["overrides"]),
    ({"lab": "geo-ideal", "set": "flows.0.cc=bbr"}, ["set"]),
    ({"scenario": RETURN_}, ["path", "return_"]),
    ({"lab": "a" * 100_000}, ["lab"]),
    ({"scenario": TOO_MANY_FLOWS}, ["flows"]),
    ({"scenario": {**GEO_IDEAL, "description": json.loads("[" * 200 + "]" * 200)}}, ["scenario"]),
]


def assert_documented_shape(response, loc=None):
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    for problem in detail:
        assert problem["loc"][0] == "body" and isinstance(problem["msg"], str) and problem["type"]
        field = ".".join(str(part) for part in problem["loc"][1:])
        assert problem["msg"].startswith(f"{field}: " if field else "body: "), problem
    if loc is not None:
        assert any(problem["loc"][1:] == loc for problem in detail), detail
    assert all(len(problem["msg"]) < 600 for problem in detail), "a message echoes unbounded input"


@pytest.mark.parametrize(("body", "loc"), RUN_BODIES, ids=[".".join(loc) for _, loc in RUN_BODIES])
def test_a_bad_run_body_is_a_422_naming_its_field(client, body, loc):
    assert_documented_shape(client.post("/api/runs", json=body), loc)
    assert client.get("/api/runs").json()["count"] == 0


CAMPAIGN = {"name": "odd", "scenario": "geo-ideal", "set": {"flows.0.size_bytes": 100_000, "flows.0.hystart": None}}
CAMPAIGN_BODIES = [
    ({**CAMPAIGN, "set": {"flows.².cc": "bbr"}}, ["set", "flows", "²", "cc"]),
    ({**CAMPAIGN, "set": {"flows.9.cc": "bbr"}}, ["set", "flows", "9", "cc"]),
    ({**CAMPAIGN, "matrix": {"flows.0.cc": ["cubic", "tahoe"]}}, ["matrix", "flows", "0", "cc"]),
    ({**CAMPAIGN, "matrix": {"flows.0.hystart": [True]}}, ["matrix", "flows", "0", "hystart"]),
    ({**CAMPAIGN, "iterations": "3"}, ["iterations"]),
    ({**CAMPAIGN, "scenario": "a" * 5000}, ["scenario"]),
    ({**CAMPAIGN, "scenario": "a/" * 3000}, ["scenario"]),
    ({**CAMPAIGN, "set": {".".join(["a"] * 100_000): 1}}, None),
    ({**CAMPAIGN, "matrix": {"a" * 100_000: [1]}}, ["matrix"]),
    ({**CAMPAIGN, "set_": {}}, ["set_"]),
    ({**CAMPAIGN, "scenario": {**GEO_IDEAL, "flows": [{**GEO_IDEAL["flows"][0], "cc": "tahoe"}]}},
     ["scenario", "flows", "0", "cc"]),
]


@pytest.mark.parametrize(("body", "loc"), CAMPAIGN_BODIES,
                         ids=[".".join(loc)[:40] if loc else "long-path" for _, loc in CAMPAIGN_BODIES])
def test_a_bad_campaign_body_is_a_422_naming_its_field(client, body, loc):
    assert_documented_shape(client.post("/api/campaigns", json=body), loc)
    assert client.get("/api/campaigns").json()["count"] == 0


@pytest.mark.parametrize("path", ["/api/runs", "/api/campaigns"])
def test_json_nested_too_deep_to_parse_is_a_422(client, path):
    response = client.post(path, content="[" * 100_000 + "]" * 100_000, headers={"content-type": "application/json"})
    assert_documented_shape(response, [])


@pytest.mark.parametrize("path", ["/api/runs", "/api/campaigns"])
def test_a_body_that_is_not_json_is_a_422(client, path):
    assert_documented_shape(client.post(path, content="{", headers={"content-type": "application/json"}), [])


def test_a_body_over_the_limit_is_a_413_with_a_sentence(client, settings):
    response = client.post("/api/runs", json={"lab": "geo-ideal", "set": ["description=" + "x" * (2 << 20)]})
    assert response.status_code == 413
    assert response.json()["detail"] == [{"loc": ["body"], "type": "content_too_large", "msg": (
        f"body: larger than {settings.limits.max_request_bytes} bytes, the most the API accepts (max_request_bytes; "
        "a scenario takes about 1 kB)")}]


def test_a_streamed_body_over_the_limit_is_a_413_with_a_sentence(client, settings):
    """Without a Content-Length: refused once the bytes received pass the limit."""
    chunks = (b"x" * 65536 for _ in range(settings.limits.max_request_bytes // 65536 + 2))
    response = client.post("/api/runs", content=chunks, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert refusal(response).startswith("body: larger than ")


@pytest.mark.needs_root
def test_cancelling_a_campaign_whose_runs_are_all_queued(settings):
    """No run starts (max_concurrent_runs 0): the campaign's runs stay queued."""
    with TestClient(create_app(dataclasses.replace(settings, max_concurrent_runs=0))) as client:
        created = client.post("/api/campaigns", json={**CAMPAIGN, "matrix": {"flows.0.cc": ["cubic", "bbr"]},
                                                      "parallel": 2})
        assert created.status_code == 201, created.text
        campaign_id = created.json()["campaign_id"]
        assert client.post(f"/api/campaigns/{campaign_id}/cancel").status_code == 202
        again = client.post(f"/api/campaigns/{campaign_id}/cancel")
        assert again.status_code == 409 and refusal(again) == "The campaign is cancelled, not running."
        campaign = client.get(f"/api/campaigns/{campaign_id}").json()
        assert campaign["status"] == "cancelled" and campaign["progress"]["cancelled"] == 2
        runs = client.get("/api/runs", params={"campaign_id": campaign_id}).json()["data"]
        assert sorted(run["status"] for run in runs) == ["cancelled", "cancelled"]
