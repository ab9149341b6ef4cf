# SPDX-License-Identifier: MIT
"""Geometry of the playing screen, computed from the display size (pure arithmetic).

The screen, top to bottom:

    top row     4 free cells, then the 4 foundations (clubs, diamonds, hearts, spades),
                in the same 8-column grid as the columns; cards here show their top
                TOP_ROWS tile rows only
    columns     8 columns; a covered card shows its top `overlap` pixels (at least one
                tile row: the index, rank and suit), the exposed card shows in full
    status      the move counter at the left, the buttons Finish, Undo and Menu at the right

A card is a 2 x CARD_ROWS grid of tiles (tile_w x tile_h pixels). The tile height is the
smallest overlap: at that overlap 19 cards (the longest column FreeCell can build) fit
between the top row and the status strip, and the index still reads whole.
"""

from freecell_mc.compat import const

CARD_ROWS = const(5)  # index, face, big rank/suit (2 rows), bottom edge
TOP_ROWS = const(3)  # cards in cells and on foundations: index and the big rank/suit
MAX_CARDS = const(19)  # longest column: a king in the last dealt row plus 12 more cards

# Slots, as the engine numbers them.
SLOT_CELL = const(8)
SLOT_FOUND = const(12)

# What hit() may return besides a slot number.
HIT_NONE = const(-1)
HIT_UNDO = const(16)
HIT_MENU = const(17)
HIT_FINISH = const(18)

# Glyph sets cardart draws: small (5x7 ranks) for screens under 300 px tall, large (7x10).
FONT_SMALL = const(0)
FONT_LARGE = const(1)


class Layout:
    """Every position and size on the playing screen for one display size."""

    def __init__(self, width, height, cells=4):
        """Compute the geometry for a width x height landscape display with `cells` cells."""
        self.width = width
        self.height = height
        self.cells = cells
        pitch = width // 8
        gap = 2 if pitch < 50 else 4
        self.tile_w = (pitch - gap) // 2
        self.card_w = 2 * self.tile_w
        self.pitch = pitch
        self.gap = pitch - self.card_w
        # Centre the 8-column grid; the leftover pixels split between both sides.
        self.x0 = (width - 8 * pitch) // 2 + self.gap // 2
        if height >= 300:
            self.font = FONT_LARGE
            self.tile_h = 11  # 10-pixel glyphs under a 1-pixel border
        else:
            self.font = FONT_SMALL
            self.tile_h = 8  # 7-pixel glyphs under a 1-pixel border
        th = self.tile_h
        self.card_h = CARD_ROWS * th
        self.top_y = 1
        self.top_h = TOP_ROWS * th
        self.col_y = self.top_y + self.top_h + 3
        # Room for 19 cards at the smallest overlap; the rest of the height is the status strip.
        self.col_bottom = self.col_y + (MAX_CARDS - 1) * th + self.card_h
        self.status_y = self.col_bottom
        self.status_h = height - self.col_bottom
        # Short columns overlap by two tile rows: index plus a plain strip of face.
        self.max_overlap = 2 * th
        self._ov_space = self.col_bottom - self.col_y - self.card_h
        # Buttons, right to left: Menu, Undo, Finish; the strip's full height is the target.
        # 3/16 of the width: the dead-end line's second half fits left of Undo and Menu.
        bw = width * 3 // 16
        self.button_w = bw
        self.button_h = self.status_h - 2
        self.button_y = self.status_y + 1
        right = width - 1
        self._bx = (right - 3 * bw - 2, right - bw, right - 2 * bw - 1)  # finish, menu, undo

    def button_x(self, hit):
        """Return the left edge of button HIT_UNDO, HIT_MENU or HIT_FINISH."""
        if hit == HIT_FINISH:
            return self._bx[0]
        if hit == HIT_MENU:
            return self._bx[1]
        return self._bx[2]

    def overlap(self, n):
        """Return the vertical distance between cards in a column of n cards."""
        if n < 2:
            return self.max_overlap
        ov = self._ov_space // (n - 1)
        if ov > self.max_overlap:
            return self.max_overlap
        return ov

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
            return self.x0 + (slot - SLOT_CELL) * self.pitch
        return self.x0 + (slot - SLOT_FOUND + 4) * self.pitch

    def slot_y(self, slot):
        """Return the top of a slot (the first card's top for a column)."""
        if slot < SLOT_CELL:
            return self.col_y
        return self.top_y

    def hit(self, x, y):
        """Return what (x, y) touches: a slot, a HIT_ button or HIT_NONE.

        For a column the card within it comes from hit_column, which needs the column's
        length and run: the layout knows geometry, not the position.
        """
        if y >= self.status_y:
            bw = self.button_w
            bx = self._bx
            if bx[2] <= x < bx[2] + bw:
                return HIT_UNDO
            if bx[1] <= x < bx[1] + bw:
                return HIT_MENU
            if bx[0] <= x < bx[0] + bw:
                return HIT_FINISH
            return HIT_NONE
        # Half the gap on each side belongs to the nearest card: no dead strips for a finger.
        g = self.x0 - self.gap // 2
        if x < g:
            x = g
        pos = (x - g) // self.pitch
        if pos > 7:
            pos = 7
        if y < self.col_y:
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
            return x, self.top_y + self.top_h // 2
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
        return self.button_x(hit) + self.button_w // 2, self.button_y + self.button_h // 2
