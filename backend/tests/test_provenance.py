"""A run's provenance names the native tools as they are when it starts: a
tool rebuilt while the process lives is what the next run executes, so its
digest follows the file (the other facts are read once)."""

import hashlib

from satlab.service import provenance


def test_a_tools_digest_follows_its_file(tmp_path, monkeypatch):
    monkeypatch.setattr(provenance, "TOOLS_DIR", tmp_path)
    tool = tmp_path / "swf-tunnel"
    tool.write_bytes(b"first build")
    first = provenance.provenance()["swf_tunnel_sha256"]
    assert first == hashlib.sha256(b"first build").hexdigest()[:16]
    rebuilt = tmp_path / "swf-tunnel.new"
    rebuilt.write_bytes(b"second build")
    rebuilt.replace(tool)  # as a linker's output replaces the file
    assert provenance.provenance()["swf_tunnel_sha256"] == hashlib.sha256(b"second build").hexdigest()[:16]
    assert provenance.provenance()["satlink_sha256"] is None  # not built
