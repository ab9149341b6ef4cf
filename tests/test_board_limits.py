# SPDX-License-Identifier: MIT
"""The whole game under real MicroPython at the board's Python stack, through code.py.

bench/board.py builds a CIRCUITPY-like tree (the game as .mpy, the real
adafruit_touchscreen, and stand-ins for the modules CircuitPython has in C, at their C
structs' heap cost) and tests/mp/board.mjs runs
code.py -> freecell_mc.app.main -> App with the pystack capped at CircuitPython 9.x's
1,536 bytes, at both sizes. The session visits every screen, wins a Microsoft deal by taps,
saves and returns to the game (bench/board.py, session_steps). The heap figures are printed;
every screen holds less than the 120,000-byte budget (docs/memory.md).
"""

import pytest

from bench import board

SCREENS = {"datepicker", "table", "menu", "keypad", "result", "daily", "stats", "settings",
           "calibration"}


def _table(visits):
    """Return the per-visit figures as printable lines."""
    lines = ["%-12s %9s %9s" % ("screen", "in use", "change")]
    for name, live, change in visits:
        lines.append("%-12s %9d %9d" % (name, live, change))
    return "\n".join(lines)


@pytest.mark.parametrize("size", sorted(board.SIZES))
def test_the_whole_session_runs_at_the_9x_pystack_and_the_heap_budget_from_mpy(size):
    rc, got, out = board.run_session(board=size, mpy=True, heap=board.HEAP_CAP,
                                     pystack=board.PYSTACK_9X)
    assert rc == 0, out[-4000:]
    assert got["steps"] == len(board.session_steps())
    visits = got["visits"]
    print(_table(visits))
    assert SCREENS <= {v[0] for v in visits}
    # The session ends back on the table: every screen and its module was dropped on the
    # way, so the table holds what it held when first shown (a second save slot in use
    # and a longer statistics record account for the little more).
    tables = [v[1] for v in visits if v[0] == "table"]
    assert tables[-1] - tables[0] < 4096, tables
    # Every screen fits the 120,000-byte budget, net of the stand-ins and the session
    # (visits[0], which the board does not spend): the table's display objects give way to
    # the other screens, texts are glyph tiles, not labels. docs/memory.md has the figures.
    base = visits[0][1]
    most = {}
    for name, live, _ in visits[1:]:
        most[name] = max(most.get(name, 0), live - base)
    assert max(most.values()) < board.HEAP_CAP, most
    assert got["saved"] == [1, 1], got["saved"]  # the win is on flash, and a daily deal


# Made inside a function (module globals would grow the globals dict inside a figure);
# this MicroPython collects nothing inside one top-level call, so each difference is
# exactly what the constructor allocated.
_COST_SCRIPT = """
import gc, json, displayio, vectorio, session

def cost(make):
    a = gc.mem_alloc()
    o = make()
    return gc.mem_alloc() - a, o

def main():
    keep = []
    out = []
    sheet = displayio.Bitmap(19 * 75, 8, 4)
    pal3 = displayio.Palette(3)
    for name, make in (
        ("bitmap 1425x8x4", lambda: displayio.Bitmap(19 * 75, 8, 4)),
        ("bitmap 10x12x2", lambda: displayio.Bitmap(10, 12, 2)),
        ("bitmap 37x14x3", lambda: displayio.Bitmap(37, 14, 3)),
        ("bitmap 1x1x2", lambda: displayio.Bitmap(1, 1, 2)),
        ("palette 3", lambda: displayio.Palette(3)),
        ("palette 6", lambda: displayio.Palette(6)),
        ("tilegrid 1", lambda: displayio.TileGrid(sheet, pixel_shader=pal3)),
        ("tilegrid 2x2", lambda: displayio.TileGrid(sheet, pixel_shader=pal3, width=2, height=2,
                                                    tile_width=19, tile_height=8)),
        ("tilegrid 2x5", lambda: displayio.TileGrid(sheet, pixel_shader=pal3, width=2, height=5,
                                                    tile_width=19, tile_height=8)),
        ("tilegrid 4x5", lambda: displayio.TileGrid(sheet, pixel_shader=pal3, width=4, height=5,
                                                    tile_width=19, tile_height=8)),
        ("group", lambda: displayio.Group()),
        ("rectangle", lambda: vectorio.Rectangle(pixel_shader=pal3, width=5, height=5)),
    ):
        n, o = cost(make)
        keep.append(o)
        out.append([name, n])
    print("RESULT " + json.dumps(["costs", out]))
    raise session.SessionEnd()

main()
"""


def _blocks(n):
    return (n + 15) & ~15


def _bitmap(w, h, bits):
    return 48 + _blocks((w * bits + 31) // 32 * 4 * h)


# CircuitPython's cost of each object (tests/mp/board/displayio.py names the structs).
C_COSTS = {
    "bitmap 1425x8x4": _bitmap(1425, 8, 2),  # 4 values: 2 bits each
    "bitmap 10x12x2": _bitmap(10, 12, 1),
    "bitmap 37x14x3": _bitmap(37, 14, 2),
    "bitmap 1x1x2": _bitmap(1, 1, 1),
    "palette 3": 16 + 3 * 16,
    "palette 6": 16 + 6 * 16,
    "tilegrid 1": 96,
    "tilegrid 2x2": 96,  # up to 4 tile indices live inside the pointer
    "tilegrid 2x5": 96 + 16,
    "tilegrid 4x5": 96 + 32,
    "group": 48 + 16 + 16,  # the struct, its list object, 4 item slots
    "rectangle": 32 + 64,  # the Rectangle and its VectorShape
}


def test_the_stand_ins_cost_what_circuitpython_s_c_structs_cost(tmp_path):
    board.build_tree(tmp_path, [], code=_COST_SCRIPT)
    rc, got, out = board.run_tree(tmp_path)
    assert rc == 0, out[-3000:]
    costs = dict(got["costs"])
    assert costs == C_COSTS


def test_a_text_keeps_a_few_hundred_bytes_on_the_board():
    # Glyph tiles over the firmware font's sheet: a Group, a TileGrid a line, a 2-colour
    # palette and a small object, no pixels (323, 333 and 449 bytes today; a bitmap_label
    # kept 1,033-1,593). A Text that renders pixels or grows attributes shows here.
    rows = [r for r in board.text_costs() if r[0] == "text"]
    assert len(rows) == 3
    for kind, text, scale, kept in rows:
        assert 0 < kept < 512, (text, scale, kept)
