# SPDX-License-Identifier: MIT
"""A headless board for the table's tests: the simulator's framebuffer display, a touch
panel fed reading by reading, a clock that moves only when told, and the simulator's
keyboard. The App under test is the real one; taps go through touch_point and App.poll().
"""

from host_sim import display as sim_display
from host_sim.hardware import Keyboard

from freecell_mc.rules import notation
from freecell_mc.app import App
from freecell_mc.ui.layout import HIT_FINISH, HIT_MENU, HIT_UNDO  # noqa: F401  (re-exported)

STEP_MS = 10


class FakeTouch:
    """touch_point as adafruit_touchscreen gives it: None or (x, y, z)."""

    def __init__(self):
        self.reading = None

    @property
    def touch_point(self):
        """Return the current reading."""
        return self.reading


class FakeClock:
    """ticks_ms that wraps like supervisor.ticks_ms, and a settable date."""

    def __init__(self, date=(2026, 11, 30)):
        self.ms = (1 << 29) - 3000  # close to the wrap, so wrapping bugs show
        self.date = date

    def ticks_ms(self):
        """Return the tick count."""
        return self.ms & ((1 << 29) - 1)

    def today(self):
        """Return (y, m, d)."""
        return self.date

    def set_today(self, y, m, d):
        """Set the date."""
        self.date = (y, m, d)


class HW:
    """The Hardware the App takes (docs/architecture.md)."""

    def __init__(self, width, height, start, blocks=None, date=(2026, 11, 30), ppcm=0):
        sim_display.release()
        self.display = sim_display.FramebufferDisplay(width, height)
        self.touch = FakeTouch()
        self.clock = FakeClock(date)
        self.blocks = blocks
        self.keys = Keyboard()
        self.start = start
        self.ppcm = ppcm  # 0: the size's default panel (the Pynt's is layout.PPCM_PYNT)


class Board:
    """An App on a HW, with helpers to tap, press keys and look at pixels."""

    def __init__(self, width=320, height=240, start=(1, 1, 4), blocks=None, date=(2026, 11, 30),
                 ppcm=0):
        self.hw = HW(width, height, start, blocks, date, ppcm)
        self.app = App(self.hw)
        self.poll()

    @property
    def game(self):
        """The game in play."""
        return self.app.game

    @property
    def table(self):
        """The table screen."""
        return self.app.table

    @property
    def display(self):
        """The framebuffer display."""
        return self.hw.display

    def poll(self, n=1):
        """Run n polls, STEP_MS of time each."""
        for _ in range(n):
            self.hw.clock.ms += STEP_MS
            self.app.poll()

    def tap(self, x, y, press=5, release=6):
        """Press at (x, y) for `press` polls, then lift for `release` polls."""
        t = self.hw.touch
        t.reading = (x, y, 30000)
        self.poll(press)
        t.reading = None
        self.poll(release)

    def tap_slot(self, slot, index=-1):
        """Tap a slot (card index of a column, -1 the exposed card)."""
        x, y = self.table.tap_point(slot, index)
        self.tap(x, y)

    def tap_button(self, hit):
        """Tap a status-strip button."""
        x, y = self.table.button_point(hit)
        self.tap(x, y)

    def key(self, k):
        """Press a key and poll once."""
        self.hw.keys.push(k)
        self.poll(2)

    def load(self, text, moves=0):
        """Put a board-text position on the table."""
        pos = notation.parse_board(text, self.game.cells)
        self.game.load(pos, moves)
        self.table.redraw()
        self.app.dirty = True
        self.poll()

    def pixel(self, x, y):
        """Return the (r, g, b) on screen at (x, y)."""
        return self.display.pixel(x, y)

    def counter_shows(self):
        """Return the number the move counter's pixels show ("" where it is hidden).

        Each of its four cells on the screen is read against the glyphs of the digit sheet
        (card art's `digits`, 0-9 and the blank 10): the digit whose ink is exactly where
        the screen has the counter's colour. What is drawn, not what the table remembers.
        """
        from freecell_mc.ui import cardart

        table = self.table
        c = table.strip.counter
        art = table.art
        w, h = art.digit_w, art.digit_h
        if c.hidden:
            return ""
        out = ""
        for k in range(4):
            x0 = c.x + k * w
            if x0 + w > self.display.width:
                break  # the narrow table's blanks run off the screen's edge
            ink = [[near(self.pixel(x0 + px, c.y + py), cardart.TEXT) for px in range(w)]
                   for py in range(h)]
            found = [d for d in range(11)
                     if all((art.digits[d * w + px, py] != 0) == ink[py][px]
                            for py in range(h) for px in range(w))]
            assert len(found) == 1, "counter cell %d reads as %s" % (k, found)
            if found[0] == 10:
                break
            out += str(found[0])
        return out

    def close(self):
        """Release the display."""
        sim_display.release()


def near(rgb, colour, tol=12):
    """Return True if rgb (0..255 each) is colour (0xRRGGBB) within RGB565 rounding."""
    r, g, b = rgb
    return (
        abs(r - (colour >> 16)) <= tol
        and abs(g - ((colour >> 8) & 255)) <= tol
        and abs(b - (colour & 255)) <= tol
    )
