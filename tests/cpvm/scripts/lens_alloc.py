# SPDX-License-Identifier: MIT
"""What the Pynt's table allocates per tap on CircuitPython's VM: the lens, Finish, the counter.

Run by tests/test_cpvm_lens.py in a folder holding session.txt for the Pynt (the finger
never touches). The App is built as code.py builds it; a position with a 19-card column
is put on the table; then a tap opens the lens on it and the next closes it, several
times over, and the run's first card is picked and put back. Then a position where
Finish shows: a move and its undo, each redrawing the counter and placing Finish.

Reported: the display objects the table holds, the most a lens tap allocated, the most a
pick or a drop allocated, the most a move or an undo with Finish shown allocated.
"""

import gc
import json
import sys

import rtc
import session  # noqa: F401  (the stand-ins' finger and clock, read by device.build)


def emit(name, value):
    print("RESULT " + json.dumps([name, value]))


def tap(table, x, y):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    table.tap(x, y)
    n = gc.mem_alloc() - a
    gc.enable()
    return n


def objects(group):
    n = 0
    for o in group:
        n += 1
        if hasattr(o, "append"):
            n += objects(o)
    return n


def main():
    with open(sys.argv[1]) as f:
        data = json.load(f)
    rtc.RTC().datetime = (2026, 11, 30, 12, 0, 0, 0, 334, -1)
    from freecell_mc.app import App
    from freecell_mc.hardware import device
    from freecell_mc.rules import notation

    app = App(device.build())
    app.goto("table")
    table = app.table
    game = app.game
    lay = table.layout
    emit("narrow", [lay.status_w, lay.tight_h, 0 if table.lens_bg is None else 1])
    game.load(notation.parse_board(data["long"], 4), 77)
    table.redraw()
    emit("objects", objects(table.group))
    x = lay.column_x(0) + lay.card_w // 2
    most = 0
    opened = []
    for _ in range(5):
        most = max(most, tap(table, x, lay.col_y + 2))
        opened.append(table.lens_col)
        most = max(most, tap(table, x, lay.col_y + 2))
        opened.append(table.lens_col)
    emit("lens", [most, opened])
    n = game.column_len(0)
    first = n - game.run_len(0)
    p = table.tap_point(0, first)
    worst = 0
    for _ in range(3):
        worst = max(worst, tap(table, p[0], p[1]))  # picks the run
        worst = max(worst, tap(table, p[0], p[1]))  # the same card again: lets go
    emit("pick", [worst, table.sel_src])
    game.load(notation.parse_board(data["finish"], 4), 99)
    table.redraw()
    table.tick(0)  # the poll's tick builds Finish, asked for by the redraw
    most = 0
    for _ in range(3):
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        table.play(0, 12, 1)
        table.undo()
        most = max(most, gc.mem_alloc() - a)
        gc.enable()
    b = table.strip.finish_button
    emit("finish", [most, table.strip.finish_shown, b.x, b.y, table.strip.counter.hidden])


main()
