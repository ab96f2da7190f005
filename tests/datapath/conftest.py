import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import netlab  # noqa: E402


def pytest_collection_modifyitems(items):
    reason = netlab.missing_capability()
    if reason is None:
        return
    for item in items:
        if "needs_root" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_root: creates namespaces and TUN devices")
