# SPDX-License-Identifier: MIT
"""Geometry of the playing screen, computed from the display size and the panel's density.

The screen, left to right and top to bottom:

    top row     4 free cells, then the 4 foundations (clubs, diamonds, hearts, spades);
                cards here show their index and their big rank and suit (`top_rows` tile
                rows)
    columns     8 columns down to the bottom edge; a covered card shows its top `overlap`
                pixels (at least its index, rank and suit), the exposed card shows in full
    strip       at the right, the full height: the move counter at the top, the buttons
                Finish, Undo and Menu stacked at the bottom

unless a strip at the side would leave the columns narrower than _COLUMN_MM10 (the Pynt's
small dense panel): then the columns take the whole width, Undo and Menu stand at the
right of the top row, the four cells are as wide as that rule, the four foundations show
their small cards two by two in a block a held card takes as one place (their index:
the four in a row would leave no room), a dead gap either side of it, and the move
counter, Finish and the dead-end message stand in the felt beside the cards
(tableview.py).

A card is a 2 x CARD_ROWS grid of tiles (tile_w x tile_h pixels): the index (rank and
suit, capitals of at least 1.6 mm), a plain strip of face, and the big rank and suit over
two rows. The tile is as tall as the index needs and the card as tall as a finger: a
tap target even where it is the last of 19. Nineteen cards (the longest column FreeCell
can build) fit between the top row and the bottom edge; where their strips cannot hold
the full index (the Pynt's small panel, past 13 cards), the covered cards of that column
show a smaller one that still fits whole (`tight_h`), and a tap opens the column whole
at the full index (tableview.Strip, the lens). The strip is at the side, not under the
columns, because the screens are landscape: a strip as tall as a finger under the
columns would leave 19 cards less than one index row each.

Sizes a finger and an eye need are in millimetres on the panel (docs/layout.md): every tap
target at least 7 mm tall, every text at least 1.6 mm tall. The panel's density comes
from the board (panel_ppcm), in pixels per 10 mm so that it stays an int.
"""

from freecell_mc.compat import const
from freecell_mc.rules.engine import SLOT_CELL, SLOT_FOUND  # slots as the engine numbers them

CARD_ROWS = const(4)  # index, a plain strip of face, big rank/suit (2 rows, the lower one edged)
TOP_ROWS = const(3)  # the fewest rows a card in a cell shows: index and the big rank/suit
MAX_CARDS = const(19)  # longest column: a king in the last dealt row plus 12 more cards

# What hit() may return besides a slot number.
HIT_NONE = const(-1)
HIT_UNDO = const(16)
HIT_MENU = const(17)
HIT_FINISH = const(18)

# The heights of the glyph sets cardart draws ranks and suits in (5x7 and 5x8 with 1-pixel
# strokes, 7x10 and 7x11 with 2-pixel ones), smallest first.
GLYPH_HEIGHTS = (7, 8, 10, 11)

# Minimum sizes on the panel, in tenths of a millimetre: a fingertip hits a 7 mm target
# reliably, and 1.6 mm is the smallest capital letter that reads at arm's length.
TARGET_MM10 = const(70)
TEXT_MM10 = const(16)
# The narrowest column (its hit width) a strip at the side may leave; under it the buttons
# go into the top row and the columns take the whole width. No place is narrower.
_COLUMN_MM10 = const(55)
# The dead gap between the top row's neighbours where they are not a place apart (the
# foundations' block, the cells, Undo): a tap there does nothing.
_GAP_MM10 = const(8)
# Height of a capital letter of the board's terminal font (Terminus 6x12) at scale 1.
CAP_H = const(8)
FONT_W = const(6)

# Pixels per 10 mm of each panel, from its diagonal (Adafruit's product pages):
# PyPortal 3.2" and Pynt 2.4" at 320x240, Titano 3.5" at 480x320 (400 or 577 px diagonal).
PPCM_PYPORTAL = const(49)  # 400 px / 81.3 mm
PPCM_PYNT = const(66)  # 400 px / 61.0 mm
PPCM_TITANO = const(65)  # 577 px / 88.9 mm
# The boards the game is for, one entry each (a new board is one more line): the name the
# simulator, the tools and the benchmarks use, `board.board_id`, the panel's size in pixels
# and its density. The game itself reads only the last three by board_id.
BOARDS = (("pyportal", "pyportal", 320, 240, PPCM_PYPORTAL),
          ("pynt", "pyportal_pynt", 320, 240, PPCM_PYNT),
          ("titano", "pyportal_titano", 480, 320, PPCM_TITANO))


