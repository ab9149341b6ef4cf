# SPDX-License-Identifier: MIT
"""The Pynt's long columns: the run is picked where a finger finds it, the lens opens where
the run isn't.

On the Pynt a column of 14 cards or more shows its covered cards with a smaller index, and
a tap on them opens the lens (the column whole at the full index). A finger aimed at the
run at the column's foot, whose cards are 8 px strips there, lands up to half its width
(half a target, 3.5 mm) above the run's first card: those taps pick the run, as a tap over
a run does on the PyPortal and the Titano; only the covered cards above open the lens.

Positions: Freecell Solver's solutions of the 120 Microsoft deals of tests/fixtures (4, 3
and 2 free cells), after every move, wherever a column is that long.
"""

from freecell_mc.rules import notation
from freecell_mc.rules.engine import Game
from screen_states import PanelBoard
from solutions import fcs_solutions


def test_a_finger_aimed_at_a_long_columns_run_picks_it_and_the_lens_opens_above():
    board = PanelBoard("pynt")
    try:
        app = board.app
        table = app.table
        lay = table.layout
        half = lay.target // 2
        games = 0
        checked = 0
        for deal, cells, moves in fcs_solutions():
            g = Game(cells)
            from freecell_mc.rules import deals

            g.deal(deals.ms_deck(deal))
            long_seen = False
            for text in moves:
                src, dst, n = notation.resolve_move(g, text)
                assert g.move(src, dst, n)
                for c in range(8):
                    k = g.column_len(c)
                    if not lay.tight(k):
                        continue
                    long_seen = True
                    app.game.cells = cells
                    app.game.load(bytes(g.pos), g.moves)
                    table.redraw()
                    first = k - g.run_len(c)
                    top = lay.card_y(first, k)
                    x = lay.column_x(c) + lay.card_w // 2
                    # From half a target above the run's first card down through its strip.
                    for y in range(max(lay.col_y, top - half + 1), top + lay.overlap(k)):
                        if y < lay.col_y + half and y < top:
                            continue  # the lens keeps half a target at the top (below)
                        table.tap(x, y)
                        assert table.lens_col == -1, (deal, c, k, first, y)
                        assert (table.sel_src, table.sel_n) == (c, k - first), (deal, c, y)
                        table.clear_selection()
                        checked += 1
                    # Above that band, over covered cards: the lens, and the next tap closes it.
                    if first:
                        table.tap(x, lay.col_y + 1)
                        assert table.lens_col == c and table.sel_src == -1, (deal, c, first)
                        table.tap(x, lay.col_y + 1)
                        assert table.lens_col == -1
            games += long_seen
        # Freecell Solver's play builds such columns in a good share of the deals.
        assert games >= 20 and checked > 1000, (games, checked)
    finally:
        board.close()
