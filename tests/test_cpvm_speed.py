# SPDX-License-Identifier: MIT
"""The speed benchmark (bench/speed.py) on CircuitPython's VM: it runs and says everything.

The benchmark counts the VM's instructions under valgrind's callgrind and prices them in
SAMD51 time by pystone (docs/speed.md). Time is never asserted here (these machines are
shared, and a figure in milliseconds is the benchmark's to print, not a test's to judge):
this runs its short session on the Pynt (whose menus take two pages) and checks what it
counts exactly: that every interaction was seen and measured, that the marks divide the
VM's instructions without a gap, and how many pixels displayio sends for a screen change
and for a pick.
"""

import io
import shutil

import pytest

from bench import board, speed
from tools import cptools

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def measured(cp_image, tmp_path_factory):
    if shutil.which("valgrind") is None:
        pytest.skip("needs valgrind (callgrind counts the VM's instructions)")
    try:
        speed.find_pystone()
    except cptools.ToolMissing as e:
        pytest.skip(str(e))
    return speed.measure(cp_image, tmp_path_factory.mktemp("speed"), ["pynt"], quick=True)


def test_the_section_prints_every_board_interaction_and_target(measured):
    out = io.StringIO()
    speed.report(out, *measured)
    text = out.getvalue()
    print(text)
    for label in ("pick", "put one card", "undo", "bad tap re-selects", "menu open",
                  "new deal", "keypad key", "keypad OK -> table", "menu -> table (Continue)"):
        assert "\n    %s " % label in text, label
    for name, _, limit in speed.TARGETS:
        assert "%s <= %5d ms: pynt " % (name.ljust(34), limit) in text, name
    assert "boot to the table (restart onto a saved game)" in text


def test_every_interaction_was_measured_in_instructions(measured):
    results, prices, pystone, cpu_check, renders, checks, touch = measured
    assert 20000 < pystone < 200000  # a pass is tens of thousands of the VM's instructions
    assert 0 < touch[0] < touch[1]  # a reading with pressure reads the plates as well
    events = results["pynt"]["events"]
    for label in ("pick", "put one card", "undo", "menu open", "new deal"):
        assert events.get(label), label
        for _, ev in events[label]:
            assert all(p.game > 0 for p in ev), label
            assert ev[-1].drew, label  # every interaction ends in a refresh
    assert len(events["pick"]) >= 12 and len(events["put one card"]) >= 10


def test_a_screen_change_sends_the_screen_once_and_a_pick_a_few_cards(measured):
    # The pixels are counted, not timed: a new screen is the display's root group, so
    # displayio sends the whole screen once (its rows' addresses beside the pixels).
    w, h, _ = board.BOARDS["pynt"]
    full = w * h * 2 + 8 * h  # 2 bytes a pixel; 8 bytes of column and row a row
    results = measured[0]["pynt"]
    for label in ("menu open", "new deal", "menu -> table (Continue)", "keypad OK -> table"):
        for prev, ev in results["events"][label]:
            assert ev[-1].bytes - prev == full, label
    # A pick lights its card and the places it may go: far less than a screen.
    for prev, ev in results["events"]["pick"]:
        assert 0 < ev[-1].bytes - prev < full // 4


def test_the_marks_leave_no_instruction_unaccounted(measured):
    # The stand-ins' polls, the game's and the drawing add up to the run: every poll of
    # the session was seen, in step order, and none drew twice.
    ps = measured[0]["pynt"]["polls"]
    assert len(ps) > 100
    assert [p.step for p in ps] == sorted(p.step for p in ps)
    assert all(p.draw == 0 or p.drew for p in ps)
    assert sum(1 for p in ps if p.reading is None) == 0  # one touch reading a poll
