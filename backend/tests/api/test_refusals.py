"""Every refusal in one shape, integer query parameters bounded, and no
directory of the server in what a student sees (issue 20, defects 7 and 8)."""

import pytest

from satlab.api.deps import MAX_OFFSET
from satlab.tools import REPO
from tests.api.conftest import instructor, join, refusal
from tests.conftest import LABS

HUGE = "9223372036854775808"  # 2^63: SQLite's integers end one before


@pytest.mark.parametrize("path", ["/api/runs", "/api/campaigns", "/api/audit"])
@pytest.mark.parametrize("value", [HUGE, str(MAX_OFFSET + 1), "-1", "1e3", "٣"])
def test_an_offset_out_of_range_is_a_422_naming_it(app_client, path, value):
    """The defect: offset=9223372036854775808 was a 500 (OverflowError)."""
    response = instructor(app_client).get(path, params={"offset": value})
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["query", "offset"]
    assert refusal(response).startswith("query.offset: ")


def test_every_integer_query_parameter_has_bounds(client):
    document = client.get("/api/openapi.json").json()
    unbounded = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                schemas = [parameter["schema"], *parameter["schema"].get("anyOf", [])]
                for schema in schemas:
                    if schema.get("type") == "integer" and ("maximum" not in schema or "minimum" not in schema):
                        unbounded.append(f"{method} {path} {parameter['name']}")
    assert unbounded == []


@pytest.mark.parametrize("path", ["/api/runs", "/api/campaigns", "/api/auth/student", "/api/class/quotas"])
def test_a_body_that_is_not_utf8_is_a_422(client, path):
    """The defect: a 400 "There was an error parsing the body"."""
    method = "PUT" if path == "/api/class/quotas" else "POST"
    response = client.request(method, path, content=b'{"lab": "geo-\xff\xfe"}',
                              headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["detail"][0]["loc"]) == (422, ["body"]), response.text
    assert refusal(response) == "body: not UTF-8 text (byte 13 is 0xff); JSON is UTF-8"


def test_refusals_of_no_route_have_the_shape_too(client):
    assert (client.get("/api/nothere").status_code, refusal(client.get("/api/nothere"))) == (404, "Not Found")
    response = client.put("/api/runs")
    assert (response.status_code, refusal(response)) == (405, "Method Not Allowed")


MISTAKES = [
    ("/api/runs", {"lab": "geo-ideal", "set": ["path.forward.channel={model: trace, file: nothere.txt}"]}),
    ("/api/runs", {"lab": "geo-ideal", "set": ["path.forward.rate_trace={file: ../nothere.txt}"]}),
    ("/api/runs", {"lab": "geo-ideal", "set": ["path.forward.delay_variation={model: trace, file: README.md}"]}),
    ("/api/runs", {"lab": "nothere"}),
    ("/api/campaigns", {"name": "x", "scenario": "README.md"}),
    ("/api/campaigns", {"name": "x", "scenario": "nothere"}),
    ("/api/campaigns", {"name": "x", "scenario": "sheets/01-sliding-window.md"}),
]


@pytest.mark.parametrize("who", ["student", "instructor"])
@pytest.mark.parametrize(("path", "body"), MISTAKES, ids=[str(body)[:50] for _, body in MISTAKES])
def test_no_refusal_names_a_directory_of_the_server(app_client, path, body, who):
    """The defect: `/…/labs/nothere.txt is not a readable file`, and a campaign's
    `scenario: README.md` had its loc split on the file name's dots."""
    teacher = instructor(app_client)
    quotas = {quota["name"]: quota["value"] for quota in teacher.get("/api/class/quotas").json()}
    assert teacher.put("/api/class/quotas", json={**quotas, "student_campaigns": 1}).status_code == 200
    response = (join(app_client, "ada") if who == "student" else teacher).post(path, json=body)
    text = refusal(response)
    for directory in {str(REPO), str(REPO.resolve()), str(LABS), str(LABS.resolve())}:
        assert directory not in response.text
    for problem in response.json()["detail"]:
        assert problem["loc"][:2] in (["body", "scenario"], ["body", "lab"], ["body", "path"]), problem
    if "nothere.txt" in str(body) and "../" not in str(body):
        assert "labs/nothere.txt is not a readable file" in text
