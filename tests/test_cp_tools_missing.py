# SPDX-License-Identifier: MIT
"""A clone without CircuitPython's tools: its tests skip with one line, in CI too.

The repository is copied to a folder with nothing beside it and pytest runs there, with the
suite's own conftest.py, over tests that need CircuitPython's mpy-cross and VM, with no tool
variable set and an empty tools folder: every one of them is skipped, and pytest's summary
(-ra) gives the reason in one line that names both tools, where they are looked for, their
variables and where to read how to get them; `.ci/run` there passes the same way. Pointed at
the tools by their variables, or finding them in the tools folder, the copy runs them.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import cptools

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


def _env(clone, **env_extra):
    """The environment of a machine without the tools: empty tools folder and caches."""
    env = dict((k, v) for k, v in os.environ.items()
               if not k.startswith("FREECELL_") and k not in ("CI", "PYTEST_XDIST_WORKER",
                                                               "PYTEST_CURRENT_TEST"))
    empty = clone.parent / "empty"
    empty.mkdir(exist_ok=True)
    env.update({cptools.TOOLS_VAR: str(empty / "freecell-mc"), "XDG_CACHE_HOME": str(empty)})
    env.update(env_extra)
    return env


def _pytest(clone, **env_extra):
    env = _env(clone, **env_extra)
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
    assert "$" + cptools.MPY_CROSS_VAR in line and "$" + cptools.VM_VAR in line
    assert "mpy-cross-10.x" in line and "freecell-mc/circuitpython" in line
    assert "README" in line
    assert " passed" not in out.splitlines()[-1], out  # nothing of these ran without them


def test_in_ci_a_missing_tool_skips_too(clone):
    rc, out = _pytest(clone, CI="true")
    assert rc == 0, out
    assert len([line for line in out.splitlines() if line.startswith("SKIPPED")]) == 1, out


@pytest.mark.slow
def test_the_variables_point_a_clone_at_the_tools(clone, cp_mpy_cross, cp_vm):
    tools = {cptools.MPY_CROSS_VAR: str(cp_mpy_cross), cptools.VM_VAR: str(cp_vm)}
    rc, out = _pytest(clone, **tools)
    assert rc == 0, out
    assert "SKIPPED" not in out and " passed" in out.splitlines()[-1], out


@pytest.mark.slow
def test_the_tools_folder_points_a_clone_at_the_tools(clone, cp_mpy_cross, cp_vm, tmp_path):
    folder = tmp_path / "freecell-mc"
    folder.mkdir()
    (folder / ("mpy-cross-" + cptools.VM_TARGET)).symlink_to(cp_mpy_cross)
    (folder / "circuitpython").symlink_to(cp_vm)
    rc, out = _pytest(clone, **{cptools.TOOLS_VAR: str(folder)})
    assert rc == 0, out
    assert "SKIPPED" not in out and " passed" in out.splitlines()[-1], out
