# SPDX-License-Identifier: MIT
"""The result screen after a win: moves, time (m:ss) and the deal code; new deal, replay, daily."""

from freecell_mc import widgets
from freecell_mc.compat import const
from freecell_mc.screens import models

_NEW = const(1)
_REPLAY = const(2)
_DAILY = const(3)


class Screen(widgets.Screen):
    """The win screen."""

    name = "result"

    def __init__(self, app):
        """Build the title, the three figures and the three buttons."""
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        self.add_title("Won!")
        big = 2 if h < 300 else 3
        top = m.margin + 34
        bh = m.button_h
        rows_h = h - top - bh - 2 * m.margin
        step = rows_h // 3
        self.values = []
        for i, cap in enumerate(("Moves", "Time", "Deal code")):
            y = top + i * step + step // 2
            self.add_text(cap, m.margin * 2, y, scale=m.text_scale, color=widgets.DIM,
                          anchor=(0.0, 0.5))
            self.values.append(self.add_text("-", w - m.margin * 2, y, scale=big,
                                             anchor=(1.0, 0.5)))
        # "New deal" is the longest caption: it gets 40% so all three read at the same size.
        free = w - 2 * m.margin - 2 * m.gap
        bw0 = free * 2 // 5
        bw = (free - bw0) // 2
        by = h - m.margin - bh
        x = m.margin
        self.add_button(_NEW, x, by, bw0, bh, "New deal")
        self.add_button(_REPLAY, x + bw0 + m.gap, by, bw, bh, "Replay")
        self.add_button(_DAILY, x + bw0 + bw + 2 * m.gap, by, bw, bh, "Daily")

    def show(self, moves=0, seconds=0, code="", **kw):
        """Fill in the won game's moves, time and deal code."""
        self.values[0].set(str(moves))
        self.values[1].set(models.clock_text(seconds))
        self.values[2].set(code)

    def pressed(self, bid):
        """Start what the player chose."""
        app = self.app
        if bid == _NEW:
            app.new_deal()
        elif bid == _REPLAY:
            app.replay()
        elif bid == _DAILY:
            app.daily_today()

    def key(self, k):
        """N, R and D act as the buttons; Esc opens the menu."""
        if k == "n":
            self.pressed(_NEW)
        elif k == "r":
            self.pressed(_REPLAY)
        elif k == "d":
            self.pressed(_DAILY)
        else:
            super().key(k)
