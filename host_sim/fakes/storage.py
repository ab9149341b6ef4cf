# SPDX-License-Identifier: MIT
"""Fake `storage`: CIRCUITPY is writable by code only after boot.py remounts it."""

from host_sim import fakes


class _Mount:
    """What storage.getmount returns: readonly as seen by code.py."""

    label = "CIRCUITPY"

    @property
    def readonly(self):
        """True unless boot.py remounted "/" writable."""
        return fakes.current().drive_readonly


def getmount(mount_path):
    """Return the filesystem mounted at mount_path."""
    if mount_path != "/":
        raise OSError(2, "No such file/directory")
    return _Mount()


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    """Remount "/" for code.py; like the board, only while USB is not using it (boot.py)."""
    sim = fakes.current()
    if mount_path != "/":
        raise OSError(2, "No such file/directory")
    if sim.phase != "boot" and sim.usb_connected:
        raise RuntimeError("Cannot remount '/' when visible via USB.")
    sim.drive_readonly = bool(readonly)
    sim.remounts.append((mount_path, bool(readonly)))


def disable_usb_drive():
    """Hide CIRCUITPY from the computer."""


def enable_usb_drive():
    """Show CIRCUITPY to the computer."""


def erase_filesystem():
    """Refuse: the simulator never erases the drive folder."""
    raise RuntimeError("erase_filesystem is not simulated")


class VfsFat:
    """Placeholder for the FAT filesystem class."""

    def __init__(self, block_device):
        self.block_device = block_device
