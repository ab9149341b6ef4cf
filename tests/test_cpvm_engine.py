# SPDX-License-Identifier: MIT
"""The engine and notation on CircuitPython's own VM, from the board image's .mpy files.

The scripts of tests/mp/ (written for MicroPython, which CircuitPython is built on) run on
CircuitPython's unix port (bench/board.py) over the image's lib/: Freecell Solver's solutions
of 120 Microsoft deals end in the same positions as on CPython, and no engine operation
allocates a byte, with CircuitPython's own 31-bit small ints and long ints.
"""

import pytest

from freecell_mc.rules import engine
from solutions import fcs_solutions
from test_micropython import MP, run_cpython


@pytest.mark.slow
def test_fcs_solutions_end_in_the_same_positions_as_on_cpython(cp_image, tmp_path):
    data = {"solutions": [[d, c, " ".join(m)] for d, c, m in fcs_solutions()]}
    assert len(data["solutions"]) >= 100
    got = cp_image.run_script(MP / "mp_solutions.py", tmp_path, data)
    want = run_cpython("mp_solutions.py", data, tmp_path)
    assert got == want
    # One move per notation token: a carried run counts once; every deal was won.
    assert [row[1] for row in got["solutions"]] == [len(s[2].split()) for s in data["solutions"]]


@pytest.mark.slow
def test_engine_operations_allocate_nothing(cp_image, tmp_path):
    """targets, fit, move, undo, capacity, finish and dead-end checks allocate 0 bytes."""
    data = {"seeds": [1, 20261130, 3000000000], "cells": [4, 2], "steps": 50,
            "long_game": 3100}
    # A small heap: gc.mem_alloc() walks the whole allocation table at every reading.
    got = cp_image.run_script(MP / "mp_alloc.py", tmp_path, data, heap=200000)
    base, seen = got["harness"]
    assert base == 0 and seen > 0, "the measuring harness is off"
    for op, worst in got["worst"].items():
        assert got["count"][op] > 0, "never measured " + op
        assert worst == 0, "%s allocates %d bytes" % (op, worst)
    assert got["count"]["move"] >= 100 and got["count"]["undo"] >= 10
    # The one documented exception: past 2,048 moves the undo log grows by one chunk
    # (engine.CHUNK_MOVES moves in CHUNK_BYTES) at the first move of each, and undo back to
    # the deal allocates nothing.
    grew = got["long_game"]["grew"]
    assert [i for i, _ in grew] == list(range(engine.LOG_MOVES, 3100, engine.CHUNK_MOVES))
    assert all(engine.CHUNK_BYTES <= nbytes <= engine.CHUNK_BYTES + 64 for _, nbytes in grew), grew
    assert got["long_game"]["undo_worst"] == 0
    # A game set aside for the other slot hands its undo log over whole: what it allocates
    # is its 68-byte position and short lists, no more at 3,100 moves than at one (where
    # the game's list takes back the three chunks the move did not use).
    long, short = got["long_game"]["kept_heap"]
    assert 68 <= long <= short <= 200, got["long_game"]
