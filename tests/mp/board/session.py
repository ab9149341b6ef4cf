# SPDX-License-Identifier: MIT
"""The finger, the clock and the measurements of the board-limits session.

The stand-in modules call in here: analogio and digitalio for the touch panel's readings
(adafruit_touchscreen, the real library, reads them), supervisor and time for the clock,
and board.DISPLAY for refreshes. The session is a
list of steps, one a line in /steps.txt (written by bench/board.py, read a line at a time
so the steps cost the heap nothing); one step runs per press of the finger:

    t CAPTION        tap the visible button with that caption on the current screen (or,
                     if none, the first whose caption starts with it and a space)
    p SLOT INDEX     tap the table at card INDEX of a column (-1: the exposed card, a cell
                     or a foundation), as Table.tap_point places it
    c                tap the cross the calibration screen shows
    d DAY            tap day DAY (0 = the oldest) of the daily calendar
    e NAME           the current screen must be NAME
    w MS             no touch for MS milliseconds

A tap is 3 readings pressed and 3 lifted, 20 ms apart (the game's 40 ms release debounce
passes). When the steps are done, SessionEnd ends code.py's endless loop.

This MicroPython build collects garbage only between two top-level calls from JavaScript
(it cannot see the roots held in WebAssembly's own stack), so each poll is one top-level
call: the game's sleep after a poll raises Pause, which unwinds to the runner, and resume()
enters App.run() again for the next poll. The first call is code.py itself (app.main,
the App being built, its first poll). Per call two figures: the heap in use when it ends,
before any collection (live objects plus all the garbage the call made: what that call
needs if the collector never ran), and the heap in use after the collection that follows.
"""

import gc
import json

WIDTH = 320
HEIGHT = 240

_PRESS = 3
_LIFT = 3
_POLL_MS = 20


class SessionEnd(BaseException):
    """The steps are done (a BaseException, so no `except Exception` in the game stops it)."""


class Pause(BaseException):
    """One poll is done: back to the runner, which collects garbage and calls resume()."""


_steps = [None, 0]  # the open steps file, steps done
_driven = [0]
_clock = [0]
_at = [0, 0, 0]  # polls left pressed, polls left lifted, wait until (ms)
_xy = [0, 0, 0, 0]  # the finger's raw x, raw y, pressed (0/1), refreshes
_heap = [0, None, -1, 0]  # most ever in use, screen, visit waiting for its live figure, calls
visits = []  # [name, heap in use on it (collected), heap in use when changing to it (not)]


def start(path):
    """Read the session's display size; open its steps."""
    global WIDTH, HEIGHT
    with open(path) as f:
        d = json.load(f)
    WIDTH = d["width"]
    HEIGHT = d["height"]
    _steps[0] = open(d["steps"])


def _next_step():
    """Return the next step as a list of words, or None after the last."""
    line = _steps[0].readline()
    if not line:
        return None
    _steps[1] += 1
    line = line.rstrip("\n")
    if line[0] in "te":
        return [line[0], line[2:]]
    w = line.split(" ")
    for i in range(1, len(w)):
        w[i] = int(w[i])
    return w


def now():
    """The board's milliseconds."""
    return _clock[0]


def sleep_ms(ms):
    """The game sleeps after a poll: one poll's worth of board time passes; end the call."""
    _clock[0] += ms if ms > _POLL_MS else _POLL_MS
    a = gc.mem_alloc()
    h = _heap
    if a > h[0]:
        h[0] = a
    scr = _app().screen
    if scr is not h[1]:
        h[1] = scr
        h[2] = len(visits)
        visits.append([scr.name, 0, a])
    h[3] += 1
    gc.collect()  # done by the runner before the next call
    raise Pause()


def resume():
    """Run the next poll of the game (the runner calls this once per poll)."""
    h = _heap
    if h[2] >= 0:
        visits[h[2]][1] = gc.mem_alloc()
        h[2] = -1
    # App.run polls once and its sleep raises Pause, back to the runner.
    _app().run()


