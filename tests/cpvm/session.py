# SPDX-License-Identifier: MIT
"""The finger, the clock and the measurements of a session on CircuitPython's own VM.

The stand-ins of this folder call in here: analogio and digitalio for the touch panel's
readings (the real adafruit_touchscreen reads them), supervisor, time and rtc for the
clock, board.DISPLAY for refreshes. The VM runs the board image's code.py as its main
script, unchanged; the game's sleep after each poll (time.sleep) is where the session
acts. `session.txt` in the current folder holds the display size, the mode, the seed of a
fresh start, the board's id and 1 where an ADT7410 answers on its I2C bus (read by
bench/board.py, not here) on its first line, then the steps, one a line (written by
bench/board.py, read a line at a time, so the steps cost the heap nothing):

    t CAPTION        tap the visible button with that caption on the current screen (or,
                     if none, the first whose caption starts with its words; if none,
                     More, and the step again on the next page)
    p SLOT INDEX     tap the table at card INDEX of a column (-1: the exposed card, a cell
                     or a foundation), as Table.tap_point places it
    c                tap the cross the calibration screen shows
    d DAY            tap day DAY (0 = the oldest) of the daily calendar
    e NAME           the current screen must be NAME
    g SLOT MOVES S   the game in play must be in save slot SLOT, with MOVES moves and S
                     seconds of play (-1: any)
    h N              the game in play must hold N moves of undo history
    m A B N          N moves through the table's own move (Table.play), a card from A to B,
                     the next back, and so on, in one poll: a long history at the speed of
                     the VM rather than of taps
    w MS             no touch for MS milliseconds

A tap is 3 readings pressed and 3 lifted, 20 ms of board time a poll (the game's 40 ms
release debounce passes). When the steps are done the session prints what it saw as
RESULT lines and ends the VM with SystemExit(0), which main() lets through.

Modes: "board" leaves the collector alone, so it runs only when an allocation fails, as
on the board: the runs that judge whether a heap size is enough. "measure" collects after
every poll and prints, per screen shown, the heap in use at the end of the poll that built
it, before the collection (live objects plus all of that poll's garbage), after that
collection, and after the collection of its last poll: VISIT NAME CHANGE FIRST LAST.
"""

import gc
import sys

WIDTH = 320
HEIGHT = 240
MEASURE = False
SEED = -1  # the free deal of a fresh start, or -1: os.urandom's (board.START_DEAL)
BOARD_ID = "pyportal"

_PRESS = 3
_LIFT = 3
_POLL_MS = 20

_steps = [None, 0]  # the open steps file, steps done
_clock = [0]
_at = [0, 0, 0]  # polls left pressed, polls left lifted, wait until (ms)
_xy = [0, 0, 0, 0, 0]  # the finger's raw x, raw y, pressed (0/1), refreshes, polls
# Touch pins in use, innermost last: adafruit_touchscreen nests its `with` blocks, so the
# pin a reading is for is the last one claimed (a pin object then needs no attribute
# and costs the 16 bytes of CircuitPython's C struct). Bits: driven digital pins.
_pins = bytearray(8)
_npins = [0, 0]  # pins on the stack, driven bits
_visit = [None, 0, 0, 0]  # screen shown, heap when changing to it, in use then, at its last poll
_again = [None]  # a step to take again: its button was on the page after More


def _start():
    """Read the session's size, mode and open its steps."""
    global WIDTH, HEIGHT, MEASURE, SEED, BOARD_ID
    f = open("session.txt")
    w = f.readline().split()
    WIDTH = int(w[0])
    HEIGHT = int(w[1])
    MEASURE = w[2] == "measure"
    SEED = int(w[3])
    BOARD_ID = w[4]
    _steps[0] = f


_start()


def _next_step():
    """Return the next step as a list of words, or None after the last."""
    step = _again[0]
    if step is not None:
        _again[0] = None
        return step
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
    """Milliseconds of board time since power-up."""
    return _clock[0]


def _app():
    """Return the running App, or None before code.py has built one (boot.py)."""
    m = sys.modules.get("freecell_mc.app")
    return None if m is None else m.App.current


def sleep_ms(ms):
    """The game sleeps after a poll: a poll's worth of board time passes, the session acts."""
    _clock[0] += ms if ms > _POLL_MS else _POLL_MS
    app = _app()
    if app is None:
        return
    _xy[4] += 1
    scr = app.screen
    v = _visit
    if MEASURE:
        a = gc.mem_alloc()
        gc.collect()
        live = gc.mem_alloc()
        if scr is None:
            return  # the first half of a change: the old screen let go of, the new one next
        if scr is not v[0]:
            _print_visit()
            v[0] = scr
            v[1] = a
            v[2] = live
            gc.collect()
        v[3] = live
    # Not in "board" mode: a screen held here would outlive the App on a fault, where the
    # board holds nothing of it.


def _print_visit():
    v = _visit
    if v[0] is not None:
        print("VISIT", v[0].name, v[1], v[2], v[3])


def refreshed():
    """Count a display refresh."""
    _xy[3] += 1


