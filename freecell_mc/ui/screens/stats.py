# SPDX-License-Identifier: MIT
"""Statistics: games played and won with the win rate beside them, won games' times and moves."""

from freecell_mc.ui import widgets
from freecell_mc.ui.layout import FONT_W
from freecell_mc.compat import const
from freecell_mc.ui.screens import models

_BACK = const(1)

# Tiles in reading order; the last cell of the 3x3 grid is the Back button.
_CAPTIONS = (
    "Games played", "Games won", "Win rate",
    "Best time", "Average time", "Daily days won",
    "Best moves", "Average moves",
)


def figures(stats):
    """Return the eight tile values, in _CAPTIONS order, as text."""
    best_t = stats.best_seconds if stats.won else None
    best_m = stats.best_moves if stats.won else None
    avg_m = stats.avg_moves()
    rate = stats.win_rate()
    return (
        str(stats.played),
        str(stats.won),
        "-" if rate is None else str(rate) + "%",
        models.clock_text(best_t),
        models.clock_text(stats.avg_seconds()),
        str(stats.days_won),
        "-" if best_m is None else str(best_m),
        "-" if avg_m is None else str(avg_m),
    )


class Screen(widgets.Screen):
    """The statistics screen."""

    name = "stats"

    def __init__(self, app):
        super().__init__(app)
        m = self.m
        ts = m.text_scale
        w = self.width - 2 * m.margin
        # Tiles of three by three, the last one Back, where every caption (wrapped to its
        # tile) and a figure fit a tile at the text scale; else (the Pynt) a list of lines,
        # caption at the left and figure at the right, with Back beside the title.
        top = m.below_title + m.gap // 2
        h = self.height - top - m.margin
        x, y, cw, ch = models.grid_cell(0, 3, m.margin, top, w, h, m.gap, 3)
        tiles = ch >= m.target
        for cap in _CAPTIONS:
            lines = widgets.wrap(cap, (cw - 4) // (FONT_W * ts))
            if (widgets.text_width(lines, ts) > cw - 4
                    or widgets.text_height(lines, ts) + m.line_h() + 6 > ch):
                tiles = False
        self.values = []
        self.tiles = tiles
        if tiles:
            self.add_title("Statistics")
            self.cell_w = cw - 4
            for i in range(len(_CAPTIONS)):
                x, y, cw, ch = models.grid_cell(i, 3, m.margin, top, w, h, m.gap, 3)
                self.group.append(widgets.rect(x, y, cw, ch, 0x08301C))
                cap = widgets.wrap(_CAPTIONS[i], (cw - 4) // (FONT_W * ts))
                self.add_text(cap, x + cw // 2, y + 2, scale=ts, color=widgets.DIM,
                              anchor=(0.5, 0.0))
                self.values.append(self.add_text("-", x + cw // 2, y + ch - 2, scale=2,
                                                 anchor=(0.5, 1.0)))
            x, y, cw, ch = models.grid_cell(8, 3, m.margin, top, w, h, m.gap, 3)
            self.add_button(_BACK, x, y, cw, ch, "Back")
            return
        bh = m.target
        bw = max(bh, widgets.text_width("Back", 2) + 8)
        self.add_title("Statistics")
        self.add_button(_BACK, self.width - m.margin - bw, m.margin // 2, bw, bh, "Back")
        top = m.margin // 2 + bh + m.gap
        pitch = (self.height - top - m.margin // 2) // len(_CAPTIONS)
        self.cell_w = w
        for i in range(len(_CAPTIONS)):
            y = top + i * pitch
            self.add_text(_CAPTIONS[i], m.margin, y, scale=ts, color=widgets.DIM)
            self.values.append(self.add_text("-", self.width - m.margin, y, scale=ts,
                                             anchor=(1.0, 0.0)))

    def show(self, **kw):
        """Fill in the figures, each as big as its tile allows (never under the text scale)."""
        vals = figures(self.app.saves.stats)
        ts = self.m.text_scale
        for i in range(len(vals)):
            v = self.values[i]
            fit = max(ts, widgets.fit_scale(vals[i], self.cell_w, 99)) if self.tiles else 0
            v.set(vals[i], fit)

    def pressed(self, bid):
        """Back to the menu."""
        if bid == _BACK:
            self.leave()
