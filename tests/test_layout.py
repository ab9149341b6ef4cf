# SPDX-License-Identifier: MIT
"""The table's geometry for 320x240 and 480x320: what fits, and hit tests that invert it."""

import pytest

from freecell_mc.ui.layout import (
    HIT_FINISH,
    HIT_MENU,
    HIT_NONE,
    HIT_UNDO,
    MAX_CARDS,
    Layout,
)

SIZES = [(320, 240), (480, 320)]


@pytest.mark.parametrize("w,h", SIZES)
def test_nineteen_cards_fit_between_the_top_row_and_the_bottom_edge(w, h):
    lay = Layout(w, h)
    for n in range(1, MAX_CARDS + 1):
        ov = lay.overlap(n)
        assert lay.tile_h <= ov <= lay.max_overlap
        assert lay.card_y(n - 1, n) + lay.card_h <= h
    # The strip takes what the columns leave at the right.
    assert lay.column_x(7) + lay.card_w <= lay.status_x
    assert lay.status_x + lay.status_w == w


@pytest.mark.parametrize("w,h", SIZES)
def test_overlap_only_tightens_as_a_column_grows(w, h):
    lay = Layout(w, h)
    ovs = [lay.overlap(n) for n in range(1, MAX_CARDS + 1)]
    assert ovs == sorted(ovs, reverse=True)
    # Typical columns (up to 10 cards) all use the roomy overlap: no card moves when they grow.
    assert len(set(ovs[:10])) == 1


@pytest.mark.parametrize("w,h", SIZES)
def test_columns_and_top_row_are_inside_the_screen_and_apart(w, h):
    lay = Layout(w, h)
    for slot in range(16):
        x = lay.slot_x(slot)
        assert 0 <= x and x + lay.card_w <= w
    for c in range(7):
        assert lay.column_x(c) + lay.card_w < lay.column_x(c + 1)
    assert lay.top_y + lay.top_h < lay.col_y
    assert lay.card_w == 2 * lay.tile_w


@pytest.mark.parametrize("w,h", SIZES)
def test_touch_targets_are_finger_sized(w, h):
    lay = Layout(w, h)
    # A fingertip covers about 7 mm: 35 px on the PyPortal, 46 px on the Titano.
    need = {240: 35, 320: 46}[h]
    assert lay.target == need
    assert lay.pitch >= 34
    assert lay.button_h >= need
    assert lay.col_y >= need


@pytest.mark.parametrize("w,h", SIZES)
def test_hit_inverts_tap_point_for_every_slot_and_card(w, h):
    lay = Layout(w, h)
    for slot in range(8, 16):
        x, y = lay.tap_point(slot)
        assert lay.hit(x, y) == slot
    for col in range(8):
        for n in range(0, MAX_CARDS + 1):
            x, y = lay.tap_point(col, -1, n)
            assert lay.hit(x, y) == col
            assert lay.hit_column(y, n, 0) == n - 1
            for i in range(n):
                x, y = lay.tap_point(col, i, n)
                assert lay.hit(x, y) == col
                assert lay.hit_column(y, n, 0) == i


@pytest.mark.parametrize("w,h", SIZES)
def test_every_pixel_of_the_columns_area_belongs_to_a_column(w, h):
    lay = Layout(w, h)
    for x in range(lay.status_x):
        col = lay.hit(x, lay.col_y + 5)
        assert 0 <= col <= 7
        # The nearest column: within half the gap of its card.
        cx = lay.column_x(col)
        assert cx - lay.gap <= x < cx + lay.card_w + lay.gap


@pytest.mark.parametrize("w,h", SIZES)
def test_felt_below_a_column_means_its_exposed_card(w, h):
    lay = Layout(w, h)
    assert lay.hit_column(h - 1, 5, 4) == 4
    assert lay.hit_column(lay.col_y, 5, 3) == 3  # above the run: the run's first card
    assert lay.hit_column(lay.col_y + 3, 0, 0) == -1


