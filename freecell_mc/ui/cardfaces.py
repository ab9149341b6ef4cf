# SPDX-License-Identifier: MIT
"""The card art's drawing: ranks and suits as bit patterns, drawn once into its bitmaps.

The board's built-in font has no suit symbols, so the glyphs are here, one bit a pixel in
rows packed MSB first, in four sets (7, 8, 10 and 11 pixels tall; layout.GLYPH_HEIGHTS).
`draw` fills a CardArt's sheet and counter digits; after that nothing here is needed, so
the App drops this module (about 3.8 KB of the board's heap) once the art is drawn.
"""

from freecell_mc.compat import const
from freecell_mc.ui.cardart import (
    DIGIT_H,
    T_BIG_RANK,
    T_BIG_RANK_LOW,
    T_BIG_SUIT,
    T_BIG_SUIT_LOW,
    T_BOTTOM_LEFT,
    T_BOTTOM_RIGHT,
    T_LEFT,
    T_RANK,
    T_RANK_TIGHT,
    T_RIGHT,
    T_SUIT,
    T_SUIT_TIGHT,
    T_TOP_LEFT,
    T_TOP_RIGHT,
)

# Glyphs in order: A 2 3 4 5 6 7 8 9 10 J Q K, digits 0 and 1, suits C D H S; one bit a
# pixel, rows packed MSB first, each row whole bytes. The 8- and 11-pixel sets are indexes
# only: their 0 and 1 are empty (the counter's digits come from the 10-pixel set).
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
_INDEX8_H = const(8)
_INDEX8_W = (
    b"\x05\x05\x05\x05\x05\x05\x05\x05\x05\x07\x05\x05\x05\x00\x00\x07\x07\x07"
    b"\x07"
)
_INDEX8_BITS = (
    b"\x20\x50\x88\x88\xf8\x88\x88\x88\x70\x88\x08\x10\x20\x40\x80\xf8\xf0\x08"
    b"\x08\x70\x08\x08\x08\xf0\x10\x30\x50\x90\xf8\x10\x10\x10\xf8\x80\x80\xf0"
    b"\x08\x08\x88\x70\x30\x40\x80\xf0\x88\x88\x88\x70\xf8\x08\x10\x10\x20\x20"
    b"\x40\x40\x70\x88\x88\x70\x88\x88\x88\x70\x70\x88\x88\x88\x78\x08\x10\x60"
    b"\x4c\xd2\x52\x52\x52\x52\x52\xec\x38\x10\x10\x10\x10\x10\x90\x60\x70\x88"
    b"\x88\x88\x88\xa8\x90\x68\x88\x90\xa0\xc0\xc0\xa0\x90\x88\x38\x38\xd6\xfe"
    b"\xd6\x10\x10\x38\x10\x38\x7c\xfe\xfe\x7c\x38\x10\x6c\xfe\xfe\xfe\xfe\x7c"
    b"\x38\x10\x10\x38\x7c\xfe\xfe\xd6\x10\x38"
)
_INDEX11_H = const(11)
_INDEX11_W = (
    b"\x07\x07\x07\x07\x07\x07\x07\x07\x07\x0a\x07\x07\x07\x00\x00\x0b\x09\x0b"
    b"\x0b"
)
_INDEX11_BITS = (
    b"\x38\x6c\xc6\xc6\xc6\xfe\xc6\xc6\xc6\xc6\xc6\x7c\xc6\x06\x06\x0c\x18\x30"
    b"\x60\xc0\xc0\xfe\xfc\x06\x06\x06\x06\x3c\x06\x06\x06\x06\xfc\x0c\x1c\x3c"
    b"\x6c\xcc\xcc\xfe\x0c\x0c\x0c\x0c\xfe\xc0\xc0\xfc\x06\x06\x06\x06\x06\xc6"
    b"\x7c\x3c\x60\xc0\xc0\xfc\xc6\xc6\xc6\xc6\xc6\x7c\xfe\x06\x06\x0c\x18\x18"
    b"\x30\x30\x30\x30\x30\x7c\xc6\xc6\xc6\x7c\xc6\xc6\xc6\xc6\xc6\x7c\x7c\xc6"
    b"\xc6\xc6\xc6\x7e\x06\x06\x06\x0c\x78\x67\x80\xec\xc0\x6c\xc0\x6c\xc0\x6c"
    b"\xc0\x6c\xc0\x6c\xc0\x6c\xc0\x6c\xc0\x6c\xc0\xf7\x80\x1e\x06\x06\x06\x06"
    b"\x06\x06\xc6\xc6\xc6\x7c\x7c\xc6\xc6\xc6\xc6\xc6\xc6\xd6\xde\x7c\x06\xc6"
    b"\xcc\xd8\xf0\xe0\xe0\xf0\xd8\xcc\xc6\xc6\x0e\x00\x1f\x00\x1f\x00\x0e\x00"
    b"\x6e\xc0\xff\xe0\xff\xe0\x64\xc0\x04\x00\x0e\x00\x3f\x80\x08\x00\x1c\x00"
    b"\x3e\x00\x7f\x00\xff\x80\xff\x80\xff\x80\x7f\x00\x3e\x00\x1c\x00\x08\x00"
    b"\x71\xc0\xfb\xe0\xff\xe0\xff\xe0\xff\xe0\xff\xe0\x7f\xc0\x3f\x80\x1f\x00"
    b"\x0e\x00\x04\x00\x04\x00\x0e\x00\x1f\x00\x3f\x80\x7f\xc0\xff\xe0\xff\xe0"
    b"\x64\xc0\x04\x00\x0e\x00\x3f\x80"
)
_FONTS = ((_SMALL_H, _SMALL_W, _SMALL_BITS), (_INDEX8_H, _INDEX8_W, _INDEX8_BITS),
          (_LARGE_H, _LARGE_W, _LARGE_BITS), (_INDEX11_H, _INDEX11_W, _INDEX11_BITS))


