# SPDX-License-Identifier: MIT
"""Fake `os` for the board's code: CIRCUITPY's rules on the simulated drive folder.

Writes inside the drive fail with OSError(30) (EROFS) while code.py does not own the drive
(boot.py did not remount it), as on the board; `sync` is free; headless, `urandom` is a
fixed sequence so a run repeats exactly. Everything else is the host's own os module.
"""

import builtins
import os as _host

from host_sim import fakes

_EROFS = 30
_host_open = builtins.open


def _inside_drive(path):
    """Return True if path (relative to the working directory) lies in the simulated drive."""
    sim = fakes.sim
    if sim is None:
        return False
    try:
        p = _host.path.realpath(_host.fspath(path))
    except TypeError:
        return False  # a file descriptor
    drive = _host.path.realpath(sim.drive)
    return p == drive or p.startswith(drive + _host.sep)


def _check_write(path):
    """Raise EROFS if code.py may not write path; return True for the board's write to the drive."""
    sim = fakes.sim
    if sim is None or sim.host_writing or not _inside_drive(path):
        return False
    if sim.phase == "code" and sim.drive_readonly:
        raise OSError(_EROFS, "Read-only filesystem")
    return True


def guarded_open(file, mode="r", *args, **kwargs):
    """builtins.open while the board runs: refuse writes to a read-only CIRCUITPY."""
    if any(c in mode for c in "wax+") and _check_write(file):
        fakes.sim.drive_writes += 1
    return _host_open(file, mode, *args, **kwargs)


def mkdir(path, *args, **kwargs):
    """os.mkdir, refused on a read-only drive."""
    _check_write(path)
    return _host.mkdir(path, *args, **kwargs)


def remove(path):
    """os.remove, refused on a read-only drive."""
    _check_write(path)
    return _host.remove(path)


def rmdir(path):
    """os.rmdir, refused on a read-only drive."""
    _check_write(path)
    return _host.rmdir(path)


def rename(old, new):
    """os.rename, refused on a read-only drive."""
    _check_write(old)
    _check_write(new)
    return _host.rename(old, new)


def sync():
    """Flush CircuitPython's flash cache: the host's files need nothing (counted only)."""
    sim = fakes.sim
    if sim is not None:
        sim.syncs += 1


def urandom(n):
    """Random bytes; headless, a fixed xorshift sequence so every run deals the same."""
    sim = fakes.sim
    if sim is None or not sim.headless:
        return _host.urandom(n)
    out = bytearray(n)
    s = sim.random_state
    for i in range(n):
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        out[i] = s & 0xFF
    sim.random_state = s
    return bytes(out)


def __getattr__(name):
    return getattr(_host, name)
