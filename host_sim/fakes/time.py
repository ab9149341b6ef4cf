# SPDX-License-Identifier: MIT
"""Fake `time` for the board's code: monotonic and localtime follow the simulated clock.

Everything not listed here is the host's own time module.
"""

import time as _host

from host_sim import fakes
from host_sim.hardware import seconds_of, struct_time_of

struct_time = _host.struct_time


# A module that imported this one during a run keeps it: outside a run it is the host's.


def monotonic():
    """Return seconds since the simulated power-up."""
    if fakes.sim is None:
        return _host.monotonic()
    return fakes.sim.clock.monotonic()


def monotonic_ns():
    """Return nanoseconds since the simulated power-up."""
    if fakes.sim is None:
        return _host.monotonic_ns()
    return fakes.sim.clock.monotonic_ns()


def sleep(seconds):
    """Sleep in a window; in a headless run time moves with the polls instead."""
    if fakes.sim is None:
        _host.sleep(seconds)
    else:
        fakes.sim.clock.sleep(seconds)
        fakes.sim.background()  # USB's writes go on; a pending reload stops the sleep


def time():
    """Return the RTC time in epoch seconds (time.time() reads the RTC on the board)."""
    if fakes.sim is None:
        return _host.time()
    return fakes.sim.clock.rtc_seconds()


def localtime(secs=None):
    """Return struct_time for secs, or for the RTC (or rtc.set_time_source's clock)."""
    if secs is not None:
        return struct_time_of(int(secs))
    if fakes.sim is None:
        return _host.localtime()
    from host_sim.fakes import rtc

    source = rtc.time_source()
    if source is not None:
        return source.datetime
    return struct_time_of(fakes.current().clock.rtc_seconds())


def mktime(t):
    """Return epoch seconds of a struct_time (the board has no time zones)."""
    return seconds_of(t)


def __getattr__(name):
    return getattr(_host, name)
