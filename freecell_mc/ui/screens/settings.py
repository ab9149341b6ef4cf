# SPDX-License-Identifier: MIT
"""Settings: free cells 1-4, take back, four colours, USB, calibration, the backlight's times."""

from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W
from freecell_mc.compat import const
from freecell_mc.saves.settings import DARK_AFTER_S, DIM_AFTER_S

_BACK = const(1)
_MORE = const(2)  # the next page, where the height holds fewer rows than there are
_CELLS = const(10)  # buttons 11..14 choose 1..4 free cells
_TAKEBACK = const(20)
_FOUR = const(21)
_USB = const(22)
_CALIBRATE = const(23)
_DIM = const(24)
_DARK = const(25)

_ROWS = (
    ("Free cells", "from the next deal"),
    ("Take back", "cards from foundations"),
    ("4 colours", "a colour for each suit"),
    ("USB updates", "takes effect after a reset"),
    ("Touch screen", "when taps miss their mark"),
    ("Dim after", "without a touch"),
    ("Screen off after", "saved first; a touch wakes it"),
)
_CELLS_ROW = const(0)
_USB_ROW = const(3)
_TOUCH_ROW = const(4)
_DIM_ROW = const(5)
_DARK_ROW = const(6)
# The button of each row with one switch or choice (the cells have four, Touch its own).
_BIDS = (0, _TAKEBACK, _FOUR, _USB, 0, _DIM, _DARK)
# The notes a short screen keeps when not all fit: when a new number of cells applies, and
# whether saves are limited (the USB row's note says why); and, where the board has no
# brightness control, the Dim row's note saying so (_NO_LIGHT).
_KEPT = (True, False, False, True, False, False, False)
_FEWEST = (False, False, False, True, False, False, False)
_LONGEST_USB_NOTE = "bad save file: copy again"  # the longest of saves/notices.reason()
_NO_LIGHT = "no brightness control on this board"
_NEVER = "Never"
_LONGEST_TIME = "10 min"  # the widest caption of the two times (_time)


