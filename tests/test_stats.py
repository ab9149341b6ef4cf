# SPDX-License-Identifier: MIT
"""Statistics: counts, win rate, best and average of won games, daily days won."""

import datetime

from hypothesis import given, settings, strategies as st

from freecell_mc import dates
from freecell_mc.saves import stats as stats_module
from freecell_mc.saves.stats import SIZE, Stats


def test_nothing_played():
    s = Stats()
    assert (s.played, s.won, s.days_won) == (0, 0, 0)
    assert s.win_rate() is None and s.avg_seconds() is None and s.avg_moves() is None
    assert not s.day_won(2026, 11, 30)


def test_counts_rate_best_and_average():
    s = Stats()
    for _ in range(3):
        s.record_start()
    s.record_win(300, 100)
    s.record_win(200, 120)
    assert (s.played, s.won) == (3, 2)
    assert s.win_rate() == 67  # 2 of 3, rounded
    assert (s.best_seconds, s.best_moves) == (200, 100)  # best of each, not of one game
    assert s.avg_seconds() == 250 and s.avg_moves() == 110


def test_a_win_is_always_a_game_played():
    s = Stats()
    s.record_win(50, 80)
    assert s.played == 1 and s.win_rate() == 100


def test_daily_days_won_for_the_30_day_calendar():
    s = Stats()
    assert s.mark_day_won(2026, 11, 30)
    assert not s.mark_day_won(2026, 11, 30)  # the same day twice counts once
    assert s.mark_day_won(2026, 11, 2)  # an older day in the window
    assert s.mark_day_won(2026, 12, 5)  # a later day moves the window
    assert s.days_won == 3
    for d in (datetime.date(2026, 11, 30), datetime.date(2026, 11, 2), datetime.date(2026, 12, 5)):
        assert s.day_won(d.year, d.month, d.day)
    assert not s.day_won(2026, 12, 1)
    # Everything a 30-day calendar ending today can ask is answered.
    won = [dates.add_days(2026, 12, 5, -k) for k in range(30)]
    assert sum(s.day_won(*d) for d in won) == 2  # 11-30 and 12-05 (11-02 is 33 days back)


def test_a_long_gap_forgets_old_marks_but_keeps_the_count():
    s = Stats()
    s.mark_day_won(2026, 1, 1)
    s.mark_day_won(2026, 9, 1)
    assert s.days_won == 2
    assert s.day_won(2026, 9, 1) and not s.day_won(2026, 1, 1)


def _roundtrip(s):
    buf = bytearray(SIZE + 8)
    s.pack_into(buf, 4)
    t = Stats()
    t.unpack_from(buf, 4)
    return t


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("start")),
            st.tuples(st.just("win"), st.integers(1, 20000), st.integers(1, 3000)),
            st.tuples(
                st.just("day"),
                st.dates(datetime.date(2026, 1, 1), datetime.date(2026, 12, 31)),
            ),
        ),
        max_size=60,
    )
)
def test_against_a_plain_model(events):
    s = Stats()
    played = won = 0
    times, moves, days = [], [], set()
    for e in events:
        if e[0] == "start":
            s.record_start()
            played += 1
        elif e[0] == "win":
            s.record_win(e[1], e[2])
            won += 1
            played = max(played, won)
            times.append(e[1])
            moves.append(e[2])
        else:
            d = e[1]
            s.mark_day_won(d.year, d.month, d.day)
            days.add(d)
    s = _roundtrip(s)
    assert (s.played, s.won) == (played, won)
    if won:
        assert s.best_seconds == min(times) and s.best_moves == min(moves)
        assert s.avg_seconds() == round(sum(times) / won + 1e-9) or abs(
            s.avg_seconds() - sum(times) / won
        ) <= 0.5
    if days:
        latest = max(days)
        # Days within the window are remembered exactly.
        for k in range(64):
            d = latest - datetime.timedelta(days=k)
            assert s.day_won(d.year, d.month, d.day) == (d in days)
        # The count is exact when no day fell out of the window before being repeated.
        assert s.days_won >= len([d for d in days if (latest - d).days < 64])


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([0, 1, 0x3FFFFFFE, 0x3FFFFFFF, 0xFFFFFFFF]),
    st.lists(
        st.one_of(
            st.tuples(st.just("start")),
            st.tuples(st.just("win"), st.integers(0, 2**32), st.integers(0, 2**17)),
            st.tuples(st.just("day"),
                      st.dates(datetime.date(1, 1, 1), datetime.date(9999, 12, 31))),
        ),
        max_size=40,
    ),
)
def test_whatever_the_game_records_packs_and_passes_the_load_check(start, events):
    from freecell_mc.saves.stats import refusal

    s = Stats()
    s.played = start  # counters already at (or near) their top, or an earlier version's
    for e in events:
        if e[0] == "start":
            s.record_start()
        elif e[0] == "win":
            s.record_win(e[1], e[2])
        else:
            s.mark_day_won(e[1].year, e[1].month, e[1].day)
    buf = bytearray(SIZE + 8)
    s.pack_into(buf, 4)  # saturated, never a struct.error
    assert refusal(buf, 4) is None
    # Loaded, a count never exceeds the largest small int (a long int would allocate at
    # every save's look for changes on the board).
    assert _roundtrip(s).played == min(s.played, stats_module._MAX)
