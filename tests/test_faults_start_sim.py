# SPDX-License-Identifier: MIT
"""The board's own fault path through code.py: what a reset carries, and a fault at start.

The simulator plays the board's faults here (raise_faults=False): an exception reaching
app.main() shows the calm screen and resets the board (hardware/source.py). The reset
restarts the internal RTC at 2000-01-01; the game carries the time across in the backup RAM
(alarm.sleep_memory, hardware/carry.py), so the start after it goes on without asking for
the date. A fault before the first poll that comes again at the next start sends the board
into safe mode instead of resetting it for ever, saying why, and writes no flash.
"""

import pytest

from host_sim import flash, script, sim
from freecell_mc.hardware import carry

from test_sim_game import DATE

pytestmark = pytest.mark.usefixtures("no_cut_left_armed", "no_pixels")

DAY_SECONDS = 86400


def _sim(tmp_path, text, **kw):
    path = tmp_path / "play.txt"
    path.write_text(text)
    drive = tmp_path / "drive"
    drive.mkdir(exist_ok=True)
    return sim.Simulator(headless=True, nvm_path=str(tmp_path / "nvm.bin"), drive=str(drive),
                         date=DATE, script=script.load(str(path)), raise_faults=False, **kw)


def _fault_at(s, ms, exc):
    """Make the touch panel's read raise exc once, ms into the run (a fault mid-poll)."""
    real = s.touch_read
    done = []

    def touch_read():
        if not done and s.phase == "code" and s.clock.total_ms() >= ms:
            done.append(s.clock.rtc_seconds())
            raise exc
        return real()

    s.touch_read = touch_read
    return done


def test_a_fault_s_reset_keeps_the_date_and_the_game(tmp_path, capsys):
    s = _sim(tmp_path, "expect screen table\nmove 1a\nmove 2b\nwait 4000\n"
                       "expect screen table\nexpect moves 2\n")
    at = _fault_at(s, 3000, MemoryError("memory allocation failed, allocating 84 bytes"))
    try:
        assert s.run() == 0, s.failure
        assert s.resets == 1 and not s.safe_mode
        # The RTC restarted at 2000 and took the carried time back: the same day, a few
        # seconds on (the calm screen's 3 s and the restart), never the date picker.
        gap = s.clock.rtc_seconds() - at[0]
        assert 0 < gap < 60, gap
        assert s.clock.rtc_seconds() // DAY_SECONDS == at[0] // DAY_SECONDS
    finally:
        s.close()
    assert "MemoryError" in capsys.readouterr().err  # the traceback on the console


def test_an_unset_clock_carries_nothing_and_the_start_asks(tmp_path):
    # No date was ever set: the reset carries none, and the start asks for it as before.
    path = tmp_path / "p.txt"
    path.write_text("expect screen datepicker\nwait 4000\nexpect screen datepicker\n")
    drive = tmp_path / "drive"
    drive.mkdir()
    s = sim.Simulator(headless=True, nvm_path=str(tmp_path / "nvm.bin"), drive=str(drive),
                      script=script.load(str(path)), raise_faults=False)
    _fault_at(s, 2000, RuntimeError("a fault"))
    try:
        assert s.run() == 0, s.failure
        assert s.resets == 1
    finally:
        s.close()


@pytest.mark.parametrize("reason, first", [(sim.RESET_SOFTWARE, "table"),
                                           (sim.RESET_POWER_ON, "datepicker")])
def test_only_the_game_s_own_reset_carries_the_time(tmp_path, reason, first):
    # What the game left in the backup RAM counts only after its own (software) reset: a
    # reset by the button, or power, reads it as nothing, mark and check intact or not.
    from freecell_mc.dates import day_number

    s = _sim(tmp_path, "expect screen table\nwait 1000\n")
    try:
        assert s.run() == 0, s.failure  # the saves made, a game dealt
    finally:
        s.close()
    path = tmp_path / "again.txt"
    path.write_text("expect screen %s\n" % first)
    t = sim.Simulator(headless=True, nvm_path=str(tmp_path / "nvm.bin"),
                      drive=str(tmp_path / "drive"), script=script.load(str(path)),
                      raise_faults=False)  # no --date: the RTC at 2000-01-01, as after a reset
    carry._put(t.sleep_memory, 0, day_number(2026, 11, 30), 12 * 3600)  # as fault() leaves it
    t.reset_reason = reason
    try:
        assert t.run() == 0, t.failure
    finally:
        t.close()


def test_a_fault_at_every_start_ends_in_safe_mode_writing_nothing(tmp_path, monkeypatch,
                                                                 capsys):
    from freecell_mc import play

    def broken(self, *args, **kw):
        raise RuntimeError("a fault at every start")

    # A first start that runs (the saves made, a game dealt), then a fault at every start.
    s_ok = _sim(tmp_path, "expect screen table\nmove 1a\nwait 3000\n")
    try:
        assert s_ok.run() == 0, s_ok.failure
    finally:
        s_ok.close()
    s = _sim(tmp_path, "wait 20000\n")
    monkeypatch.setattr(play.Play, "__init__", broken)
    steps = []
    real_reset = sim.Simulator._power_up

    def power_up(self):
        steps.append((flash.step_count(), self.nvm.erase_count))
        real_reset(self)

    monkeypatch.setattr(sim.Simulator, "_power_up", power_up)
    try:
        assert s.run() == 0, s.failure
        assert s.safe_mode  # the second fault in a row at start: the REPL, not a loop
        assert s.resets == 2  # the first fault's reset, then the one into safe mode
        assert steps[0] == steps[1]  # nothing written to any flash between the two
    finally:
        s.close()
    out = capsys.readouterr().out
    assert "stopped twice in a row as it started" in out
    assert out.count("FreeCell MC stopped twice") == 1


def test_a_start_that_polls_clears_the_count(tmp_path, monkeypatch):
    # A fault at start, then a start that gets going, then a fault mid-game: a reset,
    # not safe mode (only faults in a row at start count).
    from freecell_mc import play

    calls = []
    real_init = play.Play.__init__

    def first_start_fails(self, *args, **kw):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a fault at the first start")
        real_init(self, *args, **kw)

    monkeypatch.setattr(play.Play, "__init__", first_start_fails)
    s = _sim(tmp_path, "expect screen table\nwait 3000\nexpect screen table\nwait 5000\n"
                       "expect screen table\n")
    _fault_at(s, 6000, RuntimeError("a fault mid-game"))
    try:
        assert s.run() == 0, s.failure
        assert s.resets == 2 and not s.safe_mode
    finally:
        s.close()


def test_the_backup_ram_s_record_is_checked():
    mem = bytearray(16)
    carry._put(mem, carry._IN_START, 9800, 3600)
    assert carry._valid(mem)
    for i in range(8):
        bad = bytearray(mem)
        bad[i] ^= 0x10
        assert not carry._valid(bad), i
