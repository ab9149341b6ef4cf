# SPDX-License-Identifier: MIT
"""Power cuts through the real game: code.py under the headless simulator, cut, restart.

The simulator's CIRCUITPY is the FAT model of host_sim/fat.py (the board's 8 MB flash as
CircuitPython formats it, its 4 KB sector cache, FatFs), kept as an image in the drive
folder, and nvm its own FlashBlock; both count erase and program steps. Before the game
starts, the saves already hold settings (four colours, take-back), statistics and a daily
game. A scripted game then runs with a power cut armed at one flash step of one of its
saves; the power dies there, and the board starts again from the same drive and nvm.
Every step of every save of a short game is cut (each erase and each page program, the
erasing ahead of the writer included), and every step of the save a won game makes. After
each cut the saves hold exactly the last completed save (or the one being written, when the
cut came after its record was whole): both slots, the statistics and the settings; and the
restarted game shows that position.
"""

import pytest

from host_sim import flash, hardware, sim
from freecell_mc.rules import notation
from freecell_mc.saves import notices, policy, record, savelog
from freecell_mc.rules.engine import Game

from test_sim_game import DATE, shortest

_BODY = (12, 248)  # the record minus header, sequence number, nvm credit and CRC


@pytest.fixture
def spy(monkeypatch):
    """Log every save write with its flash steps."""
    log = []
    orig = policy.Saves._write

    def write(self, now_ms):
        entry = {"start": flash.step_count(), "body": bytes(self._rec[_BODY[0] : _BODY[1]])}
        log.append(entry)
        ok = orig(self, now_ms)
        entry["end"] = flash.step_count()
        entry["ok"] = ok
        return ok

    monkeypatch.setattr(policy.Saves, "_write", write)
    yield log
    flash.disarm()


def _blocks(drive, nvm):
    """The saves as the game sees them on this drive and nvm."""
    return hardware.drive_blocks(drive, str(nvm))


class _Pos:
    def __init__(self, game):
        self.pos = bytes(game.pos)
        self.moves = game.moves


def _prepare(tmp_path, name):
    """Make a drive and nvm whose saves hold settings, statistics and a daily game."""
    from freecell_mc.rules import deals

    drive = tmp_path / name / "drive"
    nvm = tmp_path / name / "nvm.bin"
    drive.mkdir(parents=True)
    s = policy.Saves(_blocks(drive, nvm))
    assert s.load() is None
    s.settings.four_colour = True
    s.settings.takeback = True
    for _ in range(5):
        s.stats.record_start()
    s.stats.record_win(400, 110)
    s.stats.mark_day_won(2026, 11, 28)
    g = Game()
    g.deal(deals.seeded_deck(deals.daily_seed(2026, 11, 29)))
    s.put_slot(record.SLOT_DAILY, deals.KIND_DAILY, 20261129, 4, _Pos(g), 77)
    assert s.commit(0, force=True)
    _prepared[str(drive)] = bytes(s._rec[_BODY[0] : _BODY[1]])
    return drive, nvm


_prepared = {}  # drive -> the record body _prepare left there


def _argv(drive, nvm, script_path, *extra):
    return ["--headless", "--quiet", "--date", DATE, "--nvm", str(nvm), "--drive", str(drive),
            "--script", str(script_path)] + list(extra)


def _check_after_cut(tmp_path, tag, drive, nvm, spy, capsys):
    """The saves hold the last completed save or the cut one; the restarted game shows it."""
    done = [w for w in spy if w.get("ok")]
    cut = spy[-1]
    assert "ok" not in cut  # the cut came inside a save write
    saves = policy.Saves(_blocks(drive, nvm))
    assert saves.load() is None
    body = bytes(saves._rec[_BODY[0] : _BODY[1]])
    allowed = [cut["body"], done[-1]["body"] if done else _prepared[str(drive)]]
    assert body in allowed, tag
    # Whatever else happened, what was saved before the game started is still there.
    assert saves.settings.four_colour and saves.settings.takeback, tag
    assert saves.stats.played >= 5 and saves.stats.day_won(2026, 11, 28), tag
    assert saves.slot(record.SLOT_DAILY) is not None, tag
    # Start the board again: the real game shows that very position (a won game's slot is
    # empty, and the game then deals afresh).
    slot = saves.slot(saves.active)
    dump = tmp_path / ("after-%s.txt" % tag)
    again = tmp_path / ("again-%s.txt" % tag)
    again.write_text("expect moves %d\ndump %s\n" % (0 if slot is None else slot.moves, dump))
    rc = sim.main(_argv(drive, nvm, again))
    assert rc == 0, capsys.readouterr().err
    if slot is not None:
        g = Game(slot.cells)
        g.load(slot.pos, slot.moves)
        assert dump.read_text() == notation.board_text(g), tag
    return saves


