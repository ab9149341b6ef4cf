# SPDX-License-Identifier: MIT
"""digitalio stood in: a DigitalInOut claims a touch pin for the session's finger."""

import session


class DigitalInOut(session.Pin):
    """One digital pin, driven until deinit or the end of its with block."""

    DIGITAL = 1

    def switch_to_output(self, value=False, drive_mode=None):
        """Drive the pin (the level does not matter here)."""

    def switch_to_input(self, pull=None):
        """Float the pin."""
