# SPDX-License-Identifier: MIT
"""fontio stood in: the built-in font lives in flash on the board, so it costs no heap here.

Its bitmap is one sheet of 6x12 glyph tiles, ASCII 0x20..0x7E as tiles 0..94
(shared-module/fontio/BuiltinFont.c), in flash: the stand-in sheet has a size and no pixels.
get_glyph makes a new Glyph for every call there: a namedtuple of 8 fields
(shared-bindings/fontio/Glyph.c), 40 B -> 48 B of garbage, which the stand-in makes too
(the game asks only for characters outside printable ASCII).
"""


class _Sheet:
    """The glyph sheet: its size only (the pixels are in flash)."""

    width = 95 * 6
    height = 12


class Glyph:
    """A glyph of the 6x12 terminal font: its tile in the sheet."""

    def __init__(self, bitmap, tile_index, width, height, dx, dy, shift_x, shift_y):
        self.bitmap = bitmap
        self.tile_index = tile_index
        self.width = width
        self.height = height
        self.dx = dx
        self.dy = dy
        self.shift_x = shift_x
        self.shift_y = shift_y


class BuiltinFont:
    """terminalio.FONT: 6x12 tiles, the printable ASCII characters."""

    def __init__(self):
        self.bitmap = _Sheet()
        self._g = Glyph(self.bitmap, 0, 6, 12, 0, 0, 6, 0)

    def get_bounding_box(self):
        """Return (width, height) of a tile."""
        return (6, 12)

    def get_glyph(self, codepoint):
        """Return the glyph (and leave the 48 bytes of garbage the C code does), or None."""
        if not 0x20 <= codepoint <= 0x7E:
            return None
        bytearray(32)
        g = self._g
        g.tile_index = codepoint - 0x20
        return g
