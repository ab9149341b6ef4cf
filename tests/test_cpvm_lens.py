# SPDX-License-Identifier: MIT
"""The Pynt's table on CircuitPython's own VM: the lens, Finish and the counter allocate
nothing per tap or move.

tests/cpvm/scripts/lens_alloc.py builds the App as code.py does on the Pynt's panel (no
strip at the side: the buttons in the top row, the counter in the corner), puts a 19-card
column on the table and opens and closes the lens on it by taps, picks the column's run,
and with Finish shown makes a move and takes it back.
"""

from pathlib import Path

from bench import board
from screen_states import long_column_text

SCRIPTS = Path(__file__).resolve().parent / "cpvm" / "scripts"
FINISH = "KC\nKD\nKH\nKS\n:\n:\n:\n:\nFoundations: C-Q D-Q H-Q S-Q\n"


def test_the_lens_finish_and_the_counter_allocate_nothing_per_tap(cp_image, tmp_path):
    folder = tmp_path / "pynt"
    folder.mkdir()
    board.write_session(folder, "pynt", [["w", 10**8]], seed=-1)
    got = cp_image.run_script(SCRIPTS / "lens_alloc.py", folder,
                              {"long": long_column_text(), "finish": FINISH}, heap=200000)
    print(got)
    status_w, tight_h, felt = got["narrow"]
    assert status_w == 0 and tight_h > 0 and felt == 1
    most, opened = got["lens"]
    assert opened == [0, -1] * 5 and most == 0
    assert got["pick"] == [0, -1]
    most, shown, x, y, hidden = got["finish"]
    assert most == 0 and shown
    # Under the feet of the empty columns at the right, the counter's corner: the counter
    # stands left of it (ui/narrow.py), in sight.
    assert (x, y) == (320 - 74, 240 - 47) and not hidden
