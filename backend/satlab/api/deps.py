"""What routes receive from the application (typed dependency aliases)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from satlab.runs import RunManager
from satlab.settings import Settings
from satlab.store import Store


def get_manager(connection: HTTPConnection) -> RunManager:
    manager: RunManager = connection.app.state.manager  # set by the app's lifespan
    return manager


def get_settings(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def get_store(connection: HTTPConnection) -> Store:
    return get_manager(connection).store


ManagerDep = Annotated[RunManager, Depends(get_manager)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
