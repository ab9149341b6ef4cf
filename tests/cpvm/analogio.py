# SPDX-License-Identifier: MIT
"""analogio stood in: AnalogIn reads the raw value the session's finger gives its pin.

One 16-byte block an instance, as CircuitPython's analogio_analogin_obj_t (see digitalio).
"""

import session


class AnalogIn:
    """One analog input; adafruit_touchscreen makes a new one for each reading."""

    def __init__(self, pin):
        session.claim(pin, False)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        session.release()

    def deinit(self):
        """Release the pin."""
        session.release()

    @property
    def value(self):
        """The 16-bit reading."""
        return session.analog()
