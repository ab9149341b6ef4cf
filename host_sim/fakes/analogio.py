# SPDX-License-Identifier: MIT
"""Fake `analogio` for the simulated board: 16-bit readings of the simulated touch panel."""

from host_sim.fakes import digitalio


class AnalogIn:
    """analogio.AnalogIn: `value` is 0..65535, read from the panel (digitalio.Panel)."""

    reference_voltage = 3.3

    def __init__(self, pin):
        self._panel = digitalio.panel
        self._name = self._panel.claim(pin)

    @property
    def value(self):
        """Return the pin's voltage as the board's 16-bit ADC value."""
        if self._name is None:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        return self._panel.voltage(self._name)

    def deinit(self):
        """Free the pin."""
        if self._name is not None:
            self._panel.release(self._name)
            self._name = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
