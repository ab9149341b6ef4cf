# SPDX-License-Identifier: MIT
"""Taps from raw touch_point readings: confirmation, release, debounce, pressure and jitter.

A tap acts as soon as it is certain (two readings in a row close together), not when the
finger lifts; a press taps once, however long, and never again before it has ended. That
feed() allocates nothing is checked under MicroPython (tests/mp/mp_taps_layout.py).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from freecell_mc.hardware.taps import Taps

WRAP = 1 << 29


def play(taps, readings, t0=1000, step=10):
    """Feed readings (None or (x, y, z)) every `step` ms; return the taps as tuples."""
    return [tap for _, tap in timed(taps, readings, t0, step)]


def timed(taps, readings, t0=1000, step=10):
    """As play, with the index of the reading each tap came on: [(index, (x, y))]."""
    out = []
    t = t0
    for i, r in enumerate(readings):
        tap = taps.feed(r, t & (WRAP - 1))
        if tap is not None:
            out.append((i, (tap[0], tap[1])))
        t += step
    return out


def press(x, y, n=5, z=30000):
    return [(x, y, z)] * n


def test_a_clean_press_taps_at_its_second_reading_at_their_mean():
    taps = Taps()
    got = timed(taps, [(100, 50, 30000), (103, 53, 30000)] + press(100, 50, 3) + [None] * 6)
    assert got == [(1, (101, 51))]  # mean of 100,103 and 50,53, rounded down


def test_one_tap_however_long_the_press_and_none_at_its_release():
    taps = Taps()
    assert timed(taps, press(10, 10, 200)) == [(1, (10, 10))]
    assert play(taps, [None] * 10) == []


def test_min_readings_sets_when_a_press_is_certain():
    assert timed(Taps(min_readings=3), press(7, 8, 5) + [None] * 6) == [(2, (7, 8))]
    assert timed(Taps(min_readings=1), press(7, 8, 5) + [None] * 6) == [(0, (7, 8))]
    assert play(Taps(min_readings=3), press(7, 8, 2) + [None] * 6) == []  # too short


def test_a_single_reading_spike_is_not_a_tap():
    assert play(Taps(), [(50, 50, 30000)] + [None] * 10) == []


def test_short_dropouts_are_bridged_by_the_debounce():
    taps = Taps(release_ms=40)
    seq = press(60, 60, 3) + [None, None] + press(61, 60, 3) + [None] * 8
    assert play(taps, seq, step=10) == [(60, 60)]
    # A drop-out between the first reading and the second: still one press, one tap.
    assert timed(Taps(), press(60, 60, 1) + [None] + press(60, 60, 3) + [None] * 8) == [
        (2, (60, 60))]


def test_a_gap_longer_than_the_debounce_makes_two_taps():
    taps = Taps(release_ms=40)
    seq = press(60, 60, 3) + [None] * 7 + press(200, 100, 3) + [None] * 7
    assert play(taps, seq) == [(60, 60), (200, 100)]


def test_a_gap_shorter_than_the_debounce_is_one_press():
    # The second finger lands 30 ms after the first lifted: the same press, no second tap.
    seq = press(60, 60, 3) + [None] * 3 + press(200, 100, 3) + [None] * 7
    assert play(Taps(release_ms=40), seq) == [(60, 60)]


def test_readings_without_pressure_are_no_touch():
    taps = Taps(min_z=5000)
    assert play(taps, press(80, 80, 10, z=100) + [None] * 10) == []
    assert play(taps, press(80, 80, 10, z=0) + [None] * 10) == []
    assert play(taps, press(80, 80, 10, z=5000) + [None] * 10) == [(80, 80)]


def test_a_press_that_jumps_before_it_is_certain_is_not_a_tap():
    taps = Taps(jitter=12)
    # A wild reading as the finger lands, then the finger steady: spoiled, nothing at all.
    assert play(taps, [(160, 100, 30000)] + press(100, 100, 6) + [None] * 10) == []
    # A finger already sliding between its first two readings.
    slide = [(100 + 15 * i, 100, 30000) for i in range(8)]
    assert play(taps, slide + [None] * 10) == []
    # Small wobble inside the jitter bound is a tap.
    wobble = [(100, 100, 30000), (104, 97, 30000), (98, 103, 30000), (101, 100, 30000)]
    assert play(taps, wobble + [None] * 10) == [(102, 98)]


def test_wild_readings_after_the_tap_while_the_finger_lifts_change_nothing():
    # The tap is already made: a lifting finger's wild readings neither spoil it nor tap.
    seq = press(30, 40, 4) + [(300, 200, 9000), (5, 230, 12000)] + [None] * 8
    assert play(Taps(), seq) == [(30, 40)]


def test_the_next_press_after_a_spoiled_one_taps_again():
    taps = Taps()
    seq = [(0, 0, 30000), (200, 200, 30000)] + [None] * 8 + press(30, 40) + [None] * 8
    assert play(taps, seq) == [(30, 40)]


def test_release_across_the_ticks_wrap():
    taps = Taps(release_ms=40)
    seq = press(5, 6, 4) + [None] * 8 + press(9, 9, 3) + [None] * 3
    # The finger lifts 25 ms before the tick count wraps to 0 and the release is over 15 ms
    # after it: read as a plain difference, it never would be, and the next press would
    # not tap.
    got = play(taps, seq, t0=WRAP - 65)
    assert got == [(5, 6), (9, 9)]


def test_reset_while_a_finger_is_down_waits_for_its_release():
    taps = Taps()
    play(taps, press(5, 5, 1))  # a press begun, not yet a tap
    taps.reset()  # the screen changed under it
    assert play(taps, press(5, 5, 5)) == []  # the same finger, still down: not a tap
    assert play(taps, [None] * 6 + press(8, 8, 3)) == [(8, 8)]  # a new press is


def test_reset_after_a_tap_keeps_the_held_finger_from_tapping_the_next_screen():
    taps = Taps()
    assert play(taps, press(5, 5, 2)) == [(5, 5)]
    taps.reset()
    assert play(taps, press(5, 5, 10) + [None] * 6) == []
    assert taps.idle()


def test_reset_when_nothing_touches_forgets_nothing_needed():
    taps = Taps()
    taps.reset()
    assert taps.idle()
    assert play(taps, press(3, 4, 2)) == [(3, 4)]


readings = st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 479), st.integers(0, 319),
                                                   st.integers(0, 65535))), max_size=60)


@settings(max_examples=300, deadline=None)
@given(readings)
def test_any_reading_stream_taps_only_on_a_certain_press_and_once_a_press(seq):
    taps = Taps(min_z=1000)
    t = 0
    last = None
    run = []  # the pressed readings of the press in progress
    quiet = 10**6  # readings without pressure in a row
    since_tap_released = True
    for r in seq:
        pressed = r is not None and r[2] >= 1000
        if pressed:
            # The press before ended once its release was debounced: the first reading
            # without pressure starts the count, release_ms later it is over.
            if (quiet - 1) * 10 >= taps.release_ms:
                run = []
                since_tap_released = True
            run.append(r)
            quiet = 0
        else:
            quiet += 1
        tap = taps.feed(r, t)
        if tap is not None:
            # Only on a pressed reading, the press's second, both within the jitter of the
            # first, inside the screen, and never twice in one press.
            assert pressed and len(run) == taps.min_readings, (seq, run)
            assert abs(run[1][0] - run[0][0]) <= taps.jitter
            assert abs(run[1][1] - run[0][1]) <= taps.jitter
            assert 0 <= tap[0] <= 479 and 0 <= tap[1] <= 319
            assert since_tap_released
            since_tap_released = False
            last = tap
        t += 10
    assert last is None or len(last) == 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 319), st.integers(0, 239)), min_size=2, max_size=40),
       st.integers(0, 1))
def test_noise_whose_readings_never_agree_never_taps(points, gap):
    # A noisy contact whose consecutive readings are always more than the jitter apart.
    noisy = [points[0]]
    for x, y in points[1:]:
        px, py = noisy[-1]
        if abs(x - px) <= 12 and abs(y - py) <= 12:
            x = (px + 100) % 320
        noisy.append((x, y))
    seq = []
    for x, y in noisy:
        seq.append((x, y, 30000))
        seq += [None] * gap  # a 10 ms drop-out between them changes nothing
    assert play(Taps(jitter=12), seq + [None] * 10) == []
