# SPDX-License-Identifier: MIT
"""The real game (code.py -> freecell_mc.app.main -> App) under the headless simulator.

Nothing here is a test double of the game: each test starts the repository's code.py on
the simulated board and drives it through the touch panel and the keyboard.
"""

import os
import subprocess
import sys

import pytest

from host_sim import sim
from solutions import fcs_solutions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATE = "2026-11-30"


def shortest(cells):
    """Return (deal, moves) of the shortest fixture solution with that many free cells."""
    found = [(len(m), d, m) for d, c, m in fcs_solutions() if c == cells]
    _, deal, moves = min(found)
    return deal, moves


def play(tmp_path, lines, *options, name="s.txt"):
    """Run the simulator in this process on a script; return (exit code, stderr text)."""
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    argv = ["--headless", "--date", DATE, "--script", str(path)] + list(options)
    return sim.main(argv)


def test_the_game_starts_on_the_requested_deal_and_dumps_it(tmp_path, capsys):
    rc = play(tmp_path, ["expect screen table", "expect moves 0", "dump %s" % (tmp_path / "b.txt")],
              "--ms", "1")
    assert rc == 0, capsys.readouterr().err
    from freecell_mc.rules import deals, notation
    from freecell_mc.rules.engine import Game

    g = Game(4)
    g.deal(deals.ms_deck(1))
    text = (tmp_path / "b.txt").read_text()
    assert text == notation.board_text(g)
    assert text.splitlines()[0] == "JD KD 2S 4C 3S 6D 6S"  # SPEC section 3


@pytest.mark.slow
@pytest.mark.parametrize("cells", [4, 2])
def test_a_script_wins_a_microsoft_deal_with_freecell_solvers_moves(tmp_path, cells):
    deal, moves = shortest(cells)
    lines = ["expect screen table", "expect not-won"]
    lines += ["move " + m for m in moves]
    lines += ["expect won", "expect moves %d" % len(moves), "expect screen result",
              "shot won.png"]
    (tmp_path / "win.txt").write_text("\n".join(lines) + "\n")
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1", PYTHONPATH=ROOT)
    r = subprocess.run(
        [sys.executable, "-m", "host_sim", "--headless", "--ms", str(deal), "--cells",
         str(cells), "--date", DATE, "--script", "win.txt"],
        cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=600,
    )
    print(r.stderr)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "won.png").exists()


def test_a_failed_expectation_exits_1_naming_the_line_and_what_was_seen(tmp_path, capsys):
    deal, moves = shortest(4)
    lines = ["move " + m for m in moves[:3]] + ["expect won"]
    assert play(tmp_path, lines, "--ms", str(deal)) == 1
    assert "line 4: expected won, saw not-won" in capsys.readouterr().err
    assert play(tmp_path, ["expect screen menu"], "--ms", str(deal)) == 1
    assert "line 1: expected screen menu, saw screen table" in capsys.readouterr().err


def test_an_illegal_move_line_fails_with_the_reason(tmp_path, capsys):
    # MS deal 1: column 1 ends in 6S, column 2 in 9C; 6S does not go on 9C
    assert play(tmp_path, ["expect moves 0", "move 12"], "--ms", "1") == 1
    err = capsys.readouterr().err
    assert "line 2: move 12 refused" in err and "6S does not go on 9C" in err


def test_keys_undo_and_open_the_menu(tmp_path, capsys):
    lines = ["move 2a", "expect moves 1", "key u", "expect moves 0", "key esc",
             "expect screen menu"]
    assert play(tmp_path, lines, "--ms", "1") == 0, capsys.readouterr().err


def test_without_a_date_the_board_asks_for_one(tmp_path, capsys):
    path = tmp_path / "s.txt"
    path.write_text("expect screen datepicker\n")
    assert sim.main(["--headless", "--script", str(path), "--ms", "1"]) == 0, \
        capsys.readouterr().err


def test_an_external_rtc_supplies_the_date(tmp_path, capsys):
    path = tmp_path / "s.txt"
    path.write_text("expect screen table\n")
    for chip in ("ds3231", "pcf8523"):
        assert sim.main(["--headless", "--script", str(path), "--ext-rtc", chip]) == 0, \
            capsys.readouterr().err


def test_the_game_continues_where_it_was_left(tmp_path, capsys):
    nvm = str(tmp_path / "nvm.bin")
    drive = str(tmp_path / "drive")
    common = ["--nvm", nvm, "--drive", drive]
    # leaving the table for the menu saves the game
    assert play(tmp_path, ["move 2a", "move 2b", "key esc", "expect screen menu"],
                "--ms", "1", *common) == 0, capsys.readouterr().err
    # started as the board starts: no deal options, the saved game comes back
    assert play(tmp_path, ["expect screen table", "expect moves 2",
                           "dump %s" % (tmp_path / "b.txt")], *common) == 0, \
        capsys.readouterr().err
    cells = (tmp_path / "b.txt").read_text().splitlines()[1]
    assert cells.startswith("Freecells: 9C 8S")


