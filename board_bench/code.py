# SPDX-License-Identifier: MIT
"""The table's figures on a real board: free heap and refresh times, printed to the serial console.

Copy this file to CIRCUITPY as code.py (beside the game's freecell_mc/ folder and lib/),
open the serial console (e.g. `tio /dev/ttyACM0` or Mu) and press reset. It prints:

    free heap after boot, after importing the game, after building the table, after a move
    milliseconds of a full-screen refresh and of a single-card move (the move's refresh alone,
    and tap handling plus refresh)
    free heap on each screen (menu, keypad, daily calendar, statistics, settings, date
    picker, calibration, result) and back on the table, and how long each took to build
    the Python stack ("pystack") the game reached: CircuitPython has no high-water mark,
    so micropython.pystack_use() is read where labels are built and where their text is
    rendered; bitmap_label's own frames come on top (docs/memory.md: the whole session's
    high-water mark, measured under MicroPython, is 1,440 bytes of 1,536)

then stops. Copy the game's own code.py back to play again. It changes no saved game: it
plays on a fresh table that it never saves.
"""

import gc
import time

import displayio


def ms_since(t0):
    """Return milliseconds since t0 (a monotonic_ns value) as a float."""
    return (time.monotonic_ns() - t0) / 1000000


def free(what):
    """Collect garbage and print the free heap (0 where the port cannot tell, e.g. CPython)."""
    gc.collect()
    mem_free = getattr(gc, "mem_free", None)
    f = mem_free() if mem_free is not None else 0
    print("free heap %-26s %7d bytes" % (what + ":", f))
    return f


_deepest = [0, 0]  # pystack in use: building a label, rendering labels


def _watch_pystack(widgets):
    """Note the pystack in use where labels are built and rendered (0 where not told)."""
    try:
        import micropython
    except ImportError:
        return
    # CircuitPython has it (py/modmicropython.c); the stubs and CPython's stand-in do not.
    use = getattr(micropython, "pystack_use", None)
    if use is None:
        return
    text_init = widgets.Text.__init__
    draw = widgets.draw_pending

    def init(self, *args, **kw):
        _deepest[0] = max(_deepest[0], use())
        text_init(self, *args, **kw)

    def draw_pending():
        _deepest[1] = max(_deepest[1], use())
        draw()

    widgets.Text.__init__ = init
    widgets.draw_pending = draw_pending


def screens(app):
    """Show every screen once and print the free heap on each."""
    today = app.clock.today()
    for name, kw in (("menu", {}), ("keypad", {}), ("daily", {}), ("stats", {}),
                     ("settings", {}), ("datepicker", {"then": "table"}), ("calibration", {}),
                     ("result", {"moves": 90, "seconds": 300, "code": "11-1-0"}), ("table", {})):
        if name == "daily" and today[0] < 2025:
            app.clock.set_today(2026, 11, 30)  # the calendar needs a set clock
        t0 = time.monotonic_ns()
        app.goto(name, **kw)
        app.display.refresh()
        ms = ms_since(t0)
        free("on the " + name)
        # Every screen is built on entry, the table too (over its kept card art).
        print("  built and drawn in %6.1f ms" % ms)


def main():
    """Measure and print."""
    boot = free("after boot")
    from freecell_mc import device, widgets
    from freecell_mc.app import App
    from freecell_mc.engine import Game  # noqa: F401  (the same imports the game makes)

    _watch_pystack(widgets)

    free("after importing the game")
    hw = device.build()
    hw.blocks = None  # measure the table, not the saves; nothing is written
    hw.start = (1, 1, 4)  # seeded deal 1, four cells
    before = free("before the table")
    app = App(hw)
    if app.screen is not app.table:
        app.goto("table")  # an unset clock shows the date picker first: not measured here
    disp = hw.display
    disp.refresh()
    after = free("after building the table")
    print("the table holds %d bytes" % (before - after))

    # A full-screen refresh: show an empty group, then the table again.
    disp.root_group = displayio.Group()
    disp.refresh()
    disp.root_group = app.root
    t0 = time.monotonic_ns()
    disp.refresh()
    print("full refresh                   %8.1f ms" % ms_since(t0))

    game = app.game
    table = app.table
    # A single-card move, onto another column when the deal has one, else into a cell.
    src, dst = 0, 8
    for c in range(8):
        m = game.targets(c, 1) & 0xFF
        if m:
            src = c
            dst = 0
            while not (m >> dst) & 1:
                dst += 1
            break
    t0 = time.monotonic_ns()
    table.play(src, dst, 1)
    t1 = time.monotonic_ns()
    disp.refresh()
    t2 = time.monotonic_ns()
    print("single-card move: table %6.1f ms, refresh %6.1f ms" % ((t1 - t0) / 1e6, (t2 - t1) / 1e6))
    # As a player makes one: tap the exposed card of column 8 (pick), tap cell b (drop).
    x, y = table.tap_point(7, -1)
    t0 = time.monotonic_ns()
    table.tap(x, y)
    disp.refresh()
    t1 = time.monotonic_ns()
    x, y = table.tap_point(9, 0)
    table.tap(x, y)
    disp.refresh()
    t2 = time.monotonic_ns()
    print("tap to pick + refresh          %8.1f ms" % ((t1 - t0) / 1e6))
    print("tap to drop + refresh          %8.1f ms" % ((t2 - t1) / 1e6))
    free("after a move")
    screens(app)
    print("pystack in use building a label %d, rendering labels %d bytes (plus bitmap_label's frames)"
          % (_deepest[0], _deepest[1]))
    print("moves played: %d; display %dx%d; heap at boot %d" % (game.moves, disp.width, disp.height, boot))
    print("done: copy the game's code.py back to play")


if __name__ == "__main__":
    main()
