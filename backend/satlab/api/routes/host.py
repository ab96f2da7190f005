"""What this host can run, and the stream of every run's and campaign's changes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, WebSocket

from satlab.api.deps import ManagerDep, StreamSlot, UserDep
from satlab.api.models.host import Capabilities
from satlab.api.stream import forward_events
from satlab.engine import container, host
from satlab.scenario import CHANNEL_MODELS

router = APIRouter(tags=["host"])


@router.get("/capabilities")
def get_capabilities(manager: ManagerDep) -> Capabilities:
    """Link backends, transports with their congestion controls, channel
    models; each unavailable thing says why, and `limitations` what this
    host (a container, often) cannot do that runs need."""
    return Capabilities.model_validate({**host.capabilities(), "limitations": container.limitations(),
                                        "channel_models": list(CHANNEL_MODELS),
                                        "max_concurrent_runs": manager.max_concurrent})


@router.websocket("/events", dependencies=[StreamSlot])
async def stream_events(websocket: WebSocket, manager: ManagerDep, principal: UserDep) -> None:
    """Every run's state changes and summaries, and campaigns' progress (no
    samples), until closed; a student's: of the runs they may see only."""
    await websocket.accept()

    def wanted(event: dict[str, Any]) -> bool:
        if event["type"] == "sample":
            return False
        if principal.is_instructor:
            return True
        run_id = event.get("run_id")
        return run_id is not None and manager.store.run_visible_to(run_id, principal.id)

    await forward_events(websocket, manager, None, lambda: None, lambda event: False, wanted=wanted)
