# SPDX-License-Identifier: MIT
"""The menu: continue, new deal, replay, daily, enter a code, statistics, settings."""

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.rules import deals
from freecell_mc.ui import widgets
from freecell_mc.ui.screens import models

_CONTINUE = const(1)
_NEW = const(2)
_REPLAY = const(3)
_DAILY = const(4)
_CODE = const(5)
_STATS = const(6)
_SETTINGS = const(7)
_OTHER = const(8)

_LABELS = (
    (_CONTINUE, "Continue"),
    (_NEW, "New deal"),
    (_REPLAY, "Replay"),
    (_DAILY, "Daily deal"),
    (_CODE, "Enter code"),
    (_STATS, "Statistics"),
    (_SETTINGS, "Settings"),
)


def deal_line(kind, number, code):
    """Return the line that names the current deal under the title."""
    if kind == deals.KIND_DAILY:
        what = "Daily " + models.iso(*models.daily_date(number))
    elif kind == deals.KIND_MS:
        what = "Microsoft #" + str(number)
    else:
        what = "Free deal"
    return what + "   code " + code


class Screen(widgets.Screen):
    """The menu screen."""

    name = "menu"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        self.add_title("FreeCell MC")
        ts = m.text_scale
        self.deal = self.add_text("", m.margin, m.below_title, scale=ts, color=widgets.DIM)
        top = m.below_title + m.line_h() + m.gap
        h = self.height - top - m.margin
        w = self.width - 2 * m.margin
        rows = 4
        # Continue gets the whole first row: it is what the player wants most often. When
        # the other slot (free deal or daily deal) holds a game, the row offers both, so a
        # game left half-played for the other is never out of reach. Each names its deal,
        # so "continue" is never mistaken for "start".
        kind, number, cells, code = app.current_deal()
        self.other = app.other_slot_saved()
        cols = 1 if self.other is None else 2
        x, y, cw, ch = widgets.grid_cell(0, cols, m.margin, top, w, h, m.gap, rows)
        # Side by side, each caption takes two lines ("Continue" over the deal) and the
        # pair reads at one size, the size the longer caption allows.
        sep = " " if self.other is None else "\n"
        here = models.continue_label(kind, number, sep)
        scale = widgets.fit_scale(here, cw - 6, ch - 4)
        if self.other is not None:
            okind, onumber = app.other_deal()
            there = models.continue_label(okind, onumber, sep)
            scale = min(scale, widgets.fit_scale(there, cw - 6, ch - 4))
        self.add_button(_CONTINUE, x, y, cw, ch, here, scale=scale)
        if self.other is not None:
            x, y, cw, ch = widgets.grid_cell(1, 2, m.margin, top, w, h, m.gap, rows)
            self.add_button(_OTHER, x, y, cw, ch, there, scale=scale)
        for i in range(1, len(_LABELS)):
            bid, text = _LABELS[i]
            x, y, cw, ch = widgets.grid_cell(i + 1, 2, m.margin, top, w, h, m.gap, rows)
            self.add_button(bid, x, y, cw, ch, text)

    def show(self, **kw):
        """Name the current deal."""
        kind, number, cells, code = self.app.current_deal()
        self.deal.set(deal_line(kind, number, code))

    def pressed(self, bid):
        """Act on a menu button."""
        app = self.app
        if bid == _CONTINUE:
            app.continue_game()
        elif bid == _OTHER:
            app.switch_slot(self.other)
        elif bid == _NEW:
            app.new_deal()
        elif bid == _REPLAY:
            app.replay()
        elif bid == _DAILY:
            # The daily deal is the date's: an unset clock asks for the date first.
            if dates.plausible(app.clock.today()[0]):
                app.goto("daily")
            else:
                app.goto("datepicker", then="daily")
        elif bid == _CODE:
            app.goto("keypad")
        elif bid == _STATS:
            app.goto("stats")
        elif bid == _SETTINGS:
            app.goto("settings")

    def key(self, k):
        """Esc and Enter go back to the table; N, R and D act as on the table."""
        if k == "esc" or k == "back" or k == "enter":
            self.pressed(_CONTINUE)
        elif k == "n":
            self.pressed(_NEW)
        elif k == "r":
            self.pressed(_REPLAY)
        elif k == "d":
            self.pressed(_DAILY)
