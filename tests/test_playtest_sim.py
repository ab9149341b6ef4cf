# SPDX-License-Identifier: MIT
"""What a player met playing through code.py on the headless simulator, by touch alone.

Each test plays a path a player took, across restarts (the flash and the drive kept from
one run to the next, as a power cycle keeps them), and checks what the player then sees.
"""

import pytest

from freecell_mc.ui.layout import HIT_MENU, Layout
from freecell_mc.saves.policy import Saves
from host_sim.flash import FlashBlock

from test_screens_sim import at, run

SIZES = {"pyportal": (320, 240), "titano": (480, 320)}


def tap_table(board, hit):
    """Return the tap on the table's status-strip button hit (HIT_MENU, HIT_UNDO, HIT_FINISH)."""
    lay = Layout(*SIZES[board])
    return "tap %d %d" % lay.button_point(hit)


def tap(board, name, text, **kw):
    """Return the tap on the button captioned text of screen name at the board's size."""
    return at(name, text, size=SIZES[board], **kw)


@pytest.mark.parametrize("board", sorted(SIZES))
def test_the_date_picker_starts_from_the_date_last_set(tmp_path, board):
    from freecell_mc.ui.screens.datepicker import DEFAULT_DATE
    from freecell_mc.ui.screens.models import DateModel

    # The clock is unset on a fresh drive: the picker starts from the image's date, and the
    # player steps it two months and a day on and sets it.
    plus_month = tap(board, "datepicker", "+", nth=1)
    plus_day = tap(board, "datepicker", "+", nth=2)
    app = run(["expect screen datepicker"], tmp_path / "fresh", board=board)
    assert app.screen.model.value() == DEFAULT_DATE
    lines = ["expect screen datepicker", plus_month, plus_month, plus_day,
             tap(board, "datepicker", "Set the date"), "expect screen table"]
    run(lines, tmp_path, board=board)
    # A power cycle straight after: the clock is unset again, and the picker begins
    # from the date the player set.
    want = DateModel(*DEFAULT_DATE)
    want.step(DateModel.MONTH, 2)
    want.step(DateModel.DAY, 1)
    app = run(["expect screen datepicker"], tmp_path, board=board)
    assert app.screen.model.value() == want.value() > DEFAULT_DATE


@pytest.mark.parametrize("board", sorted(SIZES))
def test_the_date_prompt_names_the_button_that_skips_it(tmp_path, board):
    app = run(["expect screen datepicker"], tmp_path, board=board)
    captions = [b.text.replace("\n", " ") for b in app.screen.buttons]  # as it reads
    note = app.screen.note.text
    # The note points to the way past the prompt by the caption the player sees.
    assert "Free deals only" in captions
    assert "Skip" not in note
    assert "free deals" in note.lower()


def _seed_stats(tmp_path, played, won):
    """Leave statistics in the saves, as many earlier games would have."""
    saves = Saves([FlashBlock(str(tmp_path / "nvm.bin"), 8192)])
    saves.load()
    st = saves.stats
    for _ in range(played):
        st.record_start()
    for _ in range(won):
        st.record_win(300, 100)
    saves.note_date(2026, 11, 30)
    saves.commit(0, force=True)


@pytest.mark.parametrize("played, won, shown", [(200, 199, "99%"), (201, 1, "1%"), (3, 2, "67%"),
                                                (4, 4, "100%"), (5, 0, "0%")])
def test_the_win_rate_says_100_only_when_every_game_was_won(tmp_path, played, won, shown):
    _seed_stats(tmp_path, played, won)
    board = "pyportal"
    app = run(["expect screen table", tap_table(board, HIT_MENU), "expect screen menu",
               tap(board, "menu", "Statistics"), "expect screen stats"], tmp_path,
              date="2026-11-30", board=board)
    assert app.screen.values[0].text == str(played)
    assert app.screen.values[2].text == shown


@pytest.mark.parametrize("board", sorted(SIZES))
def test_no_cross_is_left_to_tap_once_the_calibration_is_saved(tmp_path, board):
    from freecell_mc.ui.screens.calibration import targets

    crosses = ["tap %d %d" % xy for xy in targets(*SIZES[board])]
    lines = ["expect screen table", tap_table(board, HIT_MENU), tap(board, "menu", "Settings"),
             tap(board, "settings", "Calibrate"), "expect screen calibration"] + crosses[:2]
    app = run(lines, tmp_path, date="2026-11-30", board=board)
    assert not app.screen.cross_h.hidden  # the check's cross waits for its tap
    app = run(["expect screen table", tap_table(board, HIT_MENU), tap(board, "menu", "Settings"),
               tap(board, "settings", "Calibrate")] + crosses, tmp_path, date="2026-11-30",
              board=board)
    assert app.screen.info.text.startswith("Saved")
    # Nothing more to tap: a cross still standing would ask for a tap that does nothing.
    assert app.screen.cross_h.hidden and app.screen.cross_v.hidden
    # Default starts over, with the first cross back.
    app = run(["expect screen table", tap_table(board, HIT_MENU), tap(board, "menu", "Settings"),
               tap(board, "settings", "Calibrate")] + crosses
              + [tap(board, "calibration", "Default")],
              tmp_path, date="2026-11-30", board=board)
    assert not app.screen.cross_h.hidden and not app.screen.cross_v.hidden
