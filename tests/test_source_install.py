# SPDX-License-Identifier: MIT
"""A copy of the game as .py source on the board: one calm screen naming the zip to install.

Compiled at import on the board, the source needs about 185 KB of heap, more than a PyPortal
leaves (docs/memory.md). code.py asks freecell_mc/hardware/source.py first and, for a source
copy on CircuitPython, shows the screen instead of starting the game; boot.py leaves the
drive to the computer so the zip can be unzipped onto it.
"""

from collections import namedtuple
from pathlib import Path

import pytest

from freecell_mc.hardware import boot, source

ROOT = Path(__file__).resolve().parent.parent
Impl = namedtuple("Impl", "name version")
CP10 = Impl("circuitpython", (10, 2, 1))


def test_only_circuitpython_running_source_is_a_source_copy():
    assert source.installed(CP10, "/lib/freecell_mc/hardware/source.py")
    assert not source.installed(CP10, "/lib/freecell_mc/hardware/source.mpy")
    assert not source.installed(Impl("cpython", (3, 11)), "freecell_mc/hardware/source.py")
    assert not source.installed()  # the desktop simulator and the tests run the source


def test_code_py_asks_before_it_imports_the_game():
    text = (ROOT / "code.py").read_text()
    assert text.index("source.installed()") < text.index("from freecell_mc.app import")


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_the_screen_names_the_zip_for_the_boards_major(size, tmp_path):
    from host_sim import display

    display.release()
    d = display.FramebufferDisplay(*size)
    try:
        root = source.draw(d, source.lines(9))
        d.refresh()
        d.save_png(str(tmp_path / "source.png"))
        words = root[1]
        grid = words[0]
        fw, fh = 6, 12
        # Whole on the screen, at twice the font's size on both boards (1.6 mm and more).
        assert words.scale == 2
        assert words.x >= 0 and words.x + grid.width * fw * 2 <= size[0]
        assert words.y >= 0 and words.y + grid.height * fh * 2 <= size[1]
    finally:
        display.release()
    assert source.lines(9)[-1] == "freecell-mc-9.x-mpy-*.zip"
    assert source.lines(10)[-1] == "freecell-mc-10.x-mpy-*.zip"
    assert all(len(line) <= 26 for line in source.lines(10))


def test_boot_leaves_the_drive_to_the_computer_for_a_source_copy(monkeypatch):
    said = []
    monkeypatch.setattr(source, "installed", lambda *a: True)

    class Storage:
        def remount(self, *a, **k):
            raise AssertionError("a source copy must not take the drive")

    assert boot.main(fs=Storage(), blocks=[], touch=None, out=said.append) is False
    assert said == [boot.HOW]  # the line of every start: boot_out.txt stays as it is


class _Reset(BaseException):
    """The board's reset, stood in: nothing after it runs."""


def _board(monkeypatch, said):
    """Stand in microcontroller (reset, on_next_reset) and supervisor (reload refused)."""
    import sys
    import types

    def reset():
        said.append("reset")
        raise _Reset()

    def reload():
        raise AssertionError("a reload ends code.py, whose finalisers close the save file")

    monkeypatch.setitem(sys.modules, "microcontroller", types.SimpleNamespace(
        reset=reset, on_next_reset=lambda mode: said.append(("next", mode)),
        RunMode=types.SimpleNamespace(NORMAL=0, SAFE_MODE=1)))
    monkeypatch.setitem(sys.modules, "supervisor", types.SimpleNamespace(reload=reload))


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_a_fault_shows_one_calm_screen_then_resets(size, monkeypatch, capsys):
    import time

    from host_sim import display

    reloads = []
    _board(monkeypatch, reloads)
    monkeypatch.setattr(time, "sleep", lambda s: None)
    display.release()
    d = display.FramebufferDisplay(*size)
    try:
        d.root_group = None
        try:
            raise MemoryError("memory allocation failed, allocating 84 bytes")
        except MemoryError as e:
            with pytest.raises(_Reset):
                source.fault(d, e)
        words = d.root_group[1]
        grid = words[0]
        assert words.scale == 2  # 1.6 mm and more on both panels
        assert words.x >= 0 and words.x + grid.width * 6 * 2 <= size[0]
        assert words.y >= 0 and words.y + grid.height * 12 * 2 <= size[1]
        # The tiles spell the calm lines: the game is saved and starts again.
        text = ["".join(chr(grid[c, r] + 0x20) for c in range(grid.width)).rstrip()
                for r in range(grid.height)]
        assert "Your game is saved:" in text and "it starts again now." in text
    finally:
        display.release()
    assert reloads == ["reset"]  # a reset, never a reload: code.py never ends
    assert "MemoryError" in capsys.readouterr().err  # the traceback, for the serial console


def test_ctrl_c_resets_into_safe_mode_and_a_failing_screen_still_resets(monkeypatch, capsys):
    import time

    said = []
    _board(monkeypatch, said)
    monkeypatch.setattr(time, "sleep", lambda s: None)
    with pytest.raises(_Reset):
        source.fault(None, KeyboardInterrupt())
    assert said == [("next", 1), "reset"]  # the REPL in safe mode, no calm screen
    said.clear()

    class Broken:
        def __setattr__(self, name, value):
            raise MemoryError("memory allocation failed")

    # Even where the calm screen cannot be built, the board resets: code.py never ends.
    with pytest.raises(_Reset):
        source.fault(Broken(), MemoryError("at the heap's edge"))
    assert said == ["reset"]
