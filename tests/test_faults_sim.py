# SPDX-License-Identifier: MIT
"""Power cuts through the real game: code.py under the headless simulator, cut, restart.

The save files are the simulator's flash model (host_sim/flash.py FileBlock, which counts
erase and program steps and persists to the drive folder) in place of the device's plain
files; nvm is the simulator's own FlashBlock. A scripted game runs with a power cut armed at
a chosen flash step (an erase, a page program, a directory update) of one of its saves.
The power dies there; then the board starts again from the same drive and nvm, and the
game shows exactly the position of the last completed save (or of the one being written,
when the cut came after its record was whole).
"""

import pytest

from host_sim import flash, sim
from freecell_mc import notation, storage
from freecell_mc.engine import Game

from test_sim_game import DATE, shortest

_BODY = (12, 252)  # the record minus header, sequence number and CRC


@pytest.fixture
def spy(monkeypatch):
    """Use the flash model for save files and log every save write with its flash steps."""
    monkeypatch.setattr(
        storage, "FileBlock", lambda path, size=storage.FILE_SIZE: flash.FileBlock(path, size)
    )
    log = []
    orig = storage.Saves._write

    def write(self, now_ms, force):
        entry = {"start": flash.step_count(), "body": bytes(self._rec[_BODY[0] : _BODY[1]])}
        log.append(entry)
        ok = orig(self, now_ms, force)
        entry["end"] = flash.step_count()
        entry["ok"] = ok
        return ok

    monkeypatch.setattr(storage.Saves, "_write", write)
    yield log
    flash.disarm()


def _script(tmp_path):
    _, moves = shortest(4)
    lines = ["expect screen table"]
    for i, m in enumerate(moves[:6]):
        lines.append("move " + m)
        if i % 3 == 2:
            lines.append("wait 9000")  # a pause: the checkpoint writes
    # The daily deal beside the half-played free one: later saves carry both slots.
    lines += ["key d", "expect screen table", "expect moves 0", "wait 9000"]
    lines += ["key esc", "expect screen menu", "wait 1000"]
    path = tmp_path / "play.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(tmp_path, name, script_path, *extra):
    drive = tmp_path / name / "drive"
    nvm = tmp_path / name / "nvm.bin"
    drive.mkdir(parents=True, exist_ok=True)
    deal, _ = shortest(4)
    argv = ["--headless", "--quiet", "--date", DATE, "--nvm", str(nvm), "--drive", str(drive),
            "--script", str(script_path)] + list(extra)
    return drive, nvm, argv + ["--ms", str(deal)]


def test_cuts_during_the_games_own_saves(tmp_path, spy, capsys):
    script_path = _script(tmp_path)
    # A run without a cut: which saves happen, and at which flash steps.
    drive, nvm, argv = _run(tmp_path, "full", script_path)
    assert sim.main(argv) == 0, capsys.readouterr().err
    writes = [w for w in spy if w["ok"]]
    assert len(writes) >= 3, [(w["start"], w["end"]) for w in spy]  # start, checkpoints, menu
    base = spy[0]["start"]
    # Erase, mid-program and directory update of the second and of the last save.
    targets = []
    for w in (writes[1], writes[-1]):
        first = w["start"] - base + 1
        targets += [first, first + 3, first + 9]
    for k, step in enumerate(targets):
        spy.clear()
        drive, nvm, argv = _run(tmp_path, "cut%d" % k, script_path)
        flash.arm_cut(step)  # nothing writes flash before the game's first save
        with pytest.raises(flash.PowerCut):
            sim.main(argv)
        flash.disarm()
        done = [w for w in spy if w.get("ok")]
        cut = spy[-1]
        assert "ok" not in cut  # the cut came inside a save write
        # What is on flash now, read as the game reads it.
        blocks = [flash.FlashBlock(str(nvm), storage.NVM_SIZE)] + [
            flash.FileBlock(str(drive / storage.ring_path(i))) for i in range(storage.RING)
        ]
        saves = storage.Saves(blocks)
        assert saves.load() is None
        body = bytes(saves._rec[_BODY[0] : _BODY[1]])
        if k >= 3:
            assert saves.slot(storage.SLOT_FREE) is not None  # the other slot survived
        allowed = [cut["body"]] + ([done[-1]["body"]] if done else [])
        assert body in allowed, (k, step)
        # Start the board again: the real game shows that very position.
        slot = saves.slot(saves.active)
        g = Game(slot.cells)
        g.load(slot.pos, slot.moves)
        dump = tmp_path / ("after%d.txt" % k)
        again = tmp_path / ("again%d.txt" % k)
        again.write_text("expect moves %d\ndump %s\n" % (slot.moves, dump))
        rc = sim.main(["--headless", "--quiet", "--date", DATE, "--nvm", str(nvm),
                       "--drive", str(drive), "--script", str(again)])
        assert rc == 0, capsys.readouterr().err
        assert dump.read_text() == notation.board_text(g)
