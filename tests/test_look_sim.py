# SPDX-License-Identifier: MIT
"""Sizes and looks played through the real code.py on the headless simulator.

The board the simulator plays (PyPortal, Pynt or Titano) reaches the layout the way a
real one does: device.py reads board.board_id. Taps come from the screens themselves.
"""

import pytest

from freecell_mc.rules import deals
from freecell_mc.ui import layout
from freecell_mc.ui.layout import HIT_MENU, HIT_UNDO
from freecell_mc.ui.screens.calibration import targets
from test_screens_sim import at, run

PANELS = {name: (w, h, ppcm) for name, _, w, h, ppcm in layout.BOARDS}


def pixel(path, x, y):
    """Return the (r, g, b) at (x, y) of a PNG."""
    from PIL import Image

    with Image.open(path) as im:
        return im.convert("RGB").getpixel((x, y))


@pytest.mark.parametrize("board", sorted(PANELS))
def test_the_board_tells_the_table_its_panel_and_every_target_is_7_mm(tmp_path, board):
    w, h, ppcm = PANELS[board]
    app = run(["expect screen table", "move 2a", "expect moves 1"], tmp_path, board=board,
              start_deal=(deals.KIND_MS, 1, 4), date="2026-11-30")
    assert app.hw.ppcm == ppcm
    table = app.table
    lay = table.layout
    assert (lay.width, lay.height, lay.ppcm) == (w, h, ppcm)
    need = layout.mm_px(layout.TARGET_MM10, ppcm)
    # Finish is built when it first shows (not yet here): Undo and Menu.
    assert table.strip.finish_button is None
    for b in (table.strip.undo_button, table.strip.menu_button):
        assert b.h >= need, (b.text, b.h, need)
    if lay.status_w:  # with no strip (the Pynt) the counter's digits stand alone
        assert table.strip.moves_text.scale * layout.CAP_H >= layout.mm_px(layout.TEXT_MM10, ppcm)
    # The cells and the foundations take every pixel from the top down to the columns
    # (where the foundations stand two by two in a block, the Pynt's, one of the four:
    # a held card takes the block whole, table.py).
    for slot in range(8, 16):
        x, _ = lay.tap_point(slot)
        ok = range(12, 16) if lay.found_x and slot >= 12 else (slot,)
        assert all(lay.hit(x, y) in ok for y in range(0, need)), slot
    for hit in (HIT_UNDO, HIT_MENU):
        x, y = table.button_point(hit)
        assert lay.hit(x, y) == hit


@pytest.mark.parametrize("board", ["pyportal", "titano"])
def test_the_dead_end_message_stands_beside_the_cards(tmp_path, board):
    # Microsoft deal #1 with one free cell: 2a fills the cell and nothing else can move.
    before = tmp_path / "before.png"
    dead = tmp_path / "dead.png"
    app = run(["expect screen table", "wait 50", "shot %s" % before, "move 2a", "expect moves 1",
               "shot %s" % dead], tmp_path, board=board, start_deal=(deals.KIND_MS, 1, 1),
              date="2026-11-30")
    table = app.table
    assert app.game.dead_end() and table.strip.dead_end_shown
    lay = table.layout
    from PIL import Image, ImageChops

    with Image.open(before) as a, Image.open(dead) as b:
        diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    # The message is drawn where the panel stands: under the columns' feet, or in the
    # strip where Finish would be (the Titano's columns of seven leave too little room).
    x, y, w, h = table.strip.dead_box
    assert diff.crop((x, y, x + w, y + h)).getbbox()
    # Besides, in the strip only the counter (0 -> 1) and Undo (greyed with nothing to
    # take back, available after the move) changed; Menu is as before and all in sight.
    c = table.strip.counter
    u = table.strip.undo_button
    for part in ((x, y, x + w, y + h), (c.x, c.y, c.x + 4 * c.tile_width, c.y + c.tile_height),
                 (u.x, u.y, u.x + u.w, u.y + u.h)):
        diff.paste((0, 0, 0), part)
    assert diff.crop((lay.status_x, 0, lay.width, lay.height)).getbbox() is None
    assert not table.strip.undo_button.hidden and not table.strip.menu_button.hidden


# Half a column's hit width: how far right of its centre a tap still picks it (the
# PyPortal's and the Titano's columns are 7 mm wide; the Pynt's 5.5 mm, docs/layout.md).
HALF_COLUMN_MM10 = {"pyportal": 35, "titano": 35, "pynt": 27}