def draw(art, layout):
    """Draw every tile of art's sheet and its counter digits (art: cardart.CardArt)."""
    _draw_sheet(art, layout)
    # The counter's digits: the 10-pixel glyphs at the layout's scale, a tile a digit.
    ds = layout.digit_scale
    large = _font(DIGIT_H)
    for d in range(10):
        g = _G_ZERO if d == 0 else (_G_ONE if d == 1 else d - 1)
        x = d * art.digit_w + (art.digit_w - ds * large[0][g]) // 2
        _blit(art.digits, large, g, x, 0, ds, 1, 0, art.digit_h)


def _font(height):
    """Return the glyph set of a height as (widths, bits, byte offset of each glyph, height)."""
    for h, widths, bits in _FONTS:  # noqa: B007  (the break keeps the font found: used after it)
        if h == height:
            break
    offs = []
    o = 0
    for w in widths:
        offs.append(o)
        o += ((w + 7) >> 3) * h
    return (widths, bits, offs, h)


def _draw_sheet(art, layout):
    """Draw every tile of the sheet."""
    tw = art.tile_w
    th = art.tile_h
    bm = art.sheet
    index = _font(layout.index_h)
    big = _font(layout.big_h)
    tight = _font(layout.tight_h) if art.tight else None
    # The big rank and suit, doubled, in the two rows above the bottom border, centred.
    by = (2 * th - 1 - 2 * big[3]) // 2
    _frame(bm, tw, th, T_LEFT, False, False, False)
    _frame(bm, tw, th, T_RIGHT, True, False, False)
    _frame(bm, tw, th, T_BOTTOM_LEFT, False, False, True)
    _frame(bm, tw, th, T_BOTTOM_RIGHT, True, False, True)
    _frame(bm, tw, th, T_TOP_LEFT, False, True, False)
    _frame(bm, tw, th, T_TOP_RIGHT, True, True, False)
    for r in range(13):
        _frame(bm, tw, th, T_RANK + r, False, True, False)
        _blit(bm, index, r, (T_RANK + r) * tw + 2, 1, 1, 3, 0, th)
        if tight is not None:
            _frame(bm, tw, th, T_RANK_TIGHT + r, False, True, False)
            _blit(bm, tight, r, (T_RANK_TIGHT + r) * tw + 2, 1, 1, 3, 0, th)
        # A narrow tile (the Pynt's) gives up the margin before the border.
        bx = max(0, min(2, tw - 2 * big[0][r]))
        _frame(bm, tw, th, T_BIG_RANK + r, False, False, False)
        _blit(bm, big, r, (T_BIG_RANK + r) * tw + bx, by, 2, 3, 0, th)
        _frame(bm, tw, th, T_BIG_RANK_LOW + r, False, False, True)
        _blit(bm, big, r, (T_BIG_RANK_LOW + r) * tw + bx, by, 2, 3, th, 2 * th)
    for s in range(4):
        g = _G_SUIT + s
        _frame(bm, tw, th, T_SUIT + s, True, True, False)
        _blit(bm, index, g, (T_SUIT + s + 1) * tw - 2 - index[0][g], 1, 1, 3, 0, th)
        if tight is not None:
            _frame(bm, tw, th, T_SUIT_TIGHT + s, True, True, False)
            _blit(bm, tight, g, (T_SUIT_TIGHT + s + 1) * tw - 2 - tight[0][g], 1, 1, 3, 0,
                  th)
        bx = max(0, tw - 2 - 2 * big[0][g])
        _frame(bm, tw, th, T_BIG_SUIT + s, True, False, False)
        _blit(bm, big, g, (T_BIG_SUIT + s) * tw + bx, by, 2, 3, 0, th)
        _frame(bm, tw, th, T_BIG_SUIT_LOW + s, True, False, True)
        _blit(bm, big, g, (T_BIG_SUIT_LOW + s) * tw + bx, by, 2, 3, th, 2 * th)


def _frame(bm, tw, th, tile, right, top, bottom):
    """Draw one tile of a card's frame on the sheet bm: face, border lines, transparent corners."""
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


def _blit(bm, font, g, x, y, scale, value, y_lo, y_hi):
    """Draw glyph g of a _font() at (x, y) of bm, scaled, only rows y_lo..y_hi-1 shifted to 0.

    That is the part of a glyph that falls in one tile row of a sheet one tile tall.
    """
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
