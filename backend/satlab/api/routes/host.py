"""What this host can run, and the stream of every run's and campaign's changes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, WebSocket

from satlab import host
from satlab.api.deps import ManagerDep
from satlab.api.stream import forward_events
from satlab.scenario import CHANNEL_MODELS

router = APIRouter(tags=["host"])


@router.get("/capabilities")
def get_capabilities(manager: ManagerDep) -> dict[str, Any]:
    """Link backends, transports with their congestion controls, channel
    models; each unavailable thing says why."""
    return {**host.capabilities(), "channel_models": list(CHANNEL_MODELS),
            "max_concurrent_runs": manager.max_concurrent}


@router.websocket("/events")
async def stream_events(websocket: WebSocket, manager: ManagerDep) -> None:
    """Every run's state changes and summaries, and campaigns' progress (no samples), until closed."""
    await websocket.accept()
    await forward_events(websocket, manager, None, lambda: None, lambda event: False,
                         wanted=lambda event: event["type"] != "sample")
