# SPDX-License-Identifier: MIT
"""The backlight: full while the player plays, dimmed after a quiet spell, dark after a longer one.

The backlight is most of a handheld's current (SPEC 6; the benchmark's estimate is in
bench/power.py). CircuitPython sets it with `display.brightness` (0.0-1.0) through a PWM
pin, and raises RuntimeError ("Brightness not adjustable") where the board has no way to;
there `adjustable` is False and nothing here ever touches the display.

`quiet(now)` runs every poll and allocates nothing: one ticks difference and two compares.
A touch (or a key) on a dimmed or dark screen only brings the light back: `touched` says so,
and the App swallows that whole press.
"""

from freecell_mc.compat import const
from freecell_mc.dates import ticks_diff

LIT = const(0)
DIM = const(1)
DARK = const(2)

# A fifth of the light: the LEDs' current follows the PWM duty, and the table stays readable
# indoors at it (the simulator renders it so: host_sim/display.py).
DIM_LEVEL = 0.2


class Backlight:
    """When the screen dims and goes dark, and the first touch that brings it back."""

    def __init__(self, display):
        """Take the display; its backlight starts full, if the board can set it at all."""
        self.display = display
        try:
            display.brightness = 1.0
            self.adjustable = True
        except (AttributeError, RuntimeError, ValueError, NotImplementedError):
            # AttributeError: no display, no such property, or one without a setter.
            self.adjustable = False
        self.state = LIT
        self._dim_ms = 0  # 0: never
        self._dark_ms = 0
        # Ticks of the last touch or key (-1 until the first poll): the App also waits on it
        # for a quiet moment to erase ahead in.
        self.since = -1

    def set_times(self, dim_s, dark_s):
        """Dim after dim_s quiet seconds and go dark after dark_s (0: never)."""
        self._dim_ms = dim_s * 1000
        self._dark_ms = dark_s * 1000

    def touched(self, now):
        """Note a touch or key at now; return True if it found the screen dimmed or dark.

        Such a touch has woken the screen and must do nothing else.
        """
        self.since = now
        if self.state == LIT:
            return False
        self._show(LIT)
        return True

    def quiet(self, now):
        """Dim or darken the screen when it has been quiet long enough; return True on going dark.

        The caller saves before the dark: a player who put the board down may not come back
        before the battery is gone.
        """
        if self.since < 0:
            # The quiet spell starts at the first poll, not at the tick count's zero.
            self.since = now
        st = self.state
        if st == DARK or not self.adjustable:
            return False
        q = ticks_diff(now, self.since)
        dark = self._dark_ms
        if dark and q >= dark:
            self._show(DARK)
            return True
        dim = self._dim_ms
        if st == LIT and dim and q >= dim and (not dark or dim < dark):
            self._show(DIM)
        return False

    def _show(self, state):
        """Set the backlight for state (only ever called where it is adjustable)."""
        self.state = state
        self.display.brightness = 1.0 if state == LIT else (DIM_LEVEL if state == DIM else 0.0)