@pytest.mark.parametrize("w,h", SIZES)
def test_buttons_and_switched_off_cells(w, h):
    lay = Layout(w, h, cells=2)
    for hit in (HIT_UNDO, HIT_MENU, HIT_FINISH):
        x, y = lay.button_point(hit)
        assert lay.hit(x, y) == hit
        assert lay.button_x(hit) + lay.button_w <= w
    assert lay.hit(w - 2, lay.counter_y + 3) == HIT_NONE  # the move counter is not a button
    assert lay.hit(*lay.tap_point(8)) == 8
    assert lay.hit(*lay.tap_point(9)) == 9
    assert lay.hit(*lay.tap_point(10)) == HIT_NONE  # a removed cell is felt
    assert lay.hit(*lay.tap_point(11)) == HIT_NONE


def test_where_a_strip_would_leave_columns_under_5_5_mm_the_buttons_go_into_the_top_row():
    from freecell_mc.ui.layout import (
        _COLUMN_MM10, _GAP_MM10, PPCM_PYNT, SLOT_CELL, SLOT_FOUND, mm_px,
    )

    # The Pynt's 2.4" panel: a strip would leave 30 px (4.5 mm) columns.
    lay = Layout(320, 240, 4, PPCM_PYNT)
    assert lay.status_w == 0 and lay.status_x == 320
    place = mm_px(_COLUMN_MM10, PPCM_PYNT)
    assert lay.pitch == 40 and lay.pitch >= place
    # The top row: four cells a place wide (5.5 mm), the foundations' block, Undo and
    # Menu, a target wide and tall, apart; a dead gap either side of the block.
    assert lay.top_pitch == place
    undo, menu = lay.button_x(HIT_UNDO), lay.button_x(HIT_MENU)
    assert undo + lay.button_w < menu and menu + lay.button_w == 320
    assert lay.button_w >= lay.target and lay.button_h >= lay.target == lay.col_y
    dead = mm_px(_GAP_MM10, PPCM_PYNT)
    fx, fw = lay.found_x, 2 * lay.card_w + 2  # two cards and a gap
    assert fx == 4 * place + dead and fx + fw + dead <= undo
    # The block holds the four small cards two by two, the block as wide as a place at
    # least (a held card takes it whole: table.py).
    assert fw >= place and fw >= 2 * lay.card_w
    for slot in range(SLOT_FOUND, SLOT_FOUND + 4):
        x, y = lay.slot_x(slot), lay.slot_y(slot)
        assert fx <= x and x + lay.card_w <= fx + fw and 0 <= y
        assert y + 2 * lay.tile_h <= lay.col_y
    for x in range(320):
        for y in (0, lay.col_y - 1):
            hit = lay.hit(x, y)
            if x >= undo:
                assert hit == (HIT_UNDO if x < menu else HIT_MENU), x
            elif x < 4 * place:
                assert hit == SLOT_CELL + x // place, x
            elif fx <= x < fx + fw:
                assert SLOT_FOUND <= hit < SLOT_FOUND + 4, x
            else:
                assert hit == HIT_NONE, x  # the dead gaps
    for slot in range(SLOT_CELL, SLOT_FOUND + 4):
        assert lay.hit(*lay.tap_point(slot)) == slot
    for col in range(8):
        for n in range(MAX_CARDS + 1):
            x, y = lay.tap_point(col, -1, n)
            assert lay.hit(x, y) == col
    # The vertical arithmetic is unchanged: 19 cards down to the bottom edge.
    assert lay.card_y(MAX_CARDS - 1, MAX_CARDS) + lay.card_h <= 240
    # The PyPortal and the Titano keep their strip, and their columns reach 7 mm.
    for w, h in SIZES:
        side = Layout(w, h)
        assert side.status_w > 0 and side.pitch >= mm_px(70, side.ppcm)
