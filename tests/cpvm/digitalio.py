# SPDX-License-Identifier: MIT
"""digitalio stood in: a DigitalInOut claims a touch pin for the session's finger.

Like CircuitPython's C object (digitalio_digitalinout_obj_t, 16 bytes), an instance costs
one 16-byte block: it keeps no attribute, the session knows its pin (session.claim), and
no method takes *args (that would allocate a tuple a call).
"""

import session


class DigitalInOut:
    """One digital pin, claimed until deinit or the end of its with block."""

    def __init__(self, pin):
        session.claim(pin, True)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        session.release()

    def deinit(self):
        """Release the pin."""
        session.release()

    def switch_to_output(self, value=False, drive_mode=None):
        """Drive the pin (the level does not matter here)."""

    def switch_to_input(self, pull=None):
        """Float the pin."""
