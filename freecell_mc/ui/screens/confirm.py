# SPDX-License-Identifier: MIT
"""The question before a game in progress is given up: play the other deal, continue, or back.

Nothing the player has begun vanishes without their choosing it: Replay, New deal, a deal
code or another day of the daily all come here first when they would replace an
unfinished game. Every choice is a button; in the simulator Enter answers yes and Esc
goes back.
"""

from freecell_mc.ui import widgets
from freecell_mc.compat import const
from freecell_mc.ui.screens import models

_YES = const(1)
_KEEP = const(2)
_BACK = const(3)


class Screen(widgets.Screen):
    """The confirmation screen."""

    name = "confirm"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        bh = m.button_h
        self.add_title("Unfinished game")
        self.text = self.add_text("", m.margin, m.below_title, scale=m.text_scale, color=widgets.FG)
        bw = w - 2 * m.margin
        # Stacked full-width rows: the captions name deals and read in one line each.
        y = h - m.margin - 3 * bh - 2 * m.gap
        self.text_h = y - m.gap - m.below_title
        self.yes = self.add_button(_YES, m.margin, y, bw, bh, "")
        self.keep = self.add_button(_KEEP, m.margin, y + bh + m.gap, bw, bh, "")
        self.back = self.add_button(_BACK, m.margin, y + 2 * (bh + m.gap), bw, bh, "Back")

    def show(self, text="", yes="", keep="", back=True, **kw):
        """Say what would be lost and name the choices (back: offer a way back besides)."""
        # The panel's text size where the question fits above the buttons, else smaller.
        w = self.width - 2 * self.m.margin
        scale = self.m.text_scale
        while True:
            lines = models.wrap(text, w // (6 * scale))
            if scale == 1 or widgets.text_height(lines, scale) <= self.text_h:
                break
            scale -= 1
        self.text.scale = scale
        self.text.set(lines)
        self.yes.set_text(yes)
        self.keep.set_text(keep)
        self.back.hidden = not back

    def pressed(self, bid):
        """Pass the answer to the App."""
        if bid == _YES:
            self.app.answer("yes")
        elif bid == _KEEP:
            self.app.answer("keep")
        elif bid == _BACK:
            self.app.answer("back")

    def key(self, k):
        """Enter answers yes; Esc and Back go back."""
        if k == "enter":
            self.pressed(_YES)
        elif k == "esc" or k == "back":
            self.pressed(_BACK)
