# SPDX-License-Identifier: MIT
"""The table's figures on a real board: free heap, pystack and refresh times, on the serial console.

Copy this file to CIRCUITPY as code.py over a board image of `./dev bundle` (the game is
lib/freecell_mc/),
open the serial console (e.g. `tio /dev/ttyACM0` or Mu) and press reset. It prints:

    free heap after boot, after importing the game, after building the table, after a move
    milliseconds of a full-screen refresh and of a single-card move (the move's refresh alone,
    and tap handling plus refresh)
    on each screen (menu, keypad, daily calendar, statistics, settings, date picker,
    calibration, result) and back on the table: the free heap, how long it took to build
    and draw, and the Python stack ("pystack") in use at the deepest text drawn while it
    was built. CircuitPython has no high-water mark, so micropython.pystack_use() is read
    each time a text looks up a glyph (widgets._glyph, the deepest Python call of a
    screen's build; it calls only C below it). The reading adds one call per
    character to the build times. docs/memory.md has the high-water mark of the whole
    session measured under MicroPython.

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


_deepest = [0]  # pystack in use at the deepest glyph lookup since the last reset; -1: not told


def _watch_pystack(widgets):
    """Note the pystack in use at every glyph lookup of a text (-1 where the port cannot tell)."""
    try:
        import micropython
    except ImportError:
        _deepest[0] = -1
        return
    # CircuitPython has it (py/modmicropython.c); the stubs and CPython's stand-in do not.
    use = getattr(micropython, "pystack_use", None)
    if use is None:
        _deepest[0] = -1
        return
    glyph = widgets._glyph

    def watched(font, ch):
        d = use()
        if d > _deepest[0]:
            _deepest[0] = d
        return glyph(font, ch)

    widgets._glyph = watched


def pystack(what):
    """Print the deepest pystack use seen since the last call, and start again."""
    d = _deepest[0]
    if d < 0:
        print("pystack %-28s not told by this port" % (what + ":"))
        return
    print("pystack %-28s %7d bytes in use at the deepest text" % (what + ":", d))
    _deepest[0] = 0


def screens(app):
    """Show every screen once and print the free heap and the pystack reached on each."""
    if _deepest[0] > 0:
        _deepest[0] = 0  # the moves' texts are not the first screen's
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
        pystack("on the " + name)
        # Every screen is built on entry, the table too (over its kept card art).
        print("  built and drawn in %6.1f ms" % ms)


def main():
    """Measure and print."""
    boot = free("after boot")
    from freecell_mc.hardware import device
    from freecell_mc.ui import widgets
    from freecell_mc.app import App
    from freecell_mc.rules.engine import Game  # noqa: F401  (the same imports the game makes)

    _watch_pystack(widgets)

    free("after importing the game")
    hw = device.build()
    hw.blocks = None  # measure the table, not the saves; nothing is written
    hw.start = (1, 1, 4)  # seeded deal 1, four cells
    before = free("before the table")
    app = App(hw)
    if app.screen is not app.table:
        if _deepest[0] > 0:
            _deepest[0] = 0  # the date picker's texts are not the table's
        app.goto("table")  # an unset clock shows the date picker first: not measured here
    disp = hw.display
    disp.refresh()
    after = free("after building the table")
    pystack("building the table")
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
    print("moves played: %d; display %dx%d; heap at boot %d"
          % (game.moves, disp.width, disp.height, boot))
    print("done: copy the game's code.py back to play")


if __name__ == "__main__":
    main()
