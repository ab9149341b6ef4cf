# SPDX-License-Identifier: MIT
"""The question before a game in progress is given up: play the other deal, continue, or back.

Nothing the player has begun vanishes without their choosing it: Replay, New deal, a deal
code or another day of the daily all come here first when they would replace an
unfinished game. Every choice is a button; in the simulator Enter answers yes and Esc
goes back.
"""

from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W
from freecell_mc.compat import const

_YES = const(1)
_KEEP = const(2)
_BACK = const(3)


def _caption_scale(text, w, h, least):
    """Return the largest scale (2 at most, least at fewest) at which text fits a w x h button."""
    s = max(2, least)
    while s > least:
        c = widgets.caption(text, w, s)
        if widgets.text_width(c, s) <= w - 6 and widgets.text_height(c, s) <= h - 4:
            return s
        s -= 1
    return least


class Screen(widgets.Screen):
    """The confirmation screen."""

    name = "confirm"

    def __init__(self, app):
        super().__init__(app)
        self.text = None
        self.yes = self.keep = self.back = None

    def show(self, text="", yes="", keep="", back=True, short="", **kw):
        """Say what would be lost and name the choices (back: offer a way back besides).

        short says the same in fewer words, for a screen that cannot hold text at the text
        size (the Pynt's).
        """
        if self.text is not None:
            # Asked again on the same screen: laid out anew for the new words.
            g = self.group
            while len(g) > 1:  # all but the background
                g.pop()
            self.buttons = []
        m = self.m
        w = self.width
        h = self.height
        ts = m.text_scale
        cols = (w - 2 * m.margin) // (FONT_W * ts)
        short = short or text
        # Stacked full-width rows: the captions name deals and read in one line each. Where
        # the question does not fit above them at the text size, it is said in fewer words;
        # then Back moves up into the title's row; then the gaps thin (the Pynt's panel).
        found = None
        for words, back_row, gap in ((text, True, m.gap), (short, True, m.gap),
                                     (text, False, m.gap), (short, False, m.gap),
                                     (short, False, 2)):
            # The rows stay where they are whether Back shows or not (a third row, hidden).
            n = 3 if back_row else 2
            # Half a line of space under the title, so it reads as the question's heading.
            top = (m.below_title + m.line_h() // 2 if back_row
                   else m.margin // 2 + m.target + gap)
            lines = widgets.wrap(words, cols)
            # The buttons as tall as the screen's usual ones where the question leaves room.
            for bh in (m.button_h, m.target):
                y = h - m.margin - n * bh - (n - 1) * gap
                if widgets.text_height(lines, ts) <= y - gap - top:
                    found = (lines, back_row, gap, n, top, y, bh)
                    break
            if found is not None:
                break
        if found is None:
            found = (lines, back_row, gap, n, top, y, bh)  # the shortest words, measured
        lines, back_row, gap, n, top, y, bh = found
        self.add_title("Unfinished game")
        self.text = self.add_text(lines, m.margin, top, scale=ts, color=widgets.FG)
        bw = w - 2 * m.margin
        # One size for both captions: the largest both fit.
        sc = min(_caption_scale(yes, bw, bh, ts), _caption_scale(keep, bw, bh, ts))
        self.yes = self.add_button(_YES, m.margin, y, bw, bh, widgets.caption(yes, bw, sc),
                                   scale=sc)
        self.keep = self.add_button(_KEEP, m.margin, y + bh + gap, bw, bh,
                                    widgets.caption(keep, bw, sc), scale=sc)
        if back_row:
            self.back = self.add_button(_BACK, m.margin, y + 2 * (bh + gap), bw, bh, "Back")
        else:
            tw = max(m.target, widgets.text_width("Back", 2) + 8)
            self.back = self.add_button(_BACK, w - m.margin - tw, m.margin // 2, tw, m.target,
                                        "Back")
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
