# SPDX-License-Identifier: MIT
"""Fake `busio.I2C`: the STEMMA port, with the simulated RTC chip when --ext-rtc asks."""

from host_sim import fakes

_ENODEV = 19


class I2C:
    """An I2C bus whose devices are the simulator's chips, keyed by address."""

    def __init__(self, scl=None, sda=None, *, frequency=100000, timeout=255):
        self._devices = fakes.current().i2c_devices
        self._locked = False
        self._deinit = False

    def _check(self):
        if self._deinit:
            raise ValueError("Object has been deinitialized and can no longer be used.")

    def try_lock(self):
        """Take the bus; return True if it was free."""
        self._check()
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        """Release the bus."""
        self._locked = False

    def scan(self):
        """Return the addresses that answer."""
        self._check()
        return sorted(self._devices)

    def _device(self, address):
        dev = self._devices.get(address)
        if dev is None:
            raise OSError(_ENODEV, "No such device")
        return dev

    def writeto(self, address, buffer, *, start=0, end=None):
        """Write buffer[start:end] to the device."""
        self._check()
        self._device(address).write(bytes(buffer[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        """Read into buffer[start:end] from the device."""
        self._check()
        end = len(buffer) if end is None else end
        data = self._device(address).read(end - start)
        buffer[start:end] = data

    def writeto_then_readfrom(
        self, address, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        """Write, then read with a repeated start."""
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)

    def deinit(self):
        """Release the pins."""
        self._deinit = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
