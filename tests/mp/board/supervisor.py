# SPDX-License-Identifier: MIT
"""supervisor stood in: ticks_ms is the session's simulated milliseconds."""

import session


def ticks_ms():
    """Milliseconds since start, wrapping at 2**29 like the board's."""
    return session.now() & 0x1FFFFFFF
