# SPDX-License-Identifier: MIT
"""rtc stood in: the SAMD51's RTC, which starts at 2000-01-01 after every power-up."""


class _RTC:
    """The one RTC: datetime is a 9-tuple (time.struct_time on the board)."""

    datetime = (2000, 1, 1, 0, 0, 0, 5, 1, -1)


_rtc = _RTC()


def RTC():  # noqa: N802  (the board's own name)
    """Return the board's RTC (the same object every time, as on the board)."""
    return _rtc
