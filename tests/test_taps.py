# SPDX-License-Identifier: MIT
"""Taps from raw touch_point readings: press, release, debounce, pressure and jitter.

That feed() allocates nothing is checked under MicroPython (tests/mp/mp_taps_layout.py).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from freecell_mc.hardware.taps import Taps

WRAP = 1 << 29


def play(taps, readings, t0=1000, step=10):
    """Feed readings (None or (x, y, z)) every `step` ms; return the taps as tuples."""
    out = []
    t = t0
    for r in readings:
        tap = taps.feed(r, t & (WRAP - 1))
        if tap is not None:
            out.append((tap[0], tap[1]))
        t += step
    return out


def press(x, y, n=5, z=30000):
    return [(x, y, z)] * n


def test_a_clean_press_is_one_tap_on_release_at_the_mean():
    taps = Taps()
    got = play(taps, press(100, 50, 3) + [(102, 52, 30000)] + [None] * 6)
    assert got == [(100, 50)]  # mean of 100,100,100,102 and 50,50,50,52, rounded down


def test_nothing_while_held_and_one_tap_however_long_the_press():
    taps = Taps()
    assert play(taps, press(10, 10, 200)) == []
    assert play(taps, [None] * 10) == [(10, 10)]


def test_a_single_reading_spike_is_not_a_tap():
    assert play(Taps(), [(50, 50, 30000)] + [None] * 10) == []


def test_short_dropouts_are_bridged_by_the_debounce():
    taps = Taps(release_ms=40)
    seq = press(60, 60, 3) + [None, None] + press(61, 60, 3) + [None] * 8
    assert play(taps, seq, step=10) == [(60, 60)]


def test_a_gap_longer_than_the_debounce_makes_two_taps():
    taps = Taps(release_ms=40)
    seq = press(60, 60, 3) + [None] * 7 + press(200, 100, 3) + [None] * 7
    assert play(taps, seq) == [(60, 60), (200, 100)]


def test_readings_without_pressure_are_no_touch():
    taps = Taps(min_z=5000)
    assert play(taps, press(80, 80, 10, z=100) + [None] * 10) == []
    assert play(taps, press(80, 80, 10, z=0) + [None] * 10) == []
    assert play(taps, press(80, 80, 10, z=5000) + [None] * 10) == [(80, 80)]


def test_a_jittery_or_sliding_press_is_not_a_tap():
    taps = Taps(jitter=12)
    slide = [(100 + 6 * i, 100, 30000) for i in range(8)]
    assert play(taps, slide + [None] * 10) == []
    jump = press(100, 100, 3) + [(160, 100, 30000)] + press(100, 100, 3)
    assert play(taps, jump + [None] * 10) == []
    # Small wobble inside the jitter bound is still a tap.
    wobble = [(100, 100, 30000), (104, 97, 30000), (98, 103, 30000), (101, 100, 30000)]
    assert play(taps, wobble + [None] * 10) == [(100, 100)]


def test_the_next_press_after_a_spoiled_one_taps_again():
    taps = Taps()
    seq = [(0, 0, 30000), (200, 200, 30000)] + [None] * 8 + press(30, 40) + [None] * 8
    assert play(taps, seq) == [(30, 40)]


def test_release_across_the_ticks_wrap():
    taps = Taps(release_ms=40)
    got = play(taps, press(5, 6, 4) + [None] * 8, t0=WRAP - 45)
    assert got == [(5, 6)]


def test_reset_forgets_a_press_in_progress():
    taps = Taps()
    play(taps, press(5, 5, 4))
    taps.reset()
    assert play(taps, [None] * 10) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 479), st.integers(0, 319),
                                               st.integers(0, 65535))),
                max_size=60))
def test_any_reading_stream_gives_taps_inside_the_screen_and_never_while_touching(seq):
    taps = Taps(min_z=1000)
    t = 0
    for r in seq:
        tap = taps.feed(r, t)
        if tap is not None:
            assert r is None or r[2] < 1000  # taps come on release only
            assert 0 <= tap[0] <= 479 and 0 <= tap[1] <= 319
        t += 10
