# SPDX-License-Identifier: MIT
"""The screens around the table; each lives in its own module as `class Screen`.

A screen module is imported only when the player first enters it, so a game
that never opens the settings never pays their heap.
"""

NAMES = ("menu", "keypad", "daily", "stats", "settings", "datepicker", "calibration", "result",
         "notice", "confirm", "howto")


def screen_class(name):
    """Import and return the Screen class of the screen called name."""
    if name not in NAMES:
        raise ValueError("no screen called " + name)
    # A non-empty fromlist makes __import__ return the submodule itself (here and on MicroPython).
    mod = __import__("freecell_mc.ui.screens." + name, None, None, ("Screen",))
    return mod.Screen
