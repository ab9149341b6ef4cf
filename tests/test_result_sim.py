# SPDX-License-Identifier: MIT
"""A won game and its result screen, played through the real code.py on the headless simulator.

A won game is put in the board's save (as if the player had won it and switched off), or
won by the script itself; the test then goes every way a player can and looks at where the
game lands and what the result screen says.
"""

import pytest

from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game
from freecell_mc.saves.record import SLOT_PLAYED, SLOT_WON
from test_screens import FakeApp, button, make
from test_screens_sim import at, centre
from test_screens_sim import run_today as run

# Every card home: the position of any won game.
WON = bytes(64) + bytes((13, 13, 13, 13))


def keep(tmp_path, slot, kind, number, pos=WON, moves=97, elapsed=412, flags=0, active=None):
    """Put a game into a slot of the board's save (won by default) and make it the active one."""
    from freecell_mc.saves.policy import Saves
    from host_sim import hardware

    (tmp_path / "drive").mkdir(exist_ok=True)
    saves = Saves(hardware.drive_blocks(tmp_path / "drive", str(tmp_path / "nvm.bin")))
    saves.load()
    g = Game(4)
    g.load(pos, moves)
    if pos == WON:
        flags |= SLOT_PLAYED | SLOT_WON
    saves.put_slot(slot, kind, number, 4, g, elapsed, flags)
    saves.active = slot if active is None else active
    saves.commit(0, force=True)


def half_played(deal=1):
    """Return the position of Microsoft deal `deal` after its first column card went to cell a."""
    g = Game(4)
    g.deal(deals.ms_deck(deal))
    assert g.move(0, 8, 1)
    return bytes(g.pos)


def on_result(text, other=None, size=(320, 240), date=(2026, 11, 30), won_days=()):
    """Return 'tap X Y' for a result screen button, with the other slot holding a game or not."""
    app = FakeApp(size[0], size[1], date=date, other=other)
    for y, m, d in won_days:
        app.saves.stats.mark_day_won(y, m, d)
    _, s = make("result", app)
    return centre(button(s, text))


def test_a_won_game_comes_back_as_its_result_after_the_date_picker(tmp_path):
    keep(tmp_path, 0, deals.KIND_MS, 617)
    # The clock was reset: first the date, then the won game's result, not an empty table.
    app = run(["expect screen datepicker", at("datepicker", "Set the date"),
               "expect screen result"], tmp_path, date=None)
    assert app.screen.deal.text == "Deal #617"
    assert app.screen.values[0].text == "97"
    # Skipping the date picker with Esc leads to the same result.
    app = run(["expect screen datepicker", "key esc", "expect screen result"], tmp_path,
              date=None)


def test_the_menu_offers_no_continue_for_a_won_game(tmp_path):
    keep(tmp_path, 0, deals.KIND_MS, 617)
    app = run(["expect screen result", "key esc", "expect screen menu"], tmp_path)
    captions = [b.text.replace("\n", " ") for b in app.screen.buttons]
    assert not [c for c in captions if c.startswith("Continue")], captions
    assert captions[:2] == ["New deal", "Replay"]
    # Esc still goes back, to the result: nothing else is there to continue.
    app = run(["expect screen result", "key esc", "expect screen menu", "key esc",
               "expect screen result"], tmp_path)
    assert app.screen.values[0].text == "97"
    assert app.saves.stats.won == 0  # seeing a result again wins nothing


def test_a_won_game_in_the_other_slot_is_not_offered_to_continue(tmp_path):
    keep(tmp_path, 1, deals.KIND_DAILY, 20261129)
    keep(tmp_path, 0, deals.KIND_MS, 1, pos=half_played(), moves=1, elapsed=5)
    app = run(["expect screen table", "key esc", "expect screen menu"], tmp_path)
    captions = [b.text.replace("\n", " ") for b in app.screen.buttons]
    assert captions[0] == "Continue deal #1"
    assert not [c for c in captions if "daily" in c], captions


def test_the_result_says_which_deal_was_won(tmp_path):
    for kind, number, name in ((deals.KIND_DAILY, 20261130, "Daily 30 Nov"),
                               (deals.KIND_MS, 617, "Deal #617"),
                               (deals.KIND_SEED, 123456789, "Free deal")):
        keep(tmp_path, 1 if kind == deals.KIND_DAILY else 0, kind, number)
        app = run(["expect screen result"], tmp_path)
        assert app.screen.deal.text == name
        assert app.screen.values[2].text == deals.deal_code(kind, number, 4)


def test_the_result_leads_to_the_menu_by_touch(tmp_path):
    keep(tmp_path, 0, deals.KIND_MS, 617)
    run(["expect screen result", on_result("Menu"), "expect screen menu"], tmp_path)


