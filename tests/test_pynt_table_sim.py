# SPDX-License-Identifier: MIT
"""The Pynt's table played by taps through the real code.py on the headless simulator.

On the Pynt a strip at the side would leave the columns 4.5 mm wide, so they take the
whole width (40 px, 6.06 mm), Undo and Menu stand at the right of the top row, the move
counter in the bottom right corner, Finish and the dead-end message where the columns
leave them room, and a long column's covered cards open in the lens (docs/layout.md).
"""

from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game
from freecell_mc.ui import layout
from freecell_mc.ui.layout import HIT_MENU, HIT_UNDO, SLOT_CELL, Layout
from screen_states import dead_end_text, long_column_text
from test_rules_sim import seed
from test_screens_sim import run_today as run

LAY = Layout(320, 240, 4, layout.PPCM_PYNT)
KW = dict(board="pynt")


def tap(slot, index=-1, n=1):
    """Return the script line tapping a slot (card index of a column of n cards)."""
    return "tap %d %d" % LAY.tap_point(slot, index, n)


def button(hit):
    """Return the script line tapping Undo or Menu in the top row."""
    return "tap %d %d" % LAY.button_point(hit)


def test_the_pynt_columns_are_a_finger_wide_and_its_buttons_in_the_top_row(tmp_path):
    # Deal #3: a card picked and dropped on another column, one into a cell, both undone
    # by taps on Undo, then Menu.
    g = Game(4)
    g.deal(deals.ms_deck(3))
    src, dst = next((c, d) for c in range(8) for d in range(8)
                    if c != d and (g.targets(c, 1) >> d) & 1)
    n_src, n_dst = g.column_len(src), g.column_len(dst)
    start = dict(KW, start_deal=(deals.KIND_MS, 3, 4))
    app = run(["expect screen table", tap(src, -1, n_src), tap(dst, -1, n_dst),
               "expect moves 1", tap(dst, -1, n_dst + 1), tap(SLOT_CELL + 1),
               "expect moves 2"], tmp_path / "play", **start)
    lay = app.table.layout
    assert (lay.pitch, lay.status_w) == (40, 0)
    assert lay.pitch * 100 >= layout._COLUMN_MM10 * layout.PPCM_PYNT
    assert app.game.column_len(dst) == n_dst and app.game.top(SLOT_CELL + 1)
    app = run(["expect screen table", tap(src, -1, n_src), tap(dst, -1, n_dst),
               "expect moves 1", button(HIT_UNDO), "expect moves 0", button(HIT_MENU),
               "expect screen menu"], tmp_path / "undo", **start)
    assert app.game.column_len(src) == n_src and app.game.column_len(dst) == n_dst


def test_finish_stands_where_the_columns_leave_it_room_and_plays_home(tmp_path):
    seed(tmp_path, "KC\nKD\nKH\nKS\n:\n:\n:\n:\nFoundations: C-Q D-Q H-Q S-Q\n", moves=99)
    app = run(["expect screen table", "wait 20"], tmp_path, **KW)
    b = app.table.strip.finish_button  # built by the first poll's tick
    assert not b.hidden and b.y + b.h == 240 and b.w >= LAY.target and b.h >= LAY.target
    # Under the feet of the empty columns at the right: over no card.
    assert b.x >= LAY.column_x(3) + LAY.card_w
    x, y = b.x + b.w // 2, b.y + b.h // 2
    app = run(["expect screen table", "tap %d %d" % (x, y), "wait 1000", "expect won",
               "expect screen result"], tmp_path, **KW)
    assert app.game.moves == 103


