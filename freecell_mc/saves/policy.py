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
    BAD, CREDIT_MAX, CREDIT_MIN, HARD, IMPORTANT, NEWER, OK, REC, SEQ_LIMIT, TOLD_LIMITED, WINS,
    check, credit_of, in_file, refusal, seq_of, usb_flag,
)
from freecell_mc.saves.savelog import (
    NO_FILE, NVM_COPY, READ_ONLY, Ring, SaveLog, read_place, read_place_into,
)

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


# newest_of cuts the circle of sequence numbers into 64 arcs of 2**_ARC numbers.
_ARC = const(24)
# Where records are read from: nvm's two places (savelog.NVM_COPY), then the save file's.
NVM_PLACES = const(2)
# An nvm record's vote in newest_of: more than every place of the save file together. Only
# the game writes nvm (it is the chip's own flash, out of the computer's reach), so the run
# of numbers holding nvm's records is the board's own, however many records a save file
# holds elsewhere.
_NVM_VOTE = const(8192)
# What a scan of the places found besides intact records (Saves._scan).
_UNREADABLE = const(1)  # a place holds what the game never wrote
_NEWER = const(2)  # a record of a newer layout
_TORN = const(4)  # one place holds the start of a record and not the rest: a cut mid-write
_TORN_MORE = const(8)  # more than one place does