def _steps_of_saves(tmp_path, script_path, spy, capsys, *extra):
    """Run the script once without a cut; return [(first step, last step)] of its saves."""
    drive, nvm = _prepare(tmp_path, "full")
    spy.clear()
    start = flash.step_count()
    assert sim.main(_argv(drive, nvm, script_path, *extra)) == 0, capsys.readouterr().err
    return [(w["start"] - start + 1, w["end"] - start) for w in spy if w["ok"]], spy[:]


# The saves and the restarted position are asserted, never a pixel.
@pytest.mark.slow
@pytest.mark.usefixtures("no_pixels")
def test_every_cut_of_every_save_of_a_short_game(tmp_path, spy, capsys):
    deal, moves = shortest(4)
    lines = ["expect screen table"]
    for i, m in enumerate(moves[:6]):
        lines.append("move " + m)
        if i % 3 == 2:
            lines.append("wait 9000")  # a pause: the checkpoint writes
    # Today's daily deal beside the half-played free one: the next saves carry both.
    lines += ["key d", "expect screen table", "wait 9000", "key esc", "expect screen menu"]
    path = tmp_path / "play.txt"
    path.write_text("\n".join(lines) + "\n")
    spans, _ = _steps_of_saves(tmp_path, path, spy, capsys, "--ms", str(deal))
    assert len(spans) >= 3, spans  # checkpoints during play, the daily beside it
    cuts = 0
    for first, last in spans:
        for step in range(first, last + 1):
            tag = "s%d" % step
            drive, nvm = _prepare(tmp_path, tag)
            spy.clear()
            flash.arm_cut(step)  # nothing writes flash before the game's first save
            with pytest.raises(flash.PowerCut):
                sim.main(_argv(drive, nvm, path, "--ms", str(deal)))
            flash.disarm()
            _check_after_cut(tmp_path, tag, drive, nvm, spy, capsys)
            cuts += 1
    assert cuts == sum(last - first + 1 for first, last in spans)
    print("cuts through the real game: %d" % cuts)


# The saves and the restarted position are asserted, never a pixel.
@pytest.mark.usefixtures("no_pixels")
def test_every_cut_of_the_save_a_won_game_makes(tmp_path, spy, capsys):
    deal, moves = shortest(4)
    path = tmp_path / "win.txt"
    path.write_text("\n".join(["move " + m for m in moves] + ["expect won", "wait 100"]) + "\n")
    spans, log = _steps_of_saves(tmp_path, path, spy, capsys, "--ms", str(deal))
    # The win's save is the one whose record counts one more won game.
    won = [i for i, w in enumerate(log) if w["ok"]]
    first, last = spans[-1]
    assert log[won[-1]]["body"] != log[won[-2]]["body"]
    for step in range(first, last + 1):
        tag = "w%d" % step
        drive, nvm = _prepare(tmp_path, tag)
        spy.clear()
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            sim.main(_argv(drive, nvm, path, "--ms", str(deal)))
        flash.disarm()
        saves = _check_after_cut(tmp_path, tag, drive, nvm, spy, capsys)
        assert saves.stats.won in (1, 2), tag  # the win counted, or the save before it


@pytest.mark.parametrize("wait_ms", [1830, 2570, 4480, 8570, 65000])
def test_thinking_time_survives_a_power_cut(tmp_path, capsys, wait_ms):
    """Moves, then a look at the table, then the power goes: at most 2 s of the clock lost.

    The clock's milliseconds are kept as well as its seconds: kept as whole seconds, a cut
    cost the time since the last save and the second begun as well (8.57 s became 6 s).
    """
    from freecell_mc.app import App

    deal, moves = shortest(4)
    drive = tmp_path / "drive"
    nvm = tmp_path / "nvm.bin"
    drive.mkdir()
    path = tmp_path / "think.txt"
    path.write_text("\n".join(["expect screen table"] + ["move " + m for m in moves[:6]]
                              + ["wait %d" % wait_ms]) + "\n")
    # The script's end is the power cut: the board stops there, with nothing flushed.
    assert sim.main(_argv(drive, nvm, path, "--ms", str(deal))) == 0, capsys.readouterr().err
    played = App.current.elapsed_ms
    saves = policy.Saves(_blocks(drive, nvm))
    assert saves.load() is None
    slot = saves.slot(saves.active)
    kept = slot.elapsed * 1000 + slot.millis
    assert 0 <= played - kept <= 2000, (played, kept)  # at most 2 s of play lost
    again = tmp_path / "again.txt"
    again.write_text("expect screen table\n")
    assert sim.main(_argv(drive, nvm, again)) == 0, capsys.readouterr().err
    assert App.current.elapsed_ms == kept  # the restarted game goes on from there


