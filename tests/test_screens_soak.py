# SPDX-License-Identifier: MIT
"""The short soak: 3,000 random touches (with noise, off-screen points and resets) through code.py.

The full run is `python -m tools.soak --touches 100000` (about ten minutes; figures in
docs/soak.txt). Both fail on any exception, any position that is not 52 distinct cards,
and a live-object count on the table that keeps growing.
"""

import pytest

from tools import soak


@pytest.mark.slow
def test_short_soak_across_all_screens():
    f = soak.run(touches=3000, seed=7, log=None)
    assert f["touches"] == 3000
    assert f["polls"] > 3000 * 5
    assert f["moves"] > 0 and f["position_checks"] >= f["moves"] // 4
    # Random fingers find their way to most of the menus within 3,000 touches.
    assert {"table", "menu"} <= set(f["screens"])
    assert len(f["screens"]) >= 5, f["screens"]
    assert f["live_end"] - f["live_start"] <= soak.GROWTH_LIMIT


def test_position_check_catches_a_broken_position():
    from freecell_mc.rules import deals
    from freecell_mc.rules.engine import Game

    g = Game(4, False)
    g.deal(deals.seeded_deck(1))
    soak.check_position(g)
    g.pos[60] = g.pos[52]  # the exposed card of column 1 also in cell a: a duplicate
    try:
        soak.check_position(g)
    except soak.SoakFailure as e:
        assert "twice" in str(e)
    else:
        raise AssertionError("a duplicated card went unnoticed")
