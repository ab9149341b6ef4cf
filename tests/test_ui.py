# SPDX-License-Identifier: MIT
"""The playing screen, driven headless through touch readings and App.poll().

Every check looks at the game's position or at rendered pixels, never at what the table
says about itself alone.
"""

import pytest
from test_ui_harness import HIT_FINISH, HIT_UNDO, Board, near
from freecell_mc.ui import layout
from freecell_mc.ui.layout import HIT_MENU
from freecell_mc.ui.tableview import DEAD_END

from freecell_mc.ui import cardart
from freecell_mc.rules import deals
from freecell_mc.rules.cards import parse_card
from freecell_mc.rules.engine import Game

SIZES = [(320, 240), (480, 320)]

LIT = cardart._FACES[cardart.P_LIT]
HELD = cardart._FACES[cardart.P_HELD]
WHITE = cardart._FACES[cardart.P_NORMAL]


def board_text(bottoms, cells=(), found=None, fill=None):
    """Return board text whose columns end in `bottoms`; all other cards go underneath.

    bottoms: 8 lists of card names, first dealt to exposed; cells: names; found: {suit
    letter: top rank}. The cards not named are spread over the non-empty columns, under
    the named ones, so nothing the test relies on changes.
    """
    found = found or {}
    named = set()
    for col in bottoms:
        named.update(col)
    named.update(cells)
    for s, top in found.items():
        for r in range(1, top + 1):
            named.add("A23456789TJQK"[r - 1] + s)
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in named]
    cols = [list(c) for c in bottoms]
    targets = fill if fill is not None else [i for i in range(8) if cols[i]]
    i = 0
    for card in rest:
        c = targets[i % len(targets)]
        cols[c].insert(0, card)
        i += 1
    lines = [" ".join(c) if c else ":" for c in cols]
    cl = list(cells) + ["-"] * (4 - len(cells))
    lines.append("Freecells: " + " ".join(cl))
    lines.append("Foundations: " + " ".join("%s-%d" % (s, found.get(s, 0)) for s in "HCDS"))
    return "\n".join(lines) + "\n"


@pytest.fixture(params=SIZES, ids=["320x240", "480x320"])
def board(request):
    w, h = request.param
    b = Board(w, h, start=(deals.KIND_SEED, 1, 4))
    yield b
    b.close()


def face_point(b, slot):
    """Return a pixel of plain face (no ink) on the top card of slot."""
    lay = b.table.layout
    x = lay.slot_x(slot) + lay.tile_w - 1
    if slot >= 8:
        return x, lay.top_y + lay.tile_h // 2
    n = b.game.column_len(slot)
    if n == 0:
        return x, lay.col_y + lay.tile_h + lay.tile_h // 2
    return x, lay.card_y(n - 1, n) + lay.tile_h + lay.tile_h // 2


def first_column_move(game):
    """Return (src, dst) of a legal single-card column-to-column move, or to a cell."""
    for src in range(8):
        m = game.targets(src, 1)
        for dst in range(8):
            if (m >> dst) & 1 and game.column_len(dst):
                return src, dst
    for src in range(8):
        m = game.targets(src, 1)
        for dst in range(8, 12):
            if (m >> dst) & 1:
                return src, dst
    raise AssertionError("no move")


def test_pick_and_drop_moves_as_the_engine_does(board):
    g = board.game
    src, dst = first_column_move(g)
    shadow = Game(4)
    shadow.load(bytes(g.pos))
    assert shadow.move(src, dst, 1)
    board.tap_slot(src)
    assert board.table.sel_src == src and board.table.sel_n == 1
    board.tap_slot(dst)
    assert bytes(g.pos) == bytes(shadow.pos)
    assert g.moves == 1
    assert board.table.sel_src == -1


