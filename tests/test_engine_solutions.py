# SPDX-License-Identifier: MIT
"""Freecell Solver's solutions of Microsoft deals replay to `won`, in the engine and through
the replay tool of `python -m host_sim replay`, every one in this process and one through the
command line (fixture data from tools/make_fixtures.py)."""

import io
import os
import subprocess
import sys

import pytest

from freecell_mc.rules import deals, notation
from freecell_mc.rules.engine import Game
from host_sim import tools
from solutions import fcs_solutions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLUTIONS = fcs_solutions()


def test_fixture_has_enough_solutions():
    four = [d for d, c, _ in SOLUTIONS if c == 4]
    assert len(four) >= 100 and len(set(four)) == len(four)
    assert 11982 not in four
    assert {c for _, c, _ in SOLUTIONS} == {2, 3, 4}


def test_engine_replays_every_solution_to_won():
    total = 0
    for deal, cells, moves in SOLUTIONS:
        g = Game(cells)
        g.deal(deals.ms_deck(deal))
        start = bytes(g.pos)
        for i, tok in enumerate(moves):
            src, dst, n = notation.resolve_move(g, tok)
            assert n == 1, (deal, i, tok)  # one card per move, as fc-solve was asked
            assert g.move(src, dst, n), (deal, i, tok)
            assert not g.won() or i == len(moves) - 1
        assert g.won(), deal
        assert g.moves == len(moves) and not g.dead_end() and not g.finish_step()
        total += len(moves)
        # The whole game undoes back to the deal (all solutions are shorter than the log).
        assert len(moves) <= 2048
        while g.undo():
            pass
        assert bytes(g.pos) == start and g.moves == 0
    print("replayed %d solutions, %d moves" % (len(SOLUTIONS), total))


def replay_in_process(deal, cells, moves, monkeypatch, capsys):
    """Run the replay tool's main in this process on one solution; return (exit code, stdout)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(" ".join(moves) + "\n"))
    rc = tools.main(["replay", "--ms", str(deal), "--cells", str(cells)])
    out, err = capsys.readouterr()
    assert err == "", (deal, err)
    return rc, out


def test_replay_tool_wins_every_solution(monkeypatch, capsys):
    # The tool's own code (options, stdin, replay, the board text) on every solution, in
    # this process; test_the_command_line_replays_a_solution_to_won runs it as a program.
    for deal, cells, moves in SOLUTIONS:
        rc, out = replay_in_process(deal, cells, moves, monkeypatch, capsys)
        assert rc == 0, deal
        lines = out.splitlines()
        assert lines[-1] == "won", (deal, out)
        assert lines[0] == "Foundations: H-K C-K D-K S-K"
        assert lines[-9:-1] == [":"] * 8


@pytest.mark.parametrize("deal,cells,moves", SOLUTIONS[:1])
def test_a_solution_cut_short_is_not_won(deal, cells, moves, monkeypatch, capsys):
    rc, out = replay_in_process(deal, cells, moves[:-1], monkeypatch, capsys)
    assert rc == 0 and out.splitlines()[-1] == "not won"


def test_the_command_line_replays_a_solution_to_won():
    # `python -m host_sim replay` as a player runs it: the module's entry point, the moves on
    # a real stdin, the exit status and the board text on stdout.
    deal, cells, moves = SOLUTIONS[0]
    res = subprocess.run(
        [sys.executable, "-m", "host_sim", "replay", "--ms", str(deal), "--cells", str(cells)],
        input=" ".join(moves) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert (res.returncode, res.stderr) == (0, "")
    lines = res.stdout.splitlines()
    assert lines[0] == "Foundations: H-K C-K D-K S-K" and lines[-1] == "won"
