"""The HTTP face of the engine: the API under /api (OpenAPI at /api/docs,
from packaged assets) and the built frontend at /, both compressed.

    satlab serve --host 127.0.0.1 --port 8000
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request, status
from fastapi.responses import JSONResponse
from starlette.middleware.gzip import GZipMiddleware

from satlab.api.routes import campaigns, channels, host, labs, runs
from satlab.api.site import FrontendFiles, add_docs, document_inputs
from satlab.runs import RunManager
from satlab.scenario import ScenarioError
from satlab.settings import Settings
from satlab.store import Store

log = logging.getLogger("satlab")


def scenario_error_detail(error: ScenarioError) -> list[dict[str, object]]:
    """FastAPI's 422 shape, one entry per problem: `loc` is the field's path
    in the scenario (or campaign), `msg` the whole sentence."""
    detail: list[dict[str, object]] = []
    for problem in error.problems:
        field, _, _ = problem.partition(": ")
        loc = ["body", *field.split(".")] if " " not in field else ["body"]
        detail.append({"loc": loc, "msg": problem, "type": "scenario_error"})
    return detail


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_path)
        manager = RunManager(store, settings.max_concurrent_runs)
        recovered = manager.recover()
        if any(recovered.values()):
            log.info("satlab: after a restart: removed %d namespaces, marked %d runs failed, resumed %d campaigns",
                     len(recovered["removed_namespaces"]), len(recovered["interrupted_runs"]),
                     len(recovered["resumed_campaigns"]))
        app.state.manager, app.state.settings = manager, settings
        try:
            yield
        finally:
            manager.shutdown()
            store.close()

    app = FastAPI(title="satlab", summary="Transport experiments over emulated GEO satellite paths.",
                  lifespan=lifespan, openapi_url="/api/openapi.json", docs_url=None, redoc_url=None)

    @app.exception_handler(ScenarioError)
    async def scenario_error(request: Request, error: ScenarioError) -> JSONResponse:
        return JSONResponse({"detail": scenario_error_detail(error)}, status.HTTP_422_UNPROCESSABLE_CONTENT)

    add_docs(app, "/api/docs")
    document_inputs(app)
    # The built script is ~400 kB and sample lists are large: both shrink 3-5 times.
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    for router in (labs.router, runs.router, campaigns.router, host.router, channels.router):
        app.include_router(router, prefix="/api")
    if (settings.frontend_dir / "index.html").exists():
        app.mount("/", FrontendFiles(directory=settings.frontend_dir, html=True), name="frontend")
    else:
        log.warning("satlab: %s has no index.html (build the frontend: make build-frontend); serving the API only",
                    settings.frontend_dir)
    return app