def test_held_card_and_every_target_lit_in_pixels(board):
    g = board.game
    # Make an empty column and an empty cell target sure: seed 1's first exposed card.
    board.tap_slot(0)
    mask = g.targets(0, 1)
    assert mask, "the exposed card of column 1 can always go to a free cell"
    assert board.table.lit == mask
    assert near(board.pixel(*face_point(board, 0)), HELD)
    for slot in range(16):
        if slot == 0 or (8 + g.cells <= slot < 12):
            continue
        if slot >= 12 and not g.top(slot) and not (mask >> slot) & 1:
            continue  # an empty foundation outline is felt-dark, not a card face
        px = board.pixel(*face_point(board, slot))
        if (mask >> slot) & 1:
            assert near(px, LIT), (slot, px)
        elif g.top(slot):
            assert near(px, WHITE), (slot, px)
    # Letting go unlights everything.
    lay = board.table.layout
    board.tap(*felt(lay))
    assert board.table.lit == 0
    for slot in range(8):
        assert near(board.pixel(*face_point(board, slot)), WHITE)


def test_illegal_taps_change_nothing_and_move_the_selection(board):
    g = board.game
    before = bytes(g.pos)
    board.tap_slot(0)
    mask = g.targets(0, 1)
    for c in range(1, 8):
        if (mask >> c) & 1:
            continue
        board.tap_slot(c)
        assert bytes(g.pos) == before
        assert board.table.sel_src == c  # the selection jumped to the card there
        board.tap(*felt(board.table.layout))  # the felt: let go
        assert board.table.sel_src == -1
        board.tap_slot(0)
        assert board.table.sel_src == 0
    # A tap on a covered card above the run, on the felt, on an empty foundation:
    # the position never changes.
    board.tap_slot(3, 0)
    board.tap_slot(12)
    lay = board.table.layout
    board.tap(*felt(lay))
    assert bytes(g.pos) == before
    assert g.moves == 0
    assert board.table.sel_src == -1


def test_a_run_too_long_for_a_place_leaves_it_unlit_and_moves_nothing(board):
    text = board_text(
        [["TD", "9S", "8H"], ["TH"], ["KC"], ["KS"], ["QC"], ["QS"], ["JC"], ["JS"]]
    )
    board.load(text)
    g = board.game
    before = bytes(g.pos)
    assert g.run_len(0) == 3
    n0 = g.column_len(0)
    board.tap_slot(0, n0 - 3)  # the ten: the whole run of three
    assert board.table.sel_n == 3
    # Only 9S 8H would go on the red ten: not all three, so it stays unlit.
    assert not (board.table.lit >> 1) & 1
    assert near(board.pixel(*face_point(board, 1)), WHITE)
    board.tap_slot(1)
    assert bytes(g.pos) == before and g.moves == 0
    assert board.table.sel_src == 1 and board.table.sel_n == 1  # TH is held instead
    # Held from the nine, the two cards light the ten and go there together.
    board.tap_slot(0, n0 - 2)
    assert (board.table.lit >> 1) & 1
    board.tap_slot(1)
    assert g.moves == 1
    buf = bytearray(20)
    n = g.column_cards(1, buf)
    assert buf[n - 3] == parse_card("TH")
    assert buf[n - 2] == parse_card("9S")
    assert buf[n - 1] == parse_card("8H")
    assert g.top(0) == parse_card("TD")


def test_tap_inside_a_run_picks_from_there(board):
    board.load(board_text([["TD", "9S", "8H"], ["TH"], ["KC"], ["KS"], ["QC"], ["QS"], ["JC"],
                           ["JS"]]))
    g = board.game
    n0 = g.column_len(0)
    board.tap_slot(0, n0 - 2)
    assert board.table.sel_n == 2
    board.tap_slot(0, n0 - 3)  # another card of the same run: the selection grows
    assert board.table.sel_n == 3
    board.tap_slot(0, n0 - 3)  # the held card again: a run cannot go home, so let go
    assert board.table.sel_src == -1
    board.tap_slot(0, 0)  # above the run: what can move there, the whole run
    assert board.table.sel_n == 3


def test_held_card_tapped_again_goes_home(board):
    board.load(board_text([["5C", "AH"], ["KC"], ["KS"], ["QC"], ["QS"], ["JC"], ["JS"], ["9S"]]))
    g = board.game
    board.tap_slot(0)
    assert (board.table.lit >> (12 + 2)) & 1  # the hearts foundation is lit
    board.tap_slot(0)
    assert g.pos[64 + 2] == 1 and g.moves == 1


