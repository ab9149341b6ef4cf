# SPDX-License-Identifier: MIT
"""The two save slots and the once-only win, played through the real code.py headless."""

import pytest

from freecell_mc.rules import deals
from test_screens import FakeApp, make
from test_screens_sim import at, centre
from test_screens_sim import run_today as run
from test_sim_game import shortest


def at_menu(text, other):
    """Return 'tap X Y' for a menu button when the other slot holds a game."""
    return at("menu", text, other=other)


def ask_yes(text):
    """Return 'tap X Y' for the question's first button, captioned text."""
    return at("confirm", text, yes=text, keep="K", back=False)


def at_other(other):
    """Return 'tap X Y' for the menu's button that continues the game in the other slot."""
    app, s = make("menu", FakeApp(320, 240, date=(2026, 11, 30), other=other))
    return centre([b for b in s.buttons if b.text.startswith("Continue")][1])


def test_a_half_played_free_deal_is_reached_again_from_the_daily(tmp_path):
    free = bytes(run(["move 1a", "move 2b", "expect moves 2", "wait 9000"], tmp_path,
                     start_deal=(deals.KIND_MS, 1, 4)).game.pos)
    # Restart as the board does (the saved free game), open today's daily, play one move,
    # then go back to the free deal from the menu: both games are as they were left.
    lines = ["expect moves 2", "key esc", at("menu", "Daily deal"), at("daily", "30"),
             "move 1a", "expect moves 1", "key esc",
             at_menu("Continue free deal", 0), "expect screen table", "expect moves 2"]
    app = run(lines, tmp_path)
    assert bytes(app.game.pos) == free
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)
    lines = ["key esc", at_menu("Continue daily 30 Nov", 1), "expect moves 1"]
    app = run(lines, tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261130)


@pytest.mark.slow
def test_undoing_and_winning_again_counts_one_win(tmp_path):
    deal, moves = shortest(4)
    lines = ["move " + m for m in moves] + [
        "expect won", "expect screen result", "key esc", "expect screen menu",
        "key esc", "expect screen result", "key u", "expect screen table",
        "expect not-won",
        "move " + moves[-1], "expect won"]
    app = run(lines, tmp_path, start_deal=(deals.KIND_MS, deal, 4))
    assert app.saves.stats.won == 1
    assert app.saves.stats.played == 1


@pytest.mark.slow
def test_a_won_game_greets_the_next_start_with_its_result(tmp_path):
    deal, moves = shortest(4)
    run(["move " + m for m in moves] + ["expect won"], tmp_path,
        start_deal=(deals.KIND_MS, deal, 4))
    app = run(["expect screen result", "expect won", "key n", "expect screen table",
               "expect moves 0"], tmp_path)
    assert app.current_deal()[0] == deals.KIND_SEED
    assert app.saves.stats.won == 1


def test_a_look_at_the_daily_keeps_the_free_games_undo_and_the_dailys(tmp_path):
    # Three moves of the free game, one of today's daily, back to the free game: its three
    # moves undo one by one to the deal; back on the daily, its move undoes too.
    lines = ["move 1a", "move 2b", "move 3c", "expect moves 3", "key esc",
             at("menu", "Daily deal"), at("daily", "Today"), "move 1a", "expect moves 1",
             "key esc", at_other(0), "expect screen table", "expect moves 3",
             "key u", "expect moves 2", "key u", "expect moves 1", "key u", "expect moves 0",
             "key u", "expect moves 0",
             "key esc", at_other(1), "expect moves 1", "key u", "expect moves 0"]
    app = run(lines, tmp_path, start_deal=(deals.KIND_MS, 1, 4))
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261130)
    assert bytes(app.game.pos) == bytes(_dealt(deals.KIND_DAILY, 20261130).pos)


@pytest.mark.slow
def test_the_undo_kept_for_the_other_slot_goes_with_a_restart_and_a_new_deal_there(tmp_path):
    # SPEC 5: the history is not saved, so after a restart the free game continues with
    # nothing to undo; and a new free deal started from the daily drops the old one's.
    lines = ["move 1a", "move 2b", "key esc", at("menu", "Daily deal"), at("daily", "Today"),
             "move 1a", "wait 9000"]
    run(lines, tmp_path, start_deal=(deals.KIND_MS, 1, 4))
    lines = ["expect moves 1", "key esc", at_other(0), "expect moves 2", "key u",
             "expect moves 2"]
    app = run(lines, tmp_path)
    assert app.game.history_len() == 0
    lines = ["key esc", at_other(1), "key esc", at_other(0),
             "expect moves 2", "move 4d", "key esc", at_other(1)]
    app = run(lines, tmp_path)
    assert app.play._kept is not None  # the free game's one move, kept
    app.start_deal(deals.KIND_SEED, 7, 4, sure=True)
    assert app.play._kept is None  # the daily had nothing to undo; the old free game is gone


