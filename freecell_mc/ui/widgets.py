# SPDX-License-Identifier: MIT
"""Buttons, text, panels and the Screen base class shared by every screen.

Everything here is built once when a screen is entered and mutated afterwards
(text, colour index, ``hidden``); hit tests compare small ints and allocate
nothing, because they run on every tap.

Sizes come from the display and its panel: ``Metrics(height, ppcm)`` gives the
margins, the touch-target height (7 mm on the panel, layout.py) and the text
scale (capitals at least 1.6 mm tall).
"""

import displayio
import terminalio
import vectorio

from freecell_mc.ui import layout
from freecell_mc.compat import const

# Colours: a dark felt green with white text and saturated buttons, because
# cheap TFTs lose contrast at an angle and pastel shades wash out.
BG = const(0x0B3B24)
FG = const(0xFFFFFF)
DIM = const(0xB4CDB9)
BORDER = const(0xFFFFFF)
FILL = const(0x1F4E9C)
FILL_HI = const(0xFFD23F)
FILL_ON = const(0x1F8A3E)
FILL_OFF = const(0x5A5A5A)
FILL_DIS = const(0x2E3A33)
TEXT_DARK = const(0x000000)
TEXT_DIS = const(0x8A968E)
ERROR_BG = const(0xB3001B)
GOLD = const(0xFFD23F)

# Button states; each is an index into the shared button palette, so a state
# change is one color_index write and no new palette.
NORMAL = const(0)
HIGHLIGHT = const(1)
ON = const(2)
OFF = const(3)
DISABLED = const(4)

_BORDER_INDEX = const(5)
_FONT_H = const(12)
_LINE_H = const(15)  # a line's pitch: 1.25 font heights
_ROOM = const(8)  # characters to spare in the grids of a text that outgrew its first ones

_button_palette = None
_solid = {}


def button_palette():
    """Return the palette every button shares (built on first use)."""
    global _button_palette
    if _button_palette is None:
        p = displayio.Palette(6)
        p[NORMAL] = FILL
        p[HIGHLIGHT] = FILL_HI
        p[ON] = FILL_ON
        p[OFF] = FILL_OFF
        p[DISABLED] = FILL_DIS
        p[_BORDER_INDEX] = BORDER
        _button_palette = p
    return _button_palette


def solid(color):
    """Return a one-colour palette for color, shared by everything of that colour."""
    p = _solid.get(color)
    if p is None:
        p = displayio.Palette(1)
        p[0] = color
        _solid[color] = p
    return p


def rect(x, y, w, h, color):
    """Return a filled rectangle shape (no bitmap: vectorio draws it on the fly)."""
    return vectorio.Rectangle(pixel_shader=solid(color), width=max(1, w), height=max(1, h),
                              x=x, y=y)


def text_width(text, scale=1):
    """Return the width in pixels of text (its longest line) in the terminal font at scale."""
    longest = 0
    n = 0
    for ch in text:
        n = 0 if ch == "\n" else n + 1
        if n > longest:
            longest = n
    return longest * layout.FONT_W * scale


def text_height(text, scale=1):
    """Return the height in pixels of text's lines (Text spaces lines 1.25 font heights apart)."""
    lines = text.count("\n")
    return _FONT_H * scale * (4 + 5 * lines) // 4


def wrap(text, cols):
    """Return text broken at spaces into lines of at most cols characters."""
    out = ""
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > cols:
            out += line + "\n"
            line = word
        else:
            line = line + " " + word if line else word
    return out + line


def fit_scale(text, w, h, largest=2):
    """Return the largest text scale (down to 1) at which text fits in w x h."""
    s = largest
    while s > 1 and (text_width(text, s) > w or text_height(text, s) > h):
        s -= 1
    return s


