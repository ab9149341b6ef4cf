# SPDX-License-Identifier: MIT
"""Property test of the tap rule (SPEC 4) on the real table, driven through touch readings.

Random positions come from random legal play on seeded deals. A random part of a column's
ordered run (or a cell's or foundation's card) is picked up by a tap, then a random other
place is tapped. What lights must be exactly where the engine lets the WHOLE held run go;
a lit place takes all of it as one move, an unlit place never changes the position, and the
selection then holds what can move there or nothing.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_props import legal_moves, pick
from test_ui_harness import Board

from freecell_mc.rules import deals
from freecell_mc.rules.engine import SLOT_CELL, SLOT_FOUND, Game


@pytest.fixture(scope="module")
def board():
    b = Board(320, 240, start=(deals.KIND_SEED, 1, 4))
    # The rule is asserted on the table's state (lit, selection, position), never on pixels,
    # which the drawing tests look at: rendering them was nine tenths of this test's time.
    b.display._refresh_area = lambda area: True
    yield b
    b.close()


def played(seed, steps, choices, takeback):
    """Return a Game after up to `steps` random legal moves from seeded deal `seed`."""
    g = Game(4, takeback)
    g.deal(deals.seeded_deck(seed))
    for i in range(steps):
        moves = legal_moves(g)
        if not moves:
            break
        src, dst, n = pick(moves, choices[i % len(choices)])
        assert g.move(src, dst, n)
    return g


def sources(g):
    """Return every (slot, n) a tap can pick up: each part of each run, cells, foundations."""
    out = []
    for c in range(8):
        for n in range(1, g.run_len(c) + 1):
            out.append((c, n))
    for slot in range(SLOT_CELL, SLOT_FOUND + 4):
        if g.top(slot) and (slot < SLOT_FOUND or g.takeback):
            out.append((slot, 1))
    return out


def tap_place(board, slot, n_held_from=None):
    """Tap a place: a column's exposed card (or its empty outline), a cell, a foundation."""
    if slot < SLOT_CELL and n_held_from is not None:
        board.tap_slot(slot, board.game.column_len(slot) - n_held_from)
    else:
        board.tap_slot(slot)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60),
       choices=st.lists(st.integers(0, 1000), min_size=1, max_size=8),
       takeback=st.booleans(), which=st.integers(0, 10**6), where=st.integers(0, 10**6))
def test_only_a_place_for_the_whole_run_lights_and_only_a_lit_place_moves(
        board, seed, steps, choices, takeback, which, where):
    g = played(seed, steps, choices, takeback)
    game = board.game
    game.takeback = takeback
    game.load(bytes(g.pos), g.moves)
    assert board.app.screen is board.table
    board.table.redraw()
    board.app.dirty = True
    board.poll()
    if game.won():
        return
    src, n = sources(game)[which % len(sources(game))]
    tap_place(board, src, n)
    table = board.table
    assert (table.sel_src, table.sel_n) == (src, n)
    mask = game.targets(src, n)
    assert table.lit == mask
    if n > 1:
        assert mask & (0b1111 << SLOT_CELL) == 0  # a free cell takes one card only
    places = [s for s in range(16) if s != src]
    dst = places[where % len(places)]
    before = bytes(game.pos)
    moves = game.moves
    shadow = Game(4, takeback)
    shadow.load(before, moves)
    tap_place(board, dst)
    if (mask >> dst) & 1:
        assert shadow.move(src, dst, n)  # the whole held run, as one move
        assert bytes(game.pos) == bytes(shadow.pos) and game.moves == moves + 1
        assert table.sel_src == -1
        game.undo()
        if board.app.screen is not table:
            board.app.goto("table")  # the move won the game: back from its result
        return
    assert bytes(game.pos) == before and game.moves == moves
    # The selection jumps to what can move at the tapped place, or clears.
    if dst < SLOT_CELL:
        want = (dst, 1) if game.column_len(dst) else (-1, 0)
    elif dst < SLOT_FOUND or takeback:
        want = (dst, 1) if game.top(dst) else (-1, 0)
    else:
        want = (-1, 0)
    assert (table.sel_src, table.sel_n) == want
    lay = table.layout
    board.tap(lay.status_x + lay.status_w // 2, lay.counter_y + 2)  # the move counter: let go