@pytest.mark.slow
def test_a_deal_in_the_slot_in_play_keeps_the_other_slots_undo(tmp_path):
    # Three moves of the free game, then today's daily, one move there and Replay of the
    # daily (the question answered yes): the free game kept aside still undoes to its deal.
    yes = ask_yes("Replay from the start")
    lines = ["move 1a", "move 2b", "move 3c", "key esc", at("menu", "Daily deal"),
             at("daily", "Today"), "move 1a", "expect moves 1", "key r",
             "expect screen confirm", yes, "expect screen table", "expect moves 0",
             "move 1a", "key esc", at_other(0), "expect screen table", "expect moves 3",
             "key u", "expect moves 2", "key u", "expect moves 1", "key u", "expect moves 0"]
    app = run(lines, tmp_path, start_deal=(deals.KIND_MS, 1, 4))
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)
    assert bytes(app.game.pos) == bytes(_dealt(deals.KIND_MS, 1).pos)
    # And the other way: a new free deal while the daily's move is kept aside; back on
    # the daily (a new session: its first move is saved, the second undoes).
    lines = ["move 1a", "move 2b", "key esc", at_menu("Continue daily 30 Nov", 1),
             "expect moves 1", "move 2b", "expect moves 2", "key esc", at_other(0),
             "expect moves 2", "key n", "expect screen confirm",
             ask_yes("Play a new free deal"), "expect moves 0",
             "key esc", at_other(1), "expect moves 2", "key u", "expect moves 1"]
    app = run(lines, tmp_path, start_deal=(deals.KIND_MS, 1, 4))
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261130)


def _dealt(kind, number):
    from freecell_mc.rules.engine import Game

    g = Game(4)
    g.deal(deals.deck_for(kind, number))
    return g


class _Clock:
    def ticks_ms(self):
        return 0


def _play_with_daily_saved(pos, cells):
    """Return a Play of Microsoft deal 1 (two moves made) over a Record whose daily slot
    holds pos with cells free cells, and the undo history kept for that slot."""
    from types import SimpleNamespace

    from freecell_mc.play import Play
    from freecell_mc.saves.record import SLOT_DAILY
    from freecell_mc.saves.record import Record

    rec = Record()
    rec._fresh()
    p = Play(SimpleNamespace(), rec, _Clock(), (deals.KIND_MS, 1, 4))
    rec.put_slot(SLOT_DAILY, deals.KIND_DAILY, 20261130, cells,
                 SimpleNamespace(pos=pos, moves=3), 60)
    g = p.game
    assert g.move(0, 8) and g.move(1, 9)
    p.save()
    p._kept = kept = [bytearray(68), 99, [], 0]  # a history kept of another position
    return p, kept


def test_a_save_that_load_refuses_leaves_the_game_and_the_kept_history_as_they_were():
    from freecell_mc.saves.record import SLOT_DAILY, SLOT_FREE

    # The daily's position has a card in the third free cell, saved with two cells:
    # its deal code is sound, Game.load refuses it.
    daily = _dealt(deals.KIND_DAILY, 20261130)
    assert daily.move(0, 10)
    p, kept = _play_with_daily_saved(bytes(daily.pos), 2)
    g = p.game
    before = bytes(g.pos)
    assert not p._restore(SLOT_DAILY)
    assert p.slot == SLOT_FREE and p.current_deal()[:3] == (deals.KIND_MS, 1, 4)
    assert g.cells == 4 and bytes(g.pos) == before and g.moves == 2
    assert g.history_len() == 2
    assert p._kept is kept
    # The same daily saved as it was played (four cells) is continued, and the free
    # game's two moves are kept for the way back.
    p, kept = _play_with_daily_saved(bytes(daily.pos), 4)
    assert p._restore(SLOT_DAILY)
    assert p.slot == SLOT_DAILY and p.game.cells == 4 and p.game.moves == 3
    assert p._kept is not kept and len(p._kept) > 0
