# SPDX-License-Identifier: MIT
"""The board's built-in font for Blinka: one bitmap holding every glyph as a tile.

On CircuitPython `terminalio.FONT.bitmap` is a single sheet of 6x12 tiles and
`get_glyph(c).tile_index` says which tile draws c: ASCII 0x20..0x7E are tiles 0..94
(shared-module/fontio/BuiltinFont.c). The board's terminal draws text as a TileGrid over
that sheet, and so does the game (freecell_mc/ui/widgets.py, Text). Blinka's FONT has the same
Terminus glyphs but answers each with a bitmap of its own and tile index 0, and its
`bitmap` is a class, so a TileGrid over it would draw nothing. `install()` swaps in a font
that behaves like the firmware's, built from Blinka's glyphs.
"""

import displayio
import fontio
import terminalio

_FIRST = 0x20
_LAST = 0x7E


class FirmwareFont:
    """terminalio.FONT as CircuitPython has it: a glyph sheet and namedtuple-like glyphs."""

    def __init__(self, source):
        w, h = source.get_bounding_box()[:2]
        box = source._font.get_bounding_box()  # (w, h, x offset, y offset) of the BDF
        self._w = w
        self._h = h
        n = _LAST - _FIRST + 1
        sheet = displayio.Bitmap(w * n, h, 2)
        for i in range(n):
            g = source.get_glyph(_FIRST + i)
            if g is None:
                continue
            # BDF placement: the glyph's box sits dx right of and dy above the font's origin.
            ox = i * w + g.dx - box[2]
            oy = (box[1] + box[3]) - (g.height + g.dy)
            for y in range(g.height):
                for x in range(g.width):
                    if g.bitmap[x, y] and 0 <= x + ox - i * w < w and 0 <= y + oy < h:
                        sheet[x + ox, y + oy] = 1
        self.bitmap = sheet

    def get_bounding_box(self):
        """Return (width, height) of a glyph's tile."""
        return (self._w, self._h)

    def get_glyph(self, codepoint):
        """Return the glyph of codepoint (its tile in `bitmap`), or None if the font lacks it."""
        if not _FIRST <= codepoint <= _LAST:
            return None
        return fontio.Glyph(self.bitmap, codepoint - _FIRST, self._w, self._h, 0, 0, self._w, 0)


def install():
    """Make terminalio.FONT the firmware-like font (once; later calls change nothing)."""
    if not isinstance(terminalio.FONT, FirmwareFont):
        terminalio.FONT = FirmwareFont(terminalio.FONT)
    return terminalio.FONT
