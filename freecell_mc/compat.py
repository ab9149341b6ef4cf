# SPDX-License-Identifier: MIT
"""Give CPython the names MicroPython and CircuitPython have built in."""

try:
    from micropython import const
except ImportError:

    def const(x):
        """Return x: CPython has no compile-time constants, so const is the identity."""
        return x
