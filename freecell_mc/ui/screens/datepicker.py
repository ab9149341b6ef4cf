# SPDX-License-Identifier: MIT
"""The date picker: asked once when the clock was reset, it sets today's date.

It starts from the last date the game knew (a day or a week off at most, usually),
so a few taps on + reach today.
"""

from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W
from freecell_mc.compat import const
from freecell_mc.ui.screens import models

_OK = const(1)
_SKIP = const(2)
_PLUS = const(10)  # 10 + field: year, month, day up
_MINUS = const(20)  # 20 + field: down

# Where a board that knows no date starts: this source's date, or the date of the commit
# its image was built from (tools/bundle.py writes it here): never after today.
DEFAULT_DATE = (2026, 12, 3)
_NOTE_START = "The clock was reset. Free deals need no date."
_NOTE_DAILY = "The clock was reset; the daily needs the date."
# When a running clock is far ahead of the last date the player confirmed (Play.vouch_date).
_NOTE_CHECK = "The clock jumped far ahead. Is this today?"


class Screen(widgets.Screen):
    """The date picker screen."""

    name = "datepicker"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        ts = m.text_scale
        self.model = models.DateModel(*DEFAULT_DATE)
        self.then = "table"
        self.then_kw = {}
        self.check = False
        title = self.add_title("What is today's date?", 2)
        below = m.margin + m.line_h(title.scale) + 2
        # The note under the title wraps to the width; room is kept for the longest of the
        # notes it may show.
        self.cols = (w - 2 * m.margin) // (FONT_W * ts)
        lines = 1
        for note in (_NOTE_START, _NOTE_DAILY, _NOTE_CHECK):
            lines = max(lines, widgets.wrap(note, self.cols).count("\n") + 1)
        note_h = widgets.text_height("\n" * (lines - 1), ts) + m.gap
        # The two ways on, side by side, captioned as big as +/- (their captions wrapped to
        # half the width), so that the main actions never look smaller than the steps.
        inner = w - 2 * m.margin
        half = (inner - m.gap) // 2
        acts = widgets.caption("Free deals only", half, 2)
        act_h = max(m.target, widgets.button_height(acts, 2))
        by = h - m.margin - act_h
        # The fields: + over the value over - where the height holds it, else the value over
        # a row of - and +; then the date in words; the value's size, the date in words and
        # the note give way, in that order, where the height is short (the Pynt's).
        for cols, vs, words, with_note in ((True, 3, True, True), (False, 3, True, True),
                                           (False, 2, True, True), (False, 2, False, True),
                                           (False, 2, False, False)):
            top = below + (note_h if with_note else 0)
            vh = m.line_h(vs) + 4
            fields_h = vh + (2 * m.target if cols else m.target + m.gap)
            words_h = m.line_h() + m.gap if words else 0
            if top + fields_h + words_h + m.gap <= by:
                break
        self.note = self.add_text("", m.margin, below, scale=ts, color=widgets.DIM)
        self.note.group.hidden = not with_note
        # What the height leaves over goes to the +/- buttons.
        spare = by - m.gap - words_h - top - fields_h
        cw = (inner - 2 * m.gap) // 3
        self.values = []
        for f in range(3):
            x = m.margin + f * (cw + m.gap)
            if cols:
                ph = m.target + spare // 2
                self.add_button(_PLUS + f, x, top, cw, ph, "+", scale=2)
                self.values.append(self.add_text("", x + cw // 2, top + ph + vh // 2, scale=vs,
                                                 anchor=(0.5, 0.5)))
                self.add_button(_MINUS + f, x, top + ph + vh, cw, ph, "-", scale=2)
            else:
                ph = m.target + spare
                self.values.append(self.add_text("", x + cw // 2, top + vh // 2, scale=vs,
                                                 anchor=(0.5, 0.5)))
                bw = (cw - m.gap) // 2
                self.add_button(_MINUS + f, x, top + vh + m.gap, bw, ph, "-", scale=2)
                self.add_button(_PLUS + f, x + cw - bw, top + vh + m.gap, bw, ph, "+", scale=2)
        self.long = self.add_text("", w // 2, by - m.gap - m.line_h(), scale=ts,
                                  color=widgets.DIM, anchor=(0.5, 0.0))
        self.long.group.hidden = not words
        # Skipping is a button too: a player who only wants free deals need not set a
        # clock; the daily asks again when chosen.
        self.skip = self.add_button(_SKIP, m.margin, by, half, act_h, acts, scale=2)
        self.add_button(_OK, m.margin + half + m.gap, by, inner - half - m.gap, act_h,
                        widgets.caption("Set the date", half, 2), scale=2)

    def show(self, then="table", date=None, check=False, **kw):
        """Start from date (else the last date known, or the image's); then= is where OK leads.

        check: the clock runs, far ahead of the last confirmed date: the player confirms
        it (or sets the right one), or carries on without (Not now).
        """
        self.then = then
        self.then_kw = kw
        self.check = check
        if date is None:
            # The later of the last date the game knew and the image's: both were once
            # today, so the later is the nearer.
            date = max(self.app.saves.last_date or DEFAULT_DATE, DEFAULT_DATE)
        self.model.set(*date)
        if check:
            self.note.set(widgets.wrap(_NOTE_CHECK, self.cols))
            self.skip.set_text(widgets.caption("Not now", self.skip.w, 2))
        elif then == "table":
            self.note.set(widgets.wrap(_NOTE_START, self.cols))
            self.skip.set_text(widgets.caption("Free deals only", self.skip.w, 2))
        else:
            self.note.set(widgets.wrap(_NOTE_DAILY, self.cols))
            self.skip.set_text("Back")
        self._update()

    def _update(self):
        y, m, d = self.model.value()
        self.values[0].set(str(y))
        self.values[1].set(models.MONTHS[m - 1])
        self.values[2].set(str(d))
        self.long.set(models.date_text(y, m, d))

    def pressed(self, bid):
        """Step a field, or set the clock and carry on."""
        if _PLUS <= bid < _PLUS + 3:
            self.model.step(bid - _PLUS, 1)
            self._update()
        elif _MINUS <= bid < _MINUS + 3:
            self.model.step(bid - _MINUS, -1)
            self._update()
        elif bid == _OK:
            self.confirm()
        elif bid == _SKIP:
            self.skip_date()

    def skip_date(self):
        """Leave the clock unset: free deals at the start, else back to the menu."""
        if self.check:
            self.app.continue_game()  # the clock stays as it is, unconfirmed
        elif self.then == "table":
            self.app.skip_date()
        else:
            self.app.goto("menu")

    def confirm(self):
        """Set the clock to the chosen date and go where the picker was asked from."""
        app = self.app
        y, m, d = self.model.value()
        app.set_today(y, m, d)
        then = self.then
        if then == "table":
            app.continue_game()
        else:
            app.goto(then, **self.then_kw)

    def key(self, k):
        """Enter sets the date; Esc skips it as the Skip button does."""
        if k == "enter":
            self.confirm()
        elif k == "esc" or k == "back":
            self.skip_date()
