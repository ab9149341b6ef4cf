# SPDX-License-Identifier: MIT
"""The daily challenge: a calendar of the last 30 days, every day open, won days marked.

There is deliberately no streak: a missed day costs nothing and every day of the
last 30 can be played at any time.
"""

from freecell_mc import clock, deals, widgets
from freecell_mc.compat import const
from freecell_mc.screens import models

_DAY = const(100)  # buttons 100..129 are the days, oldest first
_BACK = const(1)
_TODAY = const(2)
_SLOT_DAILY = const(1)  # the App's save slot of the daily deal


class Screen(widgets.Screen):
    """The daily calendar screen."""

    name = "daily"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        y, mo, d = app.clock.today()
        self.cal = cal = models.Calendar(y, mo, d)
        # The grid takes the full height so that even six weeks give finger-sized
        # cells; the title, legend and buttons stand in a column at the right.
        side = w * 68 // 320
        gx = m.margin // 2
        gw = w - side - gx - m.gap
        head = 14
        gy = head
        gh = h - head - m.margin // 2
        cw = gw // 7
        ch = gh // cal.rows
        for c in range(7):
            self.add_text(models.WEEKDAYS[c], gx + c * cw + cw // 2, 1, scale=1,
                          color=widgets.DIM, anchor=(0.5, 0.0))
        self.days = []
        for i in range(cal.n):
            r, c = cal.cell(i)
            b = self.add_button(_DAY + i, gx + c * cw, gy + r * ch, cw - 1, ch - 1,
                                cal.label(i), border=2)
            self.days.append(b)
        # Today wears a gold border so it stands out whether it is won or not.
        self.days[cal.n - 1].set_edge(widgets.HIGHLIGHT)
        sx = w - side
        sw = side - m.margin // 2
        self.add_text("Daily", sx + sw // 2, m.margin, scale=2, anchor=(0.5, 0.0))
        self.add_text(models.MONTHS[mo - 1] + " " + str(y), sx + sw // 2, m.margin + 28,
                      scale=1, color=widgets.DIM, anchor=(0.5, 0.0))
        ly = m.margin + 50
        self.group.append(widgets.rect(sx + 2, ly, 14, 14, widgets.FILL_ON))
        self.add_text("won", sx + 20, ly + 7, scale=1, anchor=(0.0, 0.5))
        self.group.append(widgets.rect(sx + 2, ly + 20, 14, 14, widgets.GOLD))
        self.group.append(widgets.rect(sx + 4, ly + 22, 10, 10, widgets.FILL))
        self.add_text("today", sx + 20, ly + 27, scale=1, anchor=(0.0, 0.5))
        # The day whose game is saved unfinished wears a white bar: tapping it continues
        # that game, tapping another day would first ask whether to give it up.
        self.bar_h = max(3, ch // 9)
        self.group.append(widgets.rect(sx + 2, ly + 40, 14, 14, widgets.FILL))
        self.group.append(widgets.rect(sx + 4, ly + 54 - self.bar_h - 2, 10, self.bar_h, widgets.FG))
        self.add_text("started", sx + 20, ly + 47, scale=1, anchor=(0.0, 0.5))
        self.bar = widgets.rect(0, 0, cw - 9, self.bar_h, widgets.FG)
        self.bar.hidden = True
        self.group.append(self.bar)
        self.started = -1  # the index of the day saved unfinished, or -1
        self.count = self.add_text("", sx + sw // 2, ly + 66, scale=1, color=widgets.DIM,
                                   anchor=(0.5, 0.0))
        bh = m.button_h
        self.add_button(_TODAY, sx, h - m.margin - 2 * bh - m.gap, sw, bh, "Today")
        self.add_button(_BACK, sx, h - m.margin - bh, sw, bh, "Back")

    def show(self, **kw):
        """Mark the won days."""
        stats = self.app.saves.stats
        cal = self.cal
        won = 0
        for i in range(cal.n):
            y, m, d = cal.date(i)
            if stats.day_won(y, m, d):
                won += 1
                self.days[i].set_state(widgets.ON)
            else:
                self.days[i].set_state(widgets.NORMAL)
        self.count.set(str(won) + " won")
        self.started = -1
        s = self.app.saves.slot(_SLOT_DAILY)
        if s is not None and s.kind == deals.KIND_DAILY and models.unfinished(s.moves, s.flags):
            y, m, d = models.daily_date(s.number)
            i = clock.day_number(y, m, d) - cal.first
            if 0 <= i < cal.n:
                self.started = i
                b = self.days[i]
                self.bar.x = b.x + 4
                self.bar.y = b.y + b.h - self.bar_h - 4
        self.bar.hidden = self.started < 0

    def pressed(self, bid):
        """Play the tapped day, or go back."""
        if bid == _BACK:
            self.leave()
        elif bid == _TODAY:
            self.play(self.cal.n - 1)
        elif _DAY <= bid < _DAY + self.cal.n:
            self.play(bid - _DAY)

    def play(self, i):
        """Start the daily deal of day i (0 = the oldest shown)."""
        y, m, d = self.cal.date(i)
        self.app.start_daily(y, m, d)

    def key(self, k):
        """Enter or D plays today's deal; Esc leaves."""
        if k == "enter" or k == "d":
            self.play(self.cal.n - 1)
        else:
            super().key(k)
