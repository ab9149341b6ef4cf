# SPDX-License-Identifier: MIT
"""Fake `board` for the simulated PyPortal, Pynt or Titano."""

from host_sim import fakes
from host_sim.fakes.microcontroller import Pin

TOUCH_XL = Pin("TOUCH_XL")
TOUCH_XR = Pin("TOUCH_XR")
TOUCH_YD = Pin("TOUCH_YD")
TOUCH_YU = Pin("TOUCH_YU")
SCL = Pin("SCL")
SDA = Pin("SDA")
LIGHT = Pin("LIGHT")
SPEAKER_ENABLE = Pin("SPEAKER_ENABLE")
NEOPIXEL = Pin("NEOPIXEL")
TFT_BACKLIGHT = Pin("TFT_BACKLIGHT")


def I2C():  # noqa: N802  (board's own name)
    """Return the board's one shared I2C bus (the STEMMA port)."""
    return fakes.current().i2c()


STEMMA_I2C = I2C


def __getattr__(name):
    """Serve the parts that belong to the running simulation."""
    sim = fakes.current()
    if name == "DISPLAY":
        return sim.display
    if name == "board_id":
        return sim.board_id
    # Not on a real board: the simulator's keyboard and the deal asked for on the
    # command line, read by freecell_mc.hardware.device when present.
    if name == "KEYS":
        return sim.keys
    if name == "START_DEAL":
        return sim.start_deal
    # True: a fault in the game raises out of code.py with its traceback (the tests'
    # default); False: the calm screen and the reset, as on the board.
    if name == "RAISE_FAULTS":
        return sim.raise_faults
    raise AttributeError("module 'board' has no attribute %r" % name)
