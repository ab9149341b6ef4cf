# SPDX-License-Identifier: MIT
"""fontio stood in: the built-in font lives in flash on the board, so it costs no heap here.

shared-module/fontio/BuiltinFont.c makes a new Glyph for every get_glyph call: a namedtuple
of 8 fields (shared-bindings/fontio/Glyph.c), 40 B -> 48 B of garbage per character drawn,
which the stand-in makes too.
"""


class Glyph:
    """The glyph of every character of the 6x12 terminal font."""

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
    """terminalio.FONT: 6x12 cells, every code point answered."""

    def __init__(self):
        self.bitmap = None
        self._g = Glyph(None, 0, 6, 12, 0, 0, 6, 0)

    def get_bounding_box(self):
        """Return (width, height) of a cell."""
        return (6, 12)

    def get_glyph(self, codepoint):
        """Return the glyph (and leave the 48 bytes of garbage the C code does)."""
        bytearray(32)
        return self._g
