# SPDX-License-Identifier: MIT
"""The backlight dims and goes dark when nobody plays, through the real code.py headless.

After a quiet minute the screen dims, after five it goes dark (the defaults), everything is
saved before the dark, the first touch or key only brings the light back (the whole press,
through its release, moves no card and presses no button), the board polls slower while
dark, and a board that cannot set its brightness is left alone. Settings change both times,
and say where the board has no brightness control.
"""

import pytest

from freecell_mc.hardware import backlight
from freecell_mc.rules import deals
from freecell_mc.saves.policy import Saves
from freecell_mc.saves.settings import DARK_AFTER_S, DARK_DEFAULT, DIM_AFTER_S, DIM_DEFAULT
from host_sim import hardware
from test_screens_sim import at
from test_screens_sim import run_today as run

pytestmark = pytest.mark.usefixtures("no_pixels")

MS1 = (deals.KIND_MS, 1, 4)
DIM_MS = 60000  # the defaults: dim after a minute, dark after five
DARK_MS = 300000


def saved(tmp_path):
    """Return the saves a restart would load from this run's drive and nvm."""
    saves = Saves(hardware.drive_blocks(tmp_path / "drive", str(tmp_path / "nvm.bin")))
    assert saves.load() is None
    return saves


def test_the_screen_dims_after_a_quiet_minute_and_goes_dark_after_five(tmp_path):
    lines = ["move 1a", "expect light full", "wait %d" % (DIM_MS - 500), "expect light full",
             "wait 1000", "expect light dim", "wait %d" % (DARK_MS - DIM_MS - 1000),
             "expect light dim", "wait 1000", "expect light dark"]
    app = run(lines, tmp_path, start_deal=MS1)
    assert app.display.brightness == 0.0 and app.backlight.state == backlight.DARK