def panel_ppcm(board_id, width, height):
    """Return the pixels per 10 mm of the panel of board `board_id` (width x height).

    An unknown board is assumed to have the densest panel known at its size (the Pynt's
    at 320x240, the Titano's otherwise): targets then come out too big, never too small.
    """
    for _, name, _, _, ppcm in BOARDS:
        if name == board_id:
            return ppcm
    if height < 300:
        return PPCM_PYNT
    return PPCM_TITANO


def default_ppcm(width, height):
    """Return the density of the reference board of a size: PyPortal 320x240, Titano 480x320."""
    return PPCM_PYPORTAL if height < 300 else PPCM_TITANO


def app_ppcm(app):
    """Return the density of the panel an App runs on (its hardware's, else the size's)."""
    ppcm = getattr(getattr(app, "hw", None), "ppcm", 0)
    return ppcm or default_ppcm(app.width, app.height)


def mm_px(mm10, ppcm):
    """Return the pixels (rounded up) that mm10 tenths of a millimetre take on the panel."""
    return (mm10 * ppcm + 99) // 100


def text_scale(ppcm):
    """Return the smallest terminal-font scale whose capitals are at least 1.6 mm tall."""
    return (mm_px(TEXT_MM10, ppcm) + CAP_H - 1) // CAP_H


def _glyph_at_least(px):
    """Return the height of the smallest glyph set at least px tall (else the tallest)."""
    for gh in GLYPH_HEIGHTS:
        if gh >= px:
            return gh
    return GLYPH_HEIGHTS[-1]


