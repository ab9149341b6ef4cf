# SPDX-License-Identifier: MIT
"""Nothing allocates while the player thinks or taps, on CircuitPython's own VM.

tests/cpvm/scripts/ui_alloc.py builds the App as code.py does, over the board image's .mpy
files, CircuitPython's real displayio objects and the stand-ins of tests/cpvm/, and plays
whole solutions by taps: a pick tap and a drop tap allocate 0 bytes, and a poll allocates
exactly what adafruit_touchscreen's reading allocates (its pin objects, 64 bytes on the
board), however often the saves look for changes in it, except the polls that write a save.
"""

from pathlib import Path

from bench import board
from solutions import fcs_solution

SCRIPTS = Path(__file__).resolve().parent / "cpvm" / "scripts"


def test_taps_and_idle_polls_allocate_nothing_beyond_the_touch_reading(cp_image, tmp_path):
    for deal in (1, 2):
        folder = tmp_path / str(deal)
        folder.mkdir()
        # The finger waits for the whole run: every poll reads "no touch".
        board.write_session(folder, "pyportal", [["w", 10**8]], seed=-1)
        moves = fcs_solution(deal)
        got = cp_image.run_script(SCRIPTS / "ui_alloc.py", folder,
                                  {"deal": deal, "moves": moves}, heap=200000)
        print(deal, got)
        assert got["played"] == [len(moves), True]
        assert got["pins"] == 64
        assert got["taps"] == [0, 0]
        polls, looks, _ = got["idle"]
        assert polls > 1000 and looks > 100
        assert got["writes"][0] > 0
