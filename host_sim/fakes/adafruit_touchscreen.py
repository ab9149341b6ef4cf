# SPDX-License-Identifier: MIT
"""Fake `adafruit_touchscreen`: the simulated resistive panel, fed by the mouse or a script.

The input gives screen pixels; the panel turns them into raw readings as a panel with
the factory calibration would, and this class maps them back with the calibration it
was given, exactly as the library does. So a player's own calibration changes where
taps land, as it would on the board.
"""

from host_sim import fakes
from host_sim.hardware import raw_to_screen, screen_to_raw


class Touchscreen:
    """Same constructor and `touch_point` as adafruit_touchscreen.Touchscreen."""

    def __init__(
        self,
        x1_pin,
        x2_pin,
        y1_pin,
        y2_pin,
        *,
        x_resistance=None,
        samples=4,
        z_threshold=10000,
        calibration=None,
        size=None,
        invert_pressure=True,
    ):
        self._pins = (x1_pin, x2_pin, y1_pin, y2_pin)
        self._calib = calibration
        self._size = size
        self._zthresh = z_threshold
        self.invert_pressure = invert_pressure

    @property
    def touch_point(self):
        """Return (x, y, z) while pressed, else None; every read is one poll of the game."""
        sim = fakes.current()
        reading = sim.touch_read()
        if reading is None:
            return None
        x, y, z = reading
        if z <= self._zthresh:
            return None
        rx, ry = screen_to_raw(x, y, (sim.width, sim.height))
        sx, sy = raw_to_screen(rx, ry, self._size, self._calib)
        return (sx, sy, z)