class Layout:
    """Every position and size on the playing screen for one display size."""

    def __init__(self, width, height, cells=4, ppcm=0):
        """Compute the geometry for a width x height landscape panel of ppcm px per 10 mm."""
        self.width = width
        self.height = height
        self.cells = cells
        if not ppcm:
            ppcm = default_ppcm(width, height)
        self.ppcm = ppcm
        self.target = target = mm_px(TARGET_MM10, ppcm)
        self.text_px = mm_px(TEXT_MM10, ppcm)
        self.text_scale = ts = text_scale(ppcm)
        # Counter digits: cardart's 10-pixel glyphs, doubled when the panel needs more.
        self.digit_scale = 1 if self.text_px <= 10 else 2
        digits_w = 4 * (7 * self.digit_scale + 2)
        # The strip is as narrow as its contents allow, so that the columns get the rest of
        # the width (their hit width is the pitch): a target wide, four digits, and the
        # buttons edge to edge with "Finish" (the longest caption) a pixel inside the edge.
        strip = max(target, 6 * FONT_W * ts + 4, digits_w + 4)
        pitch = (width - strip) // 8
        # Undo and Menu a target wide at least, "Menu" a pixel inside (they have no edge).
        bw = max(target, 4 * FONT_W * ts + 2)
        place = mm_px(_COLUMN_MM10, ppcm)
        self.found_x = 0  # the foundations' block (0: none, they stand in the top row)
        if pitch < place:
            # Too narrow for a finger: no strip, the columns take the whole width, and the
            # top row holds the buttons at its right. Eight places that wide and the two
            # buttons do not fit across (the Pynt: 8 x 37 + 2 x 50 px > 320): the cells
            # keep a place each, the foundations' small cards stand two by two in a block
            # between dead gaps, and the card is as wide as two of them side by side allow.
            pitch = width // 8
            dead = mm_px(_GAP_MM10, ppcm)
            self.top_pitch = place
            self.tile_w = (width - 4 * place - 2 * bw - 2 - 2 * dead - 2) // 4
            self.status_x = width
            self.found_x = 4 * place + dead  # the block: two cards and a gap of 2 wide
        else:
            gap = 2 if pitch < 50 else 4
            self.tile_w = (pitch - gap) // 2
            self.top_pitch = pitch
            self.status_x = 8 * pitch  # the strip takes the pixels the 8 columns leave
        self.status_w = width - self.status_x
        self.card_w = 2 * self.tile_w
        self.pitch = pitch
        self.gap = pitch - self.card_w
        self.x0 = self.gap // 2
        self.top_x = self.x0 if self.status_w else (place - self.card_w) // 2
        # The index: the smallest glyph set whose capitals reach 1.6 mm, under a 1-pixel
        # border; the card, CARD_ROWS tiles, at least a finger tall.
        self.index_h = ih = _glyph_at_least(self.text_px)
        self.tile_h = th = max(ih + 1, (target + CARD_ROWS - 1) // CARD_ROWS)
        self.card_h = CARD_ROWS * th
        # The big rank and suit, doubled, need a tile wide enough for a doubled "10" (10 px
        # in the 7x10 set) and two rows tall enough for it above the bottom border.
        self.big_h = 10 if self.tile_w >= 22 and 2 * th >= 22 else 7
        self.top_y = 1
        # Cells and foundations take the taps from the top down to the columns, a finger's
        # height; their cards show as many rows as fit above the columns (index and the big
        # rank and suit at least).
        self.col_y = target
        rows = TOP_ROWS
        if self.top_y + CARD_ROWS * th + 2 <= self.col_y:
            rows = CARD_ROWS
        self.top_rows = rows
        self.top_h = rows * th
        # Room for 19 cards down to the bottom edge.
        self.col_bottom = height
        # Short columns overlap by two tile rows: index plus a plain strip of face.
        self.max_overlap = 2 * th
        self._ov_space = self.col_bottom - self.col_y - self.card_h
        # A covered card whose strip is shorter than the index row shows the largest glyph
        # set that fits the strip of a 19-card column instead (0: never needed).
        self.tight_h = 0
        least = self.overlap(MAX_CARDS)
        if least < ih + 1:
            self.tight_h = GLYPH_HEIGHTS[0]
            for gh in GLYPH_HEIGHTS:
                if gh + 1 <= least:
                    self.tight_h = gh
        # The strip, top down: "Moves" and the counter, then Finish, Undo and Menu, as tall
        # as the height allows (at least a target each).
        sx = self.status_x
        self.moves_y = 3
        self.counter_y = self.moves_y + CAP_H * ts + 4 * ts + 2
        info_h = self.counter_y + 10 * self.digit_scale + 4
        bh = (height - info_h - 2) // 3 - 2
        if bh < target:
            bh = target
        self.button_w = width - sx
        self.button_h = bh
        # finish, menu, undo
        self._by = (height - 3 * (bh + 2), height - bh - 1, height - 2 * (bh + 2))
        self._bx = (sx, sx, sx)
        if not self.status_w:
            # Undo and Menu at the right of the top row, a target tall; the counter in the
            # bottom right corner; Finish where the columns leave it room (tableview.py),
            # the corner until then.
            self.button_w = bw
            self.button_h = self.col_y
            self._by = (height - target, 0, 0)
            # Finish as wide as its caption needs a pixel inside, at the right edge.
            self._bx = (width - 6 * FONT_W * ts - 2, width - bw, width - 2 * bw - 2)
            self.counter_y = height - 10 * self.digit_scale - 2
        self.button_x0 = self._bx[2]

    def button_x(self, hit):
        """Return the left edge of button HIT_UNDO, HIT_MENU or HIT_FINISH."""
        if hit == HIT_FINISH:
            return self._bx[0]
        if hit == HIT_MENU:
            return self._bx[1]
        return self._bx[2]

    def button_top(self, hit):
        """Return the top edge of button HIT_UNDO, HIT_MENU or HIT_FINISH."""
        if hit == HIT_FINISH:
            return self._by[0]
        if hit == HIT_MENU:
            return self._by[1]
        return self._by[2]

    def overlap(self, n):
        """Return the vertical distance between cards in a column of n cards."""
        if n < 2:
            return self.max_overlap
        ov = self._ov_space // (n - 1)
        if ov > self.max_overlap:
            return self.max_overlap
        return ov

    def column_bottom(self, n):
        """Return the first row of pixels under a column of n cards (its top when empty)."""
        if n == 0:
            return self.col_y
        return self.col_y + (n - 1) * self.overlap(n) + self.card_h

    def tight(self, n):
        """Return True if the covered cards of a column of n show the smaller index."""
        return self.tight_h > 0 and n > 1 and self.overlap(n) <= self.index_h

    def column_x(self, col):
        """Return the left edge of column col (0..7)."""
        return self.x0 + col * self.pitch

    def card_y(self, index, n):
        """Return the top of card `index` (0 = first dealt) in a column of n cards."""
        return self.col_y + index * self.overlap(n)

    def slot_x(self, slot):
        """Return the left edge of a slot: column 0..7, cell 8..11, foundation 12..15."""
        if slot < SLOT_CELL:
            return self.x0 + slot * self.pitch
        if slot < SLOT_FOUND:
            return self.top_x + (slot - SLOT_CELL) * self.top_pitch
        if self.found_x:  # in the block: clubs, diamonds over hearts, spades
            return self.found_x + (slot & 1) * (self.card_w + 2)
        return self.top_x + (slot - SLOT_FOUND + 4) * self.top_pitch

    def slot_y(self, slot):
        """Return the top of a slot (the first card's top for a column)."""
        if slot < SLOT_CELL:
            return self.col_y
        if slot >= SLOT_FOUND and self.found_x:
            # Two small cards (an index row and the bottom edge) one over the other, down
            # to the columns; the lower one's top border on the upper one's bottom border.
            return (slot - SLOT_FOUND) // 2 * (self.col_y - 2 * self.tile_h)
        return self.top_y

    def hit(self, x, y):
        """Return what (x, y) touches: a slot, a HIT_ button or HIT_NONE.

        For a column the card within it comes from hit_column, which needs the column's
        length and run: the layout knows geometry, not the position.
        """
        if x >= self.status_x:
            bh = self.button_h
            by = self._by
            if by[2] <= y < by[2] + bh:
                return HIT_UNDO
            if by[1] <= y < by[1] + bh:
                return HIT_MENU
            if by[0] <= y < by[0] + bh:
                return HIT_FINISH
            return HIT_NONE
        # Half the gap on each side belongs to the nearest card: no dead strips for a finger.
        g = self.x0 - self.gap // 2
        if x < g:
            x = g
        pos = (x - g) // self.pitch
        if y < self.col_y:
            if x >= self.button_x0:  # the top row's buttons (no strip): Undo, then Menu
                return HIT_UNDO if x < self._bx[1] else HIT_MENU
            g = self.top_x - (self.top_pitch - self.card_w) // 2
            pos = 0 if x < g else (x - g) // self.top_pitch
            if pos > 7:
                pos = 7
            fx = self.found_x
            if fx and pos >= 4:
                # The foundations' block, a quarter each (a held card takes it whole:
                # table.py), and the dead gaps either side of it.
                if x < fx or x >= fx + 2 * self.card_w + 2:
                    return HIT_NONE
                return (SLOT_FOUND + (1 if x > fx + self.card_w else 0)
                        + (2 if 2 * y >= self.col_y else 0))
            if pos < 4:
                if pos >= self.cells:
                    return HIT_NONE
                return SLOT_CELL + pos
            return SLOT_FOUND + pos - 4
        return pos

    def hit_column(self, y, n, first_movable):
        """Return the index of the card at height y in a column of n cards, -1 if empty.

        A touch below the exposed card counts as the exposed card. A touch above the
        movable run at the bottom counts as the first card of that run (`first_movable`),
        so a finger aimed at the column picks what can move.
        """
        if n == 0:
            return -1
        ov = self.overlap(n)
        i = (y - self.col_y) // ov
        if i >= n:
            i = n - 1
        if i < first_movable:
            i = first_movable
        return i

    def tap_point(self, slot, index=-1, n=1):
        """Return the (x, y) a player taps for a slot, or card `index` of a column of n."""
        x = self.slot_x(slot) + self.card_w // 2
        if slot >= SLOT_CELL:
            return x, self.slot_y(slot) + self.tile_h  # on the index, the whole card's too
        if n == 0:
            return x, self.col_y + self.card_h // 2
        if index < 0:
            index = n + index
        ov = self.overlap(n)
        if index == n - 1:
            return x, self.col_y + index * ov + self.card_h // 2
        return x, self.col_y + index * ov + ov // 2

    def button_point(self, hit):
        """Return the centre of a status-strip button (for host tools and tests)."""
        return self.button_x(hit) + self.button_w // 2, self.button_top(hit) + self.button_h // 2
