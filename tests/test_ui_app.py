# SPDX-License-Identifier: MIT
"""The App around the table: start-up, saves and restore, statistics, keys, settings."""

from test_ui import dead_end_position, face_point, finish_position, first_column_move
from test_ui_harness import HIT_FINISH, HIT_MENU, Board, near

from freecell_mc.ui import cardart
from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game


def test_an_unset_clock_asks_for_the_date_once_then_the_table():
    b = Board(320, 240, start=(deals.KIND_SEED, 7, 4), date=(2000, 1, 1))
    try:
        assert b.app.screen.name == "datepicker"
        b.key("esc")  # leave the clock as it is: the game goes on
        assert b.app.screen.name == "table"
    finally:
        b.close()


def test_the_game_is_saved_on_leaving_and_continued_at_the_next_start():
    nvm = bytearray(8192)
    b = Board(320, 240, start=(deals.KIND_SEED, 5, 4), blocks=[nvm])
    try:
        src, dst = first_column_move(b.game)
        b.tap_slot(src)
        b.tap_slot(dst)
        b.tap_slot(0)
        b.tap_slot(9)
        pos = bytes(b.game.pos)
        assert b.game.moves == 2
        b.tap_button(HIT_MENU)  # leaving the table commits the save
        assert b.app.screen.name == "menu"
    finally:
        b.close()
    again = Board(320, 240, start=None, blocks=[nvm])
    try:
        assert again.app.screen.name == "table"
        assert bytes(again.game.pos) == pos
        assert again.game.moves == 2
        assert (again.app.kind, again.app.number) == (deals.KIND_SEED, 5)
        assert again.app.saves.stats.played == 1  # counted on the first move, once
    finally:
        again.close()


def test_a_win_is_counted_with_its_moves():
    b = Board(320, 240, start=(deals.KIND_SEED, 3, 4), blocks=[bytearray(8192)])
    try:
        b.load(finish_position(), moves=40)
        b.tap_button(HIT_FINISH)
        b.poll(12 * 13)
        st = b.app.saves.stats
        assert b.app.screen.name == "result"
        assert st.won == 1 and st.best_moves == 52
        assert b.app.saves.slot(0).moves == 52  # the won table, as it was left
        replay = b.app.screen.buttons[1]
        b.tap(replay.x + replay.w // 2, replay.y + replay.h // 2)
        assert b.app.screen.name == "table"
        assert b.game.moves == 0 and not b.game.won()
    finally:
        b.close()


def test_a_won_daily_marks_its_day():
    b = Board(320, 240, start=(deals.KIND_DAILY, 20261130, 4), blocks=[bytearray(8192)])
    try:
        b.load(finish_position())
        b.tap_button(HIT_FINISH)
        b.poll(12 * 13)
        assert b.app.saves.stats.day_won(2026, 11, 30)
        assert not b.app.saves.stats.day_won(2026, 11, 29)
    finally:
        b.close()


def test_key_d_starts_todays_daily_and_free_deals_keep_their_own_slot():
    b = Board(320, 240, start=(deals.KIND_SEED, 9, 4), blocks=[bytearray(8192)])
    try:
        src, dst = first_column_move(b.game)
        b.tap_slot(src)
        b.tap_slot(dst)
        free_pos = bytes(b.game.pos)
        b.key("d")
        daily = Game(4)
        daily.deal(deals.seeded_deck(deals.daily_seed(2026, 11, 30)))
        assert b.app.kind == deals.KIND_DAILY
        assert bytes(b.game.pos) == bytes(daily.pos)
        slot = b.app.saves.slot(0)
        assert bytes(slot.pos) == free_pos and slot.moves == 1  # the free game is kept
    finally:
        b.close()


def test_four_colour_deck_inks_clubs_green_and_diamonds_blue():
    b = Board(480, 320, start=(deals.KIND_SEED, 1, 4))
    try:
        b.load(dead_end_position())  # cells hold 2D 2H 2C
        lay = b.table.layout

        def inks(slot):
            x0 = lay.slot_x(slot)
            return {
                b.pixel(x, y)
                for x in range(x0 + 2, x0 + 10)
                for y in range(lay.top_y + 1, lay.top_y + lay.tile_h)
            }

        assert any(near(p, 0xCC0000, 20) for p in inks(8))  # 2D red
        b.app.set_setting("four_colour", True)
        b.poll()
        assert any(near(p, cardart._INK_FOUR[1], 20) for p in inks(8))  # 2D blue
        assert any(near(p, cardart._INK_FOUR[2], 20) for p in inks(9))  # 2H red
        assert any(near(p, cardart._INK_FOUR[0], 20) for p in inks(10))  # 2C green
        assert near(b.pixel(*face_point(b, 8)), cardart._FACES[cardart.P_NORMAL])
    finally:
        b.close()


def test_fewer_cells_vanish_from_the_table():
    b = Board(320, 240, start=(deals.KIND_SEED, 1, 2))
    try:
        lay = b.table.layout
        felt = b.pixel(lay.slot_x(11) + 5, lay.top_y + 5)
        assert near(felt, cardart.FELT)
        assert not near(b.pixel(lay.slot_x(9) + 5, lay.top_y + 5), cardart.FELT)
        b.tap_slot(0)
        assert b.table.lit >> 10 & 3 == 0  # cells c and d are not places
    finally:
        b.close()


def test_a_left_screen_and_table_are_taken_apart_and_the_card_art_kept():
    import displayio

    def members(group):
        """Every object under group, nested groups included."""
        out = []
        for o in group:
            out.append(o)
            if isinstance(o, displayio.Group):
                out += members(o)
        return out

    b = Board(320, 240, start=(deals.KIND_MS, 1, 4))
    try:
        app = b.app
        table = app.table
        art = app.art
        groups = [o for o in members(table.group) if isinstance(o, displayio.Group)]
        shown = len(members(table.group))
        assert len(groups) > 5 and shown > 60  # cards, outlines, strip, dead-end panel
        app.goto("menu")
        b.poll()
        # The table left: its group and every group under it are empty, so a stale pointer
        # to any one of them keeps that piece alone alive on the board.
        assert app.table is None
        assert len(table.group) == 0 and all(len(g) == 0 for g in groups)
        menu = app.screen
        menu_groups = [o for o in members(menu.group) if isinstance(o, displayio.Group)]
        assert menu_groups
        app.goto("stats")
        b.poll()
        assert len(menu.group) == 0 and all(len(g) == 0 for g in menu_groups)
        # The card art outlives the table: the table built again wears it, whole.
        app.goto("table")
        b.poll()
        assert app.art is art and app.table.art is art
        assert len(members(app.table.group)) == shown
    finally:
        b.close()


def test_four_colours_switched_before_any_table_reach_the_first_table():
    # The App drops the table under other screens and builds it only when shown, so with
    # the clock unset the start is the date picker and no table exists yet. The settings
    # reached from there must not need one, and the table built later wears the setting.
    b = Board(320, 240, start=None, blocks=[bytearray(8192)], date=(2000, 1, 1))
    try:
        app = b.app
        assert app.screen.name == "datepicker" and app.table is None
        app.goto("settings")
        s = app.screen
        four = [t for t in s.toggles if t.bid == 21][0]  # settings' _FOUR
        b.tap(four.x + four.w // 2, four.y + four.h // 2)
        assert app.saves.settings.four_colour
        app.goto("table")
        assert app.table.art.four_colour
    finally:
        b.close()
