# SPDX-License-Identifier: MIT
"""Card faces as a tile sheet drawn in code, and the palettes that colour them.

The board's built-in font has no suit symbols, so ranks and suits are drawn here from
compact bit patterns (one bit per pixel, rows packed MSB first) into one 2-bit Bitmap,
the same on the board and in the simulator. Nothing is loaded from flash.

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
from freecell_mc.ui.layout import FONT_LARGE

# Tiles on the sheet. Rank tiles run ace..king, suit tiles clubs, diamonds, hearts, spades.
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
T_BIG_RANK_LOW = const(37)  # + rank - 1: lower half
T_BIG_RANK_END = const(50)  # + rank - 1: lower half with the bottom border (cells)
T_BIG_SUIT = const(63)  # + suit
T_BIG_SUIT_LOW = const(67)
T_BIG_SUIT_END = const(71)
N_TILES = const(75)

# Palette states: index into CardArt.palettes is state * 4 + suit.
P_NORMAL = const(0)
P_HELD = const(1)
P_LIT = const(2)

FELT = const(0x0B5D2A)
FELT_DARK = const(0x074A20)
FELT_LINE = const(0x4E9A66)
TEXT = const(0xF0F0E0)

_FACES = (0xFFFFFF, 0xA6D4FF, 0xFFE14D)  # normal, held (blue), lit target (yellow)
_BORDERS = (0x505050, 0x0040B0, 0xB05A00)
_INK_TWO = (0x000000, 0xCC0000, 0xCC0000, 0x000000)
_INK_FOUR = (0x006E00, 0x0038D0, 0xCC0000, 0x000000)  # clubs green, diamonds blue

# Glyphs in order: A 2 3 4 5 6 7 8 9 10 J Q K, digits 0 and 1, suits C D H S.
_G_ZERO = const(13)
_G_ONE = const(14)
_G_SUIT = const(15)

_SMALL_H = const(7)
_SMALL_W = (
    b"\x05\x05\x05\x05\x05\x05\x05\x05\x05\x07\x05\x05\x05\x05\x05\x07\x07\x07"
    b"\x07"
)
_SMALL_BITS = (
    b"\x20\x50\x88\x88\xf8\x88\x88\x70\x88\x08\x10\x20\x40\xf8\xf0\x08\x08\x70"
    b"\x08\x08\xf0\x10\x30\x50\x90\xf8\x10\x10\xf8\x80\xf0\x08\x08\x88\x70\x30"
    b"\x40\x80\xf0\x88\x88\x70\xf8\x08\x10\x20\x40\x40\x40\x70\x88\x88\x70\x88"
    b"\x88\x70\x70\x88\x88\x78\x08\x10\x60\x4c\xd2\x52\x52\x52\x52\xec\x38\x10"
    b"\x10\x10\x10\x90\x60\x70\x88\x88\x88\xa8\x90\x68\x88\x90\xa0\xc0\xa0\x90"
    b"\x88\x70\x88\x98\xa8\xc8\x88\x70\x20\x60\x20\x20\x20\x20\x70\x38\x38\xd6"
    b"\xfe\xd6\x10\x38\x10\x38\x7c\xfe\x7c\x38\x10\x6c\xfe\xfe\xfe\x7c\x38\x10"
    b"\x10\x38\x7c\xfe\xd6\x10\x38"
)
_LARGE_H = const(10)
_LARGE_W = (
    b"\x07\x07\x07\x07\x07\x07\x07\x07\x07\x0a\x07\x07\x07\x07\x07\x09\x09\x09"
    b"\x09"
)
_LARGE_BITS = (
    b"\x38\x6c\xc6\xc6\xc6\xfe\xc6\xc6\xc6\xc6\x7c\xc6\x06\x06\x0c\x18\x30\x60"
    b"\xc0\xfe\xfc\x06\x06\x06\x3c\x06\x06\x06\x06\xfc\x0c\x1c\x3c\x6c\xcc\xfe"
    b"\x0c\x0c\x0c\x0c\xfe\xc0\xc0\xfc\x06\x06\x06\x06\xc6\x7c\x3c\x60\xc0\xc0"
    b"\xfc\xc6\xc6\xc6\xc6\x7c\xfe\x06\x06\x0c\x18\x30\x30\x30\x30\x30\x7c\xc6"
    b"\xc6\xc6\x7c\xc6\xc6\xc6\xc6\x7c\x7c\xc6\xc6\xc6\xc6\x7e\x06\x06\x0c\x78"
    b"\x67\x80\xec\xc0\x6c\xc0\x6c\xc0\x6c\xc0\x6c\xc0\x6c\xc0\x6c\xc0\x6c\xc0"
    b"\xf7\x80\x1e\x06\x06\x06\x06\x06\x06\xc6\xc6\x7c\x7c\xc6\xc6\xc6\xc6\xc6"
    b"\xd6\xcc\x76\x00\xc6\xcc\xd8\xf0\xe0\xf0\xd8\xcc\xc6\xc6\x7c\xc6\xc6\xce"
    b"\xd6\xe6\xc6\xc6\xc6\x7c\x18\x38\x78\x18\x18\x18\x18\x18\x18\x7e\x1c\x00"
    b"\x3e\x00\x3e\x00\xdd\x80\xff\x80\xff\x80\xc9\x80\x08\x00\x3e\x00\x00\x00"
    b"\x08\x00\x1c\x00\x3e\x00\x7f\x00\xff\x80\x7f\x00\x3e\x00\x1c\x00\x08\x00"
    b"\x00\x00\x63\x00\xf7\x80\xff\x80\xff\x80\xff\x80\x7f\x00\x3e\x00\x1c\x00"
    b"\x08\x00\x00\x00\x08\x00\x1c\x00\x3e\x00\x7f\x00\xff\x80\xff\x80\xdd\x80"
    b"\x08\x00\x3e\x00\x00\x00"
)


def _glyph_offsets(widths, height):
    """Return the byte offset of every glyph in its font's bit string."""
    offs = []
    o = 0
    for w in widths:
        offs.append(o)
        o += ((w + 7) >> 3) * height
    return offs


