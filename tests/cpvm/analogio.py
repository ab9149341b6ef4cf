# SPDX-License-Identifier: MIT
"""analogio stood in: AnalogIn reads the raw value the session's finger gives its pin."""

import session


class AnalogIn(session.Pin):
    """One analog input; adafruit_touchscreen makes a new one for each reading."""

    @property
    def value(self):
        """The 16-bit reading."""
        return session.analog()
