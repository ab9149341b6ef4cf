# SPDX-License-Identifier: MIT
"""Fake CircuitPython modules (board, microcontroller, rtc, ...) backed by the running simulator.

`install(sim)` puts them into sys.modules so code.py and boot.py import them as they
would on the board; `uninstall()` puts the previous modules back. Every fake reads its
state from `fakes.sim` (the running simulator), so modules imported once keep working
across several runs in one process (as in the tests).
"""

import builtins
import importlib
import sys

_host_open = builtins.open

# module name -> fake module in this package
NAMES = (
    "alarm",
    "board",
    "microcontroller",
    "rtc",
    "supervisor",
    "storage",
    "busio",
    "digitalio",
    "analogio",
    "adafruit_touchscreen",
    "time",
    "os",
)

# Blinka modules that must bind the real board/microcontroller/busio before the fakes
# shadow them (they import those names at import time).
_PRELOAD = (
    "displayio",
    "busdisplay",
    "fourwire",
    "terminalio",
    "vectorio",
    "bitmaptools",
    "fontio",
    # imported by the simulator itself during a run (PNGs): bind the host's os and time
    "PIL.Image",
    "PIL.PngImagePlugin",
)

sim = None  # the running simulator (host_sim.sim.Simulator)
last = None  # the simulator of the last run, for reading the board after it ended
_saved = None


class HardReset(BaseException):
    """microcontroller.reset(): the board restarts (boot.py, then code.py)."""


class SoftReload(BaseException):
    """supervisor.reload(): code.py starts again."""


class ReloadException(BaseException):
    """CircuitPython's built-in ReloadException: an auto-reload (a file written to
    CIRCUITPY over USB) stops code.py, which starts again once the writes are done."""


def preload():
    """Import the real Blinka display modules while the real hardware modules are in place."""
    for name in _PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def install(running):
    """Make `running` the simulator the fakes talk to and shadow the device modules."""
    global sim, last, _saved
    preload()
    sim = running
    last = running
    if _saved is None:
        _saved = {name: sys.modules.get(name) for name in NAMES}
    for name in NAMES:
        sys.modules[name] = importlib.import_module("host_sim.fakes." + name)
    sys.modules["digitalio"].reset()  # a new board: every pin free
    builtins.open = sys.modules["host_sim.fakes.os"].guarded_open
    builtins.ReloadException = ReloadException  # a built-in name on CircuitPython


def uninstall():
    """Put the modules back that were there before `install`."""
    global sim, _saved
    builtins.open = _host_open
    if getattr(builtins, "ReloadException", None) is ReloadException:
        del builtins.ReloadException
    if _saved is not None:
        for name, mod in _saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
    _saved = None
    sim = None


def current():
    """Return the running simulator, else the last one (a test reading the App after a run).

    The host's `time` and `os` stop being simulated when a run ends; the board's own
    modules (rtc, board, supervisor, ...) keep answering for the board that ran last.
    """
    s = sim if sim is not None else last
    if s is None:
        raise RuntimeError("no simulated board has run")
    return s