def test_undo_button_steps_back_with_the_counter(board):
    g = board.game
    before = bytes(g.pos)
    src, dst = first_column_move(g)
    board.tap_slot(src)
    board.tap_slot(dst)
    assert g.moves == 1
    mid = bytes(g.pos)
    board.tap_slot(0)
    board.tap_slot(8)  # into cell a
    assert g.moves == 2
    board.tap_button(HIT_UNDO)
    assert bytes(g.pos) == mid and g.moves == 1
    board.key("z")
    assert bytes(g.pos) == before and g.moves == 0
    assert board.counter_shows() == "0"


@pytest.mark.parametrize("size, ppcm", [((320, 240), 0), ((480, 320), 0),
                                        ((320, 240), layout.PPCM_PYNT)],
                         ids=["pyportal", "titano", "pynt"])
def test_the_counter_draws_every_move_and_undo(size, ppcm):
    """The counter's pixels show the move count: a move, an undo, a game loaded at 987 and
    at 1,234 moves, and one past 9,999 (which shows 9999)."""
    b = Board(size[0], size[1], start=(deals.KIND_SEED, 1, 4), ppcm=ppcm)
    try:
        assert b.counter_shows() == "0"
        src, dst = first_column_move(b.game)
        b.tap_slot(src)
        b.tap_slot(dst)
        assert b.game.moves == 1 and b.counter_shows() == "1"
        b.key("u")
        assert b.game.moves == 0 and b.counter_shows() == "0"
        pos = bytes(b.game.pos)
        for moves, shown in ((987, "987"), (1234, "1234"), (10007, "9999"), (40, "40")):
            b.game.load(pos, moves)
            b.table.redraw()
            b.app.dirty = True
            b.poll()
            assert b.counter_shows() == shown, moves
    finally:
        b.close()


def finish_position():
    return board_text(
        [["KC", "QC", "JC"], ["KD", "QD", "JD"], ["KH", "QH", "JH"], ["KS", "QS", "JS"],
         [], [], [], []],
        found={"C": 10, "D": 10, "H": 10, "S": 10},
    )


