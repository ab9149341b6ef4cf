# SPDX-License-Identifier: MIT
"""The screens around the table; each lives in its own module as `class Screen`.

A screen module is imported only when the player first enters it, so a game
that never opens the settings never pays their heap.
"""

NAMES = ("menu", "keypad", "daily", "stats", "settings", "datepicker", "calibration", "result")


def screen_class(name):
    """Import and return the Screen class of the screen called name."""
    if name == "menu":
        from freecell_mc.screens import menu as mod
    elif name == "keypad":
        from freecell_mc.screens import keypad as mod
    elif name == "daily":
        from freecell_mc.screens import daily as mod
    elif name == "stats":
        from freecell_mc.screens import stats as mod
    elif name == "settings":
        from freecell_mc.screens import settings as mod
    elif name == "datepicker":
        from freecell_mc.screens import datepicker as mod
    elif name == "calibration":
        from freecell_mc.screens import calibration as mod
    elif name == "result":
        from freecell_mc.screens import result as mod
    else:
        raise ValueError("no screen called " + name)
    return mod.Screen
