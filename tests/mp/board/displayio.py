# SPDX-License-Identifier: MIT
"""displayio stood in for the board-limits session: each object costs the heap its C struct does.

CircuitPython builds these objects in C on its GC heap (blocks of 16 bytes on the SAMD51's
32-bit ARM). The figures come from CircuitPython's source (main, 2026-08, commit cd3da4a5):

    Bitmap    shared-module/displayio/Bitmap.h: displayio_bitmap_t 36 B -> 48 B, plus the
              pixel buffer from construct_from_buffer (Bitmap.c): stride * height * 4 bytes,
              stride = 32-bit words per row (rows padded to 32 bits)
    Palette   shared-module/displayio/Palette.h: displayio_palette_t 16 B, plus colors:
              color_count * sizeof(_displayio_color_t) (16 B each), Palette.c
    TileGrid  shared-module/displayio/TileGrid.h: displayio_tilegrid_t 84 B -> 96 B; the
              tile indices are inline in the pointer up to 4 (TileGrid.c, inline_tiles),
              else a buffer of 1 byte per tile (2 when the bitmap has over 255 tiles)
    Group     shared-module/displayio/Group.h: displayio_group_t 44 B -> 48 B, plus its
              members list (Group.c: mp_obj_new_list(0)): list object 16 B and items from
              4 slots, doubling as it fills, exactly like a MicroPython list

A MicroPython instance costs 16 bytes plus its attribute table (8 bytes a slot, in steps of
2 slots), so each stand-in keeps few attributes and tops up with one bytearray to reach the
C figure (tests/test_board_limits.py measures every one). Exceptions, all on the safe side:
a Palette of 1 or 2 colours costs 64 bytes (C: 32 and 48), and a Group subclass (a label)
carries 64 bytes for its native part where CircuitPython has 48 plus a 16-byte instance
slot. Methods the board runs in C are Python here; none sits deeper than the frames the
game itself makes at that point, except as noted in docs/memory.md.
"""



def _blocks(n):
    """Return n rounded up to whole 16-byte GC blocks."""
    return (n + 15) & ~15


class Bitmap:
    """Bitmap: 48 bytes plus the padded pixel buffer."""

    def __init__(self, width, height, value_count):
        bits = 1
        while (1 << bits) < value_count:
            bits <<= 1
        stride = (width * bits + 31) // 32
        # The buffer is the C one byte for byte; the packed size sits in one small int.
        self._d = bytearray(stride * 4 * height)
        self._s = width | height << 12 | bits << 24

    @property
    def width(self):
        """Pixels across."""
        return self._s & 0xFFF

    @property
    def height(self):
        """Pixels down."""
        return (self._s >> 12) & 0xFFF

    def __setitem__(self, xy, value):
        pass

    def __getitem__(self, xy):
        return 0

    def fill(self, value):
        """Fill (no pixels are kept)."""


class Palette:
    """Palette: 16 bytes plus 16 per colour."""

    def __init__(self, color_count, *, dither=False):
        # 4 bytes of colour, then one transparency flag per colour; the length tops the
        # object up to the C size from 3 colours on.
        n = color_count
        self._c = bytearray(max(5 * n, 16 * n - 32))
        self._n = n

    def __len__(self):
        return self._n

    def __setitem__(self, i, color):
        c = self._c
        c[4 * i] = color & 0xFF
        c[4 * i + 1] = (color >> 8) & 0xFF
        c[4 * i + 2] = (color >> 16) & 0xFF

    def __getitem__(self, i):
        c = self._c
        return c[4 * i] | c[4 * i + 1] << 8 | c[4 * i + 2] << 16

    def make_transparent(self, i):
        """Mark colour i transparent."""
        self._c[4 * self._n + i] = 1

    def make_opaque(self, i):
        """Mark colour i opaque."""
        self._c[4 * self._n + i] = 0

    def is_transparent(self, i):
        """Return True if colour i is transparent."""
        return self._c[4 * self._n + i] == 1


class TileGrid:
    """TileGrid: 96 bytes plus the tile buffer beyond 4 tiles."""

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        tw = tile_width or bitmap.width
        th = tile_height or bitmap.height
        # shared-bindings/displayio/TileGrid.c refuses tiles that do not tile the bitmap.
        if bitmap.width % tw:
            raise ValueError("Tile width must exactly divide bitmap width")
        if bitmap.height % th:
            raise ValueError("Tile height must exactly divide bitmap height")
        n = width * height
        per = 2 if (bitmap.width // tw) * (bitmap.height // th) > 255 else 1
        tiles = 0 if n * per <= 4 else _blocks(n * per)
        # 16 bytes more than the C tile buffer: the instance and its table are 16 bytes
        # under the C struct. The last byte keeps the width for (x, y) indexing.
        t = bytearray(16 + tiles)
        for i in range(n):
            t[i] = default_tile
        t[len(t) - 1] = width
        self._t = t
        self._b = bitmap
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
        self.hidden = False

    def __setitem__(self, i, v):
        if isinstance(i, tuple):
            t = self._t
            i = i[1] * t[len(t) - 1] + i[0]
        self._t[i] = v

    def __getitem__(self, i):
        if isinstance(i, tuple):
            t = self._t
            i = i[1] * t[len(t) - 1] + i[0]
        return self._t[i]

    @property
    def bitmap(self):
        """The bitmap shown."""
        return self._b


class Group:
    """Group: 48 bytes plus its member list."""

    def __init__(self, *, scale=1, x=0, y=0):
        self._l = []
        self.x = x
        self.y = y
        # hidden in bit 0, scale above it: one attribute, so the table stays C-sized.
        self._f = scale << 1
        if type(self) is not Group:
            # A Python subclass (a label): CircuitPython keeps the native Group apart.
            self._n = bytearray(48)

    @property
    def hidden(self):
        """True when not drawn."""
        return bool(self._f & 1)

    @hidden.setter
    def hidden(self, value):
        self._f = (self._f & ~1) | (1 if value else 0)

    @property
    def scale(self):
        """Integer scale of the members."""
        return self._f >> 1

    @scale.setter
    def scale(self, value):
        self._f = (self._f & 1) | value << 1

    def append(self, o):
        """Add a member on top."""
        self._l.append(o)

    def insert(self, i, o):
        """Add a member at index i."""
        self._l.insert(i, o)

    def remove(self, o):
        """Take a member out."""
        self._l.remove(o)

    def pop(self, i=-1):
        """Take a member out by index and return it."""
        return self._l.pop(i)

    def index(self, o):
        """Return the index of a member."""
        return self._l.index(o)

    def __len__(self):
        return len(self._l)

    def __getitem__(self, i):
        return self._l[i]

    def __iter__(self):
        return iter(self._l)

    def __contains__(self, o):
        return o in self._l


def release_displays():
    """Nothing to release."""
