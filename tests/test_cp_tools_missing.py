# SPDX-License-Identifier: MIT
"""A clone without CircuitPython's tools: its tests skip with one line; where required, fail.

The repository is copied to a folder with no ../shared beside it and pytest runs there, with
the suite's own conftest.py, over tests that need CircuitPython's mpy-cross and VM, with no
tool variable set: every one of them is skipped, and pytest's summary (-ra) gives the reason
in one line that names both tools, their variables and where to read how to get them. With
$FREECELL_REQUIRE_CIRCUITPYTHON set (.ci/run sets it) the same tests fail instead. Pointed at
the tools by their variables, the copy runs them.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REQUIRE_VAR

from tools import bundle

ROOT = Path(__file__).resolve().parent.parent
# Tests that need the compiler alone, and the compiler and the VM.
TESTS = ["tests/test_mpy_cross.py::test_compiles_for_the_board", "tests/test_cpvm_objects.py"]


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """Copy the repository's files (as git sees them, not .venv) into <tmp>/clone/repo."""
    dest = tmp_path_factory.mktemp("clone") / "repo"
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in names:
        if not name:
            continue
        src = ROOT / os.fsdecode(name)
        if src.is_file():
            (dest / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / os.fsdecode(name))
    assert not (dest.parent.parent / "shared").exists()
    return dest


def _pytest(clone, **env_extra):
    env = dict((k, v) for k, v in os.environ.items()
               if not k.startswith("FREECELL_") and k not in ("CI", "PYTEST_XDIST_WORKER",
                                                               "PYTEST_CURRENT_TEST"))
    env.update(env_extra)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p",
                           "no:xdist", "-q"] + TESTS, cwd=clone, env=env, capture_output=True,
                          text=True, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def test_without_the_tools_the_tests_that_need_them_skip_with_one_line(clone):
    rc, out = _pytest(clone)
    assert rc == 0, out
    lines = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert len(lines) == 1, out
    line = lines[0]
    assert "CircuitPython's mpy-cross and VM" in line
    assert "$" + bundle.ENV_VAR in line and "$" + bundle.VM_ENV_VAR in line
    assert "README" in line
    assert " passed" not in out.splitlines()[-1], out  # nothing of these ran without them


def test_where_required_a_missing_tool_fails(clone):
    rc, out = _pytest(clone, **{REQUIRE_VAR: "1"})
    assert rc == 1, out
    assert "SKIPPED" not in out
    assert "required here" in out


def test_the_variables_point_a_clone_at_the_tools(clone, cp_mpy_cross, cp_vm):
    tools = {bundle.ENV_VAR: str(cp_mpy_cross), bundle.VM_ENV_VAR: str(cp_vm)}
    rc, out = _pytest(clone, **tools)
    assert rc == 0, out
    assert "SKIPPED" not in out and " passed" in out.splitlines()[-1], out