def caption(text, w, scale):
    """Return text broken at spaces to fit a button w wide at scale (a long word stays whole)."""
    cols = max(1, (w - 6) // (layout.FONT_W * scale))
    if text_width(text, scale) <= w - 6:
        return text
    return "\n".join(wrap(line, cols) for line in text.split("\n"))


def button_height(text, scale):
    """Return the height a button needs to hold the caption text at scale."""
    return text_height(text, scale) + 4


class Metrics:
    """Sizes derived from the display and its panel, shared by the screens' layouts."""

    def __init__(self, height, ppcm=0):
        """Size things for a panel `height` px tall of ppcm px per 10 mm (0: the size's default)."""
        if not ppcm:
            ppcm = layout.default_ppcm(0, height)
        self.ppcm = ppcm
        # A finger needs 7 mm and an eye 1.6 mm capitals, whatever the pixels (layout.py).
        self.target = layout.mm_px(layout.TARGET_MM10, ppcm)
        self.text_px = layout.mm_px(layout.TEXT_MM10, ppcm)
        self.text_scale = layout.text_scale(ppcm)
        # A title a size above the text where the height holds six targets; on a small,
        # dense panel (the Pynt's: five) the rows need that height more than a title does.
        self.title_scale = self.text_scale + (1 if height >= 6 * self.target else 0)
        # 240 px of height is the reference; the Titano's 320 scales by 4/3.
        self.margin = max(4, height // 48)
        self.gap = max(4, height // 60)
        self.button_h = max(self.target, height * 40 // 240)
        # Where the content under a screen's title starts.
        self.below_title = self.margin + _FONT_H * self.title_scale + 2

    def line_h(self, scale=0):
        """Return the height of one line of text at scale (default: the text scale)."""
        return _FONT_H * (scale or self.text_scale)


class Text:
    """A few lines of text in the board's built-in font, drawn the way its terminal draws.

    terminalio.FONT.bitmap holds every glyph as a 6x12 tile (`get_glyph(c).tile_index`
    names it), so a line is one TileGrid of glyph indices in a Group that scales them:
    far less heap than a bitmap_label (an object of some 30 attributes, a bitmap of its
    rendered pixels, a palette), which also renders six frames deep, more than
    CircuitPython 9's 1,536-byte Python stack allows inside a screen's build (the bytes
    of each, measured: docs/memory.md, "A text: glyph tiles", and docs/benchmark.txt).
    Lines are 15 px apart (1.25 font heights, as `text_height` counts).
    A new text reuses the grids when it is no wider and has as many lines; a text that
    outgrows its grids is one that changes (the keypad's entry), so the new ones keep
    _ROOM more characters and typing does not build a grid a key.

    One style: what it shows is read as properties (`text`, `scale`, and `group`, the
    displayio Group to put on a screen) and changed by methods (`set`, `move`,
    `set_color`), each a no-op when nothing changes.
    """

    def __init__(self, text="", x=0, y=0, scale=1, color=FG, anchor=(0.0, 0.0)):
        """Build the text's Group and show text.

        :param str text: what to show; "\\n" breaks a line (printable ASCII; a character the
            font lacks shows as a space)
        :param int x: where the anchor point lands, in screen pixels
        :param int y: where the anchor point lands, in screen pixels
        :param int scale: the integer scale of the 6 x 12 font (1.6 mm capitals need
            `Metrics.text_scale`)
        :param int color: the glyphs' colour, 0xRRGGBB
        :param tuple anchor: (ax, ay), the point of the text's box at (x, y): 0 its left or
            top edge, 0.5 its middle, 1 its right or bottom edge
        :raises ValueError: for an anchor other than 0, 0.5 or 1 (the text is placed in
            whole pixels from half its size)
        """
        self._text = ""
        self._x = x
        self._y = y
        # The anchor in half units (0, 1 or 2 of the text's size), so placing needs no float.
        ax = anchor[0] * 2
        ay = anchor[1] * 2
        if ax not in (0, 1, 2) or ay not in (0, 1, 2):
            raise ValueError("anchor: 0, 0.5 or 1")
        self._anchor = int(ax) | int(ay) << 2
        self._cols = 0  # characters across each line's grid
        # The group's TileGrids, a line each, kept typed for the checker (a Group's items are
        # any shape); a tuple, one block, 16 bytes under a list.
        self._grids = ()  # type: tuple
        self._palette = glyph_palette(color)
        self._color = color
        self.group = displayio.Group(scale=scale)
        self.set(text)
        if not text:
            self._place()  # set() left it: where it will show once given a text

    @property
    def text(self):
        """The text shown."""
        return self._text

    def set(self, text, scale=0):
        """Show text, at scale when one is given (0: the scale it has); a no-op when both are
        shown already, so callers may set it every poll."""
        g = self.group
        if scale and scale != g.scale:
            g.scale = scale
            if text == self._text:
                self._place()
                return
        if text == self._text:
            return
        self._text = text
        lines = text.split("\n") if text else ()
        cols = 1
        for line in lines:
            if len(line) > cols:
                cols = len(line)
        font = terminalio.FONT
        grids = self._grids
        if len(lines) != len(grids) or cols > self._cols:
            if cols > self._cols > 0:
                cols += _ROOM
            while len(g):
                g.pop()
            made = []
            for i in range(len(lines)):
                tg = displayio.TileGrid(font.bitmap, pixel_shader=self._palette, width=cols,
                                        height=1, tile_width=layout.FONT_W, tile_height=_FONT_H,
                                        y=i * _LINE_H)
                g.append(tg)
                made.append(tg)
            self._grids = grids = tuple(made)
            self._cols = cols
        for i in range(len(lines)):
            tg = grids[i]
            line = lines[i]
            # One row: tiles by flat index, where tg[k, 0] would make a tuple a character.
            for k in range(self._cols):
                tg[k] = _glyph(font, line[k]) if k < len(line) else 0
        self._place()

    def move(self, x, y):
        """Put the text's anchor point at (x, y)."""
        if x != self._x or y != self._y:
            self._x = x
            self._y = y
            self._place()

    def _place(self):
        """Put the text so that its anchor point lands on its position."""
        g = self.group
        s = g.scale
        a = self._anchor
        g.x = self._x - text_width(self._text, s) * (a & 3) // 2
        g.y = self._y - (text_height(self._text, s) if self._text else 0) * (a >> 2) // 2

    @property
    def scale(self):
        """The text's integer scale (set() changes it)."""
        return self.group.scale

    def set_color(self, color):
        """Change the text colour (one palette entry: the glyphs are not redrawn)."""
        if self._color != color:
            self._color = color
            self._palette[1] = color


def _glyph(font, ch):
    """Return the tile of ch in the built-in font's sheet (a space's tile if it has none).

    Printable ASCII is tiles 0..94 in code point order (shared-module/fontio/BuiltinFont.c),
    so it needs no get_glyph, which builds a 48-byte Glyph on the board for every call.
    """
    c = ord(ch)
    if 0x20 <= c <= 0x7E:
        return c - 0x20
    g = font.get_glyph(c)
    return 0 if g is None else g.tile_index


class Button:
    """A bordered rectangle with a centred caption, a hit test and a visual state.

    label=False draws no caption: the screen draws what the button shows (`daily.digits()`
    draws numbers in one TileGrid, a fraction of a Text). `text` still names the button.
    """

    def __init__(self, x, y, w, h, text="", bid=0, scale=0, border=1, label=True, group=None):
        """Build the button's Group (its edge, its fill and its caption) at x, y.

        :param int x: the left edge, in screen pixels
        :param int y: the top edge, in screen pixels
        :param int w: the width in pixels (a finger's 7 mm at least: `Metrics.target`)
        :param int h: the height in pixels (the same)
        :param str text: the caption ("\\n" breaks a line), or the name of a button
            drawn without one
        :param int bid: the id `Screen.pressed` is handed for a tap on it
        :param int scale: the caption's scale; 0 fits the largest up to 2 into the button,
            and set_text fits it again
        :param int border: the white edge's width in pixels (0: none)
        :param bool label: False draws no caption (the screen draws what the button shows)
        :param group: a Group on the display to put the button in before its shapes (None:
            the caller appends `self.group`). displayio places a vectorio shape when it
            joins a group; in a group not yet on the display it is placed nowhere, and when
            that group joins the display the shape's area is redrawn from the screen's
            top-left corner to its far one: a button added to a shown screen so draws up to
            half of it.
        """
        self.x = x
        self.y = y
        self.w = w
        self.h = h
        self.bid = bid
        self.enabled = True
        self.state = NORMAL
        self._scale_fixed = scale
        self._border = border
        pal = button_palette()
        self.group = displayio.Group()
        if group is not None:
            group.append(self.group)
        if border:
            self._edge = vectorio.Rectangle(
                pixel_shader=pal, width=w, height=h, x=x, y=y, color_index=_BORDER_INDEX
            )
            self.group.append(self._edge)
        self._fill = vectorio.Rectangle(
            pixel_shader=pal,
            width=max(1, w - 2 * border),
            height=max(1, h - 2 * border),
            x=x + border,
            y=y + border,
            color_index=NORMAL,
        )
        self.group.append(self._fill)
        self.caption = None
        self._name = text
        if label:
            s = scale or fit_scale(text, w - 6, h - 4)
            self.caption = Text(text, x + w // 2, y + h // 2, scale=s, color=FG, anchor=(0.5, 0.5))
            self.group.append(self.caption.group)

    @property
    def text(self):
        """The caption (the name of a button drawn without one)."""
        return self._name if self.caption is None else self.caption.text

    def set_text(self, text):
        """Change the caption, refitting its scale unless one was fixed."""
        if self.caption is None:
            self._name = text
            return
        if text == self.caption.text:
            return
        s = self._scale_fixed or fit_scale(text, self.w - 6, self.h - 4)
        self.caption.set(text, s)

    def _paint(self):
        s = self.state if self.enabled else DISABLED
        if self._fill.color_index != s:
            self._fill.color_index = s
        if self.caption is None:
            return
        if s == HIGHLIGHT:
            self.caption.set_color(TEXT_DARK)
        elif s == DISABLED:
            self.caption.set_color(TEXT_DIS)
        else:
            self.caption.set_color(FG)

    def set_state(self, state):
        """Show the button NORMAL, HIGHLIGHT, ON or OFF."""
        if state != self.state:
            self.state = state
            self._paint()

    def move(self, x, y):
        """Put the button's top left corner at x, y, its edge, fill and caption with it."""
        if x == self.x and y == self.y:
            return
        self.x = x
        self.y = y
        b = self._border
        if b:
            self._edge.x = x
            self._edge.y = y
        self._fill.x = x + b
        self._fill.y = y + b
        if self.caption is not None:
            self.caption.move(x + self.w // 2, y + self.h // 2)

    def set_edge(self, state):
        """Colour the border like a state's fill (HIGHLIGHT gives a gold frame), or white with
        -1."""
        if self._border:
            self._edge.color_index = _BORDER_INDEX if state < 0 else state

    def set_enabled(self, enabled):
        """Enable or grey out the button; a disabled button ignores taps."""
        enabled = bool(enabled)
        if enabled != self.enabled:
            self.enabled = enabled
            self._paint()

    @property
    def hidden(self):
        """True when the button is neither drawn nor tappable."""
        return self.group.hidden

    @hidden.setter
    def hidden(self, value):
        self.group.hidden = value

    def hit(self, x, y):
        """Return True if (x, y) is on this visible, enabled button."""
        if self.group.hidden or not self.enabled:
            return False
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


def dismantle(group):
    """Empty group and every group under it, so that nothing of a left screen holds the rest.

    The collector is conservative: a stale word on the C stack that looks like a pointer to
    one object of a dropped screen keeps everything reachable from it. Taken apart, such
    a word keeps one piece (a measured 8 KB of a result screen stayed behind before).
    """
    todo = [group]
    while todo:
        g = todo.pop()
        while len(g):
            o = g.pop()
            if isinstance(o, displayio.Group):
                todo.append(o)


def glyph_palette(color):
    """Return the two-colour palette of glyph tiles: clear, and color."""
    p = displayio.Palette(2)
    p.make_transparent(0)
    p[1] = color
    return p


def glyph_tiles(font, palette, text, cx, top, scale):
    """Return one TileGrid of text's glyphs, centred on cx from top (screen pixels), at scale."""
    n = len(text)
    tg = displayio.TileGrid(font.bitmap, pixel_shader=palette, width=n, height=1,
                            tile_width=layout.FONT_W, tile_height=_FONT_H,
                            x=cx // scale - n * layout.FONT_W // 2, y=top // scale)
    for k in range(n):
        tg[k] = _glyph(font, text[k])
    return tg


class Screen:
    """Base of every screen but the table: a Group, buttons, and the screen interface.

    Subclasses set ``name``, build their widgets in ``__init__`` (after calling
    this one) and override ``pressed(bid)`` for button taps.
    """

    name = "screen"

    def __init__(self, app):
        """Start the screen: its Group over a plain background, no buttons yet.

        :param app: the App, used only as ui/screens/host.py's Host names (its size, its
            panel's density, the saves and clock to read; the actions to ask for). Kept as
            ``self.app`` until close().
        """
        self.app = app
        self.width = app.width
        self.height = app.height
        self.m = Metrics(app.height, app.ppcm)
        self.group = displayio.Group()
        self.buttons = []
        self.group.append(rect(0, 0, self.width, self.height, BG))

    def add_button(self, bid, x, y, w, h, text, scale=0, border=1, label=True):
        """Build a Button (its parameters are the Button's), add it to the screen and return
        it; a tap on it calls pressed(bid)."""
        b = Button(x, y, w, h, text, bid=bid, scale=scale, border=border, label=label,
                   group=self.group)
        self.buttons.append(b)
        return b

    def add_text(self, text, x, y, scale=1, color=FG, anchor=(0.0, 0.0)):
        """Build a Text (its parameters are the Text's), add it to the screen and return it."""
        t = Text(text, x, y, scale=scale, color=color, anchor=anchor)
        self.group.append(t.group)
        return t

    def add_title(self, text, scale=0):
        """Add the screen's title at the top left (at most at scale) and return it."""
        m = self.m
        s = scale or m.title_scale
        # A long title steps down towards the text scale rather than run off the screen.
        while s > m.text_scale and text_width(text, s) > self.width - 2 * m.margin:
            s -= 1
        return self.add_text(text, m.margin, m.margin, scale=s, color=FG)

    def button_at(self, x, y):
        """Return the button under (x, y) or None (allocates nothing)."""
        buttons = self.buttons
        for i in range(len(buttons)):
            b = buttons[i]
            if b.hit(x, y):
                return b
        return None

    def show(self, **kw):
        """Fill in the content for this visit."""

    def tap(self, x, y):
        """Dispatch a derived tap to the button under it, if any."""
        b = self.button_at(x, y)
        if b is not None:
            # pressed() may leave this screen, and close() drops self.app.
            app = self.app
            self.pressed(b.bid)
            app.dirty = True

    def pressed(self, bid):
        """Handle a tap on the button with id bid."""

    def key(self, k):
        """Handle a key; Esc and Back leave for the menu."""
        if k == "esc" or k == "back":
            self.leave()

    def leave(self):
        """Go back to where this screen was entered from (the menu by default)."""
        self.app.goto("menu")

    def tick(self, now_ms):
        """Advance timers; most screens have none."""

    def close(self):
        """Drop references so the screen's objects can be freed."""
        dismantle(self.group)
        self.buttons = []
        self.app = None
