# SPDX-License-Identifier: MIT
"""Touch calibration: tap two crosses in opposite corners, then a third to check.

Taps arrive in screen pixels mapped with the calibration in use; that mapping is
linear, so each tap is turned back into the raw reading that produced it, and the
two raw readings give the new ((x_lo, x_hi), (y_lo, y_hi)) the touch driver takes.
The third cross checks the result before anything is stored.
"""

from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W
from freecell_mc.compat import const
from freecell_mc.ui.screens import models

_BACK = const(1)
_DEFAULT = const(2)
_ARM = const(12)  # half the length of a cross's arms
_STEPS = const(3)


def targets(w, h):
    """Return the three cross positions: top left, bottom right, then top right to check."""
    ix = w // 8
    iy = h // 8
    return ((ix, iy), (w - 1 - ix, h - 1 - iy), (w - 1 - ix, iy))


class Screen(widgets.Screen):
    """The calibration screen."""

    name = "calibration"

    def __init__(self, app):
        super().__init__(app)
        w = self.width
        h = self.height
        m = self.m
        self.targets = targets(w, h)
        self.tolerance = max(10, w // 24)
        self.raws = [(0, 0), (0, 0)]
        self.step = 0
        self.new = None
        self.cross_h = widgets.rect(0, 0, 2 * _ARM + 1, 3, widgets.GOLD)
        self.cross_v = widgets.rect(0, 0, 3, 2 * _ARM + 1, widgets.GOLD)
        self.group.append(self.cross_h)
        self.group.append(self.cross_v)
        ts = m.text_scale
        self.cols = (w - 2 * m.margin) // (FONT_W * ts)
        # The title and the instructions stand between the top crosses and the buttons, the
        # buttons at the bottom left, clear of the bottom-right cross: nothing the player
        # reads or taps ever covers a cross.
        ty = h // 8 + _ARM + m.gap
        self.title = self.add_text("Touch calibration", w // 2, ty, scale=2, anchor=(0.5, 0.0))
        self.info = self.add_text("", w // 2, ty + m.line_h(2) + m.gap, scale=ts,
                                  anchor=(0.5, 0.0))
        bh = m.button_h
        bw = max(m.target, w * 100 // 320, widgets.text_width("Default", ts) + 8)
        bw = min(bw, (w - 1 - w // 8 - _ARM - 2 * m.gap - m.margin) // 2)
        y = h - m.margin - bh
        self.add_button(_DEFAULT, m.margin, y, bw, bh, "Default")
        self.add_button(_BACK, m.margin + bw + m.gap, y, bw, bh, "Back")

    def _current(self):
        cal = self.app.saves.settings.calibration
        if not models.valid_calibration(cal):
            cal = models.DEFAULT_CALIBRATION
        return cal

    def show(self, **kw):
        """Start at the first cross."""
        self._start("Tap the centre of the cross.")

    def _start(self, why):
        self.step = 0
        self.new = None
        self._place()
        self._say(why, "(1 of 3)")

    def _place(self):
        x, y = self.targets[self.step]
        self.cross_h.hidden = False
        self.cross_v.hidden = False
        self.cross_h.x = x - _ARM
        self.cross_h.y = y - 1
        self.cross_v.x = x - 1
        self.cross_v.y = y - _ARM

    def _raw(self, x, y, cal):
        (xl, xh), (yl, yh) = cal
        return (models.screen_to_raw(x, xl, xh, self.width),
                models.screen_to_raw(y, yl, yh, self.height))

    def tap(self, x, y):
        """Buttons first; any other tap is a reading for the current cross."""
        if self.button_at(x, y) is not None:
            super().tap(x, y)
            return
        if self.step >= _STEPS:
            return
        app = self.app
        app.dirty = True
        cal = self._current()
        if self.step < 2:
            self.raws[self.step] = self._raw(x, y, cal)
            self.step += 1
            if self.step == 2:
                try:
                    self.new = models.solve_calibration(
                        self.targets[:2], self.raws, self.width, self.height)
                except ValueError as err:
                    self._start(str(err))
                    return
            self._place()
            self._say("Tap the centre of the cross.", "(" + str(self.step + 1) + " of 3)")
            return
        # The check: where would this tap land with the new calibration?
        new = self.new
        if new is None:
            return
        rx, ry = self._raw(x, y, cal)
        (xl, xh), (yl, yh) = new
        sx = models.raw_to_screen(rx, xl, xh, self.width)
        sy = models.raw_to_screen(ry, yl, yh, self.height)
        tx, ty = self.targets[2]
        off = max(abs(sx - tx), abs(sy - ty))
        if off > self.tolerance:
            self._start("That missed by " + str(off) + " px; again from the start.")
            return
        self.save(new)
        self._say("Saved. Touch now follows your taps.")
        self.step = _STEPS
        # Nothing left to tap: a cross still standing would ask for one more tap.
        self.cross_h.hidden = True
        self.cross_v.hidden = True

    def _say(self, text, count=""):
        """Show text under the title, wrapped to the screen's width, and count after it.

        The count ("(2 of 3)") is never broken: it ends the last line where it fits there,
        else it takes a line of its own.
        """
        lines = widgets.wrap(text, self.cols)
        if count:
            last = len(lines) - lines.rfind("\n") - 1
            lines += ("\n" if last + 1 + len(count) > self.cols else " ") + count
        self.info.set(lines)

    def save(self, cal):
        """Store cal as the player's calibration and hand it to the touch driver."""
        self.app.set_setting("calibration", cal)

    def pressed(self, bid):
        """Back leaves; Default restores the factory calibration."""
        if bid == _BACK:
            self.leave()
        elif bid == _DEFAULT:
            self.save(models.DEFAULT_CALIBRATION)
            self._start("Default calibration restored.")

    def leave(self):
        """Back to the settings."""
        self.app.goto("settings", touch=True)  # the page with Touch
