# SPDX-License-Identifier: MIT
"""A notice at start: what happened to the saved games, said once, calmly, with an OK.

The saves tell one message at most per start (Saves.load in saves/policy.py), sometimes in
two parts (a form feed between them); this screen shows it before anything else, a page at
a time, and the last OK goes on to where the start was going (the date picker, a won
game's result, or the table). A part longer than the room above OK (the Pynt's larger
button leaves four lines) takes as many whole sentences as fit, the rest on the next page;
the button says More until the last page, OK there.
"""

from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W
from freecell_mc.compat import const

_OK = const(1)


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
        self.cols = (w - 4 * m.margin) // (2 * FONT_W)
        top = m.below_title + m.line_h(2) // 2  # half a line under the title, as a heading
        self.body = self.add_text("", 2 * m.margin, top, scale=2)
        bw = w // 2
        bh = m.button_h
        ok_y = h - m.margin - bh
        self.ok = self.add_button(_OK, (w - bw) // 2, ok_y, bw, bh, "OK", scale=2)
        fit = 1  # how many lines fit between the top and a gap above OK
        while widgets.text_height("\n" * fit, 2) <= ok_y - m.gap - top:
            fit += 1
        self.fit = fit
        self.rest = ""  # the text still to show

    def show(self, text="", **kw):
        """Show text's first part, wrapped to the screen's width."""
        self.rest = text
        self._next()

    def _next(self):
        """Show the next page of the text; return False when none was left."""
        text = self.rest
        if not text:
            return False
        part, _, rest = text.partition("\f")
        shown, more = self._page(part)
        self.rest = more + "\f" + rest if more and rest else more or rest
        self.body.set(shown)
        # A page with more after it says so on its button (the Pynt's notices take two).
        self.ok.set_text("More" if self.rest else "OK")
        return True

    def _page(self, part):
        """Return part's first page, wrapped, and what is left of part for the next."""
        cut = len(part)
        while True:
            lines = widgets.wrap(part[:cut], self.cols)
            if lines.count("\n") < self.fit:
                return lines, part[cut:].strip()
            end = part.rfind(". ", 0, cut - 1)  # the sentence before: whole sentences a page
            if end < 0:
                break
            cut = end + 1
        # One sentence longer than a page: its first lines, the rest of it on the next.
        lines = widgets.wrap(part, self.cols).split("\n")
        return "\n".join(lines[:self.fit]), " ".join(lines[self.fit:])

    def pressed(self, bid):
        """Show the next part, or go on to the first screen of this start."""
        if bid == _OK and not self._next():
            self.app.first_screen()

    def key(self, k):
        """Enter, Esc and Back all mean OK: there is nothing else to choose."""
        if k == "enter" or k == "esc" or k == "back":
            self.pressed(_OK)
