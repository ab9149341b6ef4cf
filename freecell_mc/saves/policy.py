# SPDX-License-Identifier: MIT
"""Saves: which record a start loads, when a change is written, and when nvm takes it too.

Load reads every place and keeps the valid record with the highest sequence number. A
change is on flash at most CHECKPOINT_MS after it was seen, at once when forced (a game
left or ended, a setting changed), and elapsed time alone writes at most once a minute
once the player has stopped. Records go round the save file's places (savelog.py); nvm
takes one as the fallback when CIRCUITPY is not writable, as a backup every 1800 file
writes (about an hour of play), and when the USB-update flag changes. docs/saves.md has
the design, the write policy and the wear arithmetic.
"""

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.saves.record import (
    BAD, NEWER, OK, REC, SEQ_LIMIT, check, read_place, read_place_into, refusal, seq_of,
    usb_flag,
)
from freecell_mc.saves.savelog import Ring

CHECKPOINT_MS = const(1500)  # a change is on flash at most this long after it was seen
_CHECK_MS = const(250)  # how often commit() looks for changes when not forced
THINK_MS = const(300000)  # a pause this long after a move is still play (elapsed time)
IDLE_WRITE_MS = const(60000)  # past it, the clock alone writes at most this often
NVM_MIN_MS = const(1800000)  # nvm as fallback: at most one write per 30 minutes (wear)
NVM_BACKUP_WRITES = const(1800)  # nvm as backup: once per this many file writes (~1 h)

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
        self._since_nvm = 0  # file writes since nvm was last written
        self._nvm_ms = None  # ticks of the last nvm write by this Saves
        self._nvm_usb = None  # usb flag held by nvm's record (None: nvm has none)
        self._check_ms = None
        self._dirty_ms = None  # ticks when an unsaved change was first seen
        self._play_ms = None  # ticks of the last hard change (a pause past THINK_MS is idle)
        self._write_ms = None  # ticks of the last write
        self._fresh()

    def load(self):
        """Read every place, keep the newest valid record; return None or one message.

        A record refused for an impossible value counts as damaged, but unlike the damage a
        power cut leaves, it is told: when it claims to be newer than the record used, the
        player is told once (MSG_OLDER, or MSG_UNREADABLE when nothing else is left), and
        the places holding it are overwritten so the next start is quiet.
        """
        unreadable = False
        newer = False
        blocks = self._blocks
        # Per place: the sequence number of an intact record, -1 for none (made at its full
        # length at once: grown by appends, 2,049 numbers left twice their size in garbage).
        seqs = [-1] * (1 + self._files)
        # The board's save file reads every place into one buffer: 2,048 places a start,
        # which as new bytes objects were half a megabyte of garbage (several collections).
        into = getattr(blocks, "read_into", None)
        buf = bytearray(REC) if into is not None else None
        for at in range(1 + self._files):
            if at and into is not None:
                data = read_place_into(into, at - 1, buf)
            else:
                data = read_place(self.nvm if at == 0 else blocks[at])
            st = check(data)
            seq = seq_of(data) if st == OK else -1
            # A number the game never writes says nothing of age: such a record is taken
            # as possibly the newest, so it is always looked at, refused and told.
            seqs[at] = SEQ_LIMIT if seq == 0 or seq >= SEQ_LIMIT else seq
            if st == BAD:
                unreadable = True
            elif st == NEWER:
                newer = True
        # Only the intact records that could win are checked field by field (a few ms each
        # on the board, where the ring holds 192): nvm, and the files from the newest down
        # to the first one the game could have written. Older refused ones lose anyway.
        best = None
        best_seq = -1
        newest_file = -1  # place index of the newest valid save file
        nvm_seq = -1
        refused = []  # places holding a refused record that was checked
        refused_seq = -1  # the highest sequence number among them (SEQ_LIMIT: none usable)
        game = None  # a scratch engine to check the slots' positions with
        at = 0
        while at >= 0:
            seq = seqs[at]
            seqs[at] = -1
            data = read_place(self.nvm if at == 0 else blocks[at]) if seq >= 0 else None
            if data is not None and check(data) == OK:
                if game is None:
                    from freecell_mc.rules.engine import Game

                    game = Game()
                if refusal(data, game) is not None:
                    refused.append(at)
                    if seq > refused_seq:
                        refused_seq = seq
                else:
                    if seq > best_seq:
                        best, best_seq = data, seq
                    if at == 0:
                        self._nvm_usb = usb_flag(data)
                        nvm_seq = seq
                    else:
                        newest_file = at
                        break
            top = max(seqs)
            at = seqs.index(top) if top >= 0 else -1
        self._fresh()
        self.message = None
        self._next = self._resume(newest_file - 1)
        if best is None:
            if newer:
                self.message = MSG_NEWER
            elif unreadable or refused:
                self.message = MSG_UNREADABLE
            self._seq = 0
        else:
            self._unpack(best)
            self._seq = best_seq
            # The backup schedule survives restarts: count the file writes nvm is behind.
            self._since_nvm = best_seq - nvm_seq if nvm_seq >= 0 else NVM_BACKUP_WRITES
            if refused_seq > best_seq:
                self.message = MSG_OLDER
        if self.message is not None:
            # Report it once: put a clean record on flash so the next start is quiet.
            if self._seq < refused_seq < SEQ_LIMIT:
                # Numbered above the refused ones, so they stay behind even where they
                # cannot be overwritten (a drive left to the computer for USB updates).
                self._seq = refused_seq
            self._dirty_ms = 0
            self._overwrite(refused)
        return self.message

    def _overwrite(self, places):
        """Write the record in RAM once, and over each of these places (refused records).

        Refused records are rare (a foreign or broken writer), so a few extra writes cost
        no wear worth counting; left in place, one could win a later start or be told again.
        """
        if 0 in places:
            self._since_nvm = NVM_BACKUP_WRITES  # the next write that reaches a file takes nvm too
        wrote = False
        for at in places:
            if at == 0:
                continue
            if wrote and not self.files_ok:
                break  # the drive takes nothing: nvm has it, and nvm is not written twice
            self._next = at - 1
            self._ahead = 0  # this very place: no erasing ahead of it
            self._write(None, True)
            wrote = True
        if not wrote:
            self._write(None, True)
        elif self._group > 1:
            # Written in place, not into erased flash: the ring goes on two groups further.
            self._next = self._resume(self._next - 1)

    def pending(self):
        """Return True if something not yet on flash would be lost by a power cut now."""
        self._pack()
        return self._changed(False)

    def commit(self, now_ms, force=False):
        """Write a record when one is due (or forced and anything changed); True if written.

        Call it every poll: it looks for changes every 250 ms and writes once a change is
        CHECKPOINT_MS old. Force it when the player leaves a game, a game ends, or a
        setting changes. Elapsed time counts like a move for THINK_MS after the last
        hard change (thinking is play); past that the clock alone writes once a minute,
        so a board left on does not wear the flash. The date only rides along.
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
                elif self._write_ms is None or dates.ticks_diff(now_ms, self._write_ms) >= IDLE_WRITE_MS:
                    self._dirty_ms = now_ms
                    due = True
        if self._dirty_ms is None:
            return False
        if not due and dates.ticks_diff(now_ms, self._dirty_ms) < CHECKPOINT_MS:
            return False
        return self._write(now_ms, force)

    def _write(self, now_ms, force):
        """Write the RAM record to the places the policy picks; True if it reached flash."""
        self._seal()
        wrote = False
        if self.files_ok:
            wrote = self._write_files()
            if wrote:
                self._since_nvm += 1
        usb = usb_flag(self._rec)
        nvm = self.nvm
        nvm_due = False
        if nvm is not None:
            if usb != self._nvm_usb and (self._nvm_usb is not None or usb):
                nvm_due = True  # boot.py must see a changed USB flag even if files fail
            elif not wrote:
                nvm_due = (
                    now_ms is None
                    or self._nvm_ms is None
                    or dates.ticks_diff(now_ms, self._nvm_ms) >= NVM_MIN_MS
                )
            elif self._since_nvm >= NVM_BACKUP_WRITES:
                nvm_due = True
        if nvm_due:
            try:
                nvm[0:REC] = self._rec
                self._nvm_ms = now_ms
                self._nvm_usb = usb
                self._since_nvm = 0
                self.nvm_writes += 1
                wrote = True
            except (OSError, RuntimeError):
                pass  # microcontroller.nvm raises RuntimeError when a write fails
        if not wrote:
            self._seq -= 1  # nothing reached flash: the number was never used
            return False
        self.writes += 1
        self._last[:] = self._rec
        self._dirty_ms = None
        self._write_ms = now_ms
        return True
