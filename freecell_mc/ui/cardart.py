# SPDX-License-Identifier: MIT
"""Card faces as a tile sheet drawn in code, and the palettes that colour them.

The board's built-in font has no suit symbols, so ranks and suits are drawn in code from
compact bit patterns into one 2-bit Bitmap, the same on the board and in the simulator
(cardfaces.py draws it once; nothing is loaded from flash).

A card is a 2-tile-wide TileGrid over the sheet. Pixel values:

    0  outside the card (rounded corners): transparent, the felt shows
    1  face
    2  border
    3  ink (rank and suit)

so one sheet serves every card, and the colours come from the TileGrid's palette: red or
black ink (or four colours), and a face tint for the held card and for legal targets.
Swapping a TileGrid's palette repaints just that card; the palettes themselves are never
changed during play (a changed palette would repaint every card that uses it).
"""

from freecell_mc.compat import const

# Tiles on the sheet. Rank tiles run ace..king, suit tiles clubs, diamonds, hearts, spades.
# A column card is, top down: the index (rank | suit), a plain strip of face (T_LEFT |
# T_RIGHT), the big rank and suit over two rows, the lower one with the bottom border; a
# card in a cell leaves out the plain strip.
T_CLEAR = const(0)  # all transparent
T_LEFT = const(1)  # left border, face
T_RIGHT = const(2)  # face, right border
T_BOTTOM_LEFT = const(3)
T_BOTTOM_RIGHT = const(4)
T_TOP_LEFT = const(5)  # top-left corner, no index (empty slot outlines)
T_TOP_RIGHT = const(6)
T_RANK = const(7)  # + rank - 1: index corner, top-left
T_SUIT = const(20)  # + suit: index corner, top-right
T_BIG_RANK = const(24)  # + rank - 1: upper half of the big rank
T_BIG_RANK_LOW = const(37)  # + rank - 1: lower half, with the bottom border
T_BIG_SUIT = const(50)  # + suit
T_BIG_SUIT_LOW = const(54)
N_TILES = const(58)
# Only on a sheet whose layout has tight columns (Layout.tight_h): the smaller index a
# covered card of a long column shows where its strip cannot hold the full one.
T_RANK_TIGHT = const(58)
T_SUIT_TIGHT = const(71)
N_TILES_TIGHT = const(75)

# Palette states: index into CardArt.palettes is state * 4 + suit.
P_NORMAL = const(0)
P_HELD = const(1)
P_LIT = const(2)

FELT = const(0x0B5D2A)
FELT_DARK = const(0x074A20)
FELT_LINE = const(0x4E9A66)
TEXT = const(0xF0F0E0)
DIGIT_H = const(10)  # the counter's digits are the 10-pixel glyph set's, at the layout's scale

_FACES = (0xFFFFFF, 0xA6D4FF, 0xFFE14D)  # normal, held (blue), lit target (yellow)
_BORDERS = (0x505050, 0x0040B0, 0xB05A00)
_INK_TWO = (0x000000, 0xCC0000, 0xCC0000, 0x000000)
_INK_FOUR = (0x006E00, 0x0038D0, 0xCC0000, 0x000000)  # clubs green, diamonds blue


class CardArt:
    """The tile sheet, the counter digits and the palettes for one layout."""

    def __init__(self, layout, four_colour=False, displayio=None):
        """Make the blank sheet for `layout` (cardfaces.draw fills it); pass `displayio` to
        inject another implementation."""
        if displayio is None:
            import displayio
        self.tile_w = tw = layout.tile_w
        self.tile_h = th = layout.tile_h
        # The smaller index's tiles only where the layout has columns that need it.
        self.tight = layout.tight_h > 0
        self.sheet = displayio.Bitmap(tw * (N_TILES_TIGHT if self.tight else N_TILES), th, 4)
        # Move counter digits: the 10-pixel glyphs at the layout's scale, one tile per digit
        # plus a blank tile (10).
        ds = layout.digit_scale
        self.digit_w = ds * 7 + 2
        self.digit_h = ds * DIGIT_H
        self.digits = displayio.Bitmap(self.digit_w * 11, self.digit_h, 2)
        self.digit_palette = displayio.Palette(2)
        self.digit_palette[1] = TEXT
        self.digit_palette.make_transparent(0)
        self.palettes = []
        for state in range(3):
            for _ in range(4):  # one per suit
                p = displayio.Palette(4)
                p[1] = _FACES[state]
                p[2] = _BORDERS[state]
                p.make_transparent(0)
                self.palettes.append(p)
        self.slot_palettes = []
        for lit in range(2):
            p = displayio.Palette(4)
            p[1] = _FACES[P_LIT] if lit else FELT_DARK
            p[2] = _BORDERS[P_LIT] if lit else FELT_LINE
            p[3] = _BORDERS[P_LIT] if lit else FELT_LINE
            p.make_transparent(0)
            self.slot_palettes.append(p)
        self.four_colour = None
        self.set_four_colour(four_colour)

    def set_four_colour(self, on):
        """Ink clubs green and diamonds blue (on) or use red and black (off)."""
        on = bool(on)
        if on == self.four_colour:
            return
        self.four_colour = on
        ink = _INK_FOUR if on else _INK_TWO
        pals = self.palettes
        for i in range(12):
            pals[i][3] = ink[i & 3]

    def bitmap_bytes(self):
        """Return the bytes the bitmaps hold (2 bits per sheet pixel, 1 per digit pixel)."""
        # Rows are padded to 32-bit words on CircuitPython.
        sheet = ((self.sheet.width * 2 + 31) // 32) * 4 * self.tile_h
        dw = self.digit_w * 11
        digits = ((dw + 31) // 32) * 4 * self.digit_h
        return sheet + digits
