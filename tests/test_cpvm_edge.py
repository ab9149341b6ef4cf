# SPDX-License-Identifier: MIT
"""The heap's edge never costs a game, on CircuitPython's own VM.

Below the heap the whole session needs (tests/test_cpvm_session.py), the session runs until
an allocation fails somewhere: while a screen is built, a deal is dealt, a save is written.
Wherever that is, app.main() shows one calm screen (hardware/source.py `fault`) and resets
the board (the microcontroller stand-in ends the VM with RESET and exit status 3): no traceback
stops the game. The save file and nvm still load; the next start at the same heap either
continues the newest save or, where even the table does not fit, strikes again with the
same calm screen and the same save; a start with a whole heap continues the newest save:
its slot, its moves and its seconds.
"""

import tempfile
from pathlib import Path

import pytest

from bench import board
from freecell_mc.saves import policy, savelog

# From just under what the session needs down to where the game still boots (70,000 on
# both sizes on 2026-12-03: below, importing the game itself fails before any screen).
EDGE = list(range(120000, 72499, -2500))


def _newest(cwd):
    """Return (slot, moves, seconds) of the newest save in cwd, read on CPython, or None
    where no game was saved yet (the fault struck before the first deal was)."""
    nvm = bytearray((cwd / "nvm.bin").read_bytes())
    saves = policy.Saves(savelog.SaveLog(nvm, str(cwd / savelog.LOG_PATH)))
    msg = saves.load()
    assert msg is None, msg  # every place is whole or erased: nothing to tell the player
    slot = saves.active
    s = saves.slot(slot)
    return None if s is None else (slot, s.moves, s.elapsed)


def _steps(name):
    """The session's first part without its checks of the undo history: below the budget a
    long history may give up its oldest moves for room (Game._grow), as designed."""
    return [st for st in board.session_steps(name) if st[0] != "h"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(board.BOARDS))
def test_a_memoryerror_anywhere_shows_the_calm_screen_and_the_reset_continues(cp_image, name):
    reloads = 0
    for heap in EDGE:
        with tempfile.TemporaryDirectory(prefix="freecell-cpvm-") as tmp:
            cwd = Path(tmp)
            rc, out, err = board.start(cp_image, cwd, name, _steps(name), heap=heap)
            if rc == 0:
                continue  # the whole session ran: nothing struck
            said = out + err
            assert rc == 3 and out.rstrip().endswith("RESET"), (heap, said[-3000:])
            assert "MemoryError" in said, (heap, said[-3000:])
            reloads += 1
            newest = _newest(cwd)
            steps = [["e", "datepicker"], ["t", "Set the date"],
                     ["g"] + list(newest) if newest else ["e", "table"]]
            # The restart at the same heap: where the table itself does not fit, it strikes
            # again, and again only the calm screen comes; the save is the same.
            rc, out, err = board.start(cp_image, cwd, name, steps, heap=heap, seed=-1)
            assert rc == 0 or (rc == 3 and out.rstrip().endswith("RESET")), (
                heap, "the restart after the reset", (out + err)[-3000:])
            if newest is not None:
                assert _newest(cwd) == newest
            # With the room a fresh start has, play continues where it was.
            rc, out, err = board.start(cp_image, cwd, name, steps, heap=board.HEAP, seed=-1)
            assert rc == 0, (heap, "the restart in a full heap", (out + err)[-3000:])
    # The range reaches well below what the session needs: most sizes must have struck.
    assert reloads >= len(EDGE) - 2, reloads


def test_below_the_edge_the_game_does_not_boot_and_says_memoryerror(cp_image):
    # Where even the game's modules do not fit, CircuitPython's own traceback is all there
    # is: the edge of EDGE above is where the calm screen still has room.
    with tempfile.TemporaryDirectory(prefix="freecell-cpvm-") as tmp:
        rc, out, err = board.start(cp_image, Path(tmp), "titano", board.session_steps("titano"),
                                   heap=60000)
    assert rc == 1 and "MemoryError" in out + err
    assert "RESET" not in out
