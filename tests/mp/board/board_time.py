# SPDX-License-Identifier: MIT
"""time as CircuitPython has it (struct_time, monotonic); sleep advances the session's clock.

Installed as sys.modules["time"] before code.py runs: MicroPython's own time has no
struct_time, and the session's time passes only when the game sleeps between polls.
"""

import session


def struct_time(t):
    """Return the 9-tuple the board's struct_time is."""
    return tuple(t)


def sleep(s):
    """Let s seconds of board time pass."""
    session.sleep_ms(int(s * 1000))


def monotonic():
    """Seconds since start."""
    return session.now() / 1000


def monotonic_ns():
    """Nanoseconds since start."""
    return session.now() * 1000000


def time():
    """Seconds since 2000 by the RTC."""
    return 0


def localtime(t=None):
    """The RTC's time."""
    return (2000, 1, 1, 0, 0, 0, 5, 1, -1)
