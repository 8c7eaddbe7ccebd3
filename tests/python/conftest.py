"""Shared fixtures of the Python module's tests: the build's `dynid` command (the independent C++
path the bindings are compared with) and the bundled models of the source tree.

CTest runs these with PYTHONPATH=<build>/python and DYNID_EXE=<build>/dynid (tests/CMakeLists.txt);
by hand: PYTHONPATH=build/python DYNID_EXE=build/dynid python3 -m pytest tests/python
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
os.environ.setdefault("DYNID_MODELS_DIR", str(MODELS))


def dynid_exe():
    exe = os.environ.get("DYNID_EXE", str(ROOT / "build" / "dynid"))
    if not Path(exe).exists():
        pytest.fail(f"the dynid command is not at {exe} (set DYNID_EXE)")
    return exe


def run_cli(*args, check=True):
    """Runs `dynid ARGS`; returns the completed process (text stdout/stderr)."""
    r = subprocess.run([dynid_exe(), *map(str, args)], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"dynid {' '.join(map(str, args))} exited {r.returncode}: {r.stderr}")
    return r


def cli_json(*args):
    return json.loads(run_cli(*args).stdout)


@pytest.fixture(scope="session")
def cli():
    return run_cli
