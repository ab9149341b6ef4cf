# SPDX-License-Identifier: MIT
"""A tap just outside a lit place never does something else, on all three boards.

With a card held, every place it may go is lit; a finger aimed at one lands a few pixels
off now and then. Such a tap may land the card on the place it does hit when that one is
lit too (a neighbouring lit column, say), or let go of it, or pick up the card it hits;
it must never take a move back, leave the table or move the card anywhere unlit. A tap on
Undo, Menu or Finish while a card is held only lets go of it (table.py), and on the Pynt,
whose top row holds the buttons, dead gaps stand either side of the foundations' block.

The held card tapped again goes home (SPEC 4), which a tap beside its lit foundation may
do too.

Positions: Microsoft deals 1 to 3 along Freecell Solver's solutions, every fourth move,
each card that lights anything held in turn, each place it lights tapped from 1 to 12
pixels (about 2 mm on the Pynt) outside every edge of the area that takes its taps.
"""

import pytest

from freecell_mc.ui import layout
from freecell_mc.ui.layout import SLOT_CELL, SLOT_FOUND
from screen_states import BOARDS, PanelBoard, load
from solutions import fcs_solution

OFFSETS = (1, 2, 4, 7, 12)  # pixels outside the place's edge


def place_box(lay, slot):
    """Return (x1, y1, x2, y2) of the area whose taps slot takes (a held card's)."""
    if slot < SLOT_CELL:
        x = lay.x0 - lay.gap // 2 + slot * lay.pitch
        return max(0, x), lay.col_y, min(lay.status_x, x + lay.pitch), lay.height
    if slot >= SLOT_FOUND and lay.found_x:
        return lay.found_x, 0, lay.found_x + 2 * lay.card_w + 2, lay.col_y
    i = slot - SLOT_CELL if slot < SLOT_FOUND else slot - SLOT_FOUND + 4
    x = lay.top_x - (lay.top_pitch - lay.card_w) // 2 + i * lay.top_pitch
    return max(0, x), 0, x + lay.top_pitch, lay.col_y


def near_misses(lay, box):
    """Yield points 1 to 12 px outside each edge of box, at a quarter, half and three
    quarters of the edge, on the screen."""
    x1, y1, x2, y2 = box
    for d in OFFSETS:
        for f in (1, 2, 3):
            x = x1 + (x2 - x1) * f // 4
            y = y1 + (y2 - y1) * f // 4
            for px, py in ((x1 - d, y), (x2 - 1 + d, y), (x, y1 - d), (x, y2 - 1 + d)):
                if 0 <= px < lay.width and 0 <= py < lay.height:
                    yield px, py


def hit_slot(table, x, y, src):
    """Return the slot a tap at (x, y) means for a card held at src (the block's joint)."""
    lay = table.layout
    hit = lay.hit(x, y)
    if hit == src or (SLOT_FOUND <= hit < 16 and lay.found_x and src < SLOT_FOUND):
        # The held card itself tapped again goes home, as the block tapped does.
        return SLOT_FOUND + (table.app.game.top(src) & 3)
    return hit


def check_position(board, bad):
    """Hold each card that lights anything and tap near every lit place; record what went
    wrong into bad; return the taps made."""
    app = board.app
    table = app.table
    game = app.game
    lay = table.layout
    sources = [c for c in range(8) if game.column_len(c)]
    sources += [s for s in range(SLOT_CELL, SLOT_CELL + game.cells) if game.top(s)]
    taps = 0
    for src in sources:
        n = 1
        if not game.targets(src, n):
            continue
        table.select(src, n)
        lit = table.lit
        for slot in range(16):
            if not (lit >> slot) & 1:
                continue
            for x, y in near_misses(lay, place_box(lay, slot)):
                before = (bytes(game.pos), game.moves)
                table.select(src, n)
                target = hit_slot(table, x, y, src)
                table.tap(x, y)
                taps += 1
                if app.screen is not table:
                    bad.append("%s: %d,%d beside lit %d (held %d) left the table for %s"
                               % (board.name, x, y, slot, src, app.screen.name))
                    app.goto("table")
                    table = app.table
                    continue
                if game.moves < before[1]:
                    bad.append("%s: %d,%d beside lit %d (held %d) undid a move"
                               % (board.name, x, y, slot, src))
                    load(board, _text(before), before[1])
                    continue
                if (bytes(game.pos), game.moves) != before:
                    # Moved: only onto the lit place the tap is on.
                    if not (0 <= target < 16 and (lit >> target) & 1
                            and (game.last_src, game.last_dst) == (src, target)):
                        bad.append("%s: %d,%d beside lit %d (held %d) moved it to %d"
                                   % (board.name, x, y, slot, src, game.last_dst))
                    game.undo()
                    table.redraw()
        table.clear_selection()
    return taps


def _text(before):
    from freecell_mc.rules import notation
    from freecell_mc.rules.engine import Game

    g = Game()
    g.load(before[0], before[1])
    return notation.board_text(g)


@pytest.mark.slow
@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_a_tap_beside_a_lit_place_never_does_something_else(board_name):
    from freecell_mc.rules import notation

    bad = []
    checked = 0
    for deal in (1, 2, 3):
        board = PanelBoard(board_name, start=(3, deal, 4))
        try:
            app = board.app
            app.goto("table")
            for i, text in enumerate(fcs_solution(deal)):
                src, dst, n = notation.resolve_move(app.game, text)
                assert app.table.play(src, dst, n)
                if i % 4 == 0:
                    checked += check_position(board, bad)
        finally:
            board.close()
    assert checked > 5000
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_a_held_card_is_let_go_by_undo_menu_and_finish_and_nothing_more(board_name):
    # At Finish (the four kings on columns, the rest home), the king of clubs held: its
    # foundation and the empty columns are lit. Undo, Menu and Finish let go of it; the
    # next tap on them does what it says.
    board = PanelBoard(board_name)
    try:
        app = board.app
        load(board, "KC\nKD\nKH\nKS\n:\n:\n:\n:\nFoundations: C-Q D-Q H-Q S-Q\n", 99)
        table = app.table
        game = app.game
        table.play(1, 5, 1)  # something to undo
        for hit in (layout.HIT_UNDO, layout.HIT_FINISH, layout.HIT_MENU):
            table.select(0, 1)
            assert table.lit
            before = (bytes(game.pos), game.moves)
            board.tap(*table.button_point(hit))
            assert app.screen is table and table.sel_src == -1 and not table.lit
            assert (bytes(game.pos), game.moves) == before and not table.finishing
        board.tap(*table.button_point(layout.HIT_UNDO))
        assert game.moves == 99
        board.tap(*table.button_point(layout.HIT_MENU))
        assert app.screen.name == "menu"
    finally:
        board.close()


def test_the_pynt_takes_the_foundations_block_whole_for_a_held_card():
    # Its foundations are small cards two by two: a held card goes home on a tap anywhere
    # in the block, not only on its own suit's quarter.
    board = PanelBoard("pynt")
    try:
        app = board.app
        table = app.table
        lay = table.layout
        game = app.game
        load(board, "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\nKH\nKC\n:\n:\n:\n:\n:\n"
             "Foundations: C-Q D-K H-Q S-0\n", 0)
        # Clubs' quarter (top left) tapped with the ace of spades held: home to spades.
        table.select(0, 1)
        assert table.lit >> (SLOT_FOUND + 3) & 1
        x, y = lay.tap_point(SLOT_FOUND)
        board.tap(x, y)
        assert game.top(SLOT_FOUND + 3) >> 2 == 1 and game.moves == 1
    finally:
        board.close()
