# SPDX-License-Identifier: MIT
"""A day of play on CircuitPython's own VM, at the board's Python stack and a fixed heap.

bench/board.py runs the board image of `./dev bundle` (code.py, boot.py, the game and
adafruit_touchscreen as CircuitPython .mpy) on CircuitPython's unix port configured like a
PyPortal, with the stand-ins of tests/cpvm/ for the hardware. The session (SPEC 7) starts as
a board fresh from power-up, plays a deal typed in and won by taps, visits every screen and
page, plays the daily and a free deal each to 2,000 moves of undo history and switches
between them four times with both histories kept, asks the question before a game is lost
13 times, wins 4 games and abandons 10; the board is reset in the middle of a game and play
goes on; after the save ring has gone round in full it starts again and continues the newest
save. It must run at 1,536 bytes of pystack in a fixed heap of 130,000 bytes, stand-ins
included, and with SPEC 7's margin: at 128,000 and in every heap above it (every 512 bytes
for 12 KB, then every 2,500 to 175,000), on the PyPortal, the Titano and the Pynt:
fragmentation must never decide whether a player gets a screen (docs/memory.md).
"""

import pytest

from bench import board
from freecell_mc.saves import savelog

SCREENS = {"datepicker", "table", "menu", "keypad", "result", "daily", "stats", "settings",
           "calibration", "confirm"}


def _check_session(s, name):
    """Assert what every complete session shows: all steps of all three parts, the wins and
    the daily saved, the ring loaded."""
    assert s.ok, s.failure()
    first = s.results(0)
    assert first["steps"] == [len(board.session_steps(name))]
    assert first["saved"] == [2, 1]  # two wins on flash, and a daily deal
    middle = s.results(1)
    assert middle["steps"] == [len(board.middle_steps(name))]
    assert middle["saved"] == [4, 1]
    # Every place of the ring holds a save but the group erased ahead of the writer.
    assert s.places >= savelog.RING - 2 * savelog.GROUP, s.places
    last = s.results(2)
    # The restart's steps include "g": the newest save's game and seconds, nothing older.
    assert last["steps"] == [len(board.restart_steps(s.elapsed))]
    assert last["saved"] == [4, 1]


def test_the_vm_is_circuitpython_configured_like_a_pyportal(cp_image, tmp_path):
    # What the session's verdicts rest on, asked of the VM: 31-bit small ints, a fixed heap
    # that raises MemoryError, a pystack that runs out, the real display objects.
    script = tmp_path / "probe.py"
    script.write_text(
        "import sys, gc, displayio, terminalio\n"
        "print('RESULT impl', sys.implementation.name)\n"
        "def grow(n):\n"
        "    a = gc.mem_alloc()\n"
        "    n + n\n"
        "    return gc.mem_alloc() - a\n"
        "gc.disable()\n"
        "print('RESULT sums', grow(2**29 - 1), grow(2**29) > 0)\n"
        "gc.enable()\n"
        "print('RESULT heap', gc.mem_free() + gc.mem_alloc())\n"
        "print('RESULT group', type(displayio.Group()).__name__)\n"
        "try:\n"
        "    x = bytearray(200000)\n"
        "except MemoryError:\n"
        "    print('RESULT memoryerror 1')\n"
        "def deep(n):\n"
        "    return n if n == 0 else deep(n - 1)\n"
        "try:\n"
        "    deep(100)\n"
        "except RuntimeError as e:\n"
        "    print('RESULT pystack', str(e).replace(' ', '_'))\n")
    rc, out, err = cp_image.run(tmp_path, script, heap=board.HEAP)
    assert rc == 0, out + err
    got = board.results(out)
    assert got["impl"] == ["circuitpython"]
    # 2**30 - 2 is a small int, 2**30 a long one on the heap: small ints are 31 bits.
    assert got["sums"] == [0, "True"]
    # About 97% of -X heapsize is the collector's pool, as on the board.
    assert 0.95 * board.HEAP < got["heap"][0] < board.HEAP
    assert got["group"] == ["Group"]
    assert got["memoryerror"] == [1]
    assert got["pystack"] == ["pystack_exhausted"]


@pytest.mark.parametrize("name", sorted(board.BOARDS))
def test_the_whole_session_runs_in_130000_bytes_at_the_9x_pystack(cp_image, name):
    s = board.run_session(cp_image, name, heap=board.HEAP, pystack=board.PYSTACK_9X)
    _check_session(s, name)