def refreshed():
    """Count a display refresh."""
    _xy[3] += 1


def _bit(pin):
    n = pin.name
    return 1 if n == "XL" else 2 if n == "XR" else 4 if n == "YD" else 8


def drive(pin, on):
    """A DigitalInOut claims (on) or releases a touch pin."""
    if on:
        _driven[0] |= _bit(pin)
    else:
        _driven[0] &= ~_bit(pin)


def analog(pin):
    """Return the raw reading of pin for the reading phase adafruit_touchscreen is in."""
    n = pin.name
    if n == "XL":
        # z_1, the first reading of every touch_point: one poll of the game.
        _poll()
        return 0
    if n == "XR":
        return _xy[0]
    # YU: the y plate when XL is driven, else the pressure's second reading.
    if _driven[0] & 1:
        return _xy[1]
    return 0 if _xy[2] else 65535


def _app():
    from freecell_mc.app import App

    return App.current


def _raw(v, lo, hi, size):
    """Return the raw reading adafruit_touchscreen maps to pixel v (rounding up, so int() lands on v)."""
    return lo + (v * (hi - lo) + size - 2) // (size - 1)


def _target(step):
    """Return the screen point step taps."""
    app = _app()
    scr = app.screen
    op = step[0]
    if op == "p":
        return app.table.tap_point(step[1], step[2])
    if op == "c":
        return scr.targets[scr.step]
    if op == "d":
        b = scr.days[step[1]]
        return (b.x + b.w // 2, b.y + b.h // 2)
    want = step[1]
    if scr is app.table:
        t = app.table
        buttons = (t.strip.finish_button, t.strip.undo_button, t.strip.menu_button)
    else:
        buttons = scr.buttons
    # The exact caption, else the first that starts with it ("Continue" finds "Continue
    # daily 30 Nov", a caption that names the deal).
    for exact in (True, False):
        for b in buttons:
            t = b.text
            if not (b.enabled and not b.hidden):
                continue
            if t == want or (not exact and t.startswith(want) and t[len(want)] in " \n"):
                return (b.x + b.w // 2, b.y + b.h // 2)
    raise AssertionError("no button " + want + " on " + scr.name)


def _poll():
    """Advance the finger by one reading; note the screen and the heap."""
    app = _app()
    scr = app.screen
    at = _at
    if at[0]:
        at[0] -= 1
        return
    _xy[2] = 0
    if at[1]:
        at[1] -= 1
        return
    if _clock[0] < at[2]:
        return
    while True:
        step = _next_step()
        if step is None:
            raise SessionEnd()
        i = _steps[1]
        op = step[0]
        if op == "e":
            if scr.name != step[1]:
                g = app.game
                raise AssertionError("step %d: on %s, not %s (%d moves, won %s)"
                                     % (i, scr.name, step[1], g.moves, g.won()))
            continue
        if op == "w":
            at[2] = _clock[0] + step[1]
            return
        x, y = _target(step)
        (xl, xh), (yl, yh) = app.hw.calibration
        _xy[0] = _raw(x, xl, xh, WIDTH)
        _xy[1] = _raw(y, yl, yh, HEIGHT)
        _xy[2] = 1
        at[0] = _PRESS - 1
        at[1] = _LIFT
        return


def report():
    """Print what the session measured, as RESULT lines, and what the saves now hold."""
    import microcontroller

    from freecell_mc.saves import policy, savelog

    saves = policy.Saves(savelog.device_blocks(microcontroller.nvm))
    saves.load()
    daily = saves.slot(1)
    print("RESULT " + json.dumps(["saved", [saves.stats.won, 0 if daily is None else 1]]))
    print("RESULT " + json.dumps(["visits", visits]))
    print("RESULT " + json.dumps(["steps", _steps[1]]))
    print("RESULT " + json.dumps(["refreshes", _xy[3]]))
    print("RESULT " + json.dumps(["board_ms", _clock[0]]))
    print("RESULT " + json.dumps(["polls", _heap[3]]))
    print("RESULT " + json.dumps(["most_in_use", _heap[0]]))
