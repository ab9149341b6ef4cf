# SPDX-License-Identifier: MIT
"""How to play: the game's own manual, a page at a time, turned by Next, left by Back.

The words are a file on the drive, howto.txt at CIRCUITPY's top (the board image, the
release zips and the copy tool put it there), read a page at a time: a module of strings
would hold them all on the heap while the screen shows. A line that starts with "#" names
a topic, which starts a page; every other line is a paragraph, laid out word by word to
the panel's width at the text size (1.6 mm), its lines one font height apart as the
board's terminal draws them, in one TileGrid of glyph tiles. A topic longer than a page
goes on over the next ones; the title names the topic and the page of all of them.
"""

import displayio
import terminalio

from freecell_mc.compat import const
from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W

PATH = "howto.txt"  # on CIRCUITPY, beside code.py (the working folder on the board)
MISSING = "# How to play\nThe words are missing from the drive (howto.txt): copy the game again."

_BACK = const(1)
_NEXT = const(2)
_FONT_H = const(12)


def walk(lines, cols, rows, want=-1, grid=None):
    """Lay the lines out in pages of rows x cols; return (pages, the topic of page want).

    With grid (a TileGrid of cols x rows glyph tiles), page want's words are written into
    it, the rest of it blank. Words longer than cols are cut (the file has none).
    """
    page = -1
    row = rows
    col = 0
    topic = ""
    shown = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if line[0] == "#":
            topic = line[1:].strip()
            row = rows  # a topic starts a page
            col = 0
            continue
        if col:
            row += 1  # a paragraph starts a line
            col = 0
        for word in line.split():
            n = len(word)
            if col and col + 1 + n > cols:
                row += 1
                col = 0
            if row >= rows:
                page += 1
                row = 0
                col = 0
                if page == want:
                    shown = topic
                    if grid is not None:
                        for i in range(cols * rows):
                            grid[i] = 0  # a space
            elif col:
                col += 1
            if page == want and grid is not None:
                at = row * cols + col
                for i in range(min(n, cols - col)):
                    c = ord(word[i])
                    grid[at + i] = c - 0x20 if 0x20 < c < 0x7F else 0
            col += n
    return page + 1, shown


class Screen(widgets.Screen):
    """How to play."""

    name = "howto"

    def __init__(self, app):
        """Build the title, the page's grid of glyph tiles, and Back and Next."""
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        self.title = self.add_title("How to play")
        bh = m.button_h
        by = h - m.margin - bh
        half = (w - 2 * m.margin - m.gap) // 2
        self.add_button(_BACK, m.margin, by, half, bh, "Back", scale=m.text_scale)
        self.add_button(_NEXT, w - m.margin - half, by, half, bh, "Next", scale=m.text_scale)
        ts = m.text_scale
        top = m.below_title + m.gap
        self.cols = (w - 2 * m.margin) // (FONT_W * ts)
        self.rows = (by - m.gap - top) // (_FONT_H * ts)
        g = displayio.Group(scale=ts, x=m.margin, y=top)
        self.body = displayio.TileGrid(terminalio.FONT.bitmap,
                                       pixel_shader=widgets.glyph_palette(widgets.FG),
                                       width=self.cols, height=self.rows, tile_width=FONT_W,
                                       tile_height=_FONT_H)
        g.append(self.body)
        self.group.append(g)
        self.page = 0
        self.pages = 1

    def show(self, page=0, **kw):
        """Show page (0: the first, how to move a card)."""
        try:
            f = open(PATH)
        except OSError:
            f = None
        try:
            lines = f if f is not None else MISSING.split("\n")
            self.pages, topic = walk(lines, self.cols, self.rows, page, self.body)
        finally:
            if f is not None:
                f.close()
        self.page = page
        self.title.set("%s  %d/%d" % (topic, page + 1, self.pages))

    def pressed(self, bid):
        """Next turns the page (after the last, the first again); Back leaves."""
        if bid == _NEXT:
            self.show((self.page + 1) % self.pages)
        elif bid == _BACK:
            self.leave()

    def key(self, k):
        """Enter turns the page; Esc and Back leave."""
        if k == "enter":
            self.pressed(_NEXT)
        else:
            super().key(k)
