# SPDX-License-Identifier: MIT
"""board stood in for a PyPortal, a Pynt or a Titano: DISPLAY, the four touch pins, I2C.

The display object, the pins and the I2C bus are static in the firmware (no heap). The
bus has its pull-ups on all three boards; nothing answers on it but, on the PyPortal,
its ADT7410 temperature sensor at 0x48 (which tells the game it is no Pynt), so the
game finds no RTC chip.
"""

import session


class _Pin:
    """A microcontroller.Pin: a constant in flash on the board; bit names it to the session."""

    def __init__(self, bit):
        self.bit = bit


class _Display:
    """board.DISPLAY: its size, root_group, auto_refresh, brightness and refresh()."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.root_group = None
        self.auto_refresh = True
        self.brightness = 1.0

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        """Count a refresh (nothing is drawn)."""
        session.refreshed()
        return True


TOUCH_XL = _Pin(1)
TOUCH_XR = _Pin(2)
TOUCH_YD = _Pin(4)
TOUCH_YU = _Pin(8)
DISPLAY = _Display(session.WIDTH, session.HEIGHT)
board_id = session.BOARD_ID
if session.SEED >= 0:
    # The simulator's hook (device.build): the free deal of a fresh start is this seed's,
    # not os.urandom's, so that every run of a session makes the same allocations.
    START_DEAL = (1, session.SEED, 4)  # deals.KIND_SEED


# The bus is this module itself: its functions are busio.I2C's methods the game calls, so
# the stand-in adds no class or object (and no name) that the board's static bus does not.


def try_lock():
    return True


def unlock():
    pass


def writeto(address, buffer, *, start=0, end=None):
    raise OSError(19)  # no device acknowledged its address


def writeto_then_readfrom(address, out_buffer, in_buffer, *, out_start=0, out_end=None,
                          in_start=0, in_end=None):
    if address != 0x48 or not session.ADT7410:
        raise OSError(19)
    for i in range(in_start, len(in_buffer) if in_end is None else in_end):
        in_buffer[i] = 0xCB  # the ADT7410's ID register (0x0B); the game reads no other


def I2C():  # noqa: N802  (the board's own name)
    """Return the board's one I2C bus (with nothing plugged into the STEMMA port)."""
    import sys

    return sys.modules[__name__]
