# SPDX-License-Identifier: MIT
"""What every screen's hit test allocates on CircuitPython's VM, over a grid of the screen.

Run by tests/test_hit_alloc.py in a folder holding session.txt (the finger never touches).
The App is built as code.py builds it (app.main: device.build() over the stand-ins) with the
clock set, on Microsoft deal 1 with two free cells; then each screen is shown in turn
through App.goto, the table first, and its hit test is asked about every third pixel of the
screen, with the collector off and gc.mem_alloc() read before and after each row: a
temporary made and dropped at once counts as much as one kept. The table's hit test is
Layout.hit (and, on a column, Layout.hit_column); every other screen's is Screen.button_at,
the daily calendar's day_at too. Then the grid is asked again and each point where the hit
test found nothing is tapped (screen.tap): a tap on nothing does nothing and allocates
nothing. The calibration is left out of those taps: any tap off its buttons is a reading of
the cross.

The harness proves it can see an allocation (a hit test that builds an (x, y) tuple and
drops it) and that the grid's loop by itself costs nothing.

Reported: the harness's figures over the grid, [empty loop, a tuple a point]; the screens
visited, in order (visit01, visit02, ...), each as [name, bytes the hit test allocated,
bytes the hit test and the taps on nothing allocated, points on something, points on
nothing, [x, y] of the first point that allocated, or [-1, -1]].
"""

import gc
import json

import rtc

KIND_MS = 3


def emit(name, value):
    print("RESULT " + json.dumps([name, value]))


# The grid's steps are literals: MicroPython's compiler turns `for x in range(a, b, 3)` into
# a counter, where a step in a variable builds a range object. gc.mem_alloc() walks the
# heap's whole block table, so it is read around each row, not each point; a row that
# allocated is asked again point by point for the first point that allocated, and
# collected, so that a hit test that allocates fails the test with its figures, not with
# a full heap.


def ask(hit, tap, x, y):
    """Ask hit about (x, y), tap there when it finds nothing; return 1 if it found something."""
    r = hit(x, y)
    if r is None or r < 0:
        if tap is not None:
            tap(x, y)
        return 0
    return 1


def grid_alloc(hit, w, h, tap=None):
    """Return [bytes allocated, points hit, points on nothing, first x, first y] asking
    hit(x, y) over the grid (first x, y: the first point that allocated, else -1, -1).

    hit returns a negative number or None for nothing (what each screen's hit test says);
    with tap, each point on nothing is tapped too and counted with the hit test.
    """
    on = 0
    points = 0
    total = 0
    fx = -1
    fy = -1
    gc.collect()
    gc.disable()
    for y in range(0, h, 3):
        a = gc.mem_alloc()
        for x in range(0, w, 3):
            on += ask(hit, tap, x, y)
            points += 1
        a = gc.mem_alloc() - a
        if a:
            total += a
            if fx < 0:
                fy = y
                for x in range(0, w, 3):
                    b = gc.mem_alloc()
                    ask(hit, tap, x, y)
                    if gc.mem_alloc() != b:
                        fx = x
                        break
            gc.collect()
    gc.enable()
    return [total, on, points - on, fx, fy]


def nothing(x, y):
    return -1


def a_tuple(x, y):
    t = (x, y)  # a temporary, dropped at once
    return -1 if t[0] < 0 else None


def table_hit(app):
    """Layout.hit, and Layout.hit_column for the card of a column there."""
    lay = app.table.layout
    game = app.game

    def hit(x, y):
        slot = lay.hit(x, y)
        if 0 <= slot < 8:
            n = game.column_len(slot)
            lay.hit_column(y, n, n - game.run_len(slot))
        return slot

    return hit


def button_hit(screen):
    """Screen.button_at as a number: the button's index, -1 for none."""
    buttons = screen.buttons

    def hit(x, y):
        b = screen.button_at(x, y)
        if b is None:
            return -1
        for i in range(len(buttons)):
            if buttons[i] is b:
                return i
        return -1

    return hit


def daily_hit(screen):
    """The calendar's day_at, then its buttons (as its tap asks them)."""
    buttons = button_hit(screen)

    def hit(x, y):
        i = screen.day_at(x, y)
        if i >= 0:
            return i
        b = buttons(x, y)
        return -1 if b < 0 else 100 + b

    return hit


def visit(app, name, kw):
    """Show screen name with kw; return [name, hit bytes, hit and tap bytes, points on
    something, points on nothing, [x, y] of the first point that allocated]."""
    app.goto(name, **kw)
    s = app.screen
    w = app.width
    h = app.height
    if name == "table":
        hit = table_hit(app)
    elif name == "daily":
        hit = daily_hit(s)
    else:
        hit = button_hit(s)
    hit(0, 0)  # anything made once on first use is not the hit test's
    got = grid_alloc(hit, w, h)
    taps = [0, 0, 0, -1, -1]
    if name != "calibration":
        if hit(0, h - 1) < 0:
            s.tap(0, h - 1)  # a first tap, unmeasured, as the first hit above
        taps = grid_alloc(hit, w, h, s.tap)
    return [name, got[0], taps[0], got[1], got[2], got[3:] if got[0] else taps[3:]]


def main():
    rtc.RTC().datetime = (2026, 11, 30, 12, 0, 0, 0, 334, -1)
    import board

    # Two free cells: the places of the other two are on nothing, on every board (where a
    # table of four may leave no point on nothing: half a gap belongs to each card).
    board.START_DEAL = (KIND_MS, 1, 2)
    from freecell_mc.app import App
    from freecell_mc.hardware import device
    from freecell_mc.rules import deals

    app = App(device.build())
    w = app.width
    h = app.height
    emit("harness", [grid_alloc(nothing, w, h)[0], grid_alloc(a_tuple, w, h)[0]])
    code = deals.deal_code(deals.KIND_MS, 1, 2)
    seen = []
    for name, kw in (
            ("table", {}),
            ("menu", {}),
            ("keypad", {"text": "24-1"}),
            ("daily", {}),
            ("stats", {}),
            ("settings", {"page": 0}),
            ("settings", {"page": -1}),
            ("datepicker", {"then": "table"}),
            ("calibration", {}),
            ("result", {"moves": 90, "seconds": 400, "code": code, "kind": KIND_MS,
                        "number": 1}),
            ("notice", {"text": "The newest save could not be read; an older one was."}),
            ("confirm", {"text": "Deal #1 has 3 moves. Give it up?", "short": "Give up?",
                         "yes": "Play deal #2", "keep": "Continue deal #1", "back": True}),
            ("howto", {"page": 1}),
            ("table", {}),
    ):
        seen.append(visit(app, name, kw))
        emit("visit%02d" % len(seen), seen[-1])


main()
