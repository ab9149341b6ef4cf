# SPDX-License-Identifier: MIT
"""tools/copy_to_board.py on a temporary directory standing in for CIRCUITPY."""

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import copy_to_board  # noqa: E402


@pytest.fixture
def drive(tmp_path):
    """Return an empty CIRCUITPY look-alike with the board's own files on it."""
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; PyPortal\n")
    (d / "lib").mkdir()
    (d / "lib" / "adafruit_touchscreen.mpy").write_bytes(b"\x43\x06lib")
    (d / "settings.toml").write_text('CIRCUITPY_WEB_API_PASSWORD = "x"\n')
    return d


def run(dest, **kw):
    """Copy quietly; return (copied, unchanged, removed, output)."""
    out = io.StringIO()
    copied, unchanged, removed = copy_to_board.copy(dest, out=out, **kw)
    return copied, unchanged, removed, out.getvalue()


def test_first_copy_puts_every_file_and_code_py_last(drive):
    """Every device file arrives byte for byte; code.py is written after the package."""
    files = copy_to_board.sources()
    names = [str(p) for p in files]
    assert "freecell_mc/engine.py" in names and "freecell_mc/__init__.py" in names
    assert names[-1] == "code.py" and "boot.py" in names
    assert not any("__pycache__" in n for n in names)
    copied, unchanged, removed, out = run(drive)
    assert copied == files and unchanged == [] and removed == []
    for rel in files:
        assert (drive / rel).read_bytes() == (ROOT / rel).read_bytes()
    assert "%d copied, 0 unchanged" % len(files) in out
    # The board's own files are left alone.
    assert (drive / "lib" / "adafruit_touchscreen.mpy").read_bytes() == b"\x43\x06lib"
    assert (drive / "settings.toml").exists()


def test_second_copy_rewrites_nothing(drive):
    """Unchanged files are not written again (no flash wear, no needless restart)."""
    run(drive)
    stamp = 1_000_000_000
    for rel in copy_to_board.sources():
        os.utime(drive / rel, (stamp, stamp))
    copied, unchanged, _, _ = run(drive)
    assert copied == []
    assert unchanged == copy_to_board.sources()
    assert all((drive / rel).stat().st_mtime == stamp for rel in unchanged)


def test_a_changed_file_is_copied_alone(drive):
    """A file that differs on the drive (same size or not) is copied again, the rest skipped."""
    run(drive)
    target = drive / "freecell_mc" / "engine.py"
    data = bytearray(target.read_bytes())
    data[0] ^= 1  # same size, different bytes
    target.write_bytes(bytes(data))
    copied, _, _, _ = run(drive)
    assert copied == [Path("freecell_mc/engine.py")]
    assert target.read_bytes() == (ROOT / "freecell_mc" / "engine.py").read_bytes()


def test_stale_files_are_reported_and_pruned_on_request(drive):
    """Old package files stay unless --prune; prune never touches anything outside freecell_mc."""
    run(drive)
    old = drive / "freecell_mc" / "old_module.py"
    old.write_text("x = 1\n")
    _, _, removed, out = run(drive)
    assert removed == [] and old.exists()
    assert "1 old file(s)" in out
    _, _, removed, _ = run(drive, prune=True)
    assert removed == [Path("freecell_mc/old_module.py")] and not old.exists()
    assert (drive / "settings.toml").exists() and (drive / "lib").is_dir()


def test_dry_run_changes_nothing(drive):
    """--dry-run lists what would be copied and writes nothing."""
    copied, _, _, out = run(drive, dry_run=True)
    assert copied == copy_to_board.sources()
    assert "would copy code.py" in out
    assert not (drive / "freecell_mc").exists() and not (drive / "code.py").exists()


def test_missing_drive_and_read_only_drive_fail_clearly(tmp_path, drive, monkeypatch):
    """No drive: a clear exit. A drive the game owns (read-only): says how to open it."""
    with pytest.raises(SystemExit) as e:
        run(tmp_path / "nowhere")
    assert "is CIRCUITPY mounted" in str(e.value)

    def refuse(self, data):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "write_bytes", refuse)
    with pytest.raises(SystemExit) as e:
        run(drive)
    assert "USB updates" in str(e.value)


def test_command_line(drive):
    """The script runs as a command and reports what it did."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "copy_to_board.py"), str(drive)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (drive / "code.py").exists() and "copied" in proc.stdout
