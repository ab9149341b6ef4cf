# SPDX-License-Identifier: MIT
"""The menus played through the real code.py on the headless simulator, tap by tap.

Button positions come from the screens themselves (built once off-line at the same size),
so a script taps where a player's finger would.
"""

import os

import pytest

from freecell_mc.rules import deals
from host_sim import script, sim
from test_screens import FakeApp, button, make

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC_DAILY_COL1 = "4S 5H 6H AC 3S 3C KD"
SPEC_DAILY_COL2 = "AD 2H 7D QS 5S 9S 3D"


def centre(b):
    """Return 'tap X Y' for the centre of button b."""
    return "tap %d %d" % (b.x + b.w // 2, b.y + b.h // 2)


def at(name, text, date=(2026, 11, 30), nth=0, size=(320, 240), other=None, **kw):
    """Return 'tap X Y' for the centre of the button captioned text on screen name.

    other is the App's slot holding a game besides the one in play (None: none); the menu
    offers Continue for the game in play, begun or not, so its buttons sit alike either
    way; kw goes to the screen's show().
    """
    app, s = make(name, FakeApp(size[0], size[1], date=date, other=other), **kw)
    if nth:
        b = [b for b in s.buttons if b.text == text][nth]
    else:
        b = button(s, text)
    return centre(b)


def run(lines, tmp_path, **kw):
    """Run code.py with these script lines; return (exit code, the App)."""
    s = sim.Simulator(headless=True, script=script.parse("\n".join(lines), str(tmp_path)),
                      nvm_path=str(tmp_path / "nvm.bin"), drive=str(tmp_path / "drive"), **kw)
    try:
        rc = s.run()
        failure = s.failure
    finally:
        s.close()
    from freecell_mc.app import App

    assert rc == 0, failure
    return App.current


def run_today(lines, tmp_path, **kw):
    """Run code.py on these script lines on 2026-11-30 (unless told); return the App."""
    kw.setdefault("date", "2026-11-30")
    return run(lines, tmp_path, **kw)


def columns(path):
    """Return the column lines of a dumped board (without Freecell Solver's ': ')."""
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("Freecells") or line.startswith("Foundations") or not line.strip():
            continue
        out.append(line[2:] if line.startswith(": ") else line)
    return out


@pytest.mark.slow
def test_menu_navigation(tmp_path):
    lines = ["key esc", "expect screen menu"]
    for caption, name in (("Statistics", "stats"), ("Settings", "settings"),
                          ("Enter code", "keypad"), ("Daily deal", "daily")):
        lines += [at("menu", caption), "expect screen " + name, "key esc",
                  "expect screen menu"]
    lines += [at("menu", "Settings"), at("settings", "Calibrate"),
              "expect screen calibration", at("calibration", "Back"),
              "expect screen settings", at("settings", "Back"), "expect screen menu",
              at("menu", "Replay"), "expect screen table"]
    run(lines, tmp_path, date="2026-11-30")


def test_daily_flow_gives_the_spec_deal(tmp_path):
    lines = ["key esc", at("menu", "Daily deal"), "expect screen daily",
             at("daily", "30"), "expect screen table", "expect moves 0",
             "dump board.txt"]
    app = run(lines, tmp_path, date="2026-11-30")
    cols = columns(tmp_path / "board.txt")
    assert cols[0] == SPEC_DAILY_COL1
    assert cols[1] == SPEC_DAILY_COL2
    assert app.current_deal()[:3] == (deals.KIND_DAILY, 20261130, 4)


@pytest.mark.slow
def test_daily_calendar_plays_an_older_day(tmp_path):
    lines = ["key esc", at("menu", "Daily deal"),
             at("daily", "2 Nov", date=(2026, 12, 1)),
             "expect screen table"]
    app = run(lines, tmp_path, date="2026-12-01")
    assert app.current_deal()[:2] == (deals.KIND_DAILY, 20261102)
    lines = ["key esc", at("menu", "Daily deal", date=(2026, 12, 1)),
             at("daily", "Today", date=(2026, 12, 1)), "dump b.txt"]
    run(lines, tmp_path / "x", date="2026-12-01")
    assert columns(tmp_path / "x" / "b.txt")[0] == "6D 9D AS 9C 4H 7C 7S"


def step_to(y, m, d, size=(320, 240)):
    """Return the taps on the picker's day +/- from where a board knowing no date starts
    (the source's DEFAULT_DATE) to y-m-d."""
    from freecell_mc.dates import day_number
    from freecell_mc.ui.screens.datepicker import DEFAULT_DATE

    n = day_number(y, m, d) - day_number(*DEFAULT_DATE)
    return [at("datepicker", "+" if n > 0 else "-", nth=2, size=size)] * abs(n)


@pytest.mark.slow
def test_unset_clock_asks_for_the_date_then_deals_the_right_daily(tmp_path):
    # The clock restarts at 2000-01-01: the game asks for the date, starting from the last
    # one it knew (none yet: the image's date), and the player steps to 30 November 2026.
    lines = ["expect screen datepicker"]
    lines += step_to(2026, 11, 30)
    lines += [at("datepicker", "Set the date"), "expect screen table",
              "key esc", at("menu", "Daily deal"), "expect screen daily",
              at("daily", "Today"), "expect screen table", "dump board.txt"]
    app = run(lines, tmp_path)
    assert app.current_deal()[:3] == (deals.KIND_DAILY, 20261130, 4)
    assert columns(tmp_path / "board.txt")[0] == SPEC_DAILY_COL1
    assert app.saves.last_date == (2026, 11, 30)


def test_unset_clock_daily_from_the_menu_goes_through_the_picker(tmp_path):
    lines = ["expect screen datepicker", "key esc", "expect screen table",  # skipped at start
             "key esc", at("menu", "Daily deal"), "expect screen datepicker"]
    lines += step_to(2026, 11, 30)
    lines += [at("datepicker", "Set the date"), "expect screen daily", at("daily", "30"),
              "dump board.txt"]
    run(lines, tmp_path)
    assert columns(tmp_path / "board.txt")[0] == SPEC_DAILY_COL1


def _type(code):
    return [at("keypad", ch) for ch in code]


def test_keypad_ms_number_and_code_through_the_simulator(tmp_path):
    lines = (["key esc", at("menu", "Enter code")] + _type("11982")
             + [at("keypad", "OK"), "expect screen table", "dump ms.txt"])
    app = run(lines, tmp_path, date="2026-11-30")
    assert app.current_deal()[:3] == (deals.KIND_MS, 11982, 4)
    want = (tmp_path / "ms.txt").read_text()
    code = deals.deal_code(deals.KIND_MS, 11982, 2)
    bad = code[:-1] + str((int(code[-1]) + 3) % 10)
    lines = ["key esc", at("menu", "Enter code")] + _type(bad) + [at("keypad", "OK"),
                                                                  "expect screen keypad",
                                                                  at("keypad", "Del")]
    lines += _type(code[-1:]) + [at("keypad", "OK"), "expect screen table", "dump code.txt"]
    app = run(lines, tmp_path / "c", date="2026-11-30")
    assert app.current_deal()[:3] == (deals.KIND_MS, 11982, 2)
    assert columns(tmp_path / "c" / "code.txt") == columns(tmp_path / "ms.txt")
    assert want


@pytest.mark.slow
def test_settings_change_the_cell_count_of_the_next_deal(tmp_path):
    lines = ["key esc", at("menu", "Settings"), at("settings", "2"),
             at("settings", "Back"), "expect screen menu", at("menu", "New deal"),
             "expect screen table", "dump b.txt"]
    app = run(lines, tmp_path, date="2026-11-30")
    assert app.game.cells == 2
    assert app.saves.settings.cells == 2
    assert "Freecells:" in (tmp_path / "b.txt").read_text()
    # Kept across a restart: the settings were committed when changed.
    app = run(["key esc", "expect screen menu"], tmp_path, date="2026-11-30")
    assert app.saves.settings.cells == 2


@pytest.mark.parametrize("board", ["titano"])
def test_titano_menus(tmp_path, board):
    app = run(["key esc", "expect screen menu", "key d"], tmp_path, date="2026-11-30", board=board)
    assert app.screen.name in ("daily", "table")


def test_calendar_marks_the_won_days_kept_in_the_saves(tmp_path):
    from tools.screenshots import seed_saves

    seed_saves(str(tmp_path / "nvm.bin"))  # daily wins on 3, 4, 9, 12, 17, 18, 24, 29 November
    app = run(["key esc", at("menu", "Daily deal"), "expect screen daily"],
              tmp_path, date="2026-11-30")
    s = app.screen
    won = [s.cal.date(i)[2] for i in range(30) if s.won[i]]
    assert won == [3, 4, 9, 12, 17, 18, 24, 29]
    assert s.count.text == "8 won"
