# SPDX-License-Identifier: MIT
"""Settings: free cells 1-4, take back from foundations, four-colour deck, calibration, USB."""

from freecell_mc.ui import widgets
from freecell_mc.compat import const

_BACK = const(1)
_CELLS = const(10)  # buttons 11..14 choose 1..4 free cells
_TAKEBACK = const(20)
_FOUR = const(21)
_USB = const(22)
_CALIBRATE = const(23)

_ROWS = (
    ("Free cells", "from the next deal"),
    ("Take back", "cards from foundations"),
    ("4 colours", "a colour for each suit"),
    ("USB updates", "takes effect after a reset"),
    ("Touch", "calibrate the screen"),
)


class Screen(widgets.Screen):
    """The settings screen."""

    name = "settings"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        w = self.width
        bh = m.button_h
        self.add_title("Settings")
        bw = w * 72 // 320
        self.add_button(_BACK, w - m.margin - bw, m.margin // 2, bw, bh, "Back")
        top = m.margin // 2 + bh + m.gap
        pitch = (self.height - top) // len(_ROWS)
        rh = min(bh, pitch - 2)
        ts = m.text_scale
        # The controls start right of the longest label or note, whichever is wider, but
        # keep room for "Calibrate" at the text scale.
        ctrl_x = w * 164 // 320
        for label, sub in _ROWS:
            ctrl_x = max(ctrl_x, m.margin + widgets.text_width(sub, ts) + m.gap,
                         m.margin + widgets.text_width(label, 2) + m.gap)
        ctrl_x = min(ctrl_x, w - m.margin - max(w * 100 // 320, widgets.text_width("Calibrate", ts) + 8))
        ctrl_w = w - m.margin - ctrl_x
        # A note wider than the room left of the controls wraps; where even that does not
        # fit under its label (a small panel's big text), the note is left out.
        note_cols = (ctrl_x - m.margin - m.gap) // (6 * ts)
        self.cell_buttons = []
        self.toggles = []
        for r in range(len(_ROWS)):
            y = top + r * pitch
            label, sub = _ROWS[r]
            self.add_text(label, m.margin, y, scale=2)
            text = widgets.wrap(sub, note_cols)
            note = self.add_text(text, m.margin, y + 25, scale=ts, color=widgets.DIM)
            note.group.hidden = 25 + m.line_h() * (text.count("\n") + 1) > pitch
            if r == 3:
                self.usb_note = note  # says when saves are limited (drive left to USB)
            if r == 0:
                cw = (ctrl_w - 3 * m.gap) // 4
                for n in range(1, 5):
                    b = self.add_button(_CELLS + n, ctrl_x + (n - 1) * (cw + m.gap), y, cw, rh,
                                        str(n), scale=2)
                    self.cell_buttons.append(b)
            elif r == 4:
                self.add_button(_CALIBRATE, ctrl_x, y, ctrl_w, rh, "Calibrate")
            else:
                bid = (_TAKEBACK, _FOUR, _USB)[r - 1]
                self.toggles.append(self.add_button(bid, ctrl_x, y, ctrl_w, rh, "Off", scale=2))

    def show(self, **kw):
        """Show the current choices."""
        s = self.app.saves.settings
        for i in range(4):
            self.cell_buttons[i].set_state(widgets.ON if s.cells == i + 1 else widgets.OFF)
        self._toggle(0, s.takeback)
        self._toggle(1, s.four_colour)
        self._toggle(2, s.usb_writable)
        # Saves not on CIRCUITPY fall back to nvm (docs/saves.md): say why, in a few words.
        reason = getattr(self.app.saves, "limit_reason", None)
        why = reason() if reason is not None else None
        self.usb_note.set(_ROWS[3][1] if why is None else "saves limited: " + why)

    def _toggle(self, i, on):
        b = self.toggles[i]
        b.set_text("On" if on else "Off")
        b.set_state(widgets.ON if on else widgets.OFF)

    def pressed(self, bid):
        """Change a setting and keep it."""
        app = self.app
        s = app.saves.settings
        if bid == _BACK:
            self.leave()
            return
        if bid == _CALIBRATE:
            app.goto("calibration")
            return
        if _CELLS < bid <= _CELLS + 4:
            s.cells = bid - _CELLS
        elif bid == _TAKEBACK:
            s.takeback = not s.takeback
        elif bid == _FOUR:
            s.four_colour = not s.four_colour
        elif bid == _USB:
            s.usb_writable = not s.usb_writable
        else:
            return
        app.settings_changed()
        self.show()
