# SPDX-License-Identifier: MIT
"""The backlight's timers on their own, and the benchmark's battery arithmetic."""

import pytest

from bench import power
from freecell_mc.dates import TICKS_MASK
from freecell_mc.hardware.backlight import DARK, DIM, DIM_LEVEL, LIT, Backlight


class Panel:
    """A display whose brightness is a plain attribute, with a log of what was set."""

    def __init__(self):
        self.set = []

    @property
    def brightness(self):
        return self.set[-1] if self.set else 1.0

    @brightness.setter
    def brightness(self, value):
        self.set.append(value)


class FixedPanel:
    """A board whose brightness cannot be set: CircuitPython raises RuntimeError."""

    @property
    def brightness(self):
        return 1.0

    @brightness.setter
    def brightness(self, value):
        raise RuntimeError("Brightness not adjustable")


def quiet_until(bl, start, end, step=10):
    """Poll quiet() from start to end ms; return the ms of each state change seen."""
    seen = []
    state = bl.state
    for t in range(start, end, step):
        bl.quiet(t & TICKS_MASK)
        if bl.state != state:
            state = bl.state
            seen.append((t - start, state))
    return seen


@pytest.mark.parametrize("start", [0, TICKS_MASK - 30000])  # the tick count wraps meanwhile
def test_dim_after_the_quiet_spell_then_dark(start):
    p = Panel()
    bl = Backlight(p)
    bl.set_times(60, 300)
    assert bl.adjustable and p.set == [1.0]
    assert quiet_until(bl, start, start + 301000) == [(60000, DIM), (300000, DARK)]
    assert p.set == [1.0, DIM_LEVEL, 0.0]


def test_a_touch_restarts_the_spell_and_wakes_only_a_dimmed_or_dark_screen():
    p = Panel()
    bl = Backlight(p)
    bl.set_times(30, 120)
    bl.quiet(0)
    assert not bl.touched(20000)  # lit: the touch is an ordinary one
    assert quiet_until(bl, 20000, 20000 + 50000) == [(30000, DIM)]
    assert bl.touched(70000) and bl.state == LIT and p.set[-1] == 1.0
    assert quiet_until(bl, 70000, 70000 + 121000) == [(30000, DIM), (120000, DARK)]
    assert bl.touched(200000) and bl.state == LIT


def test_never_and_a_dim_that_comes_no_sooner_than_the_dark():
    p = Panel()
    bl = Backlight(p)
    bl.set_times(0, 0)
    assert quiet_until(bl, 0, 4000000, 1000) == []
    bl.set_times(300, 120)  # dimming after the dark would never show: straight to dark
    assert quiet_until(bl, 0, 400000, 1000) == [(120000, DARK)]
    bl = Backlight(Panel())
    bl.set_times(60, 0)  # dims, never goes dark
    assert quiet_until(bl, 0, 4000000, 1000) == [(60000, DIM)]


def test_a_board_that_cannot_set_its_brightness_is_never_touched():
    bl = Backlight(FixedPanel())
    bl.set_times(30, 120)
    assert not bl.adjustable
    assert quiet_until(bl, 0, 200000, 1000) == [] and bl.state == LIT
    assert not bl.touched(200000)
    assert not Backlight(object()).adjustable and not Backlight(None).adjustable


def test_the_battery_estimate_adds_up():
    # An hour untouched at the defaults: a minute full, four dimmed, the rest dark.
    full, used = power.hour_untouched(100, 60, 300)
    assert full == 100 and used == pytest.approx((60 + 240 * DIM_LEVEL) * 100 / 3600)
    assert power.hour_untouched(100, 0, 0) == (100, 100)
    # Play in cycles of 90 s of moves and 150 s of thought: 90 s of each pause dimmed.
    full, used = power.hour_of_play(100, 60, 300)
    assert used == pytest.approx(100 - 90 / 240 * 100 * (1 - DIM_LEVEL))
    assert power.titano_backlight_ma() == pytest.approx(20 * 20 / 0.85 / 5)
