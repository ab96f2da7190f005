"""What the API serves besides its routes: offline docs, the schemas of its
inputs, the frontend compressed and cached."""

from pathlib import Path

from satlab.scenario import MAX_SIZE_BYTES


def test_get_docs_loads_swagger_ui_from_this_server(client):
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "cdn" not in page.text and "https://" not in page.text
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert f'"docs-assets/{asset}"' in page.text
        response = client.get(f"/api/docs-assets/{asset}")
        assert response.status_code == 200 and len(response.content) > 100_000


def test_openapi_documents_the_scenario_and_campaign_limits(client):
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    size = schemas["FlowGroup"]["properties"]["size_bytes"]["anyOf"][0]
    assert (size["minimum"], size["maximum"]) == (1, MAX_SIZE_BYTES)
    assert schemas["CampaignSpec"]["properties"]["iterations"]["minimum"] == 1
    assert schemas["Scenario"]["properties"]["flows"]["items"] == {"$ref": "#/components/schemas/FlowGroup"}


def test_frontend_assets_are_compressed_and_cached_by_name(client, settings):
    assets = Path(settings.frontend_dir) / "assets"
    assets.mkdir()
    (assets / "index-DIjdsOxW.js").write_text("console.log('satlab');\n" * 200)
    script = client.get("/assets/index-DIjdsOxW.js", headers={"accept-encoding": "gzip"})
    assert script.headers["content-encoding"] == "gzip"
    assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
    index = client.get("/")
    assert index.headers["cache-control"] == "no-cache"
