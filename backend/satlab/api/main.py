"""The HTTP face of the engine: the API under /api (OpenAPI at /api/docs,
from packaged assets) and the built frontend at /, both compressed.

    satlab serve --host 127.0.0.1 --port 8000
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator

from fastapi import Depends, FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from satlab.api import errors
from satlab.api.auth import Auth
from satlab.api.deps import require_user
from satlab.api.models.common import Refused
from satlab.api.routes import admin, auth, campaigns, channels, host, labs, runs, studies, workers
from satlab.api.security import Audit, SameOrigin, SecurityHeaders, StreamCounter
from satlab.api.site import FrontendFiles, add_docs, document_schemas
from satlab.distributed import connection
from satlab.service.runs import RunManager
from satlab.service.store import Store
from satlab.settings import Settings

log = logging.getLogger("satlab")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_path)
        # Every queueing is admitted by the rules the instructor set (Auth.policy).
        manager = RunManager(store, settings.max_concurrent_runs, settings.limits.run_artifact_bytes,
                             policy=lambda: app.state.auth.policy())
        # With SATLAB_BROKER_URL, runs go to `satlab worker`s (a URL without a password stops the start here).
        manager.use_broker(connection.broker_url())
        recovered = manager.recover()
        if manager.remote is not None and manager.remote.problem is not None:
            log.error("satlab: %s", manager.remote.problem)
        if any(recovered.values()):
            log.info("satlab: after a restart: removed %d namespaces, marked %d runs failed, resumed %d campaigns",
                     len(recovered["removed_namespaces"]), len(recovered["interrupted_runs"]),
                     len(recovered["resumed_campaigns"]))
        app.state.manager, app.state.settings = manager, settings
        app.state.auth, app.state.streams = Auth(store, settings), StreamCounter(settings.limits)
        if app.state.auth.issued_token is not None:
            log.warning("satlab: the instructor's token, shown this once (only its hash is kept): %s",
                        app.state.auth.issued_token)
        retention_days = app.state.auth.limits.retention_days
        if pruned := store.prune_samples(time.time() - retention_days * 86400):
            log.info("satlab: dropped the samples of %d runs finished more than %d days ago (retention_days)",
                     pruned, retention_days)
        store.prune_audit(app.state.auth.limits.audit_retention_rows)  # a lowered retention applies at once
        if app.state.auth.open_access:
            log.warning("satlab: no sign-in: no instructor token is set and the server is bound to loopback, "
                        "so whoever reaches it acts as the instructor")
        try:
            yield
        finally:
            manager.shutdown()
            store.close()

    app = FastAPI(title="satlab", summary="Transport experiments over emulated GEO satellite paths.",
                  lifespan=lifespan, openapi_url="/api/openapi.json", docs_url=None, redoc_url=None,
                  responses={"4XX": {"model": Refused, "description": "Refused: one problem per reason."}})
    errors.install(app, settings.limits.max_request_bytes, settings.labs_dir)

    add_docs(app, "/api/docs")
    document_schemas(app)
    admin.document_ceilings(app, settings.ceilings)
    # The built script is ~400 kB and sample lists are large: both shrink 3-5 times.
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    # Outermost last: the client's address and scheme from a trusted reverse
    # proxy, the headers every answer carries, the Host allow-list (DNS
    # rebinding), then cross-site requests, then the audit trail of what passed.
    app.add_middleware(Audit, store=lambda: app.state.manager.store, limits=lambda: app.state.auth.limits)
    app.add_middleware(SameOrigin)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts))
    app.add_middleware(SecurityHeaders)
    if settings.trusted_proxies:  # else nobody's X-Forwarded-For is believed (uvicorn's own is off: server.py)
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
    app.include_router(auth.router, prefix="/api")
    app.include_router(admin.router, prefix="/api")
    for router in (labs.router, runs.router, campaigns.router, host.router, channels.router, workers.router):
        app.include_router(router, prefix="/api", dependencies=[Depends(require_user)])
    # Students read the studies and their reports; a study run is the instructor's (a route's own dependency).
    app.include_router(studies.router, prefix="/api", dependencies=[Depends(require_user)])
    if (settings.frontend_dir / "index.html").exists():
        app.mount("/", FrontendFiles(directory=settings.frontend_dir, html=True), name="frontend")
    else:
        log.warning("satlab: %s has no index.html (build the frontend: make build-frontend); serving the API only",
                    settings.frontend_dir)
    return app
