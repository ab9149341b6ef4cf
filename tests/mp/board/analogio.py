# SPDX-License-Identifier: MIT
"""analogio stood in: AnalogIn reads the raw value the session's finger gives its pin."""

import session


class AnalogIn:
    """One analog input; a new one per reading, as adafruit_touchscreen makes them."""

    def __init__(self, pin):
        self._pin = pin

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self._pin = None

    def deinit(self):
        """Release the pin."""
        self._pin = None

    @property
    def value(self):
        """The 16-bit reading."""
        return session.analog(self._pin)
