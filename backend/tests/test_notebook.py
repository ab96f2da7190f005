"""examples/campaign.ipynb runs from top to bottom on a small campaign the
test makes (two short real runs), and draws its two figures."""

import json
import subprocess
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.test_cli import SATLAB, write_campaign

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "campaign.ipynb"


@pytest.mark.needs_root
def test_the_campaign_notebook_draws_its_figures(tmp_path, monkeypatch):
    db = tmp_path / "satlab.db"
    done = subprocess.run(SATLAB + ["--db", str(db), "campaign", str(write_campaign(tmp_path)), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    campaign_id = json.loads(done.stdout)["campaign_id"]
    monkeypatch.setenv("SATLAB_DB", str(db))
    monkeypatch.setenv("SATLAB_CAMPAIGN", campaign_id)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    printed = "".join(output.get("text", "") for output in outputs if output.output_type == "stream")
    assert "2 configurations; run " in printed
