# SPDX-License-Identifier: MIT
"""Fake `os` for the board's code: CIRCUITPY's rules on the simulated drive.

The drive is a FAT image laid out as CircuitPython formats the board's 8 MB flash
(host_sim/fat.py), kept in the simulator's drive folder: files the board's code opens,
makes, stats or removes there go through that FAT model, so a save costs the erases and
the time it costs on the board. Writes fail with OSError(30) (EROFS) while code.py does
not own the drive (boot.py did not remount it), as on the board; `sync` flushes the
modelled flash cache; headless, `urandom` is a fixed sequence so a run repeats exactly;
`getenv` reads the simulated drive's settings.toml, as CircuitPython reads CIRCUITPY's,
never the host's environment. Everything else is the host's own os module.
"""

import builtins
import os as _host

from host_sim import fakes

_EROFS = 30
_host_open = builtins.open


def _drive_path(path):
    """Return path relative to the simulated drive, or None if it lies outside it."""
    sim = fakes.sim
    if sim is None:
        return None
    try:
        p = _host.path.realpath(_host.fspath(path))
    except TypeError:
        return None  # a file descriptor
    drive = _host.path.realpath(sim.drive)
    if p == drive:
        return ""
    if p.startswith(drive + _host.sep):
        return p[len(drive) + 1 :].replace(_host.sep, "/")
    return None


def _volume(path):
    """Return (the FAT volume, the path on it) for a path the board reaches on CIRCUITPY."""
    sim = fakes.sim
    if sim is None or sim.host_writing:
        return None, None
    rel = _drive_path(path)
    if rel is None:
        return None, None
    return sim.volume(), rel


def _check_write():
    """Raise EROFS if code.py may not write CIRCUITPY now."""
    sim = fakes.sim
    if sim.phase == "code" and sim.drive_readonly:
        raise OSError(_EROFS, "Read-only filesystem")


def guarded_open(file, mode="r", *args, **kwargs):
    """builtins.open while the board runs: CIRCUITPY's files are on the FAT model."""
    vol, rel = _volume(file)
    if vol is None:
        return _host_open(file, mode, *args, **kwargs)
    if any(c in mode for c in "wax+"):
        _check_write()
        fakes.sim.drive_writes += 1
    return vol.open(rel, mode)


def mkdir(path, *args, **kwargs):
    """os.mkdir, on CIRCUITPY through the FAT model and refused while it is read-only."""
    vol, rel = _volume(path)
    if vol is None:
        return _host.mkdir(path, *args, **kwargs)
    _check_write()
    return vol.mkdir(rel)


def remove(path):
    """os.remove, on CIRCUITPY through the FAT model and refused while it is read-only."""
    vol, rel = _volume(path)
    if vol is None:
        return _host.remove(path)
    _check_write()
    return vol.remove(rel)


def stat(path):
    """os.stat; on CIRCUITPY a CircuitPython-like 10-tuple (mode, ..., size at 6, ...)."""
    vol, rel = _volume(path)
    if vol is None:
        return _host.stat(path)
    if rel == "" or vol.is_dir(rel):
        return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return (0x8000, 0, 0, 0, 0, 0, vol.stat_size(rel), 0, 0, 0)


def statvfs(path):
    """os.statvfs; "/" is CIRCUITPY's root on the board, so it and the drive give the FAT
    model's figures (f_bsize, f_frsize, f_blocks, f_bfree, f_bavail, ... as CircuitPython)."""
    sim = fakes.sim
    vol = sim.volume() if sim is not None and not sim.host_writing else None
    if vol is None or (path != "/" and _drive_path(path) is None):
        return _host.statvfs(path)
    size = vol.csize * 512
    free = vol.free_clusters()
    return (size, size, vol.n_fatent - 2, free, free, 0, 0, 0, 0, 255)


def sync():
    """Flush CircuitPython's flash cache (the FAT model's), as os.sync does on the board."""
    sim = fakes.sim
    if sim is not None:
        sim.syncs += 1
        vol = sim.volume()
        if vol is not None:
            vol.sync()


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


# What CircuitPython's os.getenv reads, at CIRCUITPY's top: "settings.toml", a long name,
# which the FAT model (8.3 names only: host_sim/fat.py) knows by the short name FatFs gives
# it in a folder without one like it.
SETTINGS = "SETTIN~1.TOM"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\"}


def getenv(key, default=None):
    """os.getenv as CircuitPython 10 has it: the value of key in CIRCUITPY/settings.toml
    (here the simulated drive's), always a string, else default.

    The board reads the keys above the first [table], each `key = value`: a quoted value
    with TOML's escapes, else the text up to a comment; a line it cannot read gives
    nothing (tests/circuitpython/getenv.py in CircuitPython's sources).
    """
    sim = fakes.sim
    vol = sim.volume() if sim is not None else None
    if vol is None:
        return default
    try:
        with vol.open(SETTINGS, "rb") as fh:
            data = fh.read()
    except OSError:
        return default
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if line.startswith("["):
            break
        name, eq, value = line.partition("=")
        if not eq or name.strip() != key:
            continue
        value = value.strip()
        if value.startswith('"'):
            return _quoted(value[1:], default)
        value = value.partition("#")[0].strip()
        return value if value else default
    return default


def _quoted(text, default):
    """Return a basic TOML string's value from text after its opening quote, or default."""
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            return "".join(out)
        if c == "\\" and i + 1 < len(text):
            e = text[i + 1]
            if e in "uU":
                n = 4 if e == "u" else 8
                try:
                    out.append(chr(int(text[i + 2:i + 2 + n], 16)))
                except ValueError:
                    return default
                i += 2 + n
                continue
            if e not in _ESCAPES:
                return default
            out.append(_ESCAPES[e])
            i += 2
            continue
        out.append(c)
        i += 1
    return default  # no closing quote


def __getattr__(name):
    return getattr(_host, name)
