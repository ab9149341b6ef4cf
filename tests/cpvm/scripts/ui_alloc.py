# SPDX-License-Identifier: MIT
"""What a tap and a poll allocate on CircuitPython's VM, playing a whole solution by taps.

Run by tests/test_cpvm_alloc.py in a folder holding session.txt (the finger never touches:
its only step waits). The App is built as code.py builds it (app.main: device.build() over the
stand-ins: the real adafruit_touchscreen, the save file and nvm) on a Microsoft deal, with
the clock set; then every move of Freecell Solver's solution is made by two taps on the
table, and after each move the game is polled for 1.6 s of board time, 20 ms a poll, so
that the saves look for changes (every 250 ms) and write the move (1.5 s after it).

Reported: the most one pick tap and one drop tap allocated; what one touch reading
allocates (the library's pin objects); per poll, what it allocated beyond that reading,
apart from the polls that wrote a save (counted, with the most one of them allocated, and
what the first allocated: it makes the save file). After the tenth move, a quiet spell:
the screen dims, goes dark (and saves) and a press wakes it, through its release; the
brightness after each of those polls and the most one allocated beyond its reading.

Input (JSON, sys.argv[1]): {"kind": 3, "deal": 1, "moves": ["2a", "3b", ...]}: a deal
(deals.KIND_MS 3, KIND_SEED 1) and the moves to make in notation; "moves": null makes
"count" moves instead, each the first legal one of the deal, taken back by a tap on Undo
(a seeded deal has no solution on file: its 32-bit number is what is tried).
"""

import gc
import json
import sys

import board
import rtc
import session


def emit(name, value):
    print("RESULT " + json.dumps([name, value]))


def tap(table, x, y):
    a = gc.mem_alloc()
    table.tap(x, y)
    return gc.mem_alloc() - a


def poll(app):
    a = gc.mem_alloc()
    app.poll()
    return gc.mem_alloc() - a


def reading(touch):
    a = gc.mem_alloc()
    _ = touch.touch_point
    return gc.mem_alloc() - a


def quiet_spell(app, clock, pins):
    """Poll through a quiet spell and a waking press; return (brightness after each poll,
    the most a poll that wrote no save allocated beyond its reading)."""
    import board

    touch = app.touch
    xy = session._xy
    (xl, xh), (yl, yh) = app.hw.calibration
    xy[0] = session._raw(100, xl, xh, session.WIDTH)
    xy[1] = session._raw(100, yl, yh, session.HEIGHT)
    # What a pressed reading allocates (more pins than an open panel's).
    xy[2] = 1
    session._at[0] = 2
    reading(touch)
    gc.collect()
    gc.disable()
    pressed = reading(touch)
    gc.enable()
    reading(touch)  # lifted again
    levels = []
    most = 0
    for step, press in ((20, 0), (61000, 0), (20, 0), (300000, 0), (50, 0), (50, 0), (50, 1),
                        (20, 1), (20, 0), (20, 0), (20, 0), (20, 0)):
        clock[0] += step
        if press:
            xy[2] = 1
            session._at[0] = 1
        w = app.saves.writes
        gc.collect()
        gc.disable()
        n = poll(app)
        gc.enable()
        levels.append(board.DISPLAY.brightness)
        if app.saves.writes == w:
            most = max(most, n - (pressed if press else pins))
    return levels, most


def first_move(game):
    """Return (src, dst, 1): the first legal single-card move of the position."""
    for src in range(16):
        m = game.targets(src, 1)
        for dst in range(16):
            if m >> dst & 1:
                return src, dst, 1
    raise AssertionError("no legal move")


def main():
    with open(sys.argv[1]) as f:
        data = json.load(f)
    rtc.RTC().datetime = (2026, 11, 30, 12, 0, 0, 0, 334, -1)
    board.START_DEAL = (data["kind"], data["deal"], 4)
    from freecell_mc.app import App
    from freecell_mc.hardware import device
    from freecell_mc.rules import notation
    from freecell_mc.ui.layout import HIT_UNDO

    app = App(device.build())
    table = app.table
    game = app.game
    saves = app.saves
    clock = session._clock
    worst = [0, 0]  # pick, drop
    idle = [0, 0, 0]  # polls measured, polls with a look, most beyond the reading
    writes = [0, 0, 0]  # polls that wrote, the most one allocated, the first
    erases = [0, 0]  # polls that erased ahead, the most one allocated
    reading(app.touch)  # the first reading takes the finger's step: not a reading's cost
    gc.collect()
    gc.disable()
    pins = reading(app.touch)
    gc.enable()
    moves = data["moves"]
    for k in range(len(moves) if moves else data["count"]):
        if moves:
            src, dst, n = notation.resolve_move(game, moves[k])
        else:
            src, dst, n = first_move(game)
        p = table.tap_point(src, game.column_len(src) - n if src < 8 else 0)
        q = table.tap_point(dst, -1)
        gc.collect()
        gc.disable()
        worst[0] = max(worst[0], tap(table, p[0], p[1]))
        b = tap(table, q[0], q[1])
        gc.enable()
        if game.won():
            emit("winning_drop", b)  # it schedules the result screen: not a move's cost
            break
        worst[1] = max(worst[1], b)
        if k == 9:
            levels, most = quiet_spell(app, clock, pins)
            emit("quiet", [levels, most, app.screen is table, game.moves])
        if not moves:
            u = table.button_point(HIT_UNDO)
            gc.collect()
            gc.disable()
            worst[1] = max(worst[1], tap(table, u[0], u[1]))
            gc.enable()
        for _ in range(80):
            clock[0] += 20
            w = saves.writes
            look = saves._check_ms
            todo = (saves._todo, saves._todo_at)
            unbuilt = table.strip.finish_button is None
            gc.collect()
            gc.disable()
            n = poll(app)
            gc.enable()
            if unbuilt and table.strip.finish_button is not None:
                # The tick after the move that first brings Finish builds its button: once
                # a table, not an idle poll's cost.
                emit("finish_poll", n)
                continue
            if (saves._todo, saves._todo_at) != todo:
                # An erase ahead in a quiet moment: flash work, not an idle poll (the
                # first opens the save file for writing).
                erases[0] += 1
                erases[1] = max(erases[1], n)
                continue
            if saves.writes != w:
                writes[0] += 1
                if writes[0] == 1:
                    writes[2] = n
                else:
                    writes[1] = max(writes[1], n)
                continue
            idle[0] += 1
            if saves._check_ms != look:
                idle[1] += 1
            idle[2] = max(idle[2], n - pins)
    emit("pins", pins)
    emit("taps", worst)
    emit("idle", idle)
    emit("writes", writes)
    emit("erases", erases)
    emit("played", [game.moves, game.won(), app.number == data["deal"]])


main()