def test_the_result_leads_to_the_game_kept_in_the_other_slot(tmp_path):
    kept = half_played()
    keep(tmp_path, 0, deals.KIND_MS, 1, pos=kept, moves=1, elapsed=5)
    keep(tmp_path, 1, deals.KIND_DAILY, 20261130)
    app = run(["expect screen result", on_result("Continue free deal", other=0),
               "expect screen table", "expect moves 1"], tmp_path)
    assert bytes(app.game.pos) == kept
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)
    # And from a won free deal to the daily kept half-played.
    keep(tmp_path, 1, deals.KIND_DAILY, 20261128, pos=half_played(), moves=1, elapsed=5)
    keep(tmp_path, 0, deals.KIND_MS, 617)
    app = run(["expect screen result", on_result("Continue daily 30 Nov", other=1),
               "expect screen table", "expect moves 1"], tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261128)


def test_after_winning_todays_daily_its_button_opens_the_calendar(tmp_path):
    from freecell_mc.saves.policy import Saves
    from host_sim import hardware

    keep(tmp_path, 0, deals.KIND_MS, 1, pos=half_played(), moves=1, elapsed=5)
    keep(tmp_path, 1, deals.KIND_DAILY, 20261130)
    saves = Saves(hardware.drive_blocks(tmp_path / "drive", str(tmp_path / "nvm.bin")))
    saves.load()
    saves.stats.mark_day_won(2026, 11, 30)
    saves.commit(0, force=True)
    # Today's daily is won: "Daily" would show this same result again, so the button
    # says "Calendar" and opens it, where the other days are.
    app = run(["expect screen result"], tmp_path)
    assert [b.text for b in app.screen.buttons][:3] == ["New deal", "Replay", "Calendar"]
    assert {b.caption.scale for b in app.screen.buttons} == {2}  # all alike
    today = [(2026, 11, 30)]
    run(["expect screen result", on_result("Calendar", other=0, won_days=today),
         "expect screen daily"], tmp_path)
    run(["expect screen result", "key d", "expect screen daily"], tmp_path)


def test_a_won_free_deal_offers_todays_daily_when_it_is_not_won(tmp_path):
    keep(tmp_path, 0, deals.KIND_MS, 617)
    app = run(["expect screen result", on_result("Daily"), "expect screen table",
               "expect moves 0"], tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261130)


def test_todays_daily_kept_beside_a_won_free_deal_has_one_button_not_two(tmp_path):
    # Today's daily kept half-played: "Continue daily 30 Nov" goes back to it, and the
    # button beside Replay opens the calendar instead of being a second way to that game.
    kept = half_played()
    keep(tmp_path, 1, deals.KIND_DAILY, 20261130, pos=kept, moves=1, elapsed=5)
    keep(tmp_path, 0, deals.KIND_MS, 617)
    app = run(["expect screen result"], tmp_path)
    texts = [b.text for b in app.screen.buttons]
    assert "Daily" not in texts and texts.count("Calendar") == 1
    assert "Continue daily 30 Nov" in texts
    run(["expect screen result", on_result("Calendar", other=1), "expect screen daily"],
        tmp_path)
    run(["expect screen result", "key d", "expect screen daily"], tmp_path)
    app = run(["expect screen result", on_result("Continue daily 30 Nov", other=1),
               "expect screen table", "expect moves 1"], tmp_path)
    assert bytes(app.game.pos) == kept
    # An older day kept instead: Daily is today's deal, another game, and stays.
    keep(tmp_path, 1, deals.KIND_DAILY, 20261128, pos=half_played(), moves=1, elapsed=5)
    keep(tmp_path, 0, deals.KIND_MS, 617)
    app = run(["expect screen result"], tmp_path)
    texts = [b.text for b in app.screen.buttons]
    assert "Daily" in texts and "Continue daily 28 Nov" in texts


@pytest.mark.parametrize("board,size", [("pyportal", (320, 240)), ("titano", (480, 320))])
def test_the_result_screen_at_both_sizes(tmp_path, board, size):
    keep(tmp_path, 1, deals.KIND_DAILY, 20261130, pos=half_played(), moves=1)
    keep(tmp_path, 0, deals.KIND_MS, 1000000)
    app = run(["expect screen result", "wait 100", "shot result.png"], tmp_path, board=board)
    s = app.screen
    assert (s.width, s.height) == size
    assert s.deal.text == "Deal #1000000"
    texts = [b.text for b in s.buttons]
    assert texts == ["New deal", "Replay", "Calendar", "Menu", "Continue daily 30 Nov"]
    for b in s.buttons:
        assert 0 <= b.x and b.x + b.w <= size[0] and 0 <= b.y and b.y + b.h <= size[1], b.text
        assert b.h >= 36
        assert b.caption.scale >= 2, b.text  # every caption at the size of the others
    # Nothing of the deal's name, figures or captions runs off the screen.
    from freecell_mc.ui import widgets

    assert widgets.text_width(s.deal.text, s.deal.scale) <= size[0] - 2 * s.m.margin
    assert (tmp_path / "result.png").exists()