class CardArt:
    """The tile sheet, the counter digits and the palettes for one layout."""

    def __init__(self, layout, four_colour=False, displayio=None):
        """Draw the sheet for `layout`; pass `displayio` to inject another implementation."""
        if displayio is None:
            import displayio  # noqa: PLC0415  (the hardware boundary stays injectable)
        self.tile_w = tw = layout.tile_w
        self.tile_h = th = layout.tile_h
        if layout.font == FONT_LARGE:
            self._gw = _LARGE_W
            self._gbits = _LARGE_BITS
            self._gh = _LARGE_H
        else:
            self._gw = _SMALL_W
            self._gbits = _SMALL_BITS
            self._gh = _SMALL_H
        self._goff = _glyph_offsets(self._gw, self._gh)
        self.sheet = displayio.Bitmap(tw * N_TILES, th, 4)
        self._draw_sheet()
        # Move counter digits: the large glyphs at the layout's scale, one tile per digit
        # plus a blank tile (10).
        ds = layout.digit_scale
        self.digit_w = ds * 7 + 2
        self.digit_h = ds * _LARGE_H
        self.digits = displayio.Bitmap(self.digit_w * 11, self.digit_h, 2)
        loff = _glyph_offsets(_LARGE_W, _LARGE_H)
        for d in range(10):
            g = _G_ZERO if d == 0 else (_G_ONE if d == 1 else d - 1)
            x = d * self.digit_w + (self.digit_w - ds * _LARGE_W[g]) // 2
            self._blit(self.digits, g, x, 0, ds, 1, 0, self.digit_h, (_LARGE_W, _LARGE_BITS, loff, _LARGE_H))
        self.digit_palette = displayio.Palette(2)
        self.digit_palette[1] = TEXT
        self.digit_palette.make_transparent(0)
        self.palettes = []
        for state in range(3):
            for suit in range(4):
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
        tw = self.tile_w * N_TILES
        sheet = ((tw * 2 + 31) // 32) * 4 * self.tile_h
        dw = self.digit_w * 11
        digits = ((dw + 31) // 32) * 4 * self.digit_h
        return sheet + digits

    def _frame(self, tile, right, top, bottom):
        """Draw one tile of a card's frame: face, border lines, transparent corners."""
        bm = self.sheet
        tw = self.tile_w
        th = self.tile_h
        stride = bm.width
        x0 = tile * tw
        for y in range(th):
            edge_y = (top and y == 0) or (bottom and y == th - 1)
            row = y * stride + x0
            for x in range(tw):
                edge_x = (x == tw - 1) if right else (x == 0)
                if edge_x and edge_y:
                    v = 0  # rounded corner
                elif edge_x or edge_y:
                    v = 2
                else:
                    v = 1
                bm[row + x] = v

    def _blit(self, bm, g, x, y, scale, value, y_lo, y_hi, font=None):
        """Draw glyph g at (x, y) of bm, scaled, only rows y_lo..y_hi-1 shifted to 0.

        font is (widths, bits, offsets, height); None is the cards' own glyph set.
        """
        if font is None:
            widths, bits, offs, gh = self._gw, self._gbits, self._goff, self._gh
        else:
            widths, bits, offs, gh = font
        w = widths[g]
        bpr = (w + 7) >> 3
        off = offs[g]
        stride = bm.width
        for gy in range(gh):
            for sy in range(scale):
                py = y + gy * scale + sy
                if py < y_lo or py >= y_hi:
                    continue
                row = (py - y_lo) * stride
                for gx in range(w):
                    if bits[off + gy * bpr + (gx >> 3)] & (0x80 >> (gx & 7)):
                        for sx in range(scale):
                            bm[row + x + gx * scale + sx] = value

    def _draw_sheet(self):
        """Draw every tile of the sheet."""
        tw = self.tile_w
        th = self.tile_h
        bm = self.sheet
        self._frame(T_LEFT, False, False, False)
        self._frame(T_RIGHT, True, False, False)
        self._frame(T_BOTTOM_LEFT, False, False, True)
        self._frame(T_BOTTOM_RIGHT, True, False, True)
        self._frame(T_TOP_LEFT, False, True, False)
        self._frame(T_TOP_RIGHT, True, True, False)
        for r in range(13):
            x = (T_RANK + r) * tw
            self._frame(T_RANK + r, False, True, False)
            self._blit(bm, r, x + 2, 1, 1, 3, 0, th)
            for t, y_lo, bottom in (
                (T_BIG_RANK, 0, False),
                (T_BIG_RANK_LOW, th, False),
                (T_BIG_RANK_END, th, True),
            ):
                self._frame(t + r, False, False, bottom)
                # A narrow tile (the Pynt's) gives up the margin before the border.
                bx = min(2, tw - 2 * self._gw[r])
                self._blit(bm, r, (t + r) * tw + max(0, bx), 1, 2, 3, y_lo, y_lo + th)
        for s in range(4):
            g = _G_SUIT + s
            w = self._gw[g]
            self._frame(T_SUIT + s, True, True, False)
            self._blit(bm, g, (T_SUIT + s) * tw + tw - 2 - w, 1, 1, 3, 0, th)
            for t, y_lo, bottom in (
                (T_BIG_SUIT, 0, False),
                (T_BIG_SUIT_LOW, th, False),
                (T_BIG_SUIT_END, th, True),
            ):
                self._frame(t + s, True, False, bottom)
                self._blit(bm, g, (t + s) * tw + max(0, tw - 2 - 2 * w), 1, 2, 3, y_lo, y_lo + th)