def test_single_card_moves_redraw_only_part_of_the_screen(tmp_path, capsys):
    from host_sim import script

    s = sim.Simulator(
        date=DATE, start_deal=(3, 1, 4), script=script.parse("wait 100\nmove 2a\nmove 1b\n")
    )
    try:
        assert s.run() == 0
        drawn = s.display.drawn_refreshes()
        full = 320 * 240
        # after the first two (full-screen) refreshes, every tap redraws a part only
        later = drawn[2:]
        assert later
        for areas in later:
            px = sum((x2 - x1) * (y2 - y1) for x1, y1, x2, y2 in areas)
            assert px < full
        print("refreshed pixels per refresh:", [
            sum((x2 - x1) * (y2 - y1) for x1, y1, x2, y2 in a) for a in later])
    finally:
        s.close()


@pytest.mark.parametrize("board,size", [("pyportal", (320, 240)), ("titano", (480, 320))])
def test_screenshots_at_the_board_sizes(tmp_path, board, size):
    from PIL import Image

    out = tmp_path / "t.png"
    rc = play(tmp_path, ["move 2a", "shot %s" % out], "--ms", "1", "--board", board)
    assert rc == 0
    img = Image.open(out)
    assert img.size == size
    assert len(img.convert("RGB").getcolors(1 << 16)) > 4  # a table, not a blank screen


def test_the_players_saved_calibration_drives_the_touch_panel(tmp_path, capsys):
    from freecell_mc.app import App
    from freecell_mc.saves.policy import Saves
    from host_sim.hardware import drive_blocks

    nvm = str(tmp_path / "nvm.bin")
    drive = tmp_path / "drive"
    drive.mkdir()
    saves = Saves(drive_blocks(drive, nvm))
    saves.load()
    cal = ((4000, 60000), (6000, 56000))
    saves.settings.calibration = cal
    saves.commit(0, force=True)
    assert play(tmp_path, ["expect screen table"], "--ms", "1", "--nvm", nvm,
                "--drive", str(drive)) == 0, capsys.readouterr().err
    touch = App.current.touch
    assert touch._calib == cal


def test_the_docs_screenshot_script_still_plays(tmp_path, capsys):
    script_path = os.path.join(ROOT, "host_sim", "scripts", "docs_table.txt")
    out = tmp_path / "t.png"
    rc = sim.main(["--headless", "--ms", "1", "--date", DATE, "--script", script_path,
                   "--shot", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert out.exists()


@pytest.mark.parametrize("held", [False, True])
def test_boot_gives_the_drive_to_the_game_unless_the_screen_is_held(tmp_path, held, capsys):
    from host_sim import script

    s = sim.Simulator(date=DATE, start_deal=(3, 1, 4), hold_at_boot=held,
                      script=script.parse("move 2a\nkey esc\nexpect screen menu\n"))
    try:
        assert s.run() == 0, capsys.readouterr().err
        if held:
            # the computer keeps CIRCUITPY: the game cannot write it and saves to nvm
            assert s.remounts == [] and s.drive_readonly
            assert s.drive_writes == 0 and s.nvm.erase_count >= 1
        else:
            assert s.remounts == [("/", False)] and not s.drive_readonly
            assert s.drive_writes >= 1
    finally:
        s.close()


def _first_supermove(deal, cells, moves):
    """Return (prefix of moves, a legal move of 2+ cards after it) along a solution."""
    from freecell_mc.rules import deals, notation
    from freecell_mc.rules.engine import Game

    g = Game(cells)
    g.deal(deals.ms_deck(deal))
    for i, m in enumerate(moves):
        for src in range(8):
            run = g.run_len(src)
            for dst in range(8):
                if dst == src:
                    continue
                k = g.fit(src, dst, run)
                if k >= 2:
                    return moves[:i], "%d%d:%d" % (src + 1, dst + 1, k)
        src, dst, n = notation.resolve_move(g, m)
        g.move(src, dst, n)
    return None


def test_a_sequence_move_is_one_move_made_with_two_taps(tmp_path, capsys):
    deal, moves = shortest(4)
    prefix, supermove = _first_supermove(deal, 4, moves)
    lines = ["move " + m for m in prefix]
    lines += ["move " + supermove, "expect moves %d" % (len(prefix) + 1), "key u",
              "expect moves %d" % len(prefix)]
    assert play(tmp_path, lines, "--ms", str(deal)) == 0, capsys.readouterr().err


def test_a_script_move_away_from_the_table_says_where_it_is(capsys):
    # The table exists only while it is shown; a script's move elsewhere is a clear failure.
    from host_sim import script, sim

    s = sim.Simulator(board="pyportal", headless=True, date="2026-11-30",
                      script=script.parse("wait 100\nkey esc\nwait 100\nmove 1a\n"))
    try:
        assert s.run() == 1
    finally:
        s.close()
    assert "move 1a: the table is not shown (on menu)" in capsys.readouterr().err
