# SPDX-License-Identifier: MIT
"""The flow between deals, played through the real code.py on the headless simulator.

Nothing begun vanishes unless the player chooses it; a daily deal plays only once its day
has come, and its win is a daily day won exactly when the calendar shows that day; the date
prompt can be skipped for free deals; the menu names the deal each Continue goes back to.
"""

import pytest

from freecell_mc.rules import deals, notation
from freecell_mc.rules.engine import Game
from freecell_mc.saves.policy import Saves
from freecell_mc.saves.record import SLOT_PLAYED
from host_sim.flash import FlashBlock
from test_screens_sim import at
from test_screens_sim import run_today as run

# The flow is asserted on screens, slots and saves, never on pixels.
pytestmark = pytest.mark.usefixtures("no_pixels")

TODAY = (2026, 11, 30)
FREE, DAILY = 0, 1  # the App's save slots

# Every card home but the king of spades, exposed in column 1: "1h" wins.
ONE_TO_GO = "KS\n:\n:\n:\n:\n:\n:\n:\nFoundations: C-K D-K H-K S-Q\n"


def ask(choice, size=(320, 240)):
    """Return the tap on the question's "yes", "keep" or "back" row (they do not move)."""
    text = {"yes": "Y", "keep": "K", "back": "Back"}[choice]
    return at("confirm", text, size=size, yes="Y", keep="K", back=True)


def typed(code):
    return [at("keypad", ch) for ch in code]


def seed_daily(tmp_path, number, pos_text=ONE_TO_GO, moves=51, last_date=TODAY):
    """Leave a daily game in the saves, as an earlier session of play would have."""
    saves = Saves([FlashBlock(str(tmp_path / "nvm.bin"), 8192)])
    saves.load()
    g = Game(4)
    g.load(notation.parse_board(pos_text), moves)
    saves.put_slot(DAILY, deals.KIND_DAILY, number, 4, g, 300, SLOT_PLAYED)
    if last_date:
        saves.note_date(*last_date)
    saves.commit(0, force=True)


# -- nothing vanishes unasked ---------------------------------------------------------


def test_replay_asks_before_the_moves_played_are_lost(tmp_path):
    lines = ["key r", "expect screen table",  # nothing played yet: nothing to ask
             "move 1a", "move 2b", "key esc", at("menu", "Replay"), "expect screen confirm",
             ask("back"), "expect screen menu", "key esc", "expect moves 2",
             "key r", "expect screen confirm", ask("keep"), "expect screen table", "expect moves 2",
             "key r", "expect screen confirm", "key esc", "expect screen table", "expect moves 2",
             "key r", ask("yes"), "expect screen table", "expect moves 0"]
    app = run(lines, tmp_path, start_deal=(deals.KIND_MS, 1, 4))
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)


def test_the_question_names_both_deals_and_the_moves_at_stake(tmp_path):
    app = run(["move 1a", "key esc", "key d", at("daily", "28"), "move 1a", "move 2b", "key esc",
               "key d", at("daily", "Today"), "expect screen confirm"], tmp_path,
              start_deal=(deals.KIND_MS, 1, 4))
    s = app.screen
    assert s.text.text.replace("\n", " ") == (
        "Your daily 28 Nov is not finished (2 moves). Playing daily 30 Nov gives it up: it "
        "cannot be continued afterwards.")
    assert [b.text for b in s.buttons] == ["Play daily 30 Nov", "Continue daily 28 Nov", "Back"]
    assert not s.back.hidden


def test_another_day_asks_before_the_started_daily_is_replaced_and_the_calendar_marks_it(tmp_path):
    app = run(["key esc", "key d", at("daily", "28"), "move 1a", "key esc", "key d",
               "expect screen daily"], tmp_path)
    cal = app.screen
    assert cal.started >= 0 and cal.cal.date(cal.started) == (2026, 11, 28)
    assert not cal.bar.hidden
    x, y, w, h = cal.day_box(cal.started)
    assert x < cal.bar.x and cal.bar.x + cal.bar.width < x + w
    assert y < cal.bar.y and cal.bar.y + cal.bar.height < y + h
    # Started again later: the daily of 28 Nov is in play; another day asks first.
    lines = ["expect moves 1", "key esc", "key d", at("daily", "30"), "expect screen confirm",
             ask("back"), "expect screen daily", at("daily", "Today"), "expect screen confirm",
             ask("keep"), "expect screen table", "expect moves 1"]
    app = run(lines, tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261128)
    # Tapping the started day itself simply continues it.
    lines = ["key esc", "key d", at("daily", "28"), "expect screen table", "expect moves 1",
             "key esc", "key d", at("daily", "29"), ask("yes"), "expect screen table",
             "expect moves 0", "key esc", "key d"]
    app = run(lines, tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261129)
    assert app.screen.started == -1 and app.screen.bar.hidden  # nothing unfinished any more


