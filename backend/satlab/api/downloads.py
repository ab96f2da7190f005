"""Exports as downloads (satlab.service.export.selection): made whole into
an unnamed temporary file (it has no name on disk, so a client that closes
the connection mid-download leaves nothing behind), then streamed; a
refusal is a sentence: 404 for nothing to export, 409 for a run still
running."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import HTTPException, status
from fastapi.responses import StreamingResponse

from satlab.api.models.common import Refused as RefusedBody
from satlab.service.export.selection import MEDIA_TYPES, Export, Refused

CHUNK_BYTES = 1 << 20
EXPORT_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {media_type: {} for media_type in (*MEDIA_TYPES.values(), "application/zip")},
          "description": "One table (CSV or Parquet, units in the column names, provenance in a Parquet file's "
                         "metadata), or a zip archive of several files with manifest.json."},
    404: {"model": RefusedBody, "description": "No such run or campaign, or nothing of the kind to export."},
    409: {"model": RefusedBody, "description": "The run is still queued or running."}}
REFUSAL_STATUS = {"not_found": status.HTTP_404_NOT_FOUND, "empty": status.HTTP_404_NOT_FOUND,
                  "running": status.HTTP_409_CONFLICT}


def download(make: Callable[[], Export]) -> StreamingResponse:
    try:
        made = make()
    except Refused as refusal:
        raise HTTPException(REFUSAL_STATUS[refusal.kind], detail=str(refusal)) from None
    spool = tempfile.TemporaryFile()  # noqa: SIM115 (closed by the stream that reads it)
    try:
        made.write(spool)
        size_bytes = spool.tell()
        spool.seek(0)
    except BaseException:
        spool.close()
        raise

    def chunks() -> Iterator[bytes]:
        try:
            while data := spool.read(CHUNK_BYTES):
                yield data
        finally:
            spool.close()
    filename = os.path.basename(made.filename)
    return StreamingResponse(chunks(), media_type=made.media_type,
                             headers={"Content-Disposition": f'attachment; filename="{filename}"',
                                      "Content-Length": str(size_bytes)})
