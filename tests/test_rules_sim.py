# SPDX-License-Identifier: MIT
"""SPEC sections 2, 4 and 5 played through the real code.py on the headless simulator.

A position is put in the board's save as the game in play (as if the player had left it
there), then a script taps as a player would and the test looks at what the game did.
"""

import pytest

from freecell_mc.rules import deals, notation
from freecell_mc.rules.engine import Game
from freecell_mc.ui.layout import Layout
from test_screens_sim import run_today as run
from test_ui import board_text

# A run of 11 (KS down to 3C) in column 1; KC alone in column 4 takes the QH..3C part,
# 5C in column 3 the 4H 3C part; column 8 empty; 4 empty cells: capacity 10 onto a card,
# 5 into the empty column (SPEC 2).
LONG_RUN = board_text(
    [["KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C"], ["KD"], ["5C"], ["KC"],
     ["QS"], ["JS"], ["TS"], []],
    fill=[2, 3, 4, 5, 6],
)


def seed(tmp_path, text, cells=4, takeback=False, moves=0):
    """Leave `text` in the board's save as the free deal in play; return its position."""
    from freecell_mc.saves.policy import Saves
    from host_sim.flash import FlashBlock

    saves = Saves([FlashBlock(str(tmp_path / "nvm.bin"), 8192)])
    saves.load()
    saves.settings.cells = cells
    saves.settings.takeback = takeback
    g = Game(cells, takeback)
    g.load(notation.parse_board(text, cells), moves)
    saves.put_slot(0, deals.KIND_SEED, 1, cells, g, 0)
    saves.active = 0
    saves.commit(0, force=True)
    return bytes(g.pos)


def length(text, col):
    """Return the number of cards in column col of a board text."""
    g = Game(4)
    g.load(notation.parse_board(text, 4))
    return g.column_len(col)


def tap(slot, index=-1, n=1, size=(320, 240), cells=4):
    """Return the script line tapping a slot (card index of a column of n cards)."""
    return "tap %d %d" % Layout(size[0], size[1], cells).tap_point(slot, index, n)


def test_a_run_longer_than_any_capacity_lights_nothing_and_moves_nothing(tmp_path):
    before = seed(tmp_path, LONG_RUN)
    n = 11  # column 1 is the run alone
    k = length(LONG_RUN, 3)
    app = run(["expect moves 0", tap(0, n - 11, n)], tmp_path)
    assert app.table.sel_n == 11
    assert app.table.lit == 0  # 11 > 10: no place anywhere, not even for a part of it
    # Tapping the places where a part would fit (a cell, KC, the empty column) moves nothing.
    for target in (8, 3, 7):
        app = run(["expect moves 0", tap(0, n - 11, n), tap(target, -1, k if target == 3 else 0),
                   "expect moves 0"], tmp_path)
        assert bytes(app.game.pos) == before


def test_the_spec_capacity_example_ten_onto_a_card_five_into_the_empty_column(tmp_path):
    before = seed(tmp_path, LONG_RUN)
    n = 11
    k = length(LONG_RUN, 3)
    # The queen: a run of 10 goes onto the king of clubs as one move.
    app = run([tap(0, n - 10, n), tap(3, -1, k), "expect moves 1"], tmp_path)
    assert app.game.column_len(3) == k + 10 and app.game.column_len(0) == 1
    # The same 10 held over the empty column: it is not lit (5 fit there, not 10), and
    # tapping it moves nothing at all, not even the 5 that would fit.
    seed(tmp_path, LONG_RUN)
    app = run([tap(0, n - 10, n)], tmp_path)
    assert app.table.lit == 1 << 3
    app = run([tap(0, n - 10, n), tap(7, -1, 0), "expect moves 0"], tmp_path)
    assert bytes(app.game.pos) == before and app.table.sel_src == -1
    # Holding the bottom 5 instead: they go into the empty column as one move.
    app = run([tap(0, n - 5, n), tap(7, -1, 0), "expect moves 1"], tmp_path)
    assert app.game.column_len(7) == 5 and app.game.column_len(0) == 6
    assert app.game.run_len(7) == 5


# A run of 7 (QH down to 6D) alone in column 1; KC in column 4 takes all of it; JS in
# column 6 would take its bottom 5 (TD..6D); column 8 empty (5 fit there); 4 empty cells.
SEVEN = board_text(
    [["QH", "JC", "TD", "9S", "8H", "7C", "6D"], ["KD"], ["5C"], ["KC"], ["QS"], ["JS"], ["TS"],
     []],
    fill=[2, 3, 4, 5, 6],
)


def test_a_held_run_lights_only_where_all_of_it_may_land(tmp_path):
    before = seed(tmp_path, SEVEN)
    n = 7
    k = length(SEVEN, 3)
    app = run([tap(0, 0, n)], tmp_path)
    assert app.table.sel_n == 7
    # Not the cells (one card each), not the empty column (5 of 7), not JS (5 of 7).
    assert app.table.lit == 1 << 3
    # Tapping an empty cell or the empty column: nothing moves, the selection clears.
    for target in (8, 11, 7):
        app = run([tap(0, 0, n), tap(target, -1, 0), "expect moves 0"], tmp_path)
        assert bytes(app.game.pos) == before
        assert app.table.sel_src == -1 and app.table.lit == 0
    # Tapping JS, where only part of the run would fit: nothing moves, JS is picked up.
    js = length(SEVEN, 5)
    app = run([tap(0, 0, n), tap(5, -1, js), "expect moves 0"], tmp_path)
    assert bytes(app.game.pos) == before
    assert app.table.sel_src == 5 and app.table.sel_n == 1
    # The lit king takes the whole run as one move.
    app = run([tap(0, 0, n), tap(3, -1, k), "expect moves 1"], tmp_path)
    assert app.game.column_len(3) == k + 7 and app.game.column_len(0) == 0