def test_d_after_midnight_keeps_yesterdays_daily_unless_the_player_gives_it_up(tmp_path):
    run(["key d", "move 1a", "expect moves 1", "wait 9000"], tmp_path)
    app = run(["expect moves 1", "key d", "expect screen confirm", "key esc", "expect screen table",
               "expect moves 1"], tmp_path, date="2026-12-01")
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261130)
    app = run(["key d", "expect screen confirm", "key enter", "expect screen table",
               "expect moves 0"], tmp_path, date="2026-12-01")
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261201)


def test_a_new_deal_from_the_daily_asks_before_the_free_game_in_progress_goes(tmp_path):
    lines = ["move 1a", "key esc", "key d", at("daily", "30"), "expect moves 0", "key esc",
             at("menu", "New deal", other=FREE, begun=False), "expect screen confirm"]
    app = run(lines, tmp_path, start_deal=(deals.KIND_MS, 1, 4))
    assert [b.text for b in app.screen.buttons[:2]] == ["Play a new free deal", "Continue deal #1"]
    app = run(["key esc", at("menu", "New deal", other=FREE, begun=False), ask("keep"),
               "expect screen table",
               "expect moves 1"], tmp_path)
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)
    # A code typed on the keypad for the free slot asks too, and "back" keeps what was typed.
    code = deals.deal_code(deals.KIND_MS, 11982, 4)
    lines = ["key esc", at("menu", "Enter code")] + typed(code) + [
        at("keypad", "OK"), "expect screen confirm", ask("back"), "expect screen keypad"]
    app = run(lines, tmp_path)
    assert app.screen.entry.text == code
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)


def test_a_deal_typed_in_and_not_yet_played_keeps_its_slot(tmp_path):
    # Deal #617 typed in, the menu at once: Continue goes back to it, untouched.
    lines = ["key esc", at("menu", "Enter code")] + typed("617") + [
        at("keypad", "OK"), "expect screen table", "expect moves 0", "key esc",
        "expect screen menu", at("menu", "Continue"), "expect screen table", "key esc"]
    app = run(lines, tmp_path)
    assert [b.text for b in app.screen.buttons][0] == "Continue deal #617"
    # A look at the daily, and deal #617 is offered beside it, still untouched.
    lines = ["key esc", at("menu", "Daily deal"), at("daily", "Today"),
             "expect screen table", "key esc", "expect screen menu"]
    app = run(lines, tmp_path)
    conts = [b.text.replace("\n", " ") for b in app.screen.buttons
             if b.text.startswith("Continue")]
    assert conts == ["Continue daily 30 Nov", "Continue deal #617"]
    app = run(["key esc", at("menu", "Continue free deal", other=FREE),
               "expect screen table", "expect moves 0"], tmp_path)
    assert app.current_deal()[:3] == (deals.KIND_MS, 617, 4)
    assert app.slot == FREE


# -- the daily's days -----------------------------------------------------------------


@pytest.mark.parametrize("number, why", [
    (20261201, "Daily 1 Dec opens on 1 Dec 2026"),
    (19990101, "No daily before 1 Jan 2025"),
])
def test_the_keypad_refuses_a_daily_that_cannot_be_played(tmp_path, number, why):
    code = deals.deal_code(deals.KIND_DAILY, number, 4)
    lines = ["key esc", at("menu", "Enter code", begun=False)] + typed(code) + [
        at("keypad", "OK"), "expect screen keypad"]
    app = run(lines, tmp_path)
    s = app.screen
    assert s.message.text.replace("\n", " ") == why
    assert not s.error_bg.hidden
    assert s.entry.text == code  # what was typed stays
    assert app.current_deal()[0] == deals.KIND_SEED


def test_an_older_days_code_still_plays_that_deal(tmp_path):
    code = deals.deal_code(deals.KIND_DAILY, 20261001, 3)
    app = run(["key esc", at("menu", "Enter code", begun=False)] + typed(code) + [
        at("keypad", "OK"), "expect screen table"], tmp_path)
    assert app.current_deal()[:3] == (deals.KIND_DAILY, 20261001, 3)


@pytest.mark.parametrize("number, counted", [
    (20261128, 1),  # in the calendar: a daily day won, and marked
    (20261201, 0),  # a future day (left by an older version): a game won, no daily day
    (20261001, 0),  # older than the calendar: a game won, no daily day
])
def test_a_daily_win_is_a_daily_day_exactly_when_the_calendar_shows_it(tmp_path, number, counted):
    seed_daily(tmp_path, number)
    app = run(["expect moves 51", "move 1h", "expect won", "key esc", "key d",
               "expect screen daily"], tmp_path)
    st = app.saves.stats
    assert st.won == 1
    assert st.days_won == counted
    assert app.screen.count.text == "%d won" % counted


# -- the date prompt ------------------------------------------------------------------


