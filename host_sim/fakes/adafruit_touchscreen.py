# SPDX-License-Identifier: MIT
"""`adafruit_touchscreen` on the simulated board: the real library over simulated pins.

The library installed for the board (pinned in requirements-dev.txt, the same file
`./dev bundle` compiles) is loaded once more with host_sim.fakes' `analogio` and
`digitalio` in place of Blinka's, so every `touch_point` runs the board's code: it makes
and frees its pin objects, reads the panel's raw ADC values and maps them with the
calibration it was given. The panel turns the mouse's or the script's screen pixels into
the raw values of a panel with the factory calibration (digitalio.Panel), so a player's
own calibration changes where taps land, as it would on the board. Each read takes one
reading from the simulator: one poll, 10 ms of board time headless.
"""

import importlib.machinery
import importlib.util
import sys

from host_sim.fakes import analogio as _analogio
from host_sim.fakes import digitalio as _digitalio


def _load():
    """Return a fresh copy of the real library module bound to the simulated pins."""
    # PathFinder searches sys.path only, never sys.modules (where this module stands in).
    spec = importlib.machinery.PathFinder.find_spec("adafruit_touchscreen")
    if spec is None or spec.loader is None:
        raise ImportError("adafruit_touchscreen is not installed (./dev setup installs it)")
    module = importlib.util.module_from_spec(spec)
    saved = {name: sys.modules.get(name) for name in ("analogio", "digitalio")}
    sys.modules["analogio"] = _analogio
    sys.modules["digitalio"] = _digitalio
    try:
        spec.loader.exec_module(module)
    finally:
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
    return module


library = _load()
Touchscreen = library.Touchscreen
map_range = library.map_range
__version__ = library.__version__