def _time(seconds):
    """Return the caption of a quiet spell: 30 s, 5 min, Never."""
    if not seconds:
        return _NEVER
    if seconds < 60:
        return str(seconds) + " s"
    return str(seconds // 60) + " min"


class Screen(widgets.Screen):
    """The settings screen."""

    name = "settings"

    def __init__(self, app):
        super().__init__(app)
        self.page = 0
        self.pages = 0  # 0 until show() lays the page out
        self.cell_buttons = []
        self.toggles = []
        self.times = []  # the Dim and Screen off buttons on the page
        self.usb_note = None
        self.usb_cols = 0
        self.light_note = None  # the Dim row's note, where the page shows it
        # Where the board cannot set its backlight the two times do nothing: said, not offered.
        self.light = app.backlight.adjustable

    def _note(self, r):
        """Return row r's note as wide as it may get (the USB row's longest reason)."""
        note = _ROWS[r][1]
        if r == _USB_ROW and len(_LONGEST_USB_NOTE) > len(note):
            return _LONGEST_USB_NOTE
        if r == _DIM_ROW and not self.light:
            return _NO_LIGHT
        if r == _DARK_ROW and not self.light:
            return None
        return note

    def _rows(self, notes):
        """Return (height, stacked, note) of every row; notes: which rows keep their note."""
        m = self.m
        ts = m.text_scale
        w = self.width - 2 * m.margin
        label_h = m.line_h(2)
        out = []
        for r in range(len(_ROWS)):
            label = _ROWS[r][0]
            note = self._note(r)
            cw = self._control_w(r)
            # Beside the control where the label fits there, else over it.
            stacked = widgets.text_width(label, 2) > w - cw - m.gap
            room = w if stacked else w - cw - m.gap
            if r == _USB_ROW:
                self.usb_cols = room // (FONT_W * ts)
            keep = notes[r] or (r == _DIM_ROW and not self.light)
            note = widgets.wrap(note, room // (FONT_W * ts)) if keep and note else None
            h = label_h + (widgets.text_height(note, ts) if note else 0)
            h = h + m.gap + m.target if stacked else max(m.target, h)
            out.append((h, stacked, note))
        return out

    def _control_w(self, r):
        """Return the width row r's control needs at least: four cells, a switch, Calibrate."""
        m = self.m
        if r == _CELLS_ROW:
            return 4 * m.target + 3 * m.gap
        if r == _TOUCH_ROW:
            # At scale 2, as every other control's caption (and every label) on the page.
            return max(m.target, widgets.text_width("Calibrate", 2) + 8)
        if r == _DIM_ROW or r == _DARK_ROW:
            return max(m.target, widgets.text_width(_LONGEST_TIME, 2) + 8)
        return max(m.target, widgets.text_width("Off", 2) + 8, self.width * 72 // 320)

    def show(self, page=0, touch=False, **kw):
        """Lay out the page (-1: the last; touch: Touch's) once, then show the current choices.

        Built right here, not in a helper: a frame more under the buttons' texts would
        deepen the game's deepest path on the board's Python stack (docs/memory.md).
        """
        if self.pages:
            self._refresh()
            return
        m = self.m
        w = self.width
        bh = m.target
        top = m.margin // 2 + bh + m.gap
        room = self.height - m.margin // 2 - top
        # All notes on as few pages as possible, else the notes that matter most; where
        # none of that fits two pages, the fewest pages.
        best = None
        for notes in ((True,) * len(_ROWS), _KEPT, _FEWEST):
            rows = self._rows(notes)
            pages = _paginate([h for h, stacked, note in rows], room, 2)
            if best is None or len(pages) < len(best[1]):
                best = (rows, pages)
            if len(pages) <= 2:
                break
        rows, pages = best
        self.pages = len(pages)
        if page < 0 or page >= len(pages):
            page = len(pages) - 1
        if touch:
            # Back from the calibration: to the page it was opened from.
            page = [i for i in range(len(pages)) if pages[i][0] <= _TOUCH_ROW < pages[i][1]][0]
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
                t = self.add_text(note, m.margin, y + m.line_h(2), scale=m.text_scale,
                                  color=widgets.DIM)
                if r == _USB_ROW:
                    self.usb_note = t  # says when saves are limited (drive left to USB)
                elif r == _DIM_ROW:
                    self.light_note = t
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
            if r == _CELLS_ROW:
                bw = (cw - 3 * m.gap) // 4
                for n in range(1, 5):
                    b = self.add_button(_CELLS + n, cx + (n - 1) * (bw + m.gap), cy, bw, ch,
                                        str(n), scale=2)
                    self.cell_buttons.append(b)
            elif r == _TOUCH_ROW:
                self.add_button(_CALIBRATE, cx, cy, cw, ch, "Calibrate", scale=2)
            elif r == _DIM_ROW or r == _DARK_ROW:
                b = self.add_button(_BIDS[r], cx, cy, cw, ch, _LONGEST_TIME, scale=2)
                b.set_enabled(self.light)
                self.times.append(b)
            else:
                self.toggles.append(self.add_button(_BIDS[r], cx, cy, cw, ch, "Off", scale=2))
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
        for b in self.times:
            # Where the board cannot dim, a dash: no time applies.
            if not self.light:
                b.set_text("-")
            elif b.bid == _DIM:
                b.set_text(_time(DIM_AFTER_S[s.dim]))
            else:
                b.set_text(_time(DARK_AFTER_S[s.dark]))
        if self.usb_note is not None:
            # Saves not on CIRCUITPY fall back to nvm (docs/saves.md): say why, and what to
            # do, in a few words (the start-up notice told it whole).
            why = self.app.saves.limit_reason()
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
        # The App changes, applies and saves the setting; the screen shows what it now is.
        if _CELLS < bid <= _CELLS + 4:
            app.set_setting("cells", bid - _CELLS)
        elif bid == _TAKEBACK:
            app.set_setting("takeback", not s.takeback)
        elif bid == _FOUR:
            app.set_setting("four_colour", not s.four_colour)
        elif bid == _USB:
            app.set_setting("usb_writable", not s.usb_writable)
        elif bid == _DIM:
            # Each tap the next choice, round to the first after Never.
            app.set_setting("dim", (s.dim + 1) % len(DIM_AFTER_S))
        elif bid == _DARK:
            app.set_setting("dark", (s.dark + 1) % len(DARK_AFTER_S))
        else:
            return
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