def test_the_dead_end_opens_whole_on_a_tap_and_undo_leaves_it(tmp_path):
    # Deal #1 with one cell: column 2's card into the cell leaves no move.
    from freecell_mc.ui.tableview import DEAD_END

    start = dict(KW, start_deal=(deals.KIND_MS, 1, 1))
    lay = Layout(320, 240, 1, layout.PPCM_PYNT)
    g = Game(1)
    g.deal(deals.ms_deck(1))
    move = ["expect screen table", tap(1, -1, g.column_len(1)),
            "tap %d %d" % lay.tap_point(SLOT_CELL), "expect moves 1"]
    app = run(move, tmp_path / "1", **start)
    strip = app.table.strip
    assert app.game.dead_end() and strip.dead_end_shown
    x, y, w, h = strip.dead_box
    words = strip.dead_text.text
    assert words.replace("\n", " ") != DEAD_END
    at = "tap %d %d" % (x + w // 2, y + h // 2)
    app = run(move + [at], tmp_path / "2", **start)
    assert app.table.strip.dead_text.text.replace("\n", " ") == DEAD_END
    app = run(move + [at, at, "expect moves 1"], tmp_path / "3", **start)
    assert app.table.strip.dead_text.text == words
    app = run(move + [button(HIT_UNDO), "expect moves 0"], tmp_path / "4", **start)
    assert not app.table.strip.dead_end_shown
    # A dead end whose columns leave no room under their feet: "Stuck" in the top row,
    # between the cells and Undo, over the foundations' block, a target tall.
    (tmp_path / "5").mkdir()
    seed(tmp_path / "5", dead_end_text([6, 6, 6, 6, 6, 6, 6, 5]), moves=88)
    at = ["expect screen table", "tap %d %d" % (LAY.found_x + 4, 4)]
    app = run(at, tmp_path / "5", **KW)
    strip = app.table.strip
    x, y, w, h = strip.dead_box
    assert (x, y, h) == (4 * LAY.top_pitch, 0, LAY.col_y) and x + w < LAY.button_x0
    assert strip.dead_text.text.replace("\n", " ") == DEAD_END  # the tap opened it


def test_a_tap_on_a_long_columns_covered_cards_opens_the_lens(tmp_path):
    seed(tmp_path, long_column_text(), moves=77)
    n = layout.MAX_CARDS
    first = n - 13  # six dealt cards over a king's run of 13
    x, _ = LAY.tap_point(0)
    shots = [tmp_path / "table.png", tmp_path / "lens.png", tmp_path / "closed.png"]
    app = run(["expect screen table", "shot %s" % shots[0], "tap %d %d" % (x, LAY.col_y + 3),
               "shot %s" % shots[1], "tap %d %d" % (x, LAY.col_y + 3), "shot %s" % shots[2],
               "expect moves 77"], tmp_path, **KW)
    table = app.table
    assert table.lens_col == -1 and table.sel_src == -1
    from PIL import Image, ImageChops

    with Image.open(shots[0]) as a, Image.open(shots[1]) as b, Image.open(shots[2]) as c:
        a, b, c = a.convert("RGB"), b.convert("RGB"), c.convert("RGB")
        assert ImageChops.difference(a, c).getbbox() is None  # closed: as before
        box = ImageChops.difference(a, b).getbbox()
    # Open: the column's cards fanned beside it, two fans of index rows 10 cards tall.
    assert box is not None and box[3] - box[1] >= 10 * LAY.tile_h
    (tmp_path / "open").mkdir()
    seed(tmp_path / "open", long_column_text(), moves=77)
    app = run(["expect screen table", "tap %d %d" % (x, LAY.col_y + 3)], tmp_path / "open", **KW)
    bg = app.table.lens_bg
    assert app.table.lens_col == 0 and not bg.hidden and bg.x >= LAY.column_x(0) + LAY.card_w
    # The run picks from the table as before: its first card, and a lit place takes it.
    (tmp_path / "pick").mkdir()
    seed(tmp_path / "pick", long_column_text(), moves=77)
    app = run(["expect screen table", tap(0, first, n)], tmp_path / "pick", **KW)
    assert (app.table.sel_src, app.table.sel_n) == (0, 13) and app.table.lens_col == -1