@pytest.mark.parametrize("board", sorted(PANELS))
def test_a_tap_off_a_columns_centre_still_picks_that_column(tmp_path, board):
    # On the dealt table through code.py: a tap as far right of column 3's centre as its
    # hit width allows holds column 3's exposed card; a pixel further, column 4's.
    w, h, ppcm = PANELS[board]
    lay = layout.Layout(w, h, 4, ppcm)
    cx, cy = lay.tap_point(2, -1, 7)
    reach = lay.column_x(3) - lay.gap // 2 - 1 - cx  # the last pixel that is column 3's
    assert reach >= layout.mm_px(HALF_COLUMN_MM10[board], ppcm) - 1, reach
    kw = dict(board=board, start_deal=(deals.KIND_MS, 1, 4), date="2026-11-30")
    for dx, col in ((reach, 2), (reach + 1, 3)):
        app = run(["expect screen table", "tap %d %d" % (cx + dx, cy)],
                  tmp_path / str(dx), **kw)
        assert (app.table.sel_src, app.table.sel_n) == (col, 1), (dx, col)


@pytest.mark.parametrize("board", sorted(PANELS))
def test_a_tap_on_the_dead_end_message_shows_its_advice(tmp_path, board):
    # Microsoft deal #1 with one free cell: 2a leaves no move. Where the panel beside the
    # cards holds only the first words (the Pynt's "No moves", the Titano's first
    # sentence), a tap on them shows the whole message; the next tap closes it.
    from freecell_mc.ui.tableview import DEAD_END

    start = ["expect screen table", "move 2a", "expect moves 1"]
    kw = dict(board=board, start_deal=(deals.KIND_MS, 1, 1), date="2026-11-30")
    app = run(start, tmp_path / "1", **kw)
    strip = app.table.strip
    short = strip.dead_text.text
    if board == "pyportal":
        assert short.replace("\n", " ") == DEAD_END  # whole beside the cards already
        return
    assert short.replace("\n", " ") != DEAD_END and strip.dead_end_shown
    x, y, w, h = strip.dead_box
    shots = [tmp_path / "short.png", tmp_path / "open.png", tmp_path / "closed.png"]
    app = run(start + ["shot %s" % shots[0], "tap %d %d" % (x + w // 2, y + h // 2),
                       "shot %s" % shots[1], "tap %d %d" % (x + w // 2, y + h // 2),
                       "shot %s" % shots[2], "expect moves 1"], tmp_path / "2", **kw)
    assert app.table.strip.dead_text.text == short and app.table.sel_src == -1
    from PIL import Image, ImageChops

    with Image.open(shots[0]) as a, Image.open(shots[1]) as b, Image.open(shots[2]) as c:
        a, b, c = a.convert("RGB"), b.convert("RGB"), c.convert("RGB")
        assert ImageChops.difference(a, c).getbbox() is None  # closed: as before
        diff = ImageChops.difference(a, b)
    diff.paste((0, 0, 0), (x, y, x + w, y + h))  # where the first words stood
    box = diff.getbbox()
    # Opened over the columns, clear of the strip's buttons, a good part of the table.
    lay = app.table.layout
    assert box is not None and box[2] <= lay.status_x
    assert (box[2] - box[0]) * (box[3] - box[1]) > lay.status_x * lay.height // 4


def test_the_calibration_cross_goes_away_once_saved(tmp_path):
    w, h = 320, 240
    (x1, y1), (x2, y2), (x3, y3) = targets(w, h)
    shot = tmp_path / "saved.png"
    lines = ["key esc", at("menu", "Settings", begun=False), at("settings", "Calibrate"),
             "expect screen calibration",
             "tap %d %d" % (x1, y1), "tap %d %d" % (x2, y2), "tap %d %d" % (x3, y3),
             "shot %s" % shot]
    app = run(lines, tmp_path, date="2026-11-30")
    s = app.screen
    assert s.name == "calibration"
    assert s.info.text.startswith("Saved.")
    # No gold cross left on the screen asking for another tap.
    assert s.cross_h.hidden and s.cross_v.hidden
    r, g, b = pixel(shot, x3, y3)
    assert not (r > 200 and g > 180 and b < 120), (r, g, b)


def _rgb(color):
    # As the panel shows it: 5 bits of red and blue, 6 of green (RGB565).
    r, g, b = color >> 16 & 255, color >> 8 & 255, color & 255
    return (r >> 3 << 3, g >> 2 << 2, b >> 3 << 3)


def _565(rgb):
    return (rgb[0] >> 3 << 3, rgb[1] >> 2 << 2, rgb[2] >> 3 << 3)


@pytest.mark.parametrize("board", ["pyportal", "titano"])
def test_undo_looks_unavailable_exactly_while_it_has_nothing_to_take_back(tmp_path, board):
    from freecell_mc.ui import widgets

    w, h, ppcm = PANELS[board]
    lay = layout.Layout(w, h, 4, ppcm)
    x, y = lay.button_x(HIT_UNDO) + 3, lay.button_top(HIT_UNDO) + 3  # the fill, inside the edge
    shots = [tmp_path / ("%d.png" % i) for i in range(5)]
    run(["expect screen table", "wait 50", "shot %s" % shots[0], "move 2a", "expect moves 1",
         "shot %s" % shots[1], "key u", "expect moves 0", "shot %s" % shots[2],
         "move 2a", "move 3b", "expect moves 2", "key esc"], tmp_path, board=board,
        start_deal=(deals.KIND_MS, 1, 4), date="2026-11-30")
    # A fresh deal: greyed. After a move: as the other buttons. Undone to the deal: greyed.
    assert _565(pixel(shots[0], x, y)) == _rgb(widgets.FILL_DIS)
    assert _565(pixel(shots[1], x, y)) == _rgb(widgets.FILL)
    assert _565(pixel(shots[2], x, y)) == _rgb(widgets.FILL_DIS)
    # Taken up again after a restart: 2 moves on the table, no history to take back.
    app = run(["expect screen table", "expect moves 2", "wait 50", "shot %s" % shots[3],
               "key u", "expect moves 2", "move 4c", "expect moves 3", "shot %s" % shots[4]],
              tmp_path, board=board, date="2026-11-30")
    assert _565(pixel(shots[3], x, y)) == _rgb(widgets.FILL_DIS)
    assert _565(pixel(shots[4], x, y)) == _rgb(widgets.FILL)
    assert app.table.strip.undo_button.enabled


def test_the_menu_offers_the_game_on_the_table_begun_or_not(tmp_path):
    def conts(app):
        return [b.text.replace("\n", " ") for b in app.screen.buttons
                if b.text.startswith("Continue")]

    app = run(["expect screen table", "key esc", "expect screen menu"], tmp_path,
              start_deal=(deals.KIND_MS, 1, 4), date="2026-11-30")
    assert conts(app) == ["Continue deal #1"]  # untouched: the way back all the same
    app = run(["expect screen table", "move 2a", "key esc", "expect screen menu"], tmp_path,
              date="2026-11-30")
    assert conts(app) == ["Continue deal #1"]
    # A daily just chosen and untouched beside it: both, the one on the table first.
    app = run(["key esc", "key d", at("daily", "28"), "expect screen table", "key esc",
               "expect screen menu"], tmp_path, date="2026-11-30")
    assert conts(app) == ["Continue daily 28 Nov", "Continue deal #1"]


@pytest.mark.parametrize("board", sorted(PANELS))
def test_the_menu_names_the_deal_and_its_code_on_every_board_with_both_slots(tmp_path, board):
    from freecell_mc.ui import widgets

    code = deals.deal_code(deals.KIND_DAILY, 20261130, 4)
    app = run(["move 1a", "key d", "expect screen table", "move 1a", "key esc",
               "expect screen menu"], tmp_path, board=board, start_deal=(deals.KIND_MS, 617, 4),
              date="2026-11-30")
    s = app.screen
    conts = [b.text.replace("\n", " ") for b in s.buttons if b.text.startswith("Continue")]
    assert conts == ["Continue daily 30 Nov", "Continue deal #617"]
    head = s.deal
    # The Pynt's 320 px at 1.6 mm hold no "code" between them, but both are there.
    want = "Daily 30 Nov " + code if board == "pynt" else "Daily 30 Nov   code " + code
    assert head.text == want
    assert head.scale == s.m.text_scale
    x = head.group.x
    assert 0 < x and x + widgets.text_width(head.text, head.scale) < PANELS[board][0]