def test_a_failing_nvm_raises_like_the_boards_and_the_game_goes_on(tmp_path, monkeypatch, capsys):
    """microcontroller.nvm raises RuntimeError when a write fails; the game survives it."""
    from host_sim.fakes import microcontroller

    deal, moves = shortest(4)
    drive = tmp_path / "drive"
    nvm = tmp_path / "nvm.bin"
    drive.mkdir()
    monkeypatch.setattr(flash.FlashBlock, "fail", True)
    path = tmp_path / "nvm.txt"
    # CIRCUITPY left to the computer (screen held at reset): nvm is the only place.
    path.write_text("\n".join(["expect screen table"] + ["move " + m for m in moves[:3]]
                              + ["key esc", "expect screen menu", "wait 3000"]) + "\n")
    rc = sim.main(_argv(drive, nvm, path, "--ms", str(deal), "--hold-at-boot"))
    assert rc == 0, capsys.readouterr().err
    with pytest.raises(RuntimeError):
        microcontroller.nvm[0:1] = b"x"  # the fake fails the way the board does
    from freecell_mc.app import App

    assert not App.current.saves.files_ok and App.current.saves.nvm_writes == 0


def _filled_drive(tmp_path, leave, saves=True):
    """A drive folder whose CIRCUITPY has only `leave` bytes free (its save file removed
    first unless saves)."""
    from host_sim import circuitpy

    drive = tmp_path / "drive"
    drive.mkdir()
    vol = circuitpy.open_drive(str(drive))
    if not saves:
        vol.remove(savelog.LOG_PATH)
    circuitpy.fill(vol, leave)
    return drive


@pytest.mark.slow
@pytest.mark.parametrize("board", ["pyportal", "titano"])
def test_a_drive_too_full_for_the_save_file_is_told_with_how_much_to_free(tmp_path, board):
    from host_sim.hardware import BOARDS
    from test_screens import FakeApp, button, make
    from test_screens_sim import run

    _, w, h = BOARDS[board]
    _, menu = make("menu", FakeApp(w, h))
    b = button(menu, "Settings")
    drive = _filled_drive(tmp_path, 300 * 1024, saves=False)
    free = circuitpy_free(drive)
    need = (notices.NEEDS - free + 1023) // 1024
    lines = ["expect screen notice", "shot notice-full-%s.png" % board, "key enter",
             "expect screen table", "move 2a", "wait 2000", "key esc", "expect screen menu",
             "tap %d %d" % (b.x + b.w // 2, b.y + b.h // 2), "expect screen settings",
             "shot settings-full-%s.png" % board]
    app = run(lines, tmp_path, date="2026-11-30", board=board)
    assert app.saves.limit_reason() == "no save file: copy again"
    assert app.screen.usb_note.text == "no save file: copy again"
    assert app.saves.nvm_writes >= 1 and not app.saves.files_ok
    assert circuitpy_free(drive) == free  # the board took no space
    told = app.saves.told(record.TOLD_LIMITED)
    assert told
    # Told how much to free, at the start, once: the next start is quiet.
    assert ("free %d KB on CIRCUITPY" % need) in notices.limited(savelog.NO_FILE,
                                                                    _Free(free))
    again = run(["expect screen table"], tmp_path, date="2026-11-30", board=board)
    assert again.message is None and again.saves.limit_reason() == "no save file: copy again"


class _Free:
    def __init__(self, free):
        self.free = free

    def free_bytes(self):
        return self.free


def circuitpy_free(drive):
    from host_sim import circuitpy

    return circuitpy.open_drive(str(drive)).free_bytes()


def test_a_full_drive_keeps_the_promise_once_the_save_file_is_there(tmp_path, capsys):
    """Not a byte free: the save file takes every save, and a cut loses at most 2 s."""
    deal, moves = shortest(4)
    drive = _filled_drive(tmp_path, 0)
    nvm = tmp_path / "nvm.bin"
    path = tmp_path / "full.txt"
    path.write_text("\n".join(["expect screen table"] + ["move " + m for m in moves[:5]]
                              + ["wait 2000"]) + "\n")
    assert sim.main(_argv(drive, nvm, path, "--ms", str(deal))) == 0, capsys.readouterr().err
    from freecell_mc.app import App

    assert App.current.saves.files_ok and App.current.message is None
    saves = policy.Saves(_blocks(drive, nvm))
    assert saves.load() is None
    assert saves.slot(saves.active).moves == App.current.game.moves == 5