def test_finish_is_stopped_by_a_tap_and_undone_one_card_at_a_time(board):
    board.load(finish_position())
    g = board.game
    assert board.table.strip.finish_shown
    lay = board.table.layout
    fx, fy = lay.button_point(HIT_FINISH)
    assert near(board.pixel(fx, lay.button_top(HIT_FINISH) + 2), 0xFFD23F)  # the gold Finish button
    board.tap_button(HIT_FINISH)
    assert 1 <= g.moves < 12
    board.poll(13)  # one more step every 120 ms
    before_tap = g.moves
    assert before_tap >= 2
    board.tap(lay.width // 2, lay.col_y + 150)
    stopped = g.moves
    assert stopped < 12 and not board.table.finishing
    board.poll(60)
    assert g.moves == stopped  # nothing moves by itself once stopped
    home = sum(g.pos[64:68])
    board.key("u")
    assert g.moves == stopped - 1 and sum(g.pos[64:68]) == home - 1
    board.key("u")
    assert g.moves == stopped - 2 and sum(g.pos[64:68]) == home - 2


def test_finish_to_the_end_shows_the_result(board):
    board.load(finish_position(), moves=30)
    g = board.game
    board.tap_button(HIT_FINISH)
    board.poll(12 * 13)
    assert g.won()
    assert g.moves == 42
    scr = board.app.screen
    assert scr.name == "result"
    assert scr.values[0].text == "42"
    assert scr.values[2].text == deals.deal_code(deals.KIND_SEED, 1, 4)
    assert ":" in scr.values[1].text


def felt(lay):
    """Return a point that is no card, slot or button: the move counter in the strip."""
    return lay.status_x + lay.status_w // 2, lay.counter_y + 2


def dead_end_position():
    return board_text(
        [["8C", "2S"], ["KC"], ["KS"], ["QC"], ["QS"], ["JC"], ["JS"], ["9S"]],
        cells=("2D", "2H", "2C"),
    )


def card_boxes(table):
    """Return the (x1, y1, x2, y2) of every card shown on the table."""
    return [(t.x, t.y, t.x + t.width * t.tile_width, t.y + t.height * t.tile_height)
            for t in table.cards if not t.hidden]


def overlaps(a, b):
    """Return True if the boxes (x1, y1, x2, y2) a and b share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_dead_end_message_beside_the_table_and_undo_clears_it(board):
    board.load(dead_end_position())
    g = board.game
    table = board.table
    lay = table.layout
    assert not table.strip.dead_end_shown and table.strip.dead_group.hidden
    board.tap_slot(0)
    board.tap_slot(11)  # 2S into the last cell: now nothing can move
    assert g.dead_end()
    assert table.strip.dead_end_shown and not table.strip.dead_group.hidden
    x, y, w, h = table.strip.dead_box
    box = (x, y, x + w, y + h)
    # Beside the cards: inside the screen, over no card and no button of the strip.
    assert 0 <= x and x + w <= lay.width and 0 <= y and y + h <= lay.height
    assert not any(overlaps(box, c) for c in card_boxes(table))
    for hit in (HIT_UNDO, HIT_MENU):
        bx = lay.button_x(hit)
        by = lay.button_top(hit)
        assert not overlaps(box, (bx, by, bx + lay.button_w, by + lay.button_h))
    # The whole message, in light text pixels inside the panel.
    assert table.strip.dead_text.text.replace("\n", " ") == DEAD_END
    light = sum(1 for px in range(x, x + w) for py in range(y, y + h)
                if sum(board.pixel(px, py)) > 600)
    assert light > 100
    # It covers nothing, so it stays while the dead end lasts: a tap on the felt leaves it.
    board.tap(*felt(lay))
    assert not table.strip.dead_group.hidden and g.moves == 1 and table.sel_src == -1
    board.tap_button(HIT_UNDO)
    assert g.moves == 0 and not table.strip.dead_end_shown and table.strip.dead_group.hidden
    board.tap_slot(0)
    board.tap_slot(11)
    assert not table.strip.dead_group.hidden  # a new dead end says so again


def long_column_position():
    run = ["KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C", "2D", "AS"]
    first = ["2C", "3D", "4C", "5D", "6C", "7D"] + run  # 19 cards
    others = [["KC"], ["KD"], ["KH"], ["QS"], ["JS"], ["TS"], ["9C"]]
    return board_text([first] + others, fill=list(range(1, 8)))


def test_a_19_card_column_is_drawn_inside_the_screen_and_readable(board):
    board.load(long_column_position())
    g = board.game
    assert g.column_len(0) == 19
    lay = board.table.layout
    buf = bytearray(20)
    n = g.column_cards(0, buf)
    ov = lay.overlap(n)
    assert ov >= lay.tile_h  # the whole index (rank and suit) of every covered card shows
    for i in range(n):
        t = board.table.cards[buf[i] - 4]
        assert not t.hidden
        assert t.y == lay.col_y + i * ov
        assert t.y + lay.card_h <= lay.height
        # Ink of the rank and of the suit inside the visible strip of every card.
        x0 = lay.column_x(0)
        strip_rank = [board.pixel(x, y) for x in range(x0 + 2, x0 + 12)
                      for y in range(t.y + 1, t.y + ov)]
        strip_suit = [
            board.pixel(x, y)
            for x in range(x0 + lay.card_w - 12, x0 + lay.card_w - 1)
            for y in range(t.y + 1, t.y + ov)
        ]
        assert any(sum(p) < 450 for p in strip_rank), i
        assert any(sum(p) < 450 for p in strip_suit), i


def test_hit_test_finds_every_card_of_a_long_column(board):
    board.load(long_column_position())
    g = board.game
    run = g.run_len(0)
    n = g.column_len(0)
    for i in range(n - run, n):
        board.tap_slot(0, i)
        assert board.table.sel_n == n - i
        board.tap(*felt(board.table.layout))


def test_keys_new_deal_replay_and_menu(board):
    g = board.game
    src, dst = first_column_move(g)
    board.tap_slot(src)
    board.tap_slot(dst)
    board.key("r")
    assert board.app.screen.name == "confirm"  # a move was made: replaying asks first
    board.key("enter")
    dealt = Game(4)
    dealt.deal(deals.seeded_deck(1))
    assert bytes(g.pos) == bytes(dealt.pos) and g.moves == 0
    board.key("n")
    assert board.app.kind == deals.KIND_SEED
    assert bytes(g.pos) != bytes(dealt.pos)
    board.key("esc")
    assert board.app.screen.name == "menu"
