# SPDX-License-Identifier: MIT
"""The saves' budgets hold whatever the player taps, and no number runs out.

The save file takes one record per FILE_GAP_MS on average however often a save is forced,
and every change is still on flash within 2 s; nvm takes a write per half hour of play (4
kept for bursts), a changed USB flag at once (a storm every 10 s, into a bounded debt);
sequence numbers wrap below 2**30, so the next record is always one the load takes.
"""

import struct

from host_sim import hardware
from freecell_mc.saves import loading, policy, record, savelog

from test_faults import FREE

_POLL = 50
_COST_MS = policy.NVM_COST_S * 1000


def _saves(ring=40, writable=True):
    """Return Saves over the board's FAT model with a small save file, loaded."""
    s = policy.Saves(hardware.fat_blocks(places=ring, writable=writable))
    assert s.load() is None
    return s


def _storm(s, minutes, every_ms, change):
    """Force a save every `every_ms` with a change each time, polling between; return
    (writes, the longest a change waited until it was on flash, in ms)."""
    now = 0
    first = s.writes
    waiting = None  # when the oldest change not on flash was made
    worst = 0
    while now < minutes * 60000:
        change(now)
        if waiting is None:
            waiting = now
        wrote = s.commit(now, force=True)
        for t in range(now + _POLL, now + every_ms + 1, _POLL):
            if wrote:
                worst = max(worst, (t - _POLL) - waiting)
                waiting = None
                wrote = False
            wrote = s.commit(t)
        now += every_ms
        if wrote:
            worst = max(worst, now - waiting)
            waiting = None
    return s.writes - first, worst


def test_a_settings_switch_tapped_5_times_a_second_writes_at_the_checkpoints_pace():
    s = _saves()
    st = s.settings

    def tap(now):
        st.four_colour = not st.four_colour

    writes, worst = _storm(s, 10, 200, tap)
    # 3,000 forced saves in 10 minutes; the file takes one per 1.75 s, 4 at once at most.
    assert writes <= savelog.FILE_BURST + 600000 // savelog.FILE_GAP_MS
    assert writes >= 600000 // savelog.FILE_GAP_MS - 2  # and no fewer: the pace is kept
    assert worst <= 2000  # every change on flash within 2 s


