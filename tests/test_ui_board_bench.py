# SPDX-License-Identifier: MIT
"""board_bench/code.py, the script a maker copies to a board, runs on the simulated board."""

import os

import pytest

from host_sim import sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
def test_board_bench_runs_on_the_simulated_pyportal_and_prints_every_figure(capsys):
    for board in ("pyportal", "titano"):
        s = sim.Simulator(board=board, headless=True, script=[],
                          root=os.path.join(ROOT, "board_bench"))
        try:
            assert s.run() == 0
        finally:
            s.close()
        out = capsys.readouterr().out
        for what in ("after boot", "after importing the game", "after building the table",
                     "after a move", "full refresh", "single-card move", "tap to drop"):
            assert what in out, (board, what, out)
        assert "moves played: 2" in out  # the timed move, then the two taps made one more