def test_the_date_prompt_can_be_skipped_for_free_deals(tmp_path):
    lines = ["expect screen datepicker", at("datepicker", "Free deals only", date=(2000, 1, 1)),
             "expect screen table", "move 1a", "key esc", "key d", "expect screen datepicker",
             at("datepicker", "Back", date=(2000, 1, 1), then="daily"), "expect screen menu"]
    app = run(lines, tmp_path, date=None)
    assert app.current_deal()[0] == deals.KIND_SEED
    assert app.clock.today()[0] < 2025  # the clock was left alone
    assert app.game.moves == 1


def test_skipping_the_date_leaves_a_saved_daily_for_a_free_deal(tmp_path):
    seed_daily(tmp_path, 20261128, last_date=None)
    app = run(["expect screen datepicker", "key esc", "expect screen table", "expect moves 0"],
              tmp_path, date=None)
    assert app.current_deal()[0] == deals.KIND_SEED
    kept = app.saves.slot(DAILY)
    assert (kept.number, kept.moves) == (20261128, 51)


# -- the menu -------------------------------------------------------------------------


@pytest.mark.parametrize("board, size", [("pyportal", (320, 240)), ("titano", (480, 320))])
def test_the_menu_names_the_deal_each_continue_goes_back_to(tmp_path, board, size):
    app = run(["move 1a", "key esc", "key d", at("daily", "28", size=size), "move 1a", "key esc"],
              tmp_path, board=board, start_deal=(deals.KIND_MS, 11982, 4))
    s = app.screen
    assert s.name == "menu"
    captions = [b.text.replace("\n", " ") for b in s.buttons]
    assert captions[:2] == ["Continue daily 28 Nov", "Continue deal #11982"]
    assert "Free deal" not in captions and "Daily game" not in captions
    # The pair reads at one size.
    assert s.buttons[0].caption.scale == s.buttons[1].caption.scale


# -- one name per deal, one verb -------------------------------------------------------


def words(app):
    """Return every text the screen shown has, lines joined, buttons' captions included."""
    from test_sizes import shown

    return [t.replace("\n", " ") for kind, t, *_ in shown(app.screen.group, app.art)
            if kind == "text"]


def tap_on(app, text):
    """Return 'tap X Y' for the centre of the button captioned text on the App's screen."""
    for b in app.screen.buttons:
        if b.text.replace("\n", " ") == text:
            return "tap %d %d" % (b.x + b.w // 2, b.y + b.h // 2)
    raise AssertionError("no button %r" % text)


def test_every_screen_names_a_deal_one_way_and_continue_is_the_one_verb(tmp_path):
    seed_daily(tmp_path, 20261129)  # one move from a win, kept from an earlier session
    # Deal #617 begun: the menu names it in its header and on its Continue.
    app = run(["move 1a", "key esc", "expect screen menu"], tmp_path,
              start_deal=(deals.KIND_MS, 617, 4))
    menu = words(app)
    # The header line (under the title where the height holds both: not with seven rows).
    assert [w for w in menu if w.startswith("Deal #617   code ")], menu
    assert "Continue deal #617" in menu and "Continue daily 29 Nov" in menu
    seen = list(menu)
    # The daily kept half-played, taken up from the menu and won: the result names it as
    # the menu did and offers the free game with the menu's words.
    app = run(["expect screen table", "key esc", tap_on(app, "Continue daily 29 Nov"),
               "expect screen table", "move 1h", "expect screen result"], tmp_path)
    result = words(app)
    assert "Daily 29 Nov" in result and "Continue deal #617" in result
    seen += result
    # The won daily has nothing to continue; the free game is still offered.
    won = app
    app = run(["expect screen result", "key esc", "expect screen menu"], tmp_path)
    menu = words(app)
    assert [w for w in menu if w.startswith("Daily 29 Nov   code ")], menu
    assert [t for t in menu if t.startswith("Continue")] == ["Continue deal #617"]
    seen += menu
    # Back in deal #617, another deal from the calendar asks first, naming both the same way.
    app = run(["expect screen result", tap_on(won, "Continue deal #617"),
               "expect screen table", "key esc", "key d", "expect screen daily"], tmp_path)
    seen += words(app)
    app = run(["key esc", "key esc", "key n", "expect screen confirm"], tmp_path)
    question = words(app)
    assert "Continue deal #617" in question and "Play a new free deal" in question
    assert "Your deal #617 is not finished" in " ".join(question)
    seen += question
    app = run(["key esc", "key d", "expect screen daily", at("daily", "28"),
               "expect screen table", "move 1a", "key esc", "key d", at("daily", "27"),
               "expect screen confirm"], tmp_path)
    question = words(app)
    assert "Continue daily 28 Nov" in question and "Play daily 27 Nov" in question
    seen += question
    app = run(["key esc", "expect screen menu"], tmp_path)
    seen += words(app)
    app = run(["key esc", tap_on(app, "Statistics"), "expect screen stats"], tmp_path)
    seen += words(app)
    # No other name and no other verb anywhere on the way.
    text = " | ".join(seen)
    for other in ("Microsoft", "Resume", "Daily deal,", "2026-11", "Free deal #"):
        assert other not in text, other
