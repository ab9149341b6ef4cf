# SPDX-License-Identifier: MIT
"""The Pynt's corner: Finish and the move counter share it without the counter vanishing.

Where the layout has no strip (the Pynt), the counter stands in the bottom right corner
and Finish where the columns leave it room, in that corner when they leave none: the
counter then stands just left of Finish, along the bottom edge, where no index ever is
(ui/narrow.py). Freecell Solver's solutions of the 120 Microsoft deals of tests/fixtures,
played until Finish shows: the counter shows, clear of Finish, in every one.
"""

from freecell_mc.rules import deals, notation
from freecell_mc.rules.engine import Game
from screen_states import PanelBoard
from solutions import fcs_solutions


def test_finish_leaves_the_pynts_move_counter_in_sight():
    board = PanelBoard("pynt")
    try:
        app = board.app
        table = app.table
        strip = table.strip
        finishes = 0
        in_corner = 0
        for deal, cells, moves in fcs_solutions():
            g = Game(cells)
            g.deal(deals.ms_deck(deal))
            for text in moves:
                if g.finish_available():
                    break
                src, dst, n = notation.resolve_move(g, text)
                assert g.move(src, dst, n)
            assert g.finish_available(), deal
            app.game.cells = cells
            app.game.load(bytes(g.pos), g.moves)
            table.redraw()
            board.poll()  # its tick builds Finish the first time
            b = strip.finish_button
            assert strip.finish_shown and not b.hidden
            c = strip.counter
            finishes += 1
            in_corner += b.x + b.w == table.layout.width
            assert not c.hidden and not strip.badge.hidden, deal
            digits = len(str(g.moves)) * c.tile_width
            # The badge (2 px of felt round the digits) clear of Finish.
            assert (c.x + digits + 2 <= b.x or b.x + b.w <= c.x - 2
                    or c.y + c.tile_height <= b.y), deal
            assert 0 <= c.x - 2 and c.y + c.tile_height <= table.layout.height
        assert finishes == 120 and in_corner > 50, (finishes, in_corner)
    finally:
        board.close()
