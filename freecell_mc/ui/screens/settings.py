# SPDX-License-Identifier: MIT
"""Settings: free cells 1-4, take back from foundations, four-colour deck, calibration, USB."""

from freecell_mc.ui import widgets
from freecell_mc.compat import const

_BACK = const(1)
_MORE = const(2)  # the next page, where the height holds fewer rows than there are
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
_USB_ROW = const(3)
# The notes a short screen keeps when not all fit: when a new number of cells applies, and
# whether saves are limited (the USB row's note says why).
_KEPT = (True, False, False, True, False)
_LONGEST_USB_NOTE = "bad save file: copy again"  # the longest of saves/notices.reason()


class Screen(widgets.Screen):
    """The settings screen."""

    name = "settings"

    def __init__(self, app):
        super().__init__(app)
        self.page = 0
        self.pages = 0  # 0 until show() lays the page out
        self.cell_buttons = []
        self.toggles = []
        self.usb_note = None
        self.usb_cols = 0

    def _rows(self, notes):
        """Return (height, stacked, note) of every row; notes: which rows keep their note."""
        m = self.m
        ts = m.text_scale
        w = self.width - 2 * m.margin
        label_h = m.line_h(2)
        out = []
        for r in range(len(_ROWS)):
            label, note = _ROWS[r]
            if r == _USB_ROW and len(_LONGEST_USB_NOTE) > len(note):
                note = _LONGEST_USB_NOTE
            cw = self._control_w(r)
            # Beside the control where the label fits there, else over it.
            stacked = widgets.text_width(label, 2) > w - cw - m.gap
            room = w if stacked else w - cw - m.gap
            if r == _USB_ROW:
                self.usb_cols = room // (6 * ts)
            note = widgets.wrap(note, room // (6 * ts)) if notes[r] else None
            h = label_h + (widgets.text_height(note, ts) if note else 0)
            h = h + m.gap + m.target if stacked else max(m.target, h)
            out.append((h, stacked, note))
        return out

    def _control_w(self, r):
        """Return the width row r's control needs at least: four cells, a switch, Calibrate."""
        m = self.m
        if r == 0:
            return 4 * m.target + 3 * m.gap
        if r == len(_ROWS) - 1:
            return max(m.target, widgets.text_width("Calibrate", m.text_scale) + 8)
        return max(m.target, widgets.text_width("Off", 2) + 8, self.width * 72 // 320)

    def show(self, page=0, **kw):
        """Lay out the page (-1: the last) on the first call, then show the current choices.

        Built right here, not in a helper: a frame more under the buttons' texts would
        deepen the game's deepest path on the board's Python stack (docs/memory.md).
        """
        if self.pages:
            self._refresh()
            return
        m = self.m
        w = self.width
        ts = m.text_scale
        bh = m.target
        top = m.margin // 2 + bh + m.gap
        room = self.height - m.margin // 2 - top
        # All notes on as few pages as possible, else the notes that matter most.
        for notes in ((True,) * len(_ROWS), _KEPT, (False, False, False, True, False)):
            rows = self._rows(notes)
            pages = _paginate([h for h, stacked, note in rows], room, 2)
            if len(pages) <= 2:
                break
        self.pages = len(pages)
        if page < 0 or page >= len(pages):
            page = len(pages) - 1
        self.page = page
        self.add_title("Settings" if len(pages) == 1 else
                       "Settings " + str(page + 1) + "/" + str(len(pages)))
        hw = max(bh, w * 72 // 320, widgets.text_width("More", 2) + 8)
        self.add_button(_BACK, w - m.margin - hw, m.margin // 2, hw, bh, "Back")
        if page + 1 < len(pages):
            self.add_button(_MORE, w - m.margin - 2 * hw - m.gap, m.margin // 2, hw, bh, "More")
        first, last = pages[page]
        # What the page leaves over is shared out between its rows.
        spare = room - sum(rows[r][0] for r in range(first, last)) - 2 * (last - first - 1)
        spare = spare // (last - first)
        y = top
        for r in range(first, last):
            h, stacked, note = rows[r]
            h += spare
            # The row's label, its note, and its control beside or under them.
            self.add_text(_ROWS[r][0], m.margin, y, scale=2)
            if note is not None:
                t = self.add_text(note, m.margin, y + m.line_h(2), scale=ts, color=widgets.DIM)
                if r == _USB_ROW:
                    self.usb_note = t  # says when saves are limited (drive left to USB)
            cw = self._control_w(r)
            if stacked:
                cx = m.margin
                cy = y + h - m.target
                cw = w - 2 * m.margin
                ch = m.target
            else:
                cx = w - m.margin - cw
                cy = y
                ch = h
            if r == 0:
                bw = (cw - 3 * m.gap) // 4
                for n in range(1, 5):
                    b = self.add_button(_CELLS + n, cx + (n - 1) * (bw + m.gap), cy, bw, ch,
                                        str(n), scale=2)
                    self.cell_buttons.append(b)
            elif r == len(_ROWS) - 1:
                self.add_button(_CALIBRATE, cx, cy, cw, ch, "Calibrate")
            else:
                bid = (_TAKEBACK, _FOUR, _USB)[r - 1]
                self.toggles.append(self.add_button(bid, cx, cy, cw, ch, "Off", scale=2))
            y += h + 2

        self._refresh()

    def _refresh(self):
        """Show the current choices on the page's controls."""
        s = self.app.saves.settings
        for i in range(len(self.cell_buttons)):
            self.cell_buttons[i].set_state(widgets.ON if s.cells == i + 1 else widgets.OFF)
        on = {_TAKEBACK: s.takeback, _FOUR: s.four_colour, _USB: s.usb_writable}
        for b in self.toggles:
            b.set_text("On" if on[b.bid] else "Off")
            b.set_state(widgets.ON if on[b.bid] else widgets.OFF)
        if self.usb_note is not None:
            # Saves not on CIRCUITPY fall back to nvm (docs/saves.md): say why, and what to
            # do, in a few words (the start-up notice told it whole).
            reason = getattr(self.app.saves, "limit_reason", None)
            why = reason() if reason is not None else None
            text = _ROWS[_USB_ROW][1] if why is None else why
            self.usb_note.set(widgets.wrap(text, self.usb_cols))

    def pressed(self, bid):
        """Change a setting and keep it; Back and More go between the pages and out."""
        app = self.app
        s = app.saves.settings
        if bid == _BACK:
            if self.page:
                app.goto("settings", page=self.page - 1)
            else:
                self.leave()
            return
        if bid == _MORE:
            app.goto("settings", page=self.page + 1)
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
        self._refresh()


def _paginate(heights, room, gap):
    """Return [(first, end)] row ranges of pages holding rows of these heights in room."""
    pages = []
    first = 0
    used = 0
    for r in range(len(heights)):
        h = heights[r] + (gap if r > first else 0)
        if r > first and used + h > room:
            pages.append((first, r))
            first = r
            h = heights[r]
            used = 0
        used += h
    pages.append((first, len(heights)))
    return pages
