# SPDX-License-Identifier: MIT
"""The player's settings as the save record keeps them: free cells, switches, calibration.

`Settings` packs into the record's 12 bytes of settings and its backlight byte (layout in
record.py); `valid_calibration` is the rule a touch calibration must meet there and on the
calibration screen alike.
"""

import struct

from freecell_mc.compat import const

DEFAULT_CALIBRATION = ((5200, 59000), (5800, 57000))
# A calibration maps raw readings lo..hi onto the screen. Both axes must run upwards within
# 16 bits over at least this span (the calibration screen stores nothing narrower): a
# narrower one, such as 0..1 or 65534..65535, sends every tap to the screen's edge.
CAL_MIN_SPAN = const(8000)

# How long the screen stays quiet before the backlight dims, and before it goes dark, in
# seconds (0: never). The defaults spare the battery without dimming on a player who is
# thinking: a minute, then five.
DIM_AFTER_S = (30, 60, 120, 300, 0)
DARK_AFTER_S = (120, 300, 600, 0)
DIM_DEFAULT = const(1)
DARK_DEFAULT = const(1)


def valid_calibration(cal):
    """Return True if cal is ((x_lo, x_hi), (y_lo, y_hi)) in 16 bits with wide enough spans."""
    try:
        (a, b), (c, d) = cal
        return (0 <= a and b - a >= CAL_MIN_SPAN and b <= 65535
                and 0 <= c and d - c >= CAL_MIN_SPAN and d <= 65535)
    except (TypeError, ValueError):
        return False


def valid_light(b):
    """Return True if b is a backlight byte the game writes (see Settings.light_byte)."""
    return (b & 15) <= len(DIM_AFTER_S) and (b >> 4) <= len(DARK_AFTER_S)


class Settings:
    """The player's settings; attributes are read and assigned directly."""

    def __init__(self):
        """Start with the defaults."""
        self.defaults()

    def defaults(self):
        """Reset every setting to its default."""
        self.cells = 4
        self.takeback = False
        self.four_colour = False
        self.calibration = DEFAULT_CALIBRATION
        self.usb_writable = False  # False: the game writes CIRCUITPY (power-safe saves)
        self.dim = DIM_DEFAULT  # index into DIM_AFTER_S
        self.dark = DARK_DEFAULT  # index into DARK_AFTER_S

    def pack_into(self, buf, off):
        """Write settings into buf at off (12 bytes)."""
        cal = self.calibration
        struct.pack_into(
            "<BBBBHHHH",
            buf,
            off,
            self.cells,
            1 if self.takeback else 0,
            1 if self.four_colour else 0,
            1 if self.usb_writable else 0,
            cal[0][0],
            cal[0][1],
            cal[1][0],
            cal[1][1],
        )

    def unpack_from(self, buf, off):
        """Read settings from buf at off (a record refusal() passed: every value is sane)."""
        c, t, f, u, x0, x1, y0, y1 = struct.unpack_from("<BBBBHHHH", buf, off)
        self.cells = c
        self.takeback = t == 1
        self.four_colour = f == 1
        self.usb_writable = u == 1
        self.calibration = ((x0, x1), (y0, y1))

    def light_byte(self):
        """Return the record's backlight byte: 1 + dim in the low nibble, 1 + dark above it."""
        return self.dim + 1 | (self.dark + 1) << 4

    def take_light(self, b):
        """Read the backlight times from a byte valid_light() passed (0 nibble: the default)."""
        lo = b & 15
        hi = b >> 4
        self.dim = lo - 1 if lo else DIM_DEFAULT
        self.dark = hi - 1 if hi else DARK_DEFAULT
