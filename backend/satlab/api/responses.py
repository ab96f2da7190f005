"""Response helpers shared by the routes."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, TextIO

from fastapi import HTTPException, Response, status

from satlab.api.models.common import Refused

CSV_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {}}, "description": "CSV, with units in the column names."},
    404: {"model": Refused}}


def csv_attachment(write: Callable[[TextIO], None], filename: str) -> Response:
    out = io.StringIO()
    write(out)
    return Response(out.getvalue(), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def found[Thing](thing: Thing | None, what: str) -> Thing:
    """thing, or a 404 saying "<What> not found"."""
    if thing is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"{what} not found")
    return thing
