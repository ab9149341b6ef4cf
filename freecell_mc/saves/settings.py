# SPDX-License-Identifier: MIT
"""The player's settings as the save record keeps them: free cells, switches, calibration.

`Settings` packs into the record's 12 bytes of settings (layout in record.py);
`valid_calibration` is the rule a touch calibration must meet there and on the
calibration screen alike.
"""

import struct

from freecell_mc.compat import const

DEFAULT_CALIBRATION = ((5200, 59000), (5800, 57000))
# A calibration maps raw readings lo..hi onto the screen. Both axes must run upwards within
# 16 bits over at least this span (the calibration screen stores nothing narrower): a
# narrower one, such as 0..1 or 65534..65535, sends every tap to the screen's edge.
CAL_MIN_SPAN = const(8000)


def valid_calibration(cal):
    """Return True if cal is ((x_lo, x_hi), (y_lo, y_hi)) in 16 bits with wide enough spans."""
    try:
        (a, b), (c, d) = cal
        return (0 <= a and b - a >= CAL_MIN_SPAN and b <= 65535
                and 0 <= c and d - c >= CAL_MIN_SPAN and d <= 65535)
    except (TypeError, ValueError):
        return False


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
