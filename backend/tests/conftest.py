import os
import shutil
import tempfile
from pathlib import Path

import pytest

from satlab.tools import TOOLS_DIR

LABS = Path(__file__).resolve().parents[2] / "labs"


def missing_capability() -> str | None:
    """Why experiments cannot run here, or None if they can."""
    if os.geteuid() != 0:
        return "needs root to create network namespaces and TUN devices"
    if not Path("/dev/net/tun").exists():
        return "needs /dev/net/tun"
    if shutil.which("iperf3") is None:
        return "needs iperf3"
    for tool in ("satlink", "swf-tunnel"):
        if not (TOOLS_DIR / tool).exists():
            return f"needs {TOOLS_DIR / tool}: build the codec"
    return None


def pytest_configure(config):
    # Runs the tests start through the CLI are stored in a scratch database,
    # never in the host's (/var/lib/satlab).
    os.environ["SATLAB_DB"] = str(Path(tempfile.mkdtemp(prefix="satlab-test-db-")) / "satlab.db")


def pytest_unconfigure(config):
    shutil.rmtree(Path(os.environ["SATLAB_DB"]).parent, ignore_errors=True)


def pytest_collection_modifyitems(items):
    reason = missing_capability()
    if reason is None:
        return
    for item in items:
        if "needs_root" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def labs() -> Path:
    return LABS
