# SPDX-License-Identifier: MIT
"""Build the 68-byte position of docs/architecture.md from columns of card bytes, for tests."""

from freecell_mc.rules.engine import Game


def position(columns, cells=(), found=(0, 0, 0, 0)):
    """Return a 68-byte position.

    columns: up to 8 lists of card bytes (4..55), the first dealt first; cells: up to 4
    card bytes (0 for an empty cell); found: the top rank on each suit's foundation.
    """
    pos = bytearray(68)
    for c, col in enumerate(columns):
        under = 0
        for b in col:
            pos[b - 4] = under
            under = b
        pos[52 + c] = under
    for i, b in enumerate(cells):
        pos[60 + i] = b
    for s in range(4):
        pos[64 + s] = found[s]
    return pos


def game(columns, cells=(), found=(0, 0, 0, 0), free_cells=4):
    """Return a Game with free_cells cells loaded with position(columns, cells, found)."""
    g = Game(free_cells)
    g.load(position(columns, cells, found), 0)
    return g
