# SPDX-License-Identifier: MIT
"""`python -m host_sim deal` and `replay`: deal options, board files, refused moves."""

import io
import os
import subprocess
import sys

import pytest

from freecell_mc.rules import deals
from host_sim import tools

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv, stdin="", monkeypatch=None, capsys=None):
    """Run tools.main in-process; return (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = tools.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def tool(monkeypatch, capsys):
    """Call as tool(argv, stdin) -> (rc, out, err)."""
    return lambda argv, stdin="": run(argv, stdin, monkeypatch, capsys)


def test_deal_seed_and_daily_known_answers(tool):
    rc, out, _ = tool(["deal", "--seed", "1"])
    lines = out.splitlines()
    assert rc == 0 and lines[0] == "QS 7S TC JS 4D 2H 9S" and lines[7] == "2D 4H 4C 9D 3C 7H"
    rc, out, _ = tool(["deal", "--daily", "2026-11-30"])
    assert out.splitlines()[:2] == ["4S 5H 6H AC 3S 3C KD", "AD 2H 7D QS 5S 9S 3D"]
    rc, out, _ = tool(["deal", "--daily", "2026-12-01"])
    assert out.splitlines()[0] == "6D 9D AS 9C 4H 7C 7S"


def test_deal_ms_and_code_and_cells(tool):
    rc, out, _ = tool(["deal", "--ms", "1"])
    assert rc == 0 and out.splitlines()[0] == "JD KD 2S 4C 3S 6D 6S" and len(out.splitlines()) == 8
    code = deals.deal_code(deals.KIND_MS, 1, 2)
    rc, out2, _ = tool(["deal", "--code", code])
    # Fewer cells than 4 show in the text, so the board says what game it is.
    assert rc == 0 and out2 == "Foundations: H-0 C-0 D-0 S-0\nFreecells: - -\n" + out
    rc, out3, _ = tool(["deal", "--ms", "1", "--cells", "2"])
    assert out3 == out2
    rc, _, err = tool(["deal", "--code", code, "--cells", "3"])
    assert rc == 2 and "2 free cells" in err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["deal", "--code", "34-1-1"], "The check digit does not match: a digit is mistyped"),
        (["deal", "--code", "34"], "That code is too short"),
        (["deal", "--daily", "2026-02-30"], "No such date"),
        (["deal", "--daily", "yesterday"], "YYYY-MM-DD"),
        (["deal", "--seed", "-1"], "seeds are whole numbers 0 to 4294967295, not -1"),
        (["deal", "--ms", "0"], "Microsoft deals are numbered 1 to 1,000,000"),
        (["deal", "--board", "/nonexistent/board.txt"], "No such file"),
    ],
)
def test_bad_deal_options_exit_2_with_a_message(tool, argv, message):
    rc, out, err = tool(argv)
    assert rc == 2 and out == "" and message in err


def test_board_file_is_validated(tool, tmp_path):
    rc, out, _ = tool(["deal", "--ms", "617"])
    path = tmp_path / "b.txt"
    path.write_text(out)
    rc, again, _ = tool(["deal", "--board", str(path)])
    assert rc == 0 and again == out
    path.write_text(out.replace("AH", "AS", 1))
    rc, _, err = tool(["deal", "--board", str(path)])
    assert rc == 2 and "appears twice" in err and "line" in err and "missing" not in err
    path.write_text("\n".join(out.splitlines()[:7]) + "\n")
    rc, _, err = tool(["deal", "--board", str(path)])
    assert rc == 2 and "expected 8 column lines" in err
    rc, again, _ = tool(["deal", "--board", "-"], stdin=out)
    assert rc == 0 and again == out


def test_board_file_keeps_its_cell_count(tool, tmp_path):
    rc, two, _ = tool(["deal", "--ms", "5", "--cells", "2"])
    path = tmp_path / "two.txt"
    path.write_text(two)
    rc, again, _ = tool(["deal", "--board", str(path)])
    assert rc == 0 and again == two
    # Three moves into cells: the third is refused, since the board has two cells.
    rc, out, err = tool(["replay", "--board", str(path)], stdin="1a 2b 3c")
    assert rc == 1 and "move 3 (3c) refused: '3c': the game has only 2 free cells" in err
    # Freecell Solver's fixed-width line is read as four cells.
    fcs = "Foundations: H-0 C-0 D-0 S-0 \nFreecells:                \n" + two.split("\n", 2)[2]
    path.write_text(fcs)
    rc, out, _ = tool(["deal", "--board", str(path)])
    assert rc == 0 and out == two.split("\n", 2)[2]


def test_replay_refuses_a_bad_move_without_applying_it(tool, tmp_path):
    moves = tmp_path / "m.txt"
    moves.write_text("2a 3b\n4c 8d 8a 12\n")
    rc, out, err = tool(["replay", "--ms", "1", "--moves", str(moves)])
    assert rc == 1
    assert err.strip() == "move 5 (8a) refused: '8a': cell a is full"
    lines = out.splitlines()
    # Four moves applied, the fifth not: 7D still exposed in column 8.
    assert lines[1] == "Freecells: 9C 2H 6H TC" and lines[-2] == "5H 3H 3C 7S 7D"
    assert lines[-1] == "not won"


def test_replay_malformed_token(tool):
    rc, out, err = tool(["replay", "--ms", "1"], stdin="2a zz")
    assert rc == 1 and "move 2 (zz) refused" in err and "'z' is not a place" in err
    assert out.splitlines()[-1] == "not won"


def test_replay_empty_moves_is_not_won(tool):
    rc, out, err = tool(["replay", "--seed", "7"], stdin="")
    assert rc == 0 and out.splitlines()[-1] == "not won" and err == ""


def test_module_entry_point_runs():
    res = subprocess.run([sys.executable, "-m", "host_sim", "replay", "--daily", "2026-11-30"],
                         input="1a\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert res.returncode == 0
    assert res.stdout.splitlines()[1] == "Freecells: KD - - -"
    assert res.stdout.splitlines()[-1] == "not won"


def test_usage_errors_return_2_and_help_returns_0(tool):
    rc, _, err = tool(["deal"])
    assert rc == 2 and "one of the arguments --seed --daily --ms --code --board is required" in err
    rc, _, err = tool(["replay", "--ms", "1", "--seed", "2"])
    assert rc == 2 and "not allowed with" in err
    rc, out, _ = tool(["replay", "--help"])
    assert rc == 0 and "--moves FILE" in out
