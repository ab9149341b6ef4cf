# SPDX-License-Identifier: MIT
"""The keypad: type a Microsoft deal number or a deal code and play that deal."""

import displayio
import terminalio

from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W
from freecell_mc.compat import const
from freecell_mc.ui.screens import models

_DIGIT = const(10)  # buttons 10..19 type the digits 0..9
_DASH = const(20)
_DEL = const(21)
_OK = const(22)
_CLEAR = const(23)
_CANCEL = const(24)

# The pad reads like a phone: 1 2 3 on top, the dash and Del beside the 0.
_PAD = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "-", "0", "Del")
_PAD_WIDE = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "Del")


def glyphs_at(texts, centres, scale, color):
    """Return a Group of short texts like daily.glyph_row's, each centred on its (x, y) in centres.

    Centred as a Text anchored at its middle is, so they match the captions beside them
    (the keypad's digits, as large as its Del and OK).
    """
    font = terminalio.FONT
    p = widgets.glyph_palette(color)
    g = displayio.Group(scale=scale)
    for i in range(len(texts)):
        cx, cy = centres[i]
        top = cy - widgets.text_height(texts[i], scale) // 2
        g.append(widgets.glyph_tiles(font, p, texts[i], cx, top, scale))
    return g


class Screen(widgets.Screen):
    """The keypad screen."""

    name = "keypad"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        w = self.width
        self.entry = models.Entry()
        ts = m.text_scale
        # No heading over the field: the hint under it says what to type, and the height
        # goes to the keys. A phone's pad (four rows, OK beside two of them) where four
        # rows of 7 mm fit under the field and two lines of message; else (the Pynt) three
        # rows of five keys, and margins and gaps as thin as the height needs.
        fh = m.line_h(2) + 4  # the field's text at scale 2
        msg_h = widgets.text_height("\n", ts) + 4  # two lines
        margin = m.margin
        gap = m.gap
        rows = 4
        while True:
            top = margin + fh + 2 + msg_h + 2
            room = self.height - top - margin
            if room >= rows * m.target + (rows - 1) * gap:
                break
            if rows == 4:
                rows = 3
            elif gap > 2 or margin > 2:
                gap = margin = 2
                fh = m.line_h(2) + 2
                msg_h -= 2
            else:
                break
        fy = margin
        self.group.append(widgets.rect(margin, fy, w - 2 * margin, fh, 0x000000))
        self.field = self.add_text("_", margin + 6, fy + fh // 2, scale=2, anchor=(0.0, 0.5))
        my = fy + fh + 2
        self.cols = (w - 2 * margin) // (FONT_W * ts)
        self.error_bg = widgets.rect(0, my, w, msg_h, widgets.ERROR_BG)
        self.error_bg.hidden = True
        self.group.append(self.error_bg)
        self.message = self.add_text("", margin, my + 2, scale=ts, color=widgets.DIM)
        # The pad reads like a phone's (1 2 3 on top, the dash and Del beside the 0), or in
        # three rows of four; OK, Clear and Back stand in a column at the right.
        cols = 3 if rows == 4 else 4
        pad = _PAD if rows == 4 else _PAD_WIDE
        pad_w = (w - 2 * margin - gap) * cols // (cols + 1)
        # The right column at least as wide as "Clear" at the text scale.
        pad_w = min(pad_w, w - 2 * margin - gap - widgets.text_width("Clear", ts) - 6)
        # The digit keys show glyph tiles in one scaled group (~100 bytes a key, not a
        # Text's 300), at the scale of the other keys' captions: as large as Del and OK.
        digits = []
        centres = []
        for i in range(len(pad)):
            x, y, cw, ch = models.grid_cell(i, cols, margin, top, pad_w, room, gap, rows)
            t = pad[i]
            if t == "-":
                bid = _DASH
            elif t == "Del":
                bid = _DEL
            else:
                bid = _DIGIT + ord(t) - 48
            if bid >= _DIGIT + 10:
                self.add_button(bid, x, y, cw, ch, t, scale=2)
            else:
                self.add_button(bid, x, y, cw, ch, t, label=False)
                digits.append(t)
                centres.append((x + cw // 2, y + ch // 2))
        self.group.append(glyphs_at(digits, centres, 2, widgets.FG))
        rx = margin + pad_w + gap
        rw = w - margin - rx
        x, y, cw, ch = models.grid_cell(0, 1, rx, top, rw, room, gap, rows)
        self.ok = self.add_button(_OK, x, y, cw, (rows - 2) * (ch + gap) - gap, "OK", scale=2)
        for bid, text in ((_CLEAR, "Clear"), (_CANCEL, "Back")):
            x, y, cw, ch = models.grid_cell(rows - 2 + (bid == _CANCEL), 1, rx, top, rw, room,
                                             gap, rows)
            self.add_button(bid, x, y, cw, ch, text)

    def show(self, text="", **kw):
        """Start with an empty entry, or with text (e.g. a code to correct)."""
        self.entry.set(text)
        self._update()

    def _update(self):
        self.field.set(self.entry.text + "_")
        self._say(models.entry_hint(self.entry.text), False)

    def _say(self, text, error):
        self.message.set(widgets.wrap(text, self.cols))
        self.message.set_color(widgets.FG if error else widgets.DIM)
        self.error_bg.hidden = not error

    def pressed(self, bid):
        """Type, delete, clear, cancel or play."""
        e = self.entry
        if _DIGIT <= bid < _DIGIT + 10:
            e.press(chr(48 + bid - _DIGIT))
        elif bid == _DASH:
            e.press("-")
        elif bid == _DEL:
            e.back()
        elif bid == _CLEAR:
            e.clear()
        elif bid == _CANCEL:
            self.leave()
            return
        elif bid == _OK:
            self.submit()
            return
        self._update()

    def submit(self):
        """Play the typed deal, or say clearly why it is not one and keep what was typed."""
        from freecell_mc.dates import known_today
        from freecell_mc.rules import deals

        app = self.app
        try:
            # A daily plays only once its day has come: the check needs today's date.
            today = known_today(app.clock.today(), app.saves.last_date)
            kind, number, cells = models.parse_entry(
                self.entry.text, app.saves.settings.cells, deals.parse_code, today, True
            )
        except ValueError as err:
            self._say(str(err), True)
            return False
        app.start_deal(kind, number, cells)
        return True

    def resume(self):
        """Return what show() needs to come back to this entry (after a question)."""
        return {"text": self.entry.text}

    def key(self, k):
        """Digits type, Back deletes, Enter plays, Esc leaves."""
        if len(k) == 1 and "0" <= k <= "9":
            self.pressed(_DIGIT + ord(k) - 48)
        elif k == "-":
            self.pressed(_DASH)
        elif k == "back":
            self.pressed(_DEL)
        elif k == "enter":
            self.pressed(_OK)
        elif k == "esc":
            self.leave()