def test_going_dark_saves_the_game_and_the_clock_stops_in_the_dark(tmp_path):
    lines = ["move 1a", "move 2b", "wait %d" % (DARK_MS + 1000), "expect light dark"]
    app = run(lines, tmp_path, start_deal=MS1)
    # The power may go now: the moves and their time are on flash already; the quiet
    # spell that dimmed the screen, and what followed, are no play time.
    s = saved(tmp_path).slot(0)
    assert s.moves == 2 and s.elapsed == app.elapsed_ms // 1000
    assert app.elapsed_ms < 2000
    # An hour in the dark adds no play time.
    app = run(["expect light full", "wait %d" % (DARK_MS + 3600000 // 2), "expect light dark",
               "wait %d" % (3600000 // 2)], tmp_path)
    assert app.elapsed_ms < 2000


def test_time_with_the_board_put_down_is_no_play_and_no_best_time(tmp_path):
    from test_sim_game import shortest

    deal, moves = shortest(4)
    # A thought of 50 s counts; 5 min 10 s untouched does not, from the last touch on;
    # the key that wakes the screen does nothing else.
    lines = ["move " + moves[0], "wait 50000", "move " + moves[1],
             "wait %d" % (DARK_MS + 10000), "expect light dark", "key esc",
             "expect light full", "expect screen table"]
    lines += ["move " + m for m in moves[2:]] + ["expect won"]
    app = run(lines, tmp_path, start_deal=(deals.KIND_MS, deal, 4))
    st = app.saves.stats
    assert st.won == 1
    assert 50 <= st.best_seconds <= 50 + len(moves), st.best_seconds
    assert st.avg_seconds() == st.best_seconds


def test_the_clock_stops_on_a_board_that_cannot_dim_and_where_it_never_dims(tmp_path):
    # No brightness control: the quiet minute that would have dimmed it stops the clock.
    lines = ["move 1a", "wait %d" % (DARK_MS + 10000), "expect light full"]
    app = run(lines, tmp_path, start_deal=MS1, backlight=False)
    assert app.elapsed_ms < 2000
    # Settings say never and never: a thought of 200 s counts, five quiet minutes do not.
    saves = saved(tmp_path)
    saves.settings.dim = DIM_AFTER_S.index(0)
    saves.settings.dark = DARK_AFTER_S.index(0)
    saves.commit(0, force=True)
    lines = ["move 2b", "wait 200000", "move 3c", "wait %d" % (DARK_MS + 10000),
             "expect light full", "expect moves 3"]
    app = run(lines, tmp_path)
    assert 200000 <= app.elapsed_ms < 204000, app.elapsed_ms


def test_the_first_touch_on_a_dark_screen_only_wakes_it(tmp_path):
    # Dark, then a tap right on column 2's exposed card, then a tap on cell b: a player
    # who could see would have moved it; the first tap only brought the light back.
    lines = ["wait %d" % (DARK_MS + 1000), "expect light dark", "move 2b",
             "expect light full"]
    with pytest.raises(AssertionError, match="expected move 2b to be made"):
        run(lines, tmp_path, start_deal=MS1)
    lines = ["wait %d" % (DARK_MS + 1000), "expect light dark", "tap 50 230",
             "expect light full", "expect moves 0", "move 2b", "expect moves 1"]
    run(lines, tmp_path, start_deal=MS1)


@pytest.mark.parametrize("quiet_ms,light,press_ms", [
    (DIM_MS + 1000, "dim", 50),  # a quick tap on the dimmed screen
    (DARK_MS + 1000, "dark", 2000),  # a press held for two seconds across the wake
])
def test_the_press_that_wakes_presses_no_button_through_its_release(tmp_path, quiet_ms, light,
                                                                    press_ms):
    x, y = _menu_button(run(["expect screen table"], tmp_path, start_deal=MS1))
    # On the Menu button: nothing happens, not at the wake, not at the release; the next
    # tap opens the menu.
    lines = ["wait %d" % quiet_ms, "expect light " + light, "tap %d %d %d" % (x, y, press_ms),
             "expect light full", "expect screen table", "tap %d %d" % (x, y),
             "expect screen menu"]
    run(lines, tmp_path, start_deal=MS1)


def test_a_key_on_a_dark_screen_only_wakes_it(tmp_path):
    lines = ["wait %d" % (DARK_MS + 1000), "expect light dark", "key esc", "expect light full",
             "expect screen table", "key esc", "expect screen menu"]
    run(lines, tmp_path, start_deal=MS1)


def _polls(tmp_path, lines):
    """Return how many polls code.py made playing these script lines headless."""
    from host_sim import script, sim

    s = sim.Simulator(headless=True, script=script.parse("\n".join(lines), str(tmp_path)),
                      date="2026-11-30", start_deal=MS1)
    try:
        assert s.run() == 0, s.failure
        return s.polls
    finally:
        s.close()


def test_the_board_polls_slower_in_the_dark(tmp_path):
    lines = ["move 1a", "wait %d" % (DARK_MS + 1000), "expect light dark"]
    # A minute in the dark: a poll every 50 ms, not every 10 ms (the headless step).
    dark_polls = _polls(tmp_path, lines + ["wait 60000"]) - _polls(tmp_path, lines)
    assert 60000 // 50 - 5 <= dark_polls <= 60000 // 50 + 5, dark_polls


def test_a_board_without_brightness_control_is_left_alone(tmp_path):
    x, y = _menu_button(run(["expect screen table"], tmp_path, start_deal=MS1))
    lines = ["wait %d" % (DARK_MS + 1000), "tap %d %d" % (x, y), "expect screen menu"]
    app = run(lines, tmp_path, start_deal=MS1, backlight=False)
    assert not app.backlight.adjustable and app.backlight.state == backlight.LIT


def _menu_button(app):
    """Return the centre (x, y) of the table's Menu button."""
    b = app.table.strip.menu_button
    return b.x + b.w // 2, b.y + b.h // 2


def test_the_times_set_in_settings_apply_and_survive_a_restart(tmp_path):
    # Settings > More: Dim after 1 min -> 2 min, Screen off after 5 min -> 10 min.
    lines = ["move 1a", "key esc", at("menu", "Settings"), at("settings", "More"),
             at("settings", "1 min", page=1), at("settings", "5 min", page=1),
             "key esc", "key esc", "expect screen table",
             "wait %d" % (DIM_MS + 1000), "expect light full", "wait %d" % DIM_MS,
             "expect light dim", "wait %d" % (DARK_MS - 2 * DIM_MS), "expect light dim",
             "wait %d" % DARK_MS, "expect light dark"]
    app = run(lines, tmp_path, start_deal=MS1)
    assert app.backlight.state == backlight.DARK
    # After a restart the times are still the player's.
    lines = ["wait %d" % (DIM_MS + 1000), "expect light full", "wait %d" % DIM_MS,
             "expect light dim"]
    app = run(lines, tmp_path)
    st = app.saves.settings
    assert (DIM_AFTER_S[st.dim], DARK_AFTER_S[st.dark]) == (120, 600)


def test_settings_say_when_the_board_cannot_dim_and_change_nothing(tmp_path):
    lines = ["key esc", at("menu", "Settings"), at("settings", "More"),
             at("settings", "1 min", page=1), "expect screen settings"]
    app = run(lines, tmp_path, start_deal=MS1, backlight=False)
    s = app.screen
    assert s.light_note.text.replace("\n", " ") == "no brightness control on this board"
    assert [b.text for b in s.times] == ["-", "-"] and not any(b.enabled for b in s.times)
    st = app.saves.settings
    assert (st.dim, st.dark) == (DIM_DEFAULT, DARK_DEFAULT)
