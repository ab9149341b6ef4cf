# SPDX-License-Identifier: MIT
"""Saves: which record a start loads, when a change is written, and when nvm takes it too.

Load reads every place and keeps the valid record with the newest sequence number. A
change is on flash at most CHECKPOINT_MS after it was seen, at once when forced (a game
left or ended, a setting changed) as long as the save file's write budget allows, and
elapsed time alone writes at most once a minute once the player has stopped. Records go
round the save file's places (savelog.py). nvm takes the record within its own budget,
paid for by play: a new setting, calibration or statistic at once, the games every half
hour of play, a changed USB-update flag at once (a storm of taps every 10 s); and every
record when there is no usable save file. docs/saves.md has the design, the write policy
and the wear arithmetic.
"""

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.saves.record import (
    CREDIT_MAX, CREDIT_MIN, HARD, IMPORTANT, REC, TOLD_LIMITED, WINS,
    credit_of, in_file, seq_of, usb_flag,
)
from freecell_mc.saves.savelog import NO_FILE, NVM_COPY, READ_ONLY, Ring

CHECKPOINT_MS = const(1500)  # a change is on flash at most this long after it was seen
_CHECK_MS = const(250)  # how often commit() looks for changes when not forced
THINK_MS = const(300000)  # a pause this long after a move is still play (elapsed time)
IDLE_WRITE_MS = const(60000)  # past it, the clock alone writes at most this often
# nvm's budget: every write costs NVM_COST_S seconds of play, earned while the player plays
# (within THINK_MS of a change) and kept in the record, up to CREDIT_MAX (4 writes). So nvm
# takes at most 3600 / 1800 = 2 writes an hour of play, and a burst of 4 at once.
NVM_COST_S = const(1800)
_COST_MS = const(1800000)
_FRESH_MS = const(3600000)  # 2 * _COST_MS
_FLAG_GAP_MS = const(10000)  # a storm of USB-flag taps reaches nvm this often
# The last write's worth of nvm's debt is kept for the statistics of a win (record.WINS)
# where nvm is the only place: the USB flag and a start's notice stop a write short of it.
_KEPT_MS = const(-1800000)  # CREDIT_MIN * 1000 + _COST_MS (a test checks)
_BEHIND_ANY = const(1)  # nvm lacks something of the newest record
_BEHIND_IMPORTANT = const(2)  # nvm lacks a setting, the calibration or a statistic
_BEHIND_WINS = const(4)  # nvm lacks a win or a day won (record.WINS)

MSG_UNREADABLE = "Saved games and statistics could not be read. Starting fresh."
MSG_NEWER = "Saves were written by a newer FreeCell MC. Starting fresh."
MSG_OLDER = "The newest save could not be used. Continuing from an earlier save."


