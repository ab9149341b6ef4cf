# SPDX-License-Identifier: MIT
"""time stood in (the VM leaves the built-in out): sleep is where the session acts."""

import session


def struct_time(t):
    """Return the 9-tuple the board's struct_time is."""
    return tuple(t)


def sleep(s):
    """Let s seconds of board time pass (one poll of the game, for the session)."""
    session.sleep_ms(int(s * 1000))


def monotonic():
    """Seconds since power-up."""
    return session.now() / 1000
