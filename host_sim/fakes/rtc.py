# SPDX-License-Identifier: MIT
"""Fake `rtc`: the SAMD51's internal clock, which restarts at 2000-01-01 on power-up."""

from host_sim import fakes
from host_sim.hardware import seconds_of, struct_time_of


class RTC:
    """The internal real-time clock; `datetime` is a time.struct_time."""

    calibration = 0

    @property
    def datetime(self):
        """Return the current time as a struct_time."""
        return struct_time_of(fakes.current().clock.rtc_seconds())

    @datetime.setter
    def datetime(self, value):
        fakes.current().clock.set_rtc_seconds(seconds_of(value))


_source = None


def set_time_source(rtc):
    """Make time.localtime() read `rtc` (an object with a datetime property)."""
    global _source
    _source = rtc


def time_source():
    """Return the clock time.localtime() reads, or None for the internal RTC."""
    return _source


def reset_time_source():
    """Go back to the internal RTC (a restart of the board)."""
    global _source
    _source = None
