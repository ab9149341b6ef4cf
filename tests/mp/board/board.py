# SPDX-License-Identifier: MIT
"""board stood in for a PyPortal (or a Titano): DISPLAY, the four touch pins, I2C.

The display object is static in the firmware (no heap). I2C() raises what a PyPortal
raises with nothing on the STEMMA port (no pull-ups), so the game looks for no RTC chip.
"""

import session


class _Pin:
    """A microcontroller.Pin: a constant in flash on the board."""

    def __init__(self, name):
        self.name = name


class _Display:
    """board.DISPLAY: size, root_group, refresh()."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.root_group = None
        self.auto_refresh = True

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        """Count a refresh."""
        session.refreshed()
        return True


TOUCH_XL = _Pin("XL")
TOUCH_XR = _Pin("XR")
TOUCH_YD = _Pin("YD")
TOUCH_YU = _Pin("YU")
DISPLAY = _Display(session.WIDTH, session.HEIGHT)


def I2C():
    """Raise as the board does when nothing is plugged into the STEMMA port."""
    raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
