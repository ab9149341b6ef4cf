# SPDX-License-Identifier: MIT
"""No clock can erase history: a daily won at an implausible date counts, and moves nothing.

The statistics keep the daily days won as a 64-day window ending at the latest won day; a
win far in the future would shift it past every day the calendar shows. A date counts as
confirmed when the player sets it in the date picker, or when a running clock says a date
no more than 34 days past the last confirmed one (the window's 64 days less the calendar's
30: such a slip, put right, still finds every day the calendar shows). Further than that,
the game asks first; until the player confirms it, a daily win counts as a game won but is
not marked as a day won.
"""

from test_ui import finish_position
from test_ui_harness import HIT_FINISH, Board

from freecell_mc import dates
from freecell_mc.play import DAY_SLACK
from freecell_mc.rules import deals
from freecell_mc.saves import policy
from freecell_mc.saves.stats import Stats

HISTORY = ((2026, 11, 27), (2026, 11, 28), (2026, 11, 29))


def _played_until(nvm):
    """Leave saves in nvm: three daily days won, the last confirmed date 2026-11-30."""
    s = policy.Saves([nvm])
    s.load()
    for d in HISTORY:
        s.stats.record_start()
        s.stats.record_win(300, 100)
        s.stats.mark_day_won(*d)
    s.note_date(2026, 11, 30)
    s.confirmed_day = dates.day_number(2026, 11, 30)
    assert s.commit(0, force=True)


def _win_the_daily(b):
    """Finish the daily in play from a position one Finish away from won."""
    b.load(finish_position())
    b.tap_button(HIT_FINISH)
    b.poll(12 * 13)
    assert b.app.game.won()


def _after(nvm, date):
    """Return the statistics a later start finds, with the clock right again."""
    b = Board(320, 240, start=(deals.KIND_SEED, 3, 4), blocks=[nvm], date=date)
    try:
        return b.app.saves.stats
    finally:
        b.close()


def test_a_daily_won_while_the_clock_says_2099_counts_and_keeps_the_calendar():
    nvm = bytearray(8192)
    _played_until(nvm)
    b = Board(320, 240, start=(deals.KIND_DAILY, 20991231, 4), blocks=[nvm],
              date=(2099, 12, 31))
    try:
        # The clock runs far ahead of the last confirmed date: the player is asked.
        assert b.app.screen.name == "datepicker" and b.app.screen.check
        assert b.app.screen.model.value() == (2099, 12, 31)
        b.key("esc")  # not now: the clock stays as it is, unconfirmed
        assert b.app.screen.name == "table"
        _win_the_daily(b)
        st = b.app.saves.stats
        assert st.won == 4  # the win is counted
        assert st.days_won == 3 and not st.day_won(2099, 12, 31)  # no day moved the window
    finally:
        b.close()
    st = _after(nvm, (2026, 12, 1))
    assert st.won == 4 and all(st.day_won(*d) for d in HISTORY)  # the calendar's history


def test_a_clock_a_few_days_ahead_needs_no_question_and_loses_no_day():
    """A slip of up to 34 days marks the day it says, and the true days stay in the window."""
    nvm = bytearray(8192)
    _played_until(nvm)
    ahead = dates.add_days(2026, 11, 30, DAY_SLACK)
    number = ahead[0] * 10000 + ahead[1] * 100 + ahead[2]
    b = Board(320, 240, start=(deals.KIND_DAILY, number, 4), blocks=[nvm], date=ahead)
    try:
        assert b.app.screen.name == "table"
        _win_the_daily(b)
        assert b.app.saves.stats.day_won(*ahead)
    finally:
        b.close()
    st = _after(nvm, (2026, 12, 1))
    assert all(st.day_won(*d) for d in HISTORY)
    # Back on the true date, every day of its 30-day calendar is still in the window.
    assert st.last_day - dates.day_number(2026, 12, 1) + 30 <= 64


def test_a_date_the_player_sets_is_confirmed_and_the_window_moves_there():
    nvm = bytearray(8192)
    _played_until(nvm)
    b = Board(320, 240, start=(deals.KIND_DAILY, 20271201, 4), blocks=[nvm],
              date=(2027, 12, 1))
    try:
        assert b.app.screen.name == "datepicker"
        b.key("enter")  # yes, this is today
        assert b.app.saves.confirmed_day == dates.day_number(2027, 12, 1)
        _win_the_daily(b)
        assert b.app.saves.stats.day_won(2027, 12, 1)
    finally:
        b.close()


def test_the_window_moves_no_further_than_reach():
    st = Stats()
    for d in HISTORY:
        st.mark_day_won(*d)
    reach = dates.day_number(2026, 11, 30) + DAY_SLACK
    assert not st.mark_day_won(2099, 12, 31, reach)
    assert st.days_won == 3 and all(st.day_won(*d) for d in HISTORY)
    assert st.mark_day_won(2026, 12, 3, reach) and st.days_won == 4
    assert st.mark_day_won(2099, 12, 31) and not st.day_won(2026, 11, 29)  # no reach: moved