# The sweep, spread over the test workers: one test per heap size and board.
@pytest.mark.slow
@pytest.mark.parametrize("heap", [h for h in board.sweep_heaps() if h != board.HEAP])
@pytest.mark.parametrize("name", sorted(board.BOARDS))
def test_every_heap_above_it_runs_the_whole_session_too(cp_image, name, heap):
    s = board.run_session(cp_image, name, heap=heap, pystack=board.PYSTACK_9X)
    _check_session(s, name)


def test_a_heap_too_small_fails_with_memoryerror_not_silently(cp_image):
    # The verdicts above mean something only if a heap that is too small does fail.
    s = board.run_session(cp_image, "titano", heap=60000)
    assert not s.ok
    assert "MemoryError" in s.failure()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(board.BOARDS))
def test_every_screen_and_what_it_holds(cp_image, name):
    # The measuring session collects after every poll: per screen, the most in use after a
    # collection while it shows, net of the stand-ins (docs/memory.md has the figures).
    s = board.run_session(cp_image, name, heap=board.BIG_HEAP, mode="measure")
    _check_session(s, name)
    visits = s.visits()
    for row in visits:
        print("%-12s %8d %8d %8d" % tuple(row))
    assert SCREENS <= {v[0] for v in visits}
    # The session ends on the table as it began after the first part: every screen and its
    # module was dropped on the way.
    tables = [last for n, _, _, last in visits if n == "table"]
    assert tables[-1] - tables[0] < 4096, tables


def test_the_stand_ins_keep_under_10_kb(cp_image, tmp_path):
    costs = board.standin_costs(cp_image, tmp_path)
    print(costs)
    assert sum(n for _, n in costs) <= 10240, costs


def test_a_touch_reading_allocates_what_the_boards_pin_objects_do(cp_image, tmp_path):
    # adafruit_touchscreen makes two DigitalInOut and two AnalogIn per reading without a
    # touch: 16-byte C structs on the board (digitalio_digitalinout_obj_t,
    # analogio_analogin_obj_t), so 64 bytes; the stand-ins must cost the same.
    board.write_session(tmp_path, "pyportal", [])
    script = tmp_path / "touch.py"
    script.write_text(
        "import gc, board, adafruit_touchscreen\n"
        "t = adafruit_touchscreen.Touchscreen(board.TOUCH_XL, board.TOUCH_XR, board.TOUCH_YD,\n"
        "    board.TOUCH_YU, calibration=((5200, 59000), (5800, 57000)), size=(320, 240))\n"
        "def read():\n"
        "    a = gc.mem_alloc()\n"
        "    p = t.touch_point\n"
        "    return gc.mem_alloc() - a, p\n"
        "read()\n"
        "gc.collect()\n"
        "gc.disable()\n"
        "n, p = read()\n"
        "print('RESULT idle', n, p is None)\n")
    rc, out, err = cp_image.run(tmp_path, script, heap=board.HEAP)
    assert rc == 0, out + err
    assert board.results(out)["idle"] == [64, "True"]


def test_where_the_image_lies_changes_nothing_on_the_heap(cp_image, tmp_path):
    # boot.py and code.py run as the board runs them, with '' first on sys.path: the same
    # heap in a folder of any name. A script run by its path would put its folder's real
    # path there, interned, and every allocation after it would move with its length (a
    # day of play passed or failed at 130,000 bytes by the length of a temporary name).
    probe = ("import gc, sys\n"
             "gc.collect()\n"
             "print('RESULT path', repr(sys.path[0]), len(sys.path))\n"
             "print('RESULT heap', gc.mem_alloc())\n")
    got = {}
    for name in ("a", "b" * 100):
        cwd = tmp_path / name
        cwd.mkdir()
        (cwd / "code.py").write_text(probe)
        for how in ("code", cwd / "code.py"):
            rc, out, err = cp_image.run(cwd, how, heap=board.HEAP)
            assert rc == 0, out + err
            got[(name, isinstance(how, str))] = board.results(out)
    short, long = got[("a", True)], got[("b" * 100, True)]
    assert short == long
    assert short["path"][0] == "''"
    # The harness can see the difference it removes: by path, the longer name costs heap.
    assert got[("b" * 100, False)]["heap"][0] > got[("a", False)]["heap"][0]
