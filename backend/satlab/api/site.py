"""What the API serves besides its routes: the API's documentation from
packaged assets (no CDN: the lab often runs offline), the schemas no route
names (its inputs, the one source of their limits, which the web UI reads;
its streams' events), and the built frontend with cache headers."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable
from importlib.resources import files
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema
from starlette.responses import Response
from starlette.types import Scope

from satlab.api.models.common import SCHEMA_MARK
from satlab.api.models.events import STREAM_EVENTS
from satlab.api.security import CONTENT_SECURITY_POLICY
from satlab.scenario import Scenario
from satlab.service.campaign import CampaignSpec

# Swagger UI 5 (it reads OpenAPI 3.1, which FastAPI writes), as fastapi-offline packages it.
DOCS_ASSETS = files("fastapi_offline") / "static"


def add_docs(app: FastAPI, docs_url: str = "/api/docs") -> None:
    """Swagger UI at docs_url, its scripts from the installed package. The
    page names everything relative to itself, so it works under a proxy's
    path prefix too."""
    assets_url = f"{docs_url}-assets"
    app.mount(assets_url, StaticFiles(directory=str(DOCS_ASSETS)), name="docs-assets")
    assets = assets_url.rsplit("/", 1)[1]
    openapi = app.openapi_url.rsplit("/", 1)[1] if app.openapi_url else "openapi.json"

    @app.get(docs_url, include_in_schema=False)
    def docs() -> HTMLResponse:
        page = get_swagger_ui_html(openapi_url=openapi, title=f"{app.title}: API",
                                   swagger_js_url=f"{assets}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{assets}/swagger-ui.css",
                                   swagger_favicon_url=f"{assets}/favicon.png",
                                   # No badge from validator.swagger.io: nothing leaves the host.
                                   swagger_ui_parameters={"validatorUrl": None})
        page.headers["content-security-policy"] = allowing_inline_scripts(bytes(page.body))
        return page


_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def allowing_inline_scripts(html: bytes) -> str:
    """The site's Content-Security-Policy, which also lets run the inline
    scripts of html, each by its hash (the documentation's one that starts
    Swagger UI), and nothing else inline."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
                      for script in _INLINE_SCRIPT.findall(html))
    return CONTENT_SECURITY_POLICY.replace("script-src 'self'", f"script-src 'self' {hashes}", 1)


INPUTS: tuple[type[BaseModel], ...] = (Scenario, CampaignSpec)
REFS = "#/components/schemas/{model}"


class StoredSchema(GenerateJsonSchema):
    """The schema of a model as stored and served (serialization): every
    field is there, a defaulted one filled in, so every field is required
    (what json_schema_serialization_defaults_required does for models.common.Public)."""

    def field_is_required(self, field: Any, total: bool) -> bool:
        return not field.get("serialization_exclude", False)


def input_schemas() -> dict[str, Any]:
    """JSON schemas of the scenario and campaign files as stored and served
    (their fields, limits, every default filled in), as OpenAPI components."""
    schemas: dict[str, Any] = {}
    for model in INPUTS:
        schema = model.model_json_schema(by_alias=True, ref_template=REFS, schema_generator=StoredSchema,
                                         mode="serialization")
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
    return schemas


def _as_served(components: dict[str, Any], served: dict[str, Any]) -> dict[str, Any]:
    """served (the stored files' and streams' schemas), each one whose
    required fields differ from a request body's schema of the same name (a
    channel model of POST api/channels/stats, where a default may be left
    out) renamed `<name>-Output`, as FastAPI names a model's served schema."""
    renamed = {name: f"{name}-Output" for name, schema in served.items()
               if name in components and set(components[name].get("required", ())) != set(schema.get("required", ()))}
    text = json.dumps(served)
    for name, output in renamed.items():
        text = text.replace(f'"{REFS.format(model=name)}"', f'"{REFS.format(model=output)}"')
    return {renamed.get(name, name): schema for name, schema in json.loads(text).items()}


def event_schemas() -> dict[str, Any]:
    """JSON schemas of what the WebSocket streams send (models.events), as OpenAPI components."""
    schemas: dict[str, Any] = {}
    for name, events in STREAM_EVENTS.items():
        schema = TypeAdapter(events).json_schema(by_alias=True, ref_template=REFS, mode="serialization")
        schemas.update(schema.pop("$defs", {}))
        schemas[name] = schema
    return schemas


def _refer(node: Any) -> Any:
    """node with each schema marked by models.common.documented_as turned into a $ref."""
    if isinstance(node, dict):
        if SCHEMA_MARK in node:
            return {"$ref": REFS.format(model=node[SCHEMA_MARK]), "description": node["description"]}
        return {key: _refer(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_refer(value) for value in node]
    return node


def document_schemas(app: FastAPI) -> None:
    """Add to app's OpenAPI document what no route names: the scenario and
    campaign schemas (routes take them as free-form bodies: a lab name plus
    overrides, or a campaign file) and the streams' events."""
    generate: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = generate()
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            # A route that takes a channel model or returns a run already lists it: the same class, the same schema.
            for name, model_schema in _as_served(components, {**input_schemas(), **event_schemas()}).items():
                components.setdefault(name, model_schema)
            app.openapi_schema = _refer(schema)
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema


# Vite names what it builds under assets/ by content (index-DIjdsOxW.js): such a file never changes.
_HASHED = re.compile(r"^assets/.+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$")
IMMUTABLE = "public, max-age=31536000, immutable"


class FrontendFiles(StaticFiles):
    """The built frontend: files named by their content are cached for a
    year; everything else (index.html first) is revalidated on each load,
    so that a new build shows at once."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["cache-control"] = IMMUTABLE if _HASHED.match(path) else "no-cache"
        return response
