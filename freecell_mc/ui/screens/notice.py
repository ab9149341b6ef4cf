# SPDX-License-Identifier: MIT
"""A notice at start: what happened to the saved games, said once, calmly, with an OK.

The saves tell one message at most per start (Saves.load in saves/policy.py), sometimes in
two parts (a form feed between them); this screen shows it before anything else, a part at
a time, and the last OK goes on to where the start was going (the date picker, a won
game's result, or the table).
"""

from freecell_mc.ui import widgets
from freecell_mc.compat import const
from freecell_mc.ui.screens import models

_OK = const(1)
_CHAR_W = const(12)  # the terminal font's 6 px at scale 2


class Screen(widgets.Screen):
    """The start-up notice."""

    name = "notice"

    def __init__(self, app):
        """Build the title, the text area and the OK button."""
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        self.add_title("Notice")
        self.cols = (w - 4 * m.margin) // _CHAR_W
        self.body = self.add_text("", 2 * m.margin, m.margin + 40, scale=2)
        bw = w // 2
        bh = m.button_h
        self.ok = self.add_button(_OK, (w - bw) // 2, h - m.margin - bh, bw, bh, "OK", scale=2)
        self.rest = ""  # the parts of the text still to show

    def show(self, text="", **kw):
        """Show text's first part, wrapped to the screen's width."""
        self.rest = text
        self._next()

    def _next(self):
        """Show the next part of the text; return False when none was left."""
        text = self.rest
        if not text:
            return False
        part, _, self.rest = text.partition("\f")
        self.body.set(models.wrap(part, self.cols))
        return True

    def pressed(self, bid):
        """Show the next part, or go on to the first screen of this start."""
        if bid == _OK and not self._next():
            self.app.first_screen()

    def key(self, k):
        """Enter, Esc and Back all mean OK: there is nothing else to choose."""
        if k == "enter" or k == "esc" or k == "back":
            self.pressed(_OK)
