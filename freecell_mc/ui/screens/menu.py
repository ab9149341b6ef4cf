# SPDX-License-Identifier: MIT
"""The menu: continue, new deal, replay, daily, enter a code, statistics, settings, how to
play."""

from freecell_mc import dates
from freecell_mc.compat import const
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
_MORE = const(9)  # to the second page, where the height holds fewer rows than the menu has
_PAGE_BACK = const(10)
_HOWTO = const(11)

_LABELS = (
    (_NEW, "New deal"),
    (_REPLAY, "Replay"),
    (_DAILY, "Daily deal"),
    (_CODE, "Enter code"),
    (_STATS, "Statistics"),
    (_SETTINGS, "Settings"),
    (_HOWTO, "How to play"),
)
_FIRST_PAGE = const(3)  # the labels the first of two pages keeps, beside More


def deal_line(kind, number, code):
    """Return the line that names the current deal under the title."""
    return models.deal_title(kind, number) + "   code " + code


class Screen(widgets.Screen):
    """The menu screen."""

    name = "menu"

    def __init__(self, app):
        super().__init__(app)
        self.other = app.other_slot_saved()
        self.page = 0
        self.deal = None

    def show(self, page=0, **kw):
        """Lay out the page of the menu (0, or 1 where it takes two) and name the deal."""
        m = self.m
        app = self.app
        ts = m.text_scale
        w = self.width - 2 * m.margin
        half = (w - m.gap) // 2
        # Continue comes first: it is what the player wants most often. When the other slot
        # (free deal or daily deal) holds a game, both are offered, so a game left
        # half-played for the other is never out of reach. Each names its deal, so
        # "continue" is never mistaken for "start". Side by side they take two lines each,
        # where both fit half a row so; else a row each. The game on the table is always
        # offered, begun or not (a deal just typed in too); a won one is its result, which
        # Esc returns to.
        kind, number, cells, code = app.current_deal()
        conts = []
        if not app.game.won():
            conts.append((_CONTINUE, models.continue_label(kind, number)))
        if self.other is not None:
            okind, onumber = app.other_deal()
            conts.append((_OTHER, models.continue_label(okind, onumber)))
        rows = []
        two = [(b, t.replace(" ", "\n", 1)) for b, t in conts]
        if len(two) == 2 and all(widgets.text_width(t, ts) <= half - 6 for b, t in two):
            rows.append(two)
        else:
            rows += [[c] for c in conts]
        head = deal_line(kind, number, code)
        if widgets.text_width(head, ts) > w:
            # The Pynt's 320 px hold 26 characters at 1.6 mm, and no second line fits its
            # page: the name and the code one space apart (the longest, "Deal #1000000
            # 34-1000000-5", 312 px, with 4 px either side).
            head = models.deal_title(kind, number) + " " + code
        # Everything on one page under the title where the height holds it; else without
        # the title; else on two pages, the first with More, the second with Back.
        labels = list(_LABELS)
        pages = (rows + _pairs(labels),
                 rows + _pairs(labels[:_FIRST_PAGE] + [(_MORE, "More")]),
                 _pairs(labels[_FIRST_PAGE:] + [(_PAGE_BACK, "Back")]))
        largest = max(2, ts)
        for title, chosen in ((True, pages[0]), (False, pages[0]), (False, pages[1 + page])):
            # The Continue captions as big as the other buttons' where their row can grow.
            for cs in range(largest, ts - 1, -1):
                heights = self._fits(chosen, title, cs)
                if heights is not None:
                    break
            if heights is not None:
                break
        self.page = page if chosen is not pages[0] else 0
        y = m.margin
        if title:
            self.add_title("FreeCell MC")
            y = m.below_title
        x = min(m.margin, (self.width - widgets.text_width(head, ts)) // 2)
        self.deal = self.add_text(head, x, y, scale=ts, color=widgets.DIM)
        y += m.line_h() + m.gap
        # Captions as big as their buttons allow (up to twice the font), one size for the
        # Continue buttons and one for the rest, so that a row never mixes sizes.
        scales = {}
        for r in range(len(chosen)):
            row = chosen[r]
            cw = w if len(row) == 1 else half
            group = row[0][0] in (_CONTINUE, _OTHER)
            for _, text in row:
                fit = widgets.fit_scale(widgets.caption(text, cw, ts), cw - 6, heights[r] - 4,
                                        largest)
                scales[group] = min(scales.get(group, largest), max(ts, fit))
        for r in range(len(chosen)):
            row = chosen[r]
            cw = w if len(row) == 1 else half
            sc = scales[row[0][0] in (_CONTINUE, _OTHER)]
            for i in range(len(row)):
                bid, text = row[i]
                self.add_button(bid, m.margin + i * (half + m.gap), y, cw, heights[r],
                                widgets.caption(text, cw, sc), scale=sc)
            y += heights[r] + m.gap

    def _fits(self, rows, title, cs):
        """Return the heights of rows filling the screen under the header (None: they do not fit).

        The Continue captions are at scale cs, the others at the text scale.
        """
        m = self.m
        ts = m.text_scale
        top = (m.below_title if title else m.margin) + m.line_h() + m.gap
        room = self.height - m.margin - top - m.gap * (len(rows) - 1)
        w = self.width - 2 * m.margin
        need = []
        for row in rows:
            cw = w if len(row) == 1 else (w - m.gap) // 2
            h = m.target
            for bid, text in row:
                sc = cs if bid in (_CONTINUE, _OTHER) else ts
                if widgets.text_width(widgets.caption(text, cw, sc), sc) > cw - 6:
                    return None  # a word wider than the button
                h = max(h, widgets.button_height(widgets.caption(text, cw, sc), sc))
            need.append(h)
        spare = room - sum(need)
        if spare < 0:
            return None
        # What is left is shared out, so the buttons are as big as the screen allows.
        return [h + spare // len(rows) for h in need]

    def pressed(self, bid):
        """Act on a menu button."""
        app = self.app
        if bid == _MORE:
            app.goto("menu", page=1)
        elif bid == _PAGE_BACK:
            app.goto("menu")
        elif bid == _CONTINUE:
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
        elif bid == _HOWTO:
            app.goto("howto")

    def key(self, k):
        """Esc and Enter go back to the table (Esc from a second page to the first); N, R, D act."""
        if self.page and (k == "esc" or k == "back"):
            self.pressed(_PAGE_BACK)
        elif k == "esc" or k == "back" or k == "enter":
            self.pressed(_CONTINUE)
        elif k == "n":
            self.pressed(_NEW)
        elif k == "r":
            self.pressed(_REPLAY)
        elif k == "d":
            self.pressed(_DAILY)


def _pairs(cells):
    """Return cells two to a row."""
    return [cells[i:i + 2] for i in range(0, len(cells), 2)]
