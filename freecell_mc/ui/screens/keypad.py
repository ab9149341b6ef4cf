# SPDX-License-Identifier: MIT
"""The keypad: type a Microsoft deal number or a deal code and play that deal."""

from freecell_mc.ui import widgets
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
        # goes to the keys (four rows of 7 mm on the Titano).
        fy = m.margin
        fh = 12 * 2 + 4
        self.group.append(widgets.rect(m.margin, fy, w - 2 * m.margin, fh, 0x000000))
        self.field = self.add_text("_", m.margin + 6, fy + fh // 2, scale=2, anchor=(0.0, 0.5))
        my = fy + fh + 3
        self.cols = (w - 2 * m.margin) // (6 * ts)
        # Two lines of message: Text puts the second 15 px under the first.
        msg_h = (12 + 15) * ts + 4
        self.error_bg = widgets.rect(0, my - 1, w, msg_h, widgets.ERROR_BG)
        self.error_bg.hidden = True
        self.group.append(self.error_bg)
        self.message = self.add_text("", m.margin, my + 1, scale=ts, color=widgets.DIM)
        top = my + msg_h + 1
        h = self.height - top - m.margin
        pad_w = (w - 2 * m.margin) * 3 // 4
        # The App keeps the table's card art and its counter digits (None: a screen tried
        # on its own, whose keys keep their captions).
        art = getattr(app, "art", None)
        for i in range(len(_PAD)):
            x, y, cw, ch = widgets.grid_cell(i, 3, m.margin, top, pad_w, h, m.gap, 4)
            t = _PAD[i]
            if t == "-":
                bid = _DASH
            elif t == "Del":
                bid = _DEL
            else:
                bid = _DIGIT + ord(t) - 48
            if bid >= _DIGIT + 10 or art is None:
                self.add_button(bid, x, y, cw, ch, t, scale=2)
            else:
                # A digit key shows the move counter's digit tile: ~100 bytes, not a text.
                self.add_button(bid, x, y, cw, ch, t, label=False)
                self.group.append(widgets.digits(art, t, x + cw // 2, y + ch // 2))
        rx = m.margin + pad_w + m.gap
        rw = w - m.margin - rx
        x, y, cw, ch = widgets.grid_cell(0, 1, rx, top, rw, h, m.gap, 4)
        self.ok = self.add_button(_OK, x, y, cw, 2 * ch + m.gap, "OK", scale=2)
        x, y, cw, ch = widgets.grid_cell(2, 1, rx, top, rw, h, m.gap, 4)
        self.add_button(_CLEAR, x, y, cw, ch, "Clear")
        x, y, cw, ch = widgets.grid_cell(3, 1, rx, top, rw, h, m.gap, 4)
        self.add_button(_CANCEL, x, y, cw, ch, "Back")

    def show(self, text="", **kw):
        """Start with an empty entry, or with text (e.g. a code to correct)."""
        self.entry.set(text)
        self._update()

    def _update(self):
        self.field.set(self.entry.text + "_")
        self._say(models.entry_hint(self.entry.text), False)

    def _say(self, text, error):
        self.message.set(models.wrap(text, self.cols))
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
        from freecell_mc.rules import deals

        app = self.app
        try:
            # A daily plays only once its day has come: the check needs today's date.
            today = models.known_today(app.clock.today(), app.saves.last_date)
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
