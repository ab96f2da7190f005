"""What routes receive from the application (typed dependency aliases), and
who is asking (see auth.py): UserDep for any signed-in user, InstructorDep
for the instructor only; the bounds of a page of a list (Offset, PageSize:
a number beyond them is a 422, never a database's overflow)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Query, WebSocket, status
from starlette.requests import HTTPConnection

from satlab.api.auth import INSTRUCTOR_ONLY, SESSION_COOKIE, SIGN_IN_FIRST, Auth, Principal
from satlab.api.security import StreamCounter
from satlab.service.runs import RunManager
from satlab.service.store import Store
from satlab.settings import Settings


def get_manager(connection: HTTPConnection) -> RunManager:
    manager: RunManager = connection.app.state.manager  # set by the app's lifespan
    return manager


def get_settings(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def get_store(connection: HTTPConnection) -> Store:
    return get_manager(connection).store


def get_auth(connection: HTTPConnection) -> Auth:
    auth: Auth = connection.app.state.auth
    return auth


def current_principal(connection: HTTPConnection) -> Principal | None:
    """Who the session says; also recorded for the audit trail."""
    principal = get_auth(connection).principal(connection.cookies.get(SESSION_COOKIE))
    connection.state.principal = principal
    return principal


def require_user(connection: HTTPConnection) -> Principal:
    principal = current_principal(connection)
    if principal is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, detail=SIGN_IN_FIRST)
    return principal


def require_instructor(connection: HTTPConnection) -> Principal:
    principal = require_user(connection)
    if not principal.is_instructor:
        raise HTTPException(status.HTTP_403_FORBIDDEN, detail=INSTRUCTOR_ONLY)
    return principal


async def stream_slot(websocket: WebSocket) -> AsyncIterator[None]:
    """Every stream holds one of the slots of max_websockets(_per_client)."""
    counter: StreamCounter = websocket.app.state.streams
    async for _ in counter.slot(websocket):
        yield


# A page of a list: at most MAX_PAGE_SIZE entries, from at most MAX_OFFSET on.
MAX_PAGE_SIZE = 1000
MAX_OFFSET = 1_000_000_000
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="How many of the newest to skip.")]
PageSize = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="How many to list.")]

ManagerDep = Annotated[RunManager, Depends(get_manager)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
AuthDep = Annotated[Auth, Depends(get_auth)]
UserDep = Annotated[Principal, Depends(require_user)]
InstructorDep = Annotated[Principal, Depends(require_instructor)]
StreamSlot = Depends(stream_slot)
