# SPDX-License-Identifier: MIT
"""storage stood in for boot.py: CIRCUITPY is the current folder, writable here."""


def remount(mount_path, readonly=False, disable_concurrent_write_protection=False):
    """Give the drive to the game (nothing to do: the folder is writable)."""
