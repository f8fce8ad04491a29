"""The types of core/, reading/ and corpus/ hold: mypy, with the settings of pyproject.toml ([tool.mypy]),
finds nothing. A change that breaks an annotation fails here, in `make test`."""
import subprocess
import sys

import pytest

from conftest import ROOT


def test_mypy_finds_no_error_in_the_typed_packages(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed: `make venv` installs the test extra, which has it")
    # The cache in a folder of the test's own: nothing is written into the repository.
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"),
                          "--config-file", str(ROOT / "pyproject.toml")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