def test_an_unlit_foundation_never_takes_the_held_card(tmp_path):
    text = board_text([["5C", "AS"], ["KC"], ["KS"], ["QC"], ["QS"], ["JC"], ["JS"], ["9S"]])
    before = seed(tmp_path, text)
    n = length(text, 0)
    app = run([tap(0, -1, n)], tmp_path)
    assert app.table.lit >> 12 == 1 << 3  # of the foundations, only the spades' is lit
    # The hearts foundation: unlit, so the ace stays where it is and is let go.
    app = run([tap(0, -1, n), tap(14), "expect moves 0"], tmp_path)
    assert bytes(app.game.pos) == before and app.table.sel_src == -1
    # The spades foundation takes it.
    app = run([tap(0, -1, n), tap(15), "expect moves 1"], tmp_path)
    assert app.game.pos[64 + 3] == 1


def test_an_unlit_foundation_jumps_to_its_card_when_cards_may_come_back(tmp_path):
    text = board_text([["5C", "AS"], ["KC"], ["KS"], ["QC"], ["QS"], ["JC"], ["JS"], ["9S"]],
                      found={"H": 2})
    before = seed(tmp_path, text, takeback=True)
    n = length(text, 0)
    app = run([tap(0, -1, n), tap(14), "expect moves 0"], tmp_path)
    assert bytes(app.game.pos) == before
    assert app.table.sel_src == 14 and app.table.sel_n == 1  # the two of hearts is held


def test_a_deal_undone_to_its_start_and_continued_later_is_played_once(tmp_path):
    # One move, taken back, then the board is switched off; at the next start the
    # player goes on with the same deal: still one game played, not two.
    run(["move 1a", "key u", "expect moves 0", "wait 9000"], tmp_path,
        start_deal=(deals.KIND_MS, 1, 4))
    app = run(["expect moves 0", "move 1a", "expect moves 1", "wait 9000"], tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)
    assert app.saves.stats.played == 1


def test_a_won_deal_undone_and_won_again_after_a_restart_counts_one_win(tmp_path):
    from test_sim_game import shortest

    deal, moves = shortest(4)
    run(["move " + m for m in moves] + ["expect won", "expect screen result",
                                        "key u", "expect not-won", "wait 9000"],
        tmp_path, start_deal=(deals.KIND_MS, deal, 4))
    app = run(["expect not-won", "move " + moves[-1], "expect won"], tmp_path)
    assert app.saves.stats.won == 1
    assert app.saves.stats.played == 1


def test_todays_daily_already_won_opens_on_its_result_not_on_an_empty_table(tmp_path):
    from freecell_mc.saves.policy import Saves
    from freecell_mc.saves.record import SLOT_PLAYED, SLOT_WON
    from host_sim.flash import FlashBlock
    from test_screens_sim import at

    saves = Saves([FlashBlock(str(tmp_path / "nvm.bin"), 8192)])
    saves.load()
    won = Game(4)
    won.load(bytes(64) + bytes((13, 13, 13, 13)), 97)
    saves.put_slot(1, deals.KIND_DAILY, 20261130, 4, won, 412, SLOT_PLAYED | SLOT_WON)
    saves.commit(0, force=True)
    # Today's daily, already won this morning: its result (moves, time, code) and the
    # ways on, as at a start with that game in play.
    app = run(["key esc", at("menu", "Daily deal", begun=False), at("daily", "30"),
               "expect screen result"],
              tmp_path)
    assert app.screen.values[0].text == "97"
    assert app.screen.values[1].text == "6:52"
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261130)
    assert app.saves.stats.won == 0  # nothing new was won


def test_thinking_time_after_the_last_move_is_kept_when_leaving(tmp_path):
    # One move, then 20 s of thought at the table, then the menu and a restart: the
    # elapsed time (recorded silently, never shown while playing) kept all of it.
    run(["move 1a", "wait 20000", "key esc", "expect screen menu", "wait 1000"], tmp_path,
        start_deal=(deals.KIND_MS, 1, 4))
    app = run(["key esc"], tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)
    assert app.elapsed_ms >= 20000


@pytest.mark.slow
def test_undo_takes_back_every_move_of_a_game_longer_than_2048_moves(tmp_path, monkeypatch):
    from host_sim.display import FramebufferDisplay

    # Only the position matters here: 4,200 steps skip painting pixels (displayio still
    # works out what changed on every refresh).
    monkeypatch.setattr(FramebufferDisplay, "_refresh_area", lambda self, area: True)
    # KD alone can shuttle between column 8 and cell a: 2,100 moves, then 2,100 undos
    # bring the position back to how it was left, with the counter at 0.
    text = board_text([["KD"], ["KC"], ["KH"], ["KS"], ["QC"], ["QS"], ["JC"], []],
                      fill=[1, 2, 3, 4, 5, 6])
    before = seed(tmp_path, text)
    lines = []
    for i in range(1050):
        lines += ["move 18" if i == 0 else "move a8", "move 8a"]
    lines += ["expect moves 2100"] + ["key u"] * 2100 + ["expect moves 0"]
    app = run(lines, tmp_path)
    assert bytes(app.game.pos) == before
