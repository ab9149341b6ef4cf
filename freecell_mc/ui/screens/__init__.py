# SPDX-License-Identifier: MIT
"""The screens around the table; each lives in its own module as `class Screen`.

A screen module is imported when the player enters the screen and dropped when they leave
it (app.py's _forget_screen), so the heap holds the code of the screen shown and no other
(docs/memory.md, "Screen modules and models.py stay imported only while shown").
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
