"""The outputs of the five real sources, byte for byte, against tests/golden/.

A restructuring must not change what the pipeline writes: these files were written by the
pipeline before the code was moved, and every build must write them again exactly. When a
change of behaviour is intended, regenerate them and review the diff like any other change:

    LAWBOOK_GOLDEN=update .venv/bin/python -m pytest tests/test_golden.py

HTML and PDF are not here: they may change where a bug is fixed (their own tests pin them).

The build runs with --no-corrections: these files are the book exactly as the sources say it. The
committee's corrections (sources/corrections.toml) are tested in tests/test_corrections.py.
"""
import os
from pathlib import Path

import pytest

from conftest import ROOT, run_lawbook

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = ["corpus.xml", "corpus.json", "report.json", "report.txt", "refs.graphml", "refs.json",
         "2007/lawbook.md", "2017/lawbook.md", "diff/2007-2017.json"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("golden") / "build"
    result = run_lawbook("build", "--sources", ROOT / "sources", "--out", out, "--no-pdf", "--force", "--no-corrections")
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.parametrize("name", FILES)
def test_output_is_byte_identical(built, name):
    data = (built / name).read_bytes()
    golden = GOLDEN / name.replace("/", "_")
    if os.environ.get("LAWBOOK_GOLDEN") == "update":
        golden.write_bytes(data)
    assert data == golden.read_bytes(), f"{name} differs from tests/golden/{golden.name}"
