"""The contract between backend and browser: the OpenAPI document describes
every response body (the browser's types are generated from it), `satlab
openapi` prints it without a server, and the bodies keep the shapes the
browser knows (a shipped report as shipped)."""

import json
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from satlab.api.models.events import RunStreamEvent
from satlab.cli import main as satlab_main
from satlab.scenario import ScenarioError, validate
from satlab.studies import configurations, list_studies
from tests.conftest import LABS

# Where a response may hold an object of free keys or values, and why: what
# the engine or a tool reports varies by transport and version, a run's
# provenance by host, a matrix's values are scenario values of any type.
FREE_FORM = {
    "CampaignItemDetailRow.parameters",  # matrix path -> that configuration's value
    "StudyConfigurationPublic.overrides",  # dotted path -> value
    "FlowSummaryRow.details", "FlowResult (extra)",  # the transport's own figures
    "LinkDirectionCounters (extra)",  # a newer satlink may count more
    "IterationResult.plan",  # the engine's plan of an iteration
    "IterationResult.pep",  # satlab-pep's summary lines, as the tool prints them
    "IterationCapture.capture", "IterationCapture.counters",  # satlink's and swf-tunnel's own figures
    "RunPublic.provenance", "StudyReport.host",  # versions of the kernel, satlab and tools; host state
    "ChannelStats.channel",  # the channel as the engine validated it
    "CampaignSpec.scenario", "CampaignSpec.set", "CampaignSpec.matrix[][]",  # a campaign file, as written
}
CSV_ROUTES = {("get", "/api/runs/{run_id}/csv/{kind}"), ("get", "/api/campaigns/{campaign_id}/csv"),
              ("get", "/api/studies/{study_id}/report.csv")}
# The one export surface (satlab.api.downloads): a table (CSV, Parquet) or a zip archive.
EXPORT_ROUTES = {("get", "/api/runs/{run_id}/export"), ("get", "/api/campaigns/{campaign_id}/export")}
EXPORT_TYPES = ["text/csv", "application/vnd.apache.parquet", "application/zip"]
STREAMS = ("RunStreamEvent", "CampaignStreamEvent", "EventsStreamEvent")


def free_forms(document: dict[str, Any], schema: dict[str, Any], where: str, seen: set[str]) -> set[str]:
    """The places under schema (following $refs once each) whose object has
    free keys: {} (anything), an object without properties, extra keys allowed."""
    components = document["components"]["schemas"]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        if name in seen:
            return set()
        seen.add(name)
        return free_forms(document, components[name], name, seen)
    found = set()
    if schema == {} or (schema.get("type") == "object" and "properties" not in schema
                        and schema.get("additionalProperties", True) is True):
        found.add(where)
    if "properties" in schema and schema.get("additionalProperties") is True:
        found.add(f"{where} (extra)")
    for name, part in schema.get("properties", {}).items():
        found |= free_forms(document, part, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found |= free_forms(document, schema[key], f"{where}[]", seen)
    for key in ("anyOf", "oneOf", "allOf"):
        for part in schema.get(key, ()):
            found |= free_forms(document, part, where, seen)
    return found


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/api/openapi.json").json()


def test_openapi_describes_every_response_body_completely(document):
    free: set[str] = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            (body,) = [answer for code, answer in operation["responses"].items() if code.startswith("2")]
            if (method, path) in CSV_ROUTES:
                assert list(body["content"]) == ["text/csv"], path
                continue
            if (method, path) in EXPORT_ROUTES:
                assert list(body["content"]) == EXPORT_TYPES, path
                continue
            free |= free_forms(document, body["content"]["application/json"]["schema"], f"{method} {path}", set())
    for stream in STREAMS:
        free |= free_forms(document, {"$ref": f"#/components/schemas/{stream}"}, stream, set())
    assert free <= FREE_FORM, sorted(free - FREE_FORM)


def test_openapi_refers_to_the_stored_scenario_and_spec_by_their_schemas(document):
    schemas = document["components"]["schemas"]
    assert schemas["RunPublic"]["properties"]["scenario"]["$ref"] == "#/components/schemas/Scenario"
    assert schemas["CampaignPublic"]["properties"]["spec"]["$ref"] == "#/components/schemas/CampaignSpec"
    assert {"Scenario", "CampaignSpec", *STREAMS} <= set(schemas)


def test_satlab_openapi_prints_the_served_document_with_sorted_keys(client, capsys):
    assert satlab_main(["openapi"]) == 0
    printed = capsys.readouterr().out
    assert json.loads(printed) == client.get("/api/openapi.json").json()
    assert printed == json.dumps(json.loads(printed), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    assert satlab_main(["openapi"]) == 0
    assert capsys.readouterr().out == printed


def test_get_tunnel_limits_are_the_scenario_models(client):
    limits = client.get("/api/limits/tunnel").json()
    assert limits["k_at_most_z"] is True
    scenario = json.loads(json.dumps(client.get("/api/labs/geo-optical").json()["scenario"]))
    highest = {"k": limits["k"]["max"], "z": limits["z"]["max"], "symbol_bytes": limits["symbol_bytes"]["max"]}
    validate({**scenario, "tunnel": highest})
    for field in ("k", "z", "symbol_bytes"):
        for value in (limits[field]["min"] - 1, limits[field]["max"] + 1):
            with pytest.raises(ScenarioError, match=f"tunnel.{field}"):
                validate({**scenario, "tunnel": {**highest, field: value}})


def test_a_study_lists_the_configurations_of_its_full_and_quick_runs(client):
    for study in list_studies(LABS):
        served = client.get(f"/api/studies/{study.id}").json()
        assert served["configurations"] == [entry.to_dict() for entry in configurations(study)]
        assert served["quick_configurations"] == [entry.to_dict() for entry in configurations(study, quick=True)]
        assert 0 < len(served["quick_configurations"]) <= len(served["configurations"])


def test_a_shipped_report_is_served_as_shipped(client):
    shipped = [study for study in list_studies(LABS) if (study.directory / "report.json").is_file()]
    assert shipped
    for study in shipped:
        report = json.loads((study.directory / "report.json").read_text())
        assert client.get(f"/api/studies/{study.id}").json()["shipped_report"] == report, study.id


def test_stream_events_refuse_what_they_do_not_describe():
    events = TypeAdapter(RunStreamEvent)
    state = {"type": "state", "state": "queued", "run_id": "a1b2c3"}
    assert events.dump_python(events.validate_python(state), mode="json", exclude_unset=True) == state
    with pytest.raises(ValidationError):
        events.validate_python({"type": "sample", "run_id": "a1b2c3"})
