# SPDX-License-Identifier: MIT
"""Bytes the table allocates per tap, under real MicroPython (run by tests/test_ui_micropython.py).

MicroPython has no displayio, so this script first writes minimal stand-ins for displayio,
vectorio and terminalio into the interpreter's /lib: plain objects whose
attribute writes and tile writes allocate nothing themselves, so what is measured is the
table's own code (hit tests, selection, highlights, the engine move, the sync of the cards,
the status strip, the App's bookkeeping). Then it plays a solution by taps and reports the
largest allocation of one pick tap and of one drop tap, and of one App.poll() reading.

Input (JSON, sys.argv[1]): {"moves": ["2a", "3b", ...], "deal": 1}
"""

import gc
import json
import sys

STUBS = {
    "/lib/displayio.py": """
class Bitmap:
    def __init__(self, w, h, n):
        self.width = w
        self.height = h
        self._d = bytearray(w * h)
    def __setitem__(self, i, v):
        self._d[i] = v
    def __getitem__(self, i):
        return self._d[i]
class Palette:
    def __init__(self, n):
        self._c = [0] * n
    def __setitem__(self, i, v):
        self._c[i] = v
    def __getitem__(self, i):
        return self._c[i]
    def __len__(self):
        return len(self._c)
    def make_transparent(self, i):
        pass
class TileGrid:
    def __init__(self, bitmap, pixel_shader=None, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.hidden = False
        self._t = bytearray(width * height)
        for i in range(width * height):
            self._t[i] = default_tile
    def __setitem__(self, xy, v):
        x, y = xy
        self._t[y * self.width + x] = v
    def __getitem__(self, xy):
        x, y = xy
        return self._t[y * self.width + x]
class Group:
    def __init__(self, x=0, y=0, scale=1):
        self.x = x
        self.y = y
        self.scale = scale
        self.hidden = False
        self._l = []
    def append(self, o):
        self._l.append(o)
    def remove(self, o):
        self._l.remove(o)
    def pop(self, i=-1):
        return self._l.pop(i)
    def __len__(self):
        return len(self._l)
    def __getitem__(self, i):
        return self._l[i]
""",
    "/lib/vectorio.py": """
class Rectangle:
    def __init__(self, pixel_shader=None, width=1, height=1, x=0, y=0, color_index=0):
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.color_index = color_index
        self.hidden = False
""",
    "/lib/terminalio.py": """
class _Glyph:
    tile_index = 0
class _Font:
    bitmap = None
    def get_glyph(self, codepoint):
        return _Glyph
FONT = _Font()
""",
}


def write_stubs():
    """Put the stand-in display modules where imports find them."""
    import os

    for path, src in STUBS.items():
        d = path.rsplit("/", 1)[0]
        try:
            os.mkdir(d)
        except OSError:
            pass
        with open(path, "w") as f:
            f.write(src)


class Display:
    """A display that draws nothing."""

    width = 320
    height = 240

    def __init__(self):
        self.root_group = None
        self.refreshes = 0

    def refresh(self):
        """Count a refresh."""
        self.refreshes += 1


class Touch:
    """touch_point from a preallocated reading."""

    def __init__(self):
        self.reading = None

    @property
    def touch_point(self):
        """Return the reading."""
        return self.reading


class Clock:
    """Ticks that move when told, a plausible date."""

    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        """Return the ticks."""
        return self.ms

    def today(self):
        """Return a plausible date."""
        return (2026, 11, 30)

    def set_today(self, y, m, d):
        """Ignore."""


class HW:
    """The hardware the App takes, without save blocks."""

    def __init__(self, deal):
        self.display = Display()
        self.touch = Touch()
        self.clock = Clock()
        self.blocks = None
        self.keys = None
        self.start = (3, deal, 4)


def measure_tap(table, x, y):
    """Return the bytes one table.tap(x, y) allocates."""
    a = gc.mem_alloc()
    table.tap(x, y)
    return gc.mem_alloc() - a


def measure_poll(app, reading):
    """Return the bytes one App.poll() with this reading allocates."""
    app.hw.touch.reading = reading
    app.clock.ms += 10
    a = gc.mem_alloc()
    app.poll()
    return gc.mem_alloc() - a


def main():
    """Play the moves by taps; report the worst allocation per pick, drop and poll."""
    with open(sys.argv[1]) as f:
        data = json.load(f)
    write_stubs()
    from freecell_mc.rules import notation
    from freecell_mc.app import App

    app = App(HW(data["deal"]))
    table = app.table
    game = app.game
    worst_pick = 0
    worst_drop = 0
    worst_poll = 0
    taps = 0
    down = (100, 100, 30000)
    for text in data["moves"]:
        src, dst, n = notation.resolve_move(game, text)
        if src < 8:
            p = table.tap_point(src, game.column_len(src) - n)
        else:
            p = table.tap_point(src, 0)
        q = table.tap_point(dst, -1)
        gc.collect()
        gc.disable()
        a = measure_tap(table, p[0], p[1])
        b = measure_tap(table, q[0], q[1])
        # A poll with a press in progress and one without: readings, taps, timers, refresh.
        c = max(measure_poll(app, down), measure_poll(app, None), measure_poll(app, None))
        gc.enable()
        taps += 2
        if game.won():
            # The winning drop builds the result screen: reported, not a move's cost.
            print("RESULT " + json.dumps(["winning_drop", b]))
            break
        if b:
            print("RESULT " + json.dumps(["drop_" + text + "_" + str(game.moves), b]))
        worst_pick = max(worst_pick, a)
        worst_drop = max(worst_drop, b)
        worst_poll = max(worst_poll, c)
    print("RESULT " + json.dumps(["alloc", [worst_pick, worst_drop, worst_poll]]))
    print("RESULT " + json.dumps(["played", [game.moves, taps, game.won()]]))


main()
