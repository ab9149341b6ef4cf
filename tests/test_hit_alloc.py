# SPDX-License-Identifier: MIT
"""Every screen's hit test allocates nothing, on CircuitPython's own VM.

tests/cpvm/scripts/hit_alloc.py shows each screen through the App, as code.py builds it on
the board image and CircuitPython's real displayio objects, and asks its hit test (the
table's Layout.hit and hit_column, every other screen's button_at, the calendar's day_at)
about a grid of points over the whole screen, with the collector off: gc.mem_alloc() counts
every byte allocated, a temporary dropped at once too. Each point on nothing is then tapped
(the calibration's taps are readings and are left out): a tap on nothing allocates nothing.
"""

from pathlib import Path

import pytest

from bench import board
from freecell_mc.ui import screens

SCRIPTS = Path(__file__).resolve().parent / "cpvm" / "scripts"


@pytest.mark.parametrize("board_name", sorted(board.BOARDS))
def test_hit_tests_and_taps_on_nothing_allocate_nothing(cp_image, tmp_path, board_name):
    folder = tmp_path / board_name
    folder.mkdir()
    board.write_session(folder, board_name, [["w", 10**8]], seed=-1)
    got = cp_image.run_script(SCRIPTS / "hit_alloc.py", folder, heap=board.BIG_HEAP)
    print(got)
    # The harness sees a tuple made and dropped at each point, and its loop costs nothing.
    empty, temporary = got["harness"]
    assert empty == 0 and temporary > 0
    visits = [v for k, v in sorted(got.items()) if k.startswith("visit")]
    assert visits, got
    names = {v[0] for v in visits}
    # Every screen there is, and the table: a screen added to the game is measured too.
    assert names == set(screens.NAMES) | {"table"}, names
    for name, hit, tap, on, off, first in visits:
        assert on > 0 and off > 0, (name, on, off)  # buttons and nothing both asked about
        # Bytes allocated by the hit test, by it and the taps on nothing, and where first.
        assert (name, hit, tap, first) == (name, 0, 0, [-1, -1])