class Saves(Ring):
    """Settings, statistics and two game slots, kept in RAM and committed to flash."""

    def __init__(self, blocks):
        """Use blocks: [nvm or None, save file 0, save file 1, ...] (nvm-like objects)."""
        Ring.__init__(self, blocks)
        self.message = None
        self.writes = 0  # records written by this Saves (files and nvm)
        self.nvm_writes = 0
        self._nvm_usb = None  # usb flag held by nvm's record (None: nvm has none)
        self._nvm_behind = _BEHIND_ANY | _BEHIND_IMPORTANT | _BEHIND_WINS
        # nvm's budget, in milliseconds of play: a fresh start may write its first save
        # and keeps a write's worth for the first win or setting; a start from a record
        # takes what that record kept.
        self._credit_ms = _FRESH_MS
        self._credit_at = None  # ticks the credit was last brought up to date
        self._flag_ms = None  # ticks of the last nvm write the USB flag made due
        self._check_ms = None
        self._dirty_ms = None  # ticks when an unsaved change was first seen
        self._play_ms = None  # ticks of the last hard change (a pause past THINK_MS is idle)
        self._write_ms = None  # ticks of the last write
        self._fresh()

    def load(self):
        """Read every place, keep the newest valid record; return None or one message.

        loading.find reads the places and chooses the newest record the game could have
        written (carrying over the earlier layout's save file when this one holds none);
        here it is taken and what the player is told is decided. A record refused for an
        impossible value counts as damaged, but unlike the damage a power cut leaves, it
        is told: when it claims to be newer than the
        record used, the player is told once (MSG_OLDER, or MSG_UNREADABLE when nothing
        else is left), and the records written from then on are numbered above it so the
        next start is quiet. A start from nvm's backup because the save file is gone or
        unreadable is told, and so is (once, until it is mended) a drive whose save file
        cannot take records. When the save file holds no record, the earlier layout's
        fcsave/saves.bin is read too (never written); its newest record, when newer than
        nvm's, is carried over: loaded and written at once to the save file or nvm.
        """
        from freecell_mc.saves import loading

        best, best_key, newest_file, nvm_data, refused_key, refused_seq, damage, carried = (
            loading.find(self.nvm, self._blocks, self._files))
        self._fresh()
        self.message = None
        self._resume(newest_file - loading.NVM_PLACES)
        self._nvm_usb = usb_flag(nvm_data) if nvm_data is not None else None
        if best is None:
            self._seq = 0
            if damage == loading.DAMAGE_NEWER:
                self.message = MSG_NEWER
            elif damage or refused_key >= 0:
                self.message = MSG_UNREADABLE
        else:
            self._unpack(best)
            self._seq = seq_of(best)
            self._credit_ms = credit_of(best) * 1000
            if refused_key > best_key:
                # Numbered above the refused one, the next records win over it at every
                # start, even where it cannot be overwritten (a drive left to the computer).
                self._seq = refused_seq
                self.message = MSG_OLDER
            elif best is nvm_data and newest_file < 0 and in_file(best):
                # The save file held this record or a newer one, and holds none now.
                from freecell_mc.saves import notices

                self.message = notices.from_backup(self.files_error == NO_FILE, self.last_date)
        if nvm_data is None:
            self._nvm_behind = _BEHIND_ANY | _BEHIND_IMPORTANT | (
                _BEHIND_WINS if best is not None else 0)
        else:
            self._nvm_behind = 0 if best is nvm_data else self._behind(nvm_data)
        self._tell_limited()
        if self.message is not None or carried:
            # Report it once: put a clean record on flash so the next start is quiet; nvm
            # takes it too where its budget allows (the drive may take nothing). A record
            # carried over from the earlier layout is written the same way.
            self._nvm_behind |= _BEHIND_IMPORTANT
            self._dirty_ms = 0
            self._write(None, True)
        return self.message

    def _tell_limited(self):
        """Say once (until mended) that saves go to nvm alone for want of a save file."""
        err = self.files_error
        # err 0: no save file was ever part of these blocks (a test's nvm alone): nothing to mend.
        limited = not self.files_ok and err and err != READ_ONLY and self.nvm is not None
        if limited and not self.told(TOLD_LIMITED):
            # Imported only when there is something to tell: its texts take no heap on a
            # board whose saves are well.
            from freecell_mc.saves import notices

            text = notices.limited(err, self._blocks)
            self.message = text if self.message is None else self.message + notices.PAGE + text
            self.set_told(TOLD_LIMITED, True)
        elif not limited and self.files_ok and self.told(TOLD_LIMITED):
            self.set_told(TOLD_LIMITED, False)  # mended: a later loss is told again

    def limit_reason(self):
        """Return None while saves are power-safe on CIRCUITPY, else a few words why not."""
        if self.files_ok:
            return None
        from freecell_mc.saves import notices

        return notices.reason(self.files_error, self.settings.usb_writable)

    def pending(self):
        """Return True if something not yet on flash would be lost by a power cut now."""
        self._pack()
        return self._changed(False)

    def commit(self, now_ms, force=False):
        """Write a record when one is due (or forced and anything changed); True if written.

        Call it every poll: it looks for changes every 250 ms and writes once a change is
        CHECKPOINT_MS old. Force it when the player leaves a game, a game ends, or a
        setting changes: it writes at once if the save file's budget allows, else within
        the checkpoint. Elapsed time counts like a move for THINK_MS after the last hard
        change (thinking is play); past that the clock alone writes once a minute, so a
        board left on does not wear the flash. The date only rides along.
        """
        if not force and self._check_ms is not None:
            if dates.ticks_diff(now_ms, self._check_ms) < _CHECK_MS:
                return False
        self._check_ms = now_ms
        if self._play_ms is None:
            self._play_ms = now_ms  # a start counts as play: the player looks at the table
        self._pack()
        due = force
        if self._changed(True):
            self._play_ms = now_ms
            if self._dirty_ms is None:
                self._dirty_ms = now_ms
        elif self._dirty_ms is None:
            if force:
                if self._changed(False):
                    self._dirty_ms = now_ms
            elif self._timed():
                if dates.ticks_diff(now_ms, self._play_ms) < THINK_MS:
                    self._dirty_ms = now_ms
                elif (self._write_ms is None
                      or dates.ticks_diff(now_ms, self._write_ms) >= IDLE_WRITE_MS):
                    self._dirty_ms = now_ms
                    due = True
        self._earn(now_ms)
        if self._dirty_ms is None:
            if self._nvm_due(now_ms, self._nvm_behind, self.files_ok) == 0:
                return False
            self._dirty_ms = now_ms  # nvm may take what it lacks now: a write carries it
            due = True
        if not due and dates.ticks_diff(now_ms, self._dirty_ms) < CHECKPOINT_MS:
            return False
        if not self.take_token(now_ms):
            return False  # forced too often: the change goes at the next token (<= 1.75 s)
        return self._write(now_ms)

    def _earn(self, now_ms):
        """Add the play since the last look to nvm's credit (a pause past THINK_MS earns none)."""
        at = self._credit_at
        self._credit_at = now_ms
        if at is None or dates.ticks_diff(now_ms, self._play_ms) >= THINK_MS:
            return
        dt = dates.ticks_diff(now_ms, at)
        if dt > 1000:
            dt = 1000  # a poll held up (a long erase, a screen built) earns no windfall
        c = self._credit_ms + (dt if dt > 0 else 0)
        self._credit_ms = c if c < CREDIT_MAX * 1000 else CREDIT_MAX * 1000

    def _nvm_due(self, now_ms, lacks, files, told=False):
        """Return the cost (ms of credit) if nvm takes the record now, else 0.

        A changed USB flag goes at once (boot.py reads it from nvm), a storm of them every
        _FLAG_GAP_MS, and may run the credit into debt down to _KEPT_MS, as may a start's
        notice (told: so that it is told once, where nvm is the only place); where nvm is
        the only place, a win's statistics go at once, down to CREDIT_MIN (the debt's last
        write is theirs); a new setting, calibration or statistic (or anything, where nvm
        is the only place) when a write's worth is earned; the games alone when two are,
        so one is left for a win.
        """
        if self.nvm is None:
            return 0
        c = self._credit_ms
        if told and lacks and c - _COST_MS >= _KEPT_MS:
            return _COST_MS
        usb = usb_flag(self._rec)
        if usb != self._nvm_usb and (self._nvm_usb is not None or usb):
            fm = self._flag_ms
            if now_ms is None or fm is None or dates.ticks_diff(now_ms, fm) >= _FLAG_GAP_MS:
                if c - _COST_MS >= _KEPT_MS:
                    return _COST_MS
        if not lacks:
            return 0
        if not files and lacks & _BEHIND_WINS:
            # nvm is the only place (no usable save file, USB mode): a win, a day won and
            # the statistics go at once, into the debt if need be, down to the last write
            # of it, which nothing else may spend (docs/saves.md).
            return _COST_MS if c - _COST_MS >= CREDIT_MIN * 1000 else 0
        if not files or lacks & _BEHIND_IMPORTANT:
            return _COST_MS if c >= _COST_MS else 0
        return _COST_MS if c >= 2 * _COST_MS else 0

    def _behind(self, data):
        """Return what a record on flash (data) lacks of the RAM record: _BEHIND_* flags."""
        out = _BEHIND_ANY if self._differs(data, HARD) else 0
        if self._differs(data, IMPORTANT):
            out |= _BEHIND_IMPORTANT
        if self._differs(data, WINS):
            out |= _BEHIND_WINS
        return out

    def _write_nvm(self, alone):
        """Write the sealed record to nvm; alone: no other place holds it.

        Alone, it goes to both of nvm's places in one write, one erase of its 8 KB block:
        the write erases the block and programs it from its first 512-byte page on, so a
        cut in the programming leaves the new record whole in the first page (written
        first), and a cut in the erase, as the flash model has it (host_sim/flash.py: the
        first half erased, the second as it was), the record before it in the second half.
        The 4,352 bytes that write takes are borrowed for it; short of heap, the one place.
        Where the save file holds the record, nvm is its backup: one place will do.
        """
        rec = self._rec
        nvm = self.nvm
        if alone and len(nvm) >= NVM_COPY + REC:
            try:
                buf = bytearray(NVM_COPY + REC)
            except MemoryError:
                buf = None
            if buf is not None:
                buf[0:REC] = rec
                buf[NVM_COPY:] = rec
                nvm[0 : NVM_COPY + REC] = buf
                return
        nvm[0:REC] = rec

    def _write(self, now_ms, told=False):
        """Write the RAM record to the places the policy picks; True if it reached flash.

        told: a start's notice is in the record (see _nvm_due).
        """
        lacks = self._nvm_behind | self._behind(self._last)
        prev = self._seq
        files = self.files_ok
        cost = self._nvm_due(now_ms, lacks, files, told)
        self._seal(files, (self._credit_ms - cost) // 1000)
        wrote = False
        if files:
            wrote = self._write_files()
            if not wrote:
                # The drive failed just now: nvm is the only place, and says so.
                cost = self._nvm_due(now_ms, lacks, False, told)
                self._seal(False, (self._credit_ms - cost) // 1000)
        if cost:
            flag = usb_flag(self._rec)
            try:
                self._write_nvm(not wrote)
                if flag != self._nvm_usb:
                    self._flag_ms = now_ms
                self._nvm_usb = flag
                self._credit_ms -= cost
                lacks = 0
                self.nvm_writes += 1
                wrote = True
            except (OSError, RuntimeError):
                pass  # microcontroller.nvm raises RuntimeError when a write fails
        if not wrote:
            self._seq = prev  # nothing reached flash: the number was never used
            return False
        self._nvm_behind = lacks
        self.writes += 1
        self._last[:] = self._rec
        self._dirty_ms = None
        self._write_ms = now_ms
        return True

