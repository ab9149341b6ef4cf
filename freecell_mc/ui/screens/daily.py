# SPDX-License-Identifier: MIT
"""The daily challenge: a calendar of the last 30 days, every day open, won days marked.

There is deliberately no streak: a missed day costs nothing and every day of the
last 30 can be played at any time.
"""

import displayio
import terminalio

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.rules import deals
from freecell_mc.saves.record import SLOT_DAILY, unfinished
from freecell_mc.ui import widgets
from freecell_mc.ui.screens import models

_BACK = const(1)
_TODAY = const(2)
_PAGE = const(3)


def digits(art, text, cx, cy):
    """Return a TileGrid of the move counter's digits (art: cardart.CardArt) showing text.

    text holds digits only; the grid is centred on (cx, cy). One TileGrid, its tiles
    inline for up to 4 digits: a fraction of a Text (docs/memory.md has a Text's bytes).
    """
    n = len(text)
    tg = displayio.TileGrid(art.digits, pixel_shader=art.digit_palette, width=n, height=1,
                            tile_width=art.digit_w, tile_height=art.digit_h,
                            x=cx - n * art.digit_w // 2, y=cy - art.digit_h // 2)
    for k in range(n):
        tg[k] = ord(text[k]) - 48
    return tg


def glyph_row(texts, x0, y, pitch, scale, color):
    """Return a Group of short texts, one centred every pitch pixels from x0, at y.

    Each text is one TileGrid of the built-in font's glyphs and all share one palette, in
    a Group that scales them: a TileGrid a text, not a Text's group, grids and palette
    (the calendar's weekday heads; docs/memory.md has a Text's bytes). A text of at most
    4 characters keeps its tiles inline.
    """
    font = terminalio.FONT
    p = widgets.glyph_palette(color)
    g = displayio.Group(scale=scale)
    for i in range(len(texts)):
        g.append(widgets.glyph_tiles(font, p, texts[i], x0 + i * pitch + pitch // 2, y, scale))
    return g


def cell_sheet(tw, th, frame):
    """Return a Bitmap of three tw x th tiles: blank, a framed cell, a cell in a gold frame.

    Values: 0 clear (the tile's last column and row too: the gap to the next cell), 1 the
    frame, frame pixels wide, 2 the fill, 3 the gold frame; the palette gives the colours.
    """
    w = 3 * tw
    bm = displayio.Bitmap(w, th, 4)
    for t in (1, 2):
        edge = 2 * t - 1
        x0 = t * tw
        for y in range(th - 1):
            row = y * w + x0
            inner = frame <= y < th - 1 - frame
            # Indexed flat: bm[x, y] would make a tuple of garbage a pixel.
            for x in range(tw - 1):
                bm[row + x] = 2 if inner and frame <= x < tw - 1 - frame else edge
    return bm


class Screen(widgets.Screen):
    """The daily calendar screen."""

    name = "daily"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        w = self.width
        h = self.height
        y, mo, d = app.clock.today()
        ts = m.text_scale
        lh = m.line_h()
        self.gx = gx = m.margin // 2
        # The side column gives up width where seven days a finger wide need it (the
        # PyPortal's: 62 px, not 68), never less than its title needs.
        side = max(min(w * 68 // 320, w - gx - m.gap - 7 * (m.target + 1)),
                   widgets.text_width("Daily", 2) + m.margin // 2)
        weeks = w - side - gx - m.gap >= 7 * (m.target + 1)
        if weeks:
            self.cal = cal = models.Calendar(y, mo, d)
            # The grid takes the full height so that even six weeks give finger-sized
            # cells; the title, legend and buttons stand in a column at the right.
            self.gy = gy = lh + 4
            cw = (w - side - gx - m.gap) // 7
            ch = (h - gy - m.margin // 2) // cal.rows
            # The cells are tiles of one small sheet (_build_days), drawn at full size
            # where it stays within 1.5 KB (320x240), else at half size and shown at twice
            # that (480x320): a cell's size is even then and the gap between two cells 2
            # pixels. One large block is what a fragmented heap fails to find first: the
            # full-size sheet of 480x320, 2,280 bytes, failed at heaps that held 30 KB free
            # in pieces.
            self.zoom = z = 1 if 3 * cw * ch // 4 <= 1536 else 2
            self.cw = cw = cw - cw % z
            self.ch = ch = ch - ch % z
            self.page_rows = cal.rows
        else:
            # Seven days a finger wide do not fit across (the Pynt's dense panel): rows of
            # as many days as fit beside a column of buttons, under a row with the title
            # and Back, over a row with the legend; a page holds the rows that fit, and a
            # button turns to the other days. The cells are a finger and a pixel, drawn at
            # full size (1,728 bytes at 48 px): at half size they would be 50 px, even,
            # and a column fewer would fit.
            self.zoom = z = 1
            self.cw = self.ch = cw = ch = m.target + 1
            bw = max(m.target, widgets.text_width("Older", ts) + 8,
                     widgets.text_width("Today", ts) + 8)
            sx = w - gx - bw
            self.cal = cal = models.Calendar(y, mo, d, cols=(sx - m.gap - gx) // cw)
            self.gy = gy = m.margin // 2 + m.target + m.gap
            room = h - m.margin // 2 - gy - m.gap - (lh + 6 + max(3, ch // 9))
            self.page_rows = min(cal.rows, room // ch)
        # The page shown: its first row (the newest rows first).
        self.first_row = cal.rows - self.page_rows
        if weeks:
            self.group.append(glyph_row(models.WEEKDAYS, gx, 1, cw, ts, widgets.DIM))
        self._build_days(art=app.art)
        # The legend's words wear the marks themselves (a green field, a gold frame, a white
        # bar), so it is no wider than "started" even at a big text scale. The green field
        # counts the days won too ("8 won"): a line of its own ran under the Today button
        # where the months take two lines ("Nov-Dec" over "2026" at 480x320).
        tw = widgets.text_width("started", ts) + 8
        if weeks:
            # Down the side column, under the title and the months.
            sx = w - side
            sw = side - m.margin // 2
            self.add_text("Daily", sx + sw // 2, m.margin, scale=2, anchor=(0.5, 0.0))
            months = cal.months(0, cal.n - 1)
            if widgets.text_width(months, ts) > sw:
                months = cal.months(0, cal.n - 1, "\n")
            my = m.margin + 24 + m.gap
            self.months = self.add_text(months, sx + sw // 2, my, scale=ts,
                                        color=widgets.DIM, anchor=(0.5, 0.0))
            ly = my + lh * (months.count("\n") + 1) + 4 * months.count("\n") + m.gap
            lx = sx + (sw - tw) // 2
            dx = 0
            dy = lh + 8
        else:
            # Across the row under the grid; the months of the page shown beside the title
            # (the days stand alone in their cells, with no room for "1 Nov").
            self.title = self.add_title("Daily")
            mx = m.margin + widgets.text_width("Daily ", m.title_scale)
            self.months = self.add_text("", mx, m.margin, scale=ts, color=widgets.DIM)
            self.months_x = (mx, w - gx - bw - m.gap)  # where they start, where Back does
            lx = m.margin
            ly = gy + self.page_rows * ch - 1 + m.gap
            dx = tw + m.gap
            dy = 0
        # The day whose game is saved unfinished wears a white bar: tapping it continues
        # that game, tapping another day would first ask whether to give it up.
        self.bar_h = max(3, ch // 9)
        if weeks:
            self.group.append(widgets.rect(lx, ly, tw, lh + 4, widgets.FILL_ON))
            self.count = self.add_text("won", lx + tw // 2, ly + (lh + 4) // 2, scale=ts,
                                       anchor=(0.5, 0.5))
            lx += dx
            ly += dy
            self.group.append(widgets.rect(lx, ly, tw, lh + 4, widgets.GOLD))
            self.group.append(widgets.rect(lx + 2, ly + 2, tw - 4, lh, widgets.FILL))
            self.add_text("today", lx + tw // 2, ly + (lh + 4) // 2, scale=ts,
                          anchor=(0.5, 0.5))
            lx += dx
            ly += dy
            self.group.append(widgets.rect(lx, ly, tw, lh + 6 + self.bar_h, widgets.FILL))
            self.group.append(widgets.rect(lx + 3, ly + lh + 4, tw - 6, self.bar_h,
                                           widgets.FG))
            self.add_text("started", lx + tw // 2, ly + 2 + lh // 2, scale=ts,
                          anchor=(0.5, 0.5))
        else:
            # In a row under the grid, words wearing the marks looked like buttons (and a
            # tap did nothing): there each mark is a small cell, its word beside it, as a
            # legend reads. "30 won" is the widest count.
            sq = lh
            self.group.append(widgets.rect(lx, ly, sq, sq, widgets.FILL_ON))
            self.count = self.add_text("won", lx + sq + 4, ly + sq // 2, scale=ts,
                                       anchor=(0.0, 0.5))
            lx += sq + 4 + widgets.text_width("30 won", ts) + m.gap
            self.group.append(widgets.rect(lx, ly, sq, sq, widgets.GOLD))
            self.group.append(widgets.rect(lx + 2, ly + 2, sq - 4, sq - 4, widgets.FILL))
            self.add_text("today", lx + sq + 4, ly + sq // 2, scale=ts, anchor=(0.0, 0.5))
            lx += sq + 4 + widgets.text_width("today", ts) + m.gap
            self.group.append(widgets.rect(lx, ly, sq, sq, widgets.FILL))
            self.group.append(widgets.rect(lx + 2, ly + sq - 5, sq - 4, 3, widgets.FG))
            self.add_text("started", lx + sq + 4, ly + sq // 2, scale=ts, anchor=(0.0, 0.5))
        self.bar = widgets.rect(0, 0, cw - z - 8, self.bar_h, widgets.FG)
        self.bar.hidden = True
        self.group.append(self.bar)
        self.started = -1  # the index of the day saved unfinished, or -1
        self.page = None
        if weeks:
            bh = m.button_h
            # One caption size for both, the one "Today" fits (the PyPortal's 1, where
            # "Back" alone would be 2).
            s = widgets.fit_scale("Today", sw - 6, bh - 4)
            self.add_button(_TODAY, sx, h - m.margin - 2 * bh - m.gap, sw, bh, "Today", scale=s)
            self.add_button(_BACK, sx, h - m.margin - bh, sw, bh, "Back", scale=s)
        else:
            bh = m.target
            self.add_button(_BACK, sx, m.margin // 2, bw, bh, "Back")
            self.add_button(_TODAY, sx, gy, bw, bh, "Today")
            if self.first_row > 0:
                self.page = self.add_button(_PAGE, sx, gy + bh + m.gap, bw, bh, "Older")

    def _build_days(self, art):
        """Draw the 30 days: two grids of cell tiles and every day's number.

        Every cell is a tile of one small sheet: blank, a day, today in a gold frame. The
        days not won are tiles of the blue grid, the won ones of the green: a day's colour
        is which grid holds its tile. Where 30 buttons took a Python object, a group and
        two shapes each (some 16 KB), the grids take under 2 KB.
        """
        cal = self.cal
        cw = self.cw
        ch = self.ch
        z = self.zoom
        ts = self.m.text_scale
        sheet = cell_sheet(cw // z, ch // z, 2 // z)
        cells = displayio.Group(scale=z, x=self.gx, y=self.gy)
        self.grids = []
        for fill in (widgets.FILL, widgets.FILL_ON):
            p = displayio.Palette(4)
            p.make_transparent(0)
            p[1] = widgets.BORDER
            p[2] = fill
            p[3] = widgets.GOLD
            g = displayio.TileGrid(sheet, pixel_shader=p, width=cal.cols,
                                   height=self.page_rows, tile_width=cw // z,
                                   tile_height=ch // z)
            self.grids.append(g)
            cells.append(g)
        self.group.append(cells)
        self.won = bytearray(cal.n)  # 1 for a day drawn won
        # The day numbers are the move counter's digit tiles of the card art the App keeps
        # (about 100 bytes a day); a day with its month, or a calendar tried without the
        # art, is a Text.
        self.labels = labels = displayio.Group()
        for i in range(cal.n):
            r, c = cal.cell(i)
            text = cal.label(i)
            # Where the page shown puts it; turning the page moves it.
            r -= self.first_row
            cx = self.gx + c * cw + (cw - z) // 2
            cy = self.gy + r * ch + (ch - z) // 2
            # "1 Nov" where a month begins; in a narrow cell the month goes under the day,
            # two lines of text, else under the day's digits (their inks closer than two
            # lines: the Titano's), and where neither fits the day stands alone and the
            # months are named beside the grid.
            if widgets.text_width(text, ts) > cw - z - 6:
                if (12 + 15) * ts <= ch - z - 4:
                    text = text.replace(" ", "\n")
                else:
                    text, _, month = text.partition(" ")
                    # The digits' ink, a gap, the month's ink (rows 2..9 of the font's 12,
                    # to 11 with a descender: May, Aug, Sep), a pixel of fill inside the
                    # 2-pixel frame above and below.
                    low = 2 if "g" in month or "p" in month or "y" in month else 0
                    block = 0 if art is None else art.digit_h + (10 + low) * ts
                    if art is not None and block + 6 <= ch - z:
                        top = cy - block // 2
                        label = displayio.Group()
                        label.append(digits(art, text, cx, top + art.digit_h // 2))
                        label.append(widgets.Text(month, cx, top + art.digit_h + 6 * ts,
                                                  scale=ts, anchor=(0.5, 0.5)).group)
                        label.hidden = not 0 <= r < self.page_rows
                        labels.append(label)
                        continue
            if art is not None and text.isdigit() and len(text) * art.digit_w <= cw - z - 6:
                label = digits(art, text, cx, cy)
            else:
                s = max(ts, widgets.fit_scale(text, cw - z - 6, ch - z - 4))
                label = widgets.Text(text, cx, cy, scale=s, anchor=(0.5, 0.5)).group
            label.hidden = not 0 <= r < self.page_rows
            labels.append(label)
        self.group.append(labels)

    def day_box(self, i):
        """Return (x, y, w, h) of day i's cell, its frame included (the gap after it not), or
        None when the page shown does not hold it."""
        r, c = self.cal.cell(i)
        r -= self.first_row
        if not 0 <= r < self.page_rows:
            return None
        z = self.zoom
        return (self.gx + c * self.cw, self.gy + r * self.ch, self.cw - z, self.ch - z)

    def day_at(self, x, y):
        """Return the day whose cell holds (x, y), or -1 (the gaps between cells hold none)."""
        x -= self.gx
        y -= self.gy
        cw = self.cw
        ch = self.ch
        z = self.zoom
        if x < 0 or y < 0 or x % cw >= cw - z or y % ch >= ch - z:
            return -1
        c = x // cw
        r = y // ch
        if c >= self.cal.cols or r >= self.page_rows:
            return -1
        return self.cal.index_at(self.first_row + r, c)

    def _paint(self, i):
        """Put day i's tile into the grid of its colour, blank in the other (if shown)."""
        r, c = self.cal.cell(i)
        r -= self.first_row
        if not 0 <= r < self.page_rows:
            return
        k = r * self.cal.cols + c
        tile = 2 if i == self.cal.n - 1 else 1  # today wears the gold frame
        won = self.won[i]
        self.grids[0][k] = 0 if won else tile
        self.grids[1][k] = tile if won else 0

    def _show_page(self):
        """Paint the days of the page shown, name its months, and mark the started day."""
        cal = self.cal
        for g in self.grids:
            for k in range(cal.cols * self.page_rows):
                g[k] = 0
        for i in range(cal.n):
            self._paint(i)
        if cal.cols != 7:
            first, last = cal.span(self.first_row, self.page_rows)
            text = cal.months(first, last)
            # Months with two years ("Dec 2026 - Jan 2027") may need the title's room too:
            # then they stand alone where it stood.
            mx, end = self.months_x
            alone = mx + widgets.text_width(text, self.months.scale) > end
            self.title.group.hidden = alone
            self.months.move(self.m.margin if alone else mx, self.m.margin)
            self.months.set(text)
        if self.page is not None:
            self.page.set_text("Older" if self.first_row > 0 else "Newer")
        box = self.day_box(self.started) if self.started >= 0 else None
        if box is not None:
            self.bar.x = box[0] + 4
            self.bar.y = box[1] + box[3] - self.bar_h - 4
        self.bar.hidden = box is None

    def show(self, **kw):
        """Mark the won days and the day saved unfinished."""
        stats = self.app.saves.stats
        cal = self.cal
        won = 0
        for i in range(cal.n):
            y, m, d = cal.date(i)
            self.won[i] = 1 if stats.day_won(y, m, d) else 0
            won += self.won[i]
        self.count.set(str(won) + " won")
        self.started = -1
        s = self.app.saves.slot(SLOT_DAILY)
        if s is not None and s.kind == deals.KIND_DAILY and unfinished(s.moves, s.flags):
            y, m, d = deals.daily_date(s.number)
            i = dates.day_number(y, m, d) - cal.first
            if 0 <= i < cal.n:
                self.started = i
        self._show_page()

    def tap(self, x, y):
        """Play the tapped day; Today and Back as buttons."""
        i = self.day_at(x, y)
        if i < 0:
            super().tap(x, y)
            return
        app = self.app  # play() may leave this screen, and close() drops self.app
        self.play(i)
        app.dirty = True

    def pressed(self, bid):
        """Play today, turn the page, or go back."""
        if bid == _BACK:
            self.leave()
        elif bid == _TODAY:
            self.play(self.cal.n - 1)
        elif bid == _PAGE:
            # The older page, or from the oldest the newest again; its days' numbers move
            # with it. (Here, not in a helper: a frame more under the captions it sets.)
            cal = self.cal
            old = self.first_row
            self.first_row = new = max(0, old - self.page_rows) if old > 0 else (
                cal.rows - self.page_rows)
            labels = self.labels
            for i in range(cal.n):
                label = labels[i]
                label.y += (old - new) * self.ch
                r = cal.cell(i)[0] - new
                label.hidden = not 0 <= r < self.page_rows
            self._show_page()

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
