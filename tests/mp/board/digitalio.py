# SPDX-License-Identifier: MIT
"""digitalio stood in: DigitalInOut notes which touch pins are driven (the reading phase)."""

import session


class DigitalInOut:
    """One digital pin, claimed until deinit or the end of a with block."""

    def __init__(self, pin):
        self._pin = pin
        session.drive(pin, True)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()

    def deinit(self):
        """Release the pin."""
        if self._pin is not None:
            session.drive(self._pin, False)
            self._pin = None

    def switch_to_output(self, value=False, drive_mode=None):
        """Drive the pin (the level does not matter here)."""

    def switch_to_input(self, pull=None):
        """Float the pin."""