def newest_of(seqs):
    """Return the newest of a list of sequence numbers (-1 entries are none), or -1.

    The first NVM_PLACES entries are nvm's, the rest the save file's. Each entry becomes
    its age key in place: larger is newer, -1 for none and for a number far from the
    board's own. Those lie in one stretch of the circle a few million long, so the
    circle's 64 arcs of 2**24 numbers are counted, an arc and the one after each occupied
    one (a save may cross into it) join into a run, and the run holding the most votes is
    the board's (then the run starting lowest): a record of the save file's is one vote,
    one of nvm's outvotes them all, so where nvm holds a record its run is the board's and
    records planted in the file elsewhere, however many, are never newer. Within the run
    the order runs from its start, never half-way round. A number planted outside that run
    is never newer than the saves that follow (by distance round the circle, one exactly
    half away was neither and pinned the older record; one just short of half became
    "newer" after a save or two); one planted inside it is ordered like the game's own.
    """
    count = [0] * 64
    for at in range(len(seqs)):
        s = seqs[at]
        if s > 0:
            count[s >> _ARC] += _NVM_VOTE if at < NVM_PLACES else 1
    lo = -1  # an arc neither occupied nor after one: the runs are found from it
    for i in range(64):
        if not (count[i] or count[i - 1]):
            lo = i
            break
    best = -1
    start = 0
    n = 64  # arcs in the board's run (all of them when no arc is free)
    if lo >= 0:
        w = -1
        for i in range(lo + 1, lo + 65):
            at = i & 63
            if count[at] or count[at - 1]:
                if w < 0:
                    w = 0
                    top = at
                w += count[at]
            elif w >= 0:
                key = w * 64 + 63 - top  # the most votes, then the lowest start
                if key > best:
                    best, start, n = key, top, (i - top) & 63
                w = -1
    top = -1
    best = -1
    for at in range(len(seqs)):
        s = seqs[at]
        if s > 0:
            key = (s - (start << _ARC)) % SEQ_LIMIT
            if key >> _ARC >= n:
                key = -1
            elif key > best:
                best, top = key, s
            seqs[at] = key
    return top


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

        In four steps: scan the places (_scan: nvm's two, then the save file's), choose
        the newest record the game could have written (_choose), carry over the earlier
        layout's save file when this one holds none, and decide what the player is told
        (_told). A record refused for an impossible value counts as damaged, but unlike
        the damage a power cut leaves, it is told: when it claims to be newer than the
        record used, the player is told once (MSG_OLDER, or MSG_UNREADABLE when nothing
        else is left), and the records written from then on are numbered above it so the
        next start is quiet. A start from nvm's backup because the save file is gone or
        unreadable is told, and so is (once, until it is mended) a drive whose save file
        cannot take records. When the save file holds no record, the earlier layout's
        fcsave/saves.bin is read too (never written); its newest record, when newer than
        nvm's, is carried over: loaded and written at once to the save file or nvm.
        """
        blocks = self._blocks
        n = self._files  # at most the ring's places: SaveLog bounds it by the ring, not the size
        # The board's save file reads every place into one buffer: 2,048 places a start,
        # which as new bytes objects were half a megabyte of garbage (several collections).
        into = getattr(blocks, "read_into", None)
        buf = bytearray(REC) if into is not None else None
        # Per place: the sequence number of an intact record, -1 for none (made at its full
        # length at once: grown by appends, 2,049 numbers left twice their size in garbage).
        seqs = [-1] * (NVM_PLACES + n)
        found = self._scan(blocks, into, buf, seqs)
        best, best_key, newest_file, nvm_data, refused_key, refused_seq = self._choose(
            blocks, seqs)
        carried = False
        if newest_file < 0 and into is not None:
            # The save file holds no record: missing, or new, the game copied by hand over
            # the earlier layout, whose board made fcsave/saves.bin itself and may have
            # left newer play there than in nvm. That file is read, never written: its
            # records compete with nvm's, and the newest goes into this save file (or nvm)
            # at once (docs/saves.md). What a start tells stays what this file and nvm
            # showed.
            old = SaveLog(None, "fcsave/saves.bin", blocks.want, blocks.fs)
            m = len(old) - 1
            if m > 0:
                seqs = [-1] * (NVM_PLACES + m)
                self._scan(old, old.read_into, buf, seqs)
                best, best_key, newest_file, nvm_data, refused_key, refused_seq = (
                    self._choose(old, seqs))
                carried = best is not None and best is not nvm_data
                newest_file = -1  # the writer starts this file afresh
            old.close()
        if nvm_data is None and best is not None:
            # Older than the file's newest: its USB flag still counts.
            nvm_data = self._nvm_record()
        self._fresh()
        self.message = None
        self._resume(newest_file - NVM_PLACES)
        self._nvm_usb = usb_flag(nvm_data) if nvm_data is not None else None
        if best is None:
            self._seq = 0
            # One torn record and nothing else is the very first save, cut: nothing lost
            # but the moment it held, so nothing to tell.
            if found & _NEWER:
                self.message = MSG_NEWER
            elif found & (_UNREADABLE | _TORN_MORE) or refused_key >= 0:
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

    def _place(self, blocks, at):
        """Return the REC bytes of place at: nvm's two, then blocks' save places."""
        if at < NVM_PLACES:
            return read_place(self.nvm, at * NVM_COPY)
        return read_place(blocks[at - NVM_PLACES + 1])

    def _scan(self, blocks, into, buf, seqs):
        """Read every place: put each intact record's sequence number into seqs (then
        turned into age keys by newest_of); return what else was found (_UNREADABLE,
        _NEWER, _TORN, _TORN_MORE)."""
        found = 0
        for at in range(len(seqs)):
            if at >= NVM_PLACES and into is not None:
                data = read_place_into(into, at - NVM_PLACES, buf)
            else:
                data = self._place(blocks, at)
            st = check(data)
            if st == OK:
                seq = seq_of(data)
                if 0 < seq < SEQ_LIMIT:
                    seqs[at] = seq
                else:
                    found |= _UNREADABLE  # no number the game writes: damage, not an age
            elif st == BAD:
                if data[0:4] != b"FCMC":
                    found |= _UNREADABLE
                elif found & _TORN:
                    found |= _TORN_MORE
                else:
                    found |= _TORN
            elif st == NEWER:
                found |= _NEWER
        newest_of(seqs)  # sequence numbers wrap: each becomes its age key, far ones -1
        return found

    def _choose(self, blocks, seqs):
        """Return (best, its key, its save-file place or -1, nvm's record, the key and number
        of the newest refused record) from the age keys of a scan.

        Only the intact records that could win are checked field by field: nvm's, and the
        save file's from the newest down to the first the game could have written. Older
        refused ones lose anyway.
        """
        best = None
        best_key = -1
        newest_file = -1  # place index of the newest valid save-file record
        nvm_data = None  # nvm's newest record, when it is one the game could have written
        refused_key = -1  # the nearest to newest among refused records that were checked
        refused_seq = 0
        game = None  # a scratch engine to check the slots' positions with
        top = max(seqs)
        while top >= 0:
            at = seqs.index(top)
            seqs[at] = -1
            data = self._place(blocks, at)
            if data is not None and check(data) == OK:
                if game is None:
                    from freecell_mc.rules.engine import Game

                    game = Game()
                if refusal(data, game) is not None:
                    if top > refused_key:
                        refused_key, refused_seq = top, seq_of(data)
                else:
                    if top > best_key:
                        best, best_key = data, top
                    if at < NVM_PLACES:
                        if nvm_data is None:
                            nvm_data = data
                    else:
                        newest_file = at
                        break
            top = max(seqs)
        return best, best_key, newest_file, nvm_data, refused_key, refused_seq

    def _nvm_record(self):
        """Return nvm's newest record the game could have written, or None."""
        seqs = [-1] * NVM_PLACES
        for at in range(NVM_PLACES):
            data = self._place(None, at)
            if check(data) == OK and refusal(data) is None:
                seqs[at] = seq_of(data)
        if newest_of(seqs) < 0:
            return None
        return self._place(None, seqs.index(max(seqs)))

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

