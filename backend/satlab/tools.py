"""Where the native tools are: satlink (the link emulator), swf-tunnel (the FEC
tunnel) and satlab-pep (the split-TCP PEP), built from codec/tools."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOLS_DIR = Path(os.environ.get("SATLAB_TOOLS_DIR", REPO / "build" / "codec" / "tools"))


def tool(name: str) -> str:
    path = TOOLS_DIR / name
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: build the codec (cmake -S codec -B build/codec "
                                "&& cmake --build build/codec) or set SATLAB_TOOLS_DIR")
    return str(path)
