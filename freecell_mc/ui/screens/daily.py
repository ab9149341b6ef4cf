# SPDX-License-Identifier: MIT
"""The daily challenge: a calendar of the last 30 days, every day open, won days marked.

There is deliberately no streak: a missed day costs nothing and every day of the
last 30 can be played at any time.
"""

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.rules import deals
from freecell_mc.ui import widgets
from freecell_mc.ui.screens import models

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
        ts = m.text_scale
        lh = m.line_h()
        head = lh + 4
        gy = head
        gh = h - head - m.margin // 2
        cw = gw // 7
        ch = gh // cal.rows
        for c in range(7):
            self.add_text(models.WEEKDAYS[c], gx + c * cw + cw // 2, 1, scale=ts,
                          color=widgets.DIM, anchor=(0.5, 0.0))
        self.days = []
        # The App keeps the table's card art, which holds the move counter's digits; without
        # it (a screen tried on its own) the days keep their captions.
        art = getattr(app, "art", None)
        for i in range(cal.n):
            r, c = cal.cell(i)
            text = cal.label(i)
            # "1 Nov" where a month begins; in a narrow cell the month goes under the day,
            # and where two lines do not fit either, the day stands alone and the months
            # are named beside the grid.
            if widgets.text_width(text, ts) > cw - 7:
                if (12 + 15) * ts <= ch - 5:
                    text = text.replace(" ", "\n")
                else:
                    text = text.split(" ")[0]
            bx = gx + c * cw
            by = gy + r * ch
            if art is not None and text.isdigit():
                # The day alone: the move counter's digit tiles, ~100 bytes, not a ~300-byte text.
                b = self.add_button(_DAY + i, bx, by, cw - 1, ch - 1, text, border=2,
                                    label=False)
                self.group.append(widgets.digits(art, text, bx + (cw - 1) // 2,
                                                 by + (ch - 1) // 2))
            else:
                s = max(ts, widgets.fit_scale(text, cw - 7, ch - 5))
                b = self.add_button(_DAY + i, bx, by, cw - 1, ch - 1, text, scale=s, border=2)
            self.days.append(b)
        # Today wears a gold border so it stands out whether it is won or not.
        self.days[cal.n - 1].set_edge(widgets.HIGHLIGHT)
        sx = w - side
        sw = side - m.margin // 2
        self.add_text("Daily", sx + sw // 2, m.margin, scale=2, anchor=(0.5, 0.0))
        mo0 = cal.date(0)[1]
        months = models.MONTHS[mo - 1]
        if mo0 != mo:
            months = models.MONTHS[mo0 - 1] + "-" + months
        if widgets.text_width(months + " " + str(y), ts) <= sw:
            months += " " + str(y)
        else:
            months += "\n" + str(y)
        my = m.margin + 24 + m.gap
        self.add_text(months, sx + sw // 2, my, scale=ts, color=widgets.DIM,
                      anchor=(0.5, 0.0))
        ly = my + lh * (months.count("\n") + 1) + 4 * months.count("\n") + m.gap
        # The legend's words wear the marks themselves (a green field, a gold frame, a
        # white bar), so it is no wider than "started" even at a big text scale. The green
        # field counts the days won too ("8 won"): a line of its own ran under the Today
        # button where the months take two lines ("Nov-Dec" over "2026" at 480x320).
        tw = widgets.text_width("started", ts) + 8
        lx = sx + (sw - tw) // 2
        self.group.append(widgets.rect(lx, ly, tw, lh + 4, widgets.FILL_ON))
        self.count = self.add_text("won", lx + tw // 2, ly + (lh + 4) // 2, scale=ts,
                                   anchor=(0.5, 0.5))
        ly += lh + 8
        self.group.append(widgets.rect(lx, ly, tw, lh + 4, widgets.GOLD))
        self.group.append(widgets.rect(lx + 2, ly + 2, tw - 4, lh, widgets.FILL))
        self.add_text("today", lx + tw // 2, ly + (lh + 4) // 2, scale=ts, anchor=(0.5, 0.5))
        ly += lh + 8
        # The day whose game is saved unfinished wears a white bar: tapping it continues
        # that game, tapping another day would first ask whether to give it up.
        self.bar_h = max(3, ch // 9)
        self.group.append(widgets.rect(lx, ly, tw, lh + 6 + self.bar_h, widgets.FILL))
        self.group.append(widgets.rect(lx + 3, ly + lh + 4, tw - 6, self.bar_h, widgets.FG))
        self.add_text("started", lx + tw // 2, ly + 2 + lh // 2, scale=ts, anchor=(0.5, 0.5))
        self.bar = widgets.rect(0, 0, cw - 9, self.bar_h, widgets.FG)
        self.bar.hidden = True
        self.group.append(self.bar)
        self.started = -1  # the index of the day saved unfinished, or -1
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
            i = dates.day_number(y, m, d) - cal.first
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
