# SPDX-License-Identifier: MIT
"""The simulator's display: a displayio framebuffer that logs dirty areas and writes PNGs.

Both are real Blinka displayio displays (busdisplay.BusDisplay without a bus): the game's
Groups, TileGrids and labels are rendered by displayio's own code, area by area, into an
RGB565 framebuffer. `FramebufferDisplay` needs no pygame; host_sim/window.py shows the
same framebuffer in a pygame window, scaled up.
"""

import busdisplay
import displayio
from displayio._area import Area

from host_sim import font

# The board's built-in font, one sheet of glyph tiles (host_sim/font.py): every display here
# draws the game's text as the board does.
font.install()


def release():
    """Release every displayio display (only one may exist at a time)."""
    displayio.release_displays()


class FramebufferDisplay(busdisplay.BusDisplay):
    """A displayio display that renders into `framebuffer` and logs every refreshed area.

    `refreshes` holds, per refresh that drew, the list of (x1, y1, x2, y2) areas
    (x2/y2 exclusive) that displayio found dirty.
    """

    def __init__(self, width, height, backlight=True, auto_refresh=False):
        self.backlight = True  # BusDisplay's constructor sets the brightness once
        # little-endian RGB565 so PIL's "BGR;16" reads the framebuffer directly
        super().__init__(
            None,
            b"",
            width=width,
            height=height,
            auto_refresh=auto_refresh,
            reverse_bytes_in_word=False,
        )
        # backlight=False: a board whose brightness cannot be set; CircuitPython raises
        # RuntimeError then (shared-bindings/busdisplay/BusDisplay.c).
        self.backlight = backlight
        self.framebuffer = bytearray(width * height * 2)
        self.refreshes = []

    @property
    def brightness(self):
        """The backlight, 0.0 (off) to 1.0 (full)."""
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        if not self.backlight:
            raise RuntimeError("Brightness not adjustable")
        busdisplay.BusDisplay.brightness.fset(self, value)
        self.backlight_changed()

    def backlight_changed(self):
        """The backlight changed: the panel shows it at once (a window redraws)."""

    def _get_refresh_areas(self):
        areas = super()._get_refresh_areas()
        self.refreshes.append([(a.x1, a.y1, a.x2, a.y2) for a in areas])
        return areas

    def _refresh_area(self, area):
        clipped = Area()
        if not self._core.clip_area(area, clipped):
            return True
        w = clipped.width()
        h = clipped.height()
        n = w * h
        # fill_area writes 16-bit pixels into 32-bit words, plus a 1-bit-per-pixel mask
        buf = memoryview(bytearray(((n + 1) // 2) * 4)).cast("I")
        mask = memoryview(bytearray((n // 32 + 1) * 4)).cast("I")
        self._core.fill_area(clipped, mask, buf)
        raw = buf.tobytes()
        stride = self._core.width * 2
        fb = self.framebuffer
        row = w * 2
        o = clipped.y1 * stride + clipped.x1 * 2
        for r in range(h):
            fb[o : o + row] = raw[r * row : (r + 1) * row]
            o += stride
        return True

    def _write(self, command, data):
        pass

    def drawn_refreshes(self):
        """Return the area lists of the refreshes that drew something."""
        return [a for a in self.refreshes if a]

    def pixel(self, x, y):
        """Return the (r, g, b) shown at (x, y), each 0..255."""
        o = (y * self._core.width + x) * 2
        v = self.framebuffer[o] | self.framebuffer[o + 1] << 8
        return ((v >> 11) * 255 // 31, ((v >> 5) & 63) * 255 // 63, (v & 31) * 255 // 31)

    def image(self, scale=1):
        """Return the screen as the player sees it, as a PIL RGB image, optionally scaled up.

        The backlight's light falls with its PWM duty: the pixels' linear light is scaled
        by the brightness, which in sRGB (gamma about 2.2) is brightness ** (1 / 2.2).
        """
        from PIL import Image

        size = (self._core.width, self._core.height)
        img = Image.frombuffer("RGB", size, bytes(self.framebuffer), "raw", "BGR;16", 0, 1)
        level = self._brightness if self.backlight else 1.0
        if level < 1.0:
            f = max(0.0, level) ** (1 / 2.2)
            img = img.point(lambda v: int(v * f + 0.5))
        if scale > 1:
            img = img.resize((img.width * scale, img.height * scale), Image.NEAREST)
        return img

    def save_png(self, path, scale=1):
        """Write the screen to a PNG file, optionally scaled up without smoothing."""
        self.image(scale).save(path, "PNG")
