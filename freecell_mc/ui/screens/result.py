# SPDX-License-Identifier: MIT
"""The result screen after a win: which deal, moves, time, code, and every way on.

Its buttons lead to a new deal, the same deal again, the daily deal (or, once today's is
won, the daily calendar), the menu and the game kept in the other slot, so a touch-only
player never needs a key to leave it.
"""

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.rules import deals
from freecell_mc.ui import widgets
from freecell_mc.ui.screens import models

_NEW = const(1)
_REPLAY = const(2)
_DAILY = const(3)
_MENU = const(4)
_OTHER = const(5)


class Screen(widgets.Screen):
    """The win screen."""

    name = "result"

    def __init__(self, app):
        """Build the title, the deal's name, the three figures and the buttons."""
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        self.big = big = 2 if h < 300 else 3
        self.add_text("Won!", m.margin, m.margin, scale=big, color=widgets.GOLD)
        bh = m.button_h
        inner = w - 2 * m.margin
        title_h = m.line_h(big)
        self.deal = self.add_text("", m.margin, m.margin + title_h + m.gap, scale=big)
        top = m.margin + title_h + m.gap + m.line_h(big) + m.gap
        buttons_top = h - m.margin - 2 * bh - m.gap
        step = (buttons_top - m.gap - top) // 3
        self.values = []
        for i, cap in enumerate(("Moves", "Time", "Deal code")):
            y = top + i * step + step // 2
            self.add_text(cap, m.margin * 2, y, scale=m.text_scale, color=widgets.DIM,
                          anchor=(0.0, 0.5))
            self.values.append(self.add_text("-", w - m.margin * 2, y, scale=big,
                                             anchor=(1.0, 0.5)))
        # First row: what to play next. Widths in proportion to the longest captions
        # ("New deal", "Replay", "Calendar": 8, 6 and 8 characters) so all three read at
        # the same size, whichever the third one shows.
        free = inner - 2 * m.gap
        bw0 = free * 8 // 22
        bw1 = free * 6 // 22
        bw2 = free - bw0 - bw1
        x = m.margin
        by = buttons_top
        self.add_button(_NEW, x, by, bw0, bh, "New deal")
        self.add_button(_REPLAY, x + bw0 + m.gap, by, bw1, bh, "Replay")
        self.daily = self.add_button(_DAILY, x + bw0 + bw1 + 2 * m.gap, by, bw2, bh, "Daily")
        # Second row: the menu, and the game kept in the other slot when there is one
        # (the slot numbers are the App's: 0 holds free deals, 1 the daily deal).
        by += bh + m.gap
        self.other = app.other_slot_saved()
        if self.other is None:
            self.add_button(_MENU, x, by, inner, bh, "Menu")
        else:
            # Continue names the kept deal as the menu does, which takes the whole row at
            # the other captions' size: Menu moves up beside "Won!", where the title leaves
            # room.
            cont = models.continue_label(*app.other_deal())
            mw = max(m.target, widgets.text_width("Menu", 2) + 8)
            self.add_button(_MENU, w - m.margin - mw, m.margin // 2, mw, bh, "Menu")
            self.add_button(_OTHER, x, by, inner, bh, cont,
                            scale=max(m.text_scale, widgets.fit_scale(cont, inner - 6, bh - 4)))

    def show(self, moves=0, seconds=0, code="", kind=deals.KIND_SEED, number=0, **kw):
        """Fill in which deal was won, its moves, time and deal code."""
        name = models.deal_title(kind, number)
        self.deal.set(name, widgets.fit_scale(name, self.width - 2 * self.m.margin,
                                              self.m.line_h(self.big), self.big))
        self.values[0].set(str(moves))
        self.values[1].set(models.clock_text(seconds))
        self.values[2].set(code)
        # Today's daily already won: the same result again would be a dead end, so the
        # button opens the calendar, where the other days are. Today's daily kept in the
        # other slot: its Continue is the way there, and Daily would be a second button
        # for the same game, so this one opens the calendar too.
        self.daily.set_text("Calendar" if self._calendar() else "Daily")

    def _calendar(self):
        """Return True if the clock is set and today's daily is won or the other slot's game."""
        app = self.app
        y, m, d = app.clock.today()
        if not dates.plausible(y):
            return False
        if self.other is not None and app.other_deal() == (deals.KIND_DAILY,
                                                           deals.daily_seed(y, m, d)):
            return True
        return app.saves.stats.day_won(y, m, d)

    def pressed(self, bid):
        """Start what the player chose."""
        app = self.app
        if bid == _NEW:
            app.new_deal()
        elif bid == _REPLAY:
            app.replay()
        elif bid == _DAILY:
            if self._calendar():
                app.goto("daily")
            else:
                app.daily_today()
        elif bid == _MENU:
            app.goto("menu")
        elif bid == _OTHER:
            app.switch_slot(self.other)

    def key(self, k):
        """N, R and D act as the buttons; U takes the winning move back; Esc opens the menu."""
        if k == "n":
            self.pressed(_NEW)
        elif k == "r":
            self.pressed(_REPLAY)
        elif k == "d":
            self.pressed(_DAILY)
        elif k == "u" or k == "z":
            self.app.undo_win()
        else:
            super().key(k)
