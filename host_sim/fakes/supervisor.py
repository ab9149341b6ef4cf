# SPDX-License-Identifier: MIT
"""Fake `supervisor`: ticks_ms from the simulated clock, a USB-connected runtime."""

from host_sim import fakes


def ticks_ms():
    """Return milliseconds, wrapping at 2**29 like CircuitPython's."""
    return fakes.current().clock.ticks_ms()


class _Runtime:
    """supervisor.runtime."""

    autoreload = True
    serial_bytes_available = 0

    @property
    def usb_connected(self):
        """True when the simulated board has a USB host (default)."""
        return fakes.current().usb_connected

    @property
    def serial_connected(self):
        """True when the simulated board has a USB host."""
        return fakes.current().usb_connected


runtime = _Runtime()


def reload():
    """Start code.py again."""
    raise fakes.SoftReload()


def set_next_code_file(filename, **kwargs):
    """Accept the file to run next (the simulator always runs code.py)."""


def disable_autoreload():
    """Turn off reloading when files change."""
    runtime.autoreload = False


def enable_autoreload():
    """Turn on reloading when files change."""
    runtime.autoreload = True


def get_previous_traceback():
    """Return None: the simulator keeps no traceback across reloads."""
    return None