class Pin:
    """A pin object of digitalio or analogio: claims a touch pin until released.

    Like CircuitPython's C objects (digitalio_digitalinout_obj_t, analogio_analogin_obj_t,
    16 bytes each), an instance costs one 16-byte block: it keeps no attribute, the
    session knows its pin, and no method takes *args (that would allocate a tuple a call).
    """

    DIGITAL = 0

    def __init__(self, pin):
        n = _npins[0]
        _pins[n] = pin.bit
        _npins[0] = n + 1
        _npins[1] |= pin.bit * self.DIGITAL

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        self.deinit()

    def deinit(self):
        """Release the pin claimed last (the end of its `with` block)."""
        n = _npins[0] - 1
        _npins[0] = n
        _npins[1] &= ~_pins[n]


def analog():
    """Return the raw reading of the pin claimed last, for the phase the library is in."""
    bit = _pins[_npins[0] - 1]
    if bit == 1:
        # XL: z_1, the first reading of every touch_point: one poll of the game.
        _poll()
        return 0
    if bit == 2:
        return _xy[0]  # XR: the x plate
    # YU: the y plate while XL is driven, else the pressure's second reading.
    if _npins[1] & 1:
        return _xy[1]
    return 0 if _xy[2] else 65535


def _raw(v, lo, hi, size):
    """Return the raw reading adafruit_touchscreen maps to pixel v (rounding up, so int() lands
    on v)."""
    return lo + (v * (hi - lo) + size - 2) // (size - 1)


def _target(app, step):
    """Return the screen point step taps."""
    scr = app.screen
    op = step[0]
    if op == "p":
        return app.table.tap_point(step[1], step[2])
    if op == "c":
        return scr.targets[scr.step]
    if op == "d":
        x, y, w, h = scr.day_box(step[1])
        return (x + w // 2, y + h // 2)
    want = step[1]
    if scr is app.table:
        t = app.table.strip
        b = t.finish_button  # built when Finish first shows
        buttons = (t.undo_button, t.menu_button) if b is None else (b, t.undo_button,
                                                                      t.menu_button)
    else:
        buttons = scr.buttons
    # The exact caption, else the first that starts with it ("Continue" finds "Continue
    # daily 30 Nov", a caption that names the deal; "Continue daily" too where the caption
    # is wrapped after "Continue").
    for exact in (True, False):
        for b in buttons:
            t = b.text
            if not (b.enabled and not b.hidden):
                continue
            if t == want or (not exact and _starts(t, want)):
                return (b.x + b.w // 2, b.y + b.h // 2)
    # Not on this page of a screen that takes two (the Pynt's): More first, then the step.
    for b in buttons:
        if b.text == "More" and b.enabled and not b.hidden:
            _again[0] = step
            return (b.x + b.w // 2, b.y + b.h // 2)
    raise AssertionError((step, scr.name, [b.text for b in buttons]))


def _starts(text, want):
    """Return True if text begins with the words of want, a line break as good as a space."""
    n = len(want)
    if len(text) <= n or text[n] not in " \n":
        return False
    for i in range(n):
        c = text[i]
        if c != want[i] and not (c == "\n" and want[i] == " "):
            return False
    return True


def _poll():
    """Advance the finger by one reading."""
    app = _app()
    if app is None:
        return  # boot.py looks for a finger held at reset: none
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
    scr = app.screen
    while True:
        step = _next_step()
        if step is None:
            _end(app)
        i = _steps[1]
        op = step[0]
        # A failed check names the step's number, the step and what was there instead
        # (no message text: every string here is heap the board does not spend).
        if op == "e":
            if scr.name != step[1]:
                raise AssertionError((i, step, scr.name, app.game.moves))
            continue
        if op == "g":
            got = [op, app.slot, app.game.moves, app.elapsed_ms // 1000 if step[3] >= 0 else -1]
            if got != step:
                raise AssertionError((i, step, got, app.kind, app.number))
            continue
        if op == "h":
            if app.game.history_len() != step[1]:
                raise AssertionError((i, step, app.game.history_len()))
            continue
        if op == "m":
            a = step[1]
            b = step[2]
            play = app.table.play
            for k in range(step[3]):
                if not (play(a, b, 1) if k & 1 == 0 else play(b, a, 1)):
                    raise AssertionError((i, step, k))
            return
        if op == "w":
            at[2] = _clock[0] + step[1]
            return
        x, y = _target(app, step)
        (xl, xh), (yl, yh) = app.hw.calibration
        _xy[0] = _raw(x, xl, xh, WIDTH)
        _xy[1] = _raw(y, yl, yh, HEIGHT)
        _xy[2] = 1
        at[0] = _PRESS - 1
        at[1] = _LIFT
        return


def _end(app):
    """Print what the session saw and end the VM."""
    if MEASURE:
        _print_visit()
    saves = app.saves
    print("RESULT saved", saves.stats.won, 0 if saves.slot(1) is None else 1)
    print("RESULT steps", _steps[1])
    print("RESULT polls", _xy[4])
    print("RESULT refreshes", _xy[3])
    print("RESULT board_ms", _clock[0])
    print("RESULT writes", saves.writes)
    # "qstr pool: n_pool=6, n_qstr=1138, ...": the interned names of the dynamic pools.
    import micropython
    micropython.qstr_info()
    raise SystemExit(0)