def test_menu_after_every_move_keeps_the_pace_and_the_promise():
    s = _saves()
    moves = [0]

    def move(now):
        moves[0] += 1
        s.put_slot(0, 1, 7, 4, FREE[moves[0] % 15], now // 1000)

    writes, worst = _storm(s, 10, 1000, move)
    assert writes <= savelog.FILE_BURST + 600000 // savelog.FILE_GAP_MS
    assert worst <= 2000


def test_the_usb_switch_tapped_5_times_a_second_costs_nvm_a_bounded_few_writes():
    s = _saves()
    st = s.settings
    nvm = s.nvm

    def tap(now):
        st.usb_writable = not st.usb_writable

    _storm(s, 60, 200, tap)
    # An hour of it: what the credit held, its debt, and what an hour of play earns.
    most = (policy._FRESH_MS - record.CREDIT_MIN * 1000 + 3600000) // _COST_MS + 1
    assert 2 <= nvm.erase_count <= most, nvm.erase_count
    # The storm spent the debt: the flag it ended on reaches nvm once play has paid for
    # it (boot.py then reads it there), within half an hour of play.
    from freecell_mc.hardware import boot

    now = 60 * 60000
    while now < 92 * 60000 and boot.read_usb_flag(s._blocks) != st.usb_writable:
        now += 2000
        s.put_slot(0, 1, 7, 4, FREE[(now // 2000) % 15], now // 1000)  # playing on
        s.commit(now)
    assert boot.read_usb_flag(s._blocks) == st.usb_writable, now


def test_nvm_takes_the_first_win_at_once_then_a_write_per_half_hour_of_play():
    s = _saves()
    nvm = s.nvm
    now = 0
    s.put_slot(0, 1, 7, 4, FREE[1], 0)
    assert s.commit(now, force=True) and nvm.erase_count == 1  # the first save
    wins = 0
    for minute in range(1, 121):  # two hours, a move every 2 s, a win every 3 minutes
        for sec in range(0, 60, 2):
            now = minute * 60000 + sec * 1000
            s.put_slot(0, 1, 7, 4, FREE[(now // 2000) % 15], now // 1000)
            s.commit(now)
        if minute % 3 == 0:
            s.stats.record_start()
            s.stats.record_win(170, 90)
            wins += 1
            s.commit(now + 1000, force=True)
            if wins == 1:
                assert nvm.erase_count == 2  # the first win: at once
    # The credit earned by two hours of play: 4 writes, and the one a fresh start keeps.
    assert nvm.erase_count <= 2 + 2 * 3600 // policy.NVM_COST_S
    assert savelog.read_place(nvm) is not None
    r = policy.Saves(s._blocks)
    assert r.load() is None and r.stats.won == wins


def test_a_record_at_the_last_sequence_number_goes_on_at_1_and_loads():
    s = _saves(ring=40)
    s._seq = record.SEQ_LIMIT - 3  # as if a foreign writer had numbered the saves so far
    for i in (1, 2):
        s.put_slot(0, 1, 7, 4, FREE[i], i)
        assert s.commit(2000 * i, force=True)  # the second is numbered 0x3FFFFFFF
    r = policy.Saves(s._blocks)
    assert r.load() is None and r._seq == 0x3FFFFFFF and r.slot(0).elapsed == 2
    r.put_slot(0, 1, 7, 4, FREE[3], 3)
    assert r.commit(4000, force=True)
    assert r._seq == 1  # wrapped: a small int, one the load takes
    t = policy.Saves(s._blocks)
    assert t.load() is None and t.slot(0).elapsed == 3  # the newest wins over 0x3FFFFFFF
    for i in range(4, 50):  # and the ring goes round on the new numbers
        t.put_slot(0, 1, 7, 4, FREE[i % 15], i)
        assert t.commit(2000 * i, force=True)
    u = policy.Saves(s._blocks)
    assert u.load() is None and u.slot(0).elapsed == 49


def test_which_number_is_newest_round_the_circle():
    # The first loading.NVM_PLACES entries are nvm's (empty here), the rest the file's.
    nvm = [-1] * loading.NVM_PLACES
    assert record.next_seq(record.SEQ_LIMIT - 1) == 1 and record.next_seq(0) == 1
    assert loading.newest_of(nvm + [record.SEQ_LIMIT - 1, 1]) == 1  # wrapped: 1 is the newer
    assert loading.newest_of(nvm + [4, 5]) == 5 and loading.newest_of(nvm + [5, 4]) == 5
    assert loading.newest_of(nvm + [record.SEQ_LIMIT - 3, 2, -1, record.SEQ_LIMIT - 1]) == 2
    assert loading.newest_of(nvm + [7, 9, 8]) == 9 and loading.newest_of(nvm + [-1]) == -1
    seqs = nvm + [7, 9, 8, 9 + (1 << 29)]  # half the circle away: not the board's
    assert loading.newest_of(seqs) == 9
    assert seqs[5] == -1 and seqs[3] > seqs[4] > seqs[2] >= 0  # age keys, in place
    # nvm's record, wherever it lies, decides the board's run against any number of others.
    seqs = [100, -1] + [100 + (20 << 24) + k for k in range(40)]
    assert loading.newest_of(seqs) == 100 and seqs[2:] == [-1] * 40


def test_the_record_keeps_the_clock_to_the_millisecond():
    s = _saves()
    s.put_slot(0, 1, 7, 4, FREE[1], 8, 0, 570)
    s.set_elapsed(0, 8, 570)
    assert s.commit(0, force=True)
    rec = s._blocks[1 + s._next - 1][0 : record.REC]
    assert struct.unpack_from("<HI", rec, 72 + 10) == (570, 8)
    r = policy.Saves(s._blocks)
    r.load()
    assert (r.slot(0).elapsed, r.slot(0).millis) == (8, 570)


def test_the_debts_last_write_is_kept_for_a_win():
    assert policy._KEPT_MS == record.CREDIT_MIN * 1000 + _COST_MS


def _nvm_only():
    """Return Saves with no save file on the drive (a hand copy): nvm alone, told once."""
    from host_sim import circuitpy, fat, flash

    vol = fat.Volume.mkfs(flash.Flash())
    circuitpy.install(vol, 40, saves=False)
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    s = policy.Saves(savelog.SaveLog(nvm, savelog.LOG_PATH, 40, vol))
    assert s.load() is not None  # the start's notice: nvm only, a cut costs up to 30 min
    return s


def test_with_nvm_alone_a_win_and_a_day_won_never_wait_for_the_budget():
    # The first start of a hand-copied game: its notice and a new deal take nvm's two
    # writes; then a win, and a daily won, a minute apart, both reach nvm at once (the
    # debt: its last write is theirs alone). Only a third within the half hour waits for
    # play to pay for it: nvm's wear budget (2 writes an hour) has its bound.
    s = _nvm_only()
    nvm = s.nvm
    assert nvm.erase_count == 1  # the notice, written so it is told once
    s.stats.record_start()
    s.put_slot(0, 1, 7, 4, FREE[1], 0)
    assert s.commit(1000, force=True) and nvm.erase_count == 2  # the new deal
    now = 1000

    def minute_of_moves(now):
        for _ in range(60):  # far from paying a write
            now += 1000
            s.put_slot(0, 1, 7, 4, FREE[(now // 1000) % 15], now // 1000)
            s.commit(now)
        return now

    for win in range(2):
        now = minute_of_moves(now)
        s.stats.record_start()
        s.stats.record_win(60, 90)
        if win == 1:
            s.stats.mark_day_won(2026, 11, 30)
        now += 500
        assert s.commit(now, force=True), win
        r = policy.Saves(s._blocks)
        r.load()
        assert r.stats.won == win + 1, win  # on nvm at once
        assert r.stats.day_won(2026, 11, 30) == (win == 1)
    assert nvm.erase_count == 4
    now = minute_of_moves(now)
    s.stats.record_start()
    s.stats.record_win(60, 90)
    first = now
    while nvm.erase_count == 4:
        now = minute_of_moves(now)
    assert now - first <= _COST_MS + 60000  # within half an hour of play
    r = policy.Saves(s._blocks)
    r.load()
    assert r.stats.won == 3


def test_with_nvm_alone_a_storm_of_the_usb_switch_leaves_a_write_for_the_win():
    s = _nvm_only()
    st = s.settings

    def tap(now):
        st.usb_writable = not st.usb_writable

    _storm(s, 2, 200, tap)  # two minutes of taps: the flag runs the credit into the debt
    assert s._credit_ms >= policy._KEPT_MS
    s.stats.record_start()
    s.stats.record_win(60, 90)
    before = s.nvm.erase_count
    assert s.commit(121000, force=True) and s.nvm.erase_count == before + 1
    r = policy.Saves(s._blocks)
    r.load()
    assert r.stats.won == 1
