# SPDX-License-Identifier: MIT
"""Saves: settings, statistics and the two game slots, safe against power cuts and wear.

Every save is one self-contained 256-byte record (layout below) holding EVERYTHING: the
settings, the statistics, the last known date and both slots. Records carry a magic, a
version, a sequence number and a CRC-32. They go round-robin into a ring of places; load
reads every place and keeps the valid record with the highest sequence number. A power cut
can only damage the place being written, and the previous record, complete with the other
slot, the statistics and the settings, is still in another place. docs/saves.md has the
design, the write policy and the wear arithmetic.

Places ("blocks") look like microcontroller.nvm: `len(b)`, `b[a:z]` reads, `b[a:z] = data`
writes; reads and writes may raise OSError (nvm writes RuntimeError). blocks[0] is nvm (None
if absent), blocks[1:] the ring. On the board the ring is the 512-byte sectors of one save
file on CIRCUITPY, written in turn into flash erased ahead of them (SaveLog, device_blocks).
nvm's 8 KB block erases on every write and lives in the SAMD51's own flash, so it is
written rarely: as the fallback when CIRCUITPY is not writable, as a backup every 1800 file
writes (about an hour of play), and when the USB-update flag changes.
"""

import binascii
import struct

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.rules import deals
from freecell_mc.saves import stats
from freecell_mc.saves.stats import Stats

SLOT_FREE = const(0)
SLOT_DAILY = const(1)

VERSION = const(1)
REC = const(256)  # record size: half a 512-byte FAT sector
NVM_SIZE = const(8192)
SECTOR = const(512)  # one record per FAT sector: the unit the flash driver writes
GROUP = const(8)  # sectors per 4 KB flash erase sector: erased together, ahead of the writer
RING = const(2048)  # record sectors in the save file: 1 MB (wear arithmetic: docs/saves.md)
_GUARD = const(8)  # sectors at the file's start never written (beside its folder entry)
_MIN_PLACES = const(40)  # 5 groups: the fewest that keep erases off the newest record
LOG_DIR = "fcsave"
LOG_PATH = "fcsave/saves.bin"

CHECKPOINT_MS = const(1500)  # a change is on flash at most this long after it was seen
_CHECK_MS = const(250)  # how often commit() looks for changes when not forced
THINK_MS = const(300000)  # a pause this long after a move is still play (elapsed time)
IDLE_WRITE_MS = const(60000)  # past it, the clock alone writes at most this often
NVM_MIN_MS = const(1800000)  # nvm as fallback: at most one write per 30 minutes (wear)
NVM_BACKUP_WRITES = const(1800)  # nvm as backup: once per this many file writes (~1 h)

_TRIES = const(4)  # save places tried per write before the drive is given up on
_EROFS = const(30)  # CircuitPython's values; _errno() asks the port's errno first
_ENOSPC = const(28)

_MAGIC = b"FCMC"

# Record layout (little-endian):
#   0 magic "FCMC" | 4 version u8 | 5 reserved u8 | 6 length u16 (= REC) | 8 seq u32
#  12 settings: 12 cells u8 | 13 takeback u8 | 14 four_colour u8 | 15 usb_writable u8
#               16 calibration x_min, x_max, y_min, y_max u16 x4 | 24 active slot u8
#               25..27 reserved
#  28 last date: y u16 | m u8 | d u8                    (soft: never triggers a write)
#  32 statistics, 40 bytes (stats.py)
#  72 slot 0, 88 bytes | 160 slot 1, 88 bytes; within a slot:
#      +0 present u8 | +1 kind u8 | +2 cells u8 | +3 flags u8 (SLOT_PLAYED, SLOT_WON)
#      +4 deal number u32
#      +8 moves u16 | +10 reserved u16 | +12 elapsed seconds u32 (soft) | +16 position 68
# 248 reserved u32 | 252 CRC-32 of bytes 0..251
_SEQ = const(8)
_SET = const(12)
_USB = const(15)
_ACTIVE = const(24)
_DATE = const(28)
_STATS = const(32)
_SLOT0 = const(72)
_SLOT_SIZE = const(88)
_S_MOVES = const(8)
_S_ELAPSED = const(12)
_SLOT_FMT = "<BBBBIHHI"  # present, kind, cells, flags, number, moves, reserved, elapsed
_S_POS = const(16)
_POS_LEN = const(68)
_CRC = const(252)
_MAX_ELAPSED = const(0x3FFFFFFF)  # put_slot's cap on elapsed seconds (a small int everywhere)
# Sequence numbers at or above this are taken as damage, not wrapped: the ring's flash wears
# out after about 2 million writes (192 files x 10,000 erase cycles), so no board ever gets
# near it, and a wrapped number would make the newest record look like the oldest. Below
# it the number stays a small int on the board, and _seal's +1 always fits the u32 field.
_SEQ_LIMIT = const(0x40000000)

# Slot flags: what the statistics already hold of this deal, so a game continued after a
# restart or a switch of slots is never counted as played, or as won, a second time.
SLOT_PLAYED = const(1)
SLOT_WON = const(2)

# What counts as a change worth a write: every byte except seq, CRC and the soft fields
# (the date and the elapsed seconds change on their own and ride along with real changes).
_HARD = (
    (_SET, _DATE),
    (_STATS, _SLOT0 + _S_ELAPSED),
    (_SLOT0 + _S_POS, _SLOT0 + _SLOT_SIZE + _S_ELAPSED),
    (_SLOT0 + _SLOT_SIZE + _S_POS, _CRC),
)

DEFAULT_CALIBRATION = ((5200, 59000), (5800, 57000))
# A calibration maps raw readings lo..hi onto the screen. Both axes must run upwards within
# 16 bits over at least this span (the calibration screen stores nothing narrower): a
# narrower one, such as 0..1 or 65534..65535, sends every tap to the screen's edge.
CAL_MIN_SPAN = const(8000)

MSG_UNREADABLE = "Saved games and statistics could not be read. Starting fresh."
MSG_NEWER = "Saves were written by a newer FreeCell MC. Starting fresh."
MSG_OLDER = "The newest save could not be used. Continuing from an earlier save."

# Status of one place, from check().
OK = const(0)
EMPTY = const(1)
BAD = const(2)
NEWER = const(3)


def check(data):
    """Classify one place's first REC bytes: OK, EMPTY (erased or missing), BAD or NEWER."""
    if data is None or len(data) < REC:
        if data is None or len(data) == 0:
            return EMPTY
        return BAD
    first = data[0]
    if first == 0xFF or first == 0:
        for i in range(REC):
            if data[i] != first:
                return BAD
        return EMPTY
    if data[0:4] != _MAGIC:
        return BAD
    if data[4] > VERSION:
        return NEWER  # before the CRC: a later layout may put it elsewhere
    (crc,) = struct.unpack_from("<I", data, _CRC)
    if binascii.crc32(data[0:_CRC]) & 0xFFFFFFFF != crc:
        return BAD
    length = data[6] | data[7] << 8
    if data[4] != VERSION or length != REC:
        return BAD
    return OK


def valid_calibration(cal):
    """Return True if cal is ((x_lo, x_hi), (y_lo, y_hi)) in 16 bits with wide enough spans."""
    try:
        (a, b), (c, d) = cal
        return (0 <= a and b - a >= CAL_MIN_SPAN and b <= 65535
                and 0 <= c and d - c >= CAL_MIN_SPAN and d <= 65535)
    except (TypeError, ValueError):
        return False


def refusal(data, game=None):
    """Return why a record whose check() is OK cannot come from this game, or None if it can.

    Every field is held to what the game itself writes: a foreign or broken writer can
    produce a correct CRC around impossible values, and one such value must not crash a
    start or a save. game is a scratch engine.Game for the slots' positions (the engine's
    own validation); without it (boot.py, which only needs the USB flag) they go unchecked.
    """
    seq = _seq_of(data)
    if seq == 0 or seq >= _SEQ_LIMIT:
        return "sequence number out of range"
    c, t, f, u, x0, x1, y0, y1 = struct.unpack_from("<BBBBHHHH", data, _SET)
    if not 1 <= c <= 4:
        return "settings: free cells not 1 to 4"
    if t > 1 or f > 1 or u > 1:
        return "settings: a switch neither on nor off"
    if not valid_calibration(((x0, x1), (y0, y1))):
        return "settings: a touch calibration that cannot map the panel"
    if data[_ACTIVE] > SLOT_DAILY:
        return "no such active slot"
    y, m, d = struct.unpack_from("<HBB", data, _DATE)
    if (y or m or d) and not (dates.valid_date(y, m, d) and dates.plausible(y)):
        return "last date: no such date"
    why = stats.refusal(data, _STATS)
    if why is not None:
        return why
    for i in range(2):
        why = _slot_refusal(data, i, game)
        if why is not None:
            return why
    return None


def _slot_refusal(data, i, game):
    """Return why slot i of a record cannot come from this game, or None if it can."""
    base = _SLOT0 + i * _SLOT_SIZE
    present, kind, cells, flags, number, moves, _, elapsed = struct.unpack_from(
        _SLOT_FMT, data, base
    )
    if present == 0:
        return None  # an empty slot is never read
    if present != 1:
        return "slot: neither empty nor in use"
    # The daily slot holds daily deals only, the free slot everything else (App._begin).
    if (kind == deals.KIND_DAILY) != (i == SLOT_DAILY):
        return "slot: a deal of the other slot's kind"
    try:
        deals.deal_code(kind, number, cells)
    except ValueError:
        return "slot: no such deal or free cell count"
    if flags & ~(SLOT_PLAYED | SLOT_WON):
        return "slot: unknown flags"
    if elapsed > _MAX_ELAPSED:
        return "slot: elapsed time out of range"
    if game is None:
        return None
    p = base + _S_POS
    game.cells = cells
    try:
        game.load(data[p : p + _POS_LEN], moves)
    except ValueError:
        return "slot: not a position of 52 cards"
    return None


def _read(blk):
    """Read a place's first REC bytes; None when it is absent or cannot be read at all."""
    if blk is None:
        return None
    try:
        if len(blk) < REC:
            return None
        return blk[0:REC]
    except OSError:
        return None


def _read_into(read_into, k, buf):
    """Read save-file place k into buf; return buf, None when erased or absent (EMPTY)."""
    try:
        n = read_into(k, buf)
    except OSError:
        return None
    if n == REC:
        return buf
    return buf[0:n] if n else None


def _seq_of(data):
    """Return the sequence number of a checked record."""
    return struct.unpack_from("<I", data, _SEQ)[0]


class Settings:
    """The player's settings; attributes are read and assigned directly."""

    def __init__(self):
        """Start with the defaults."""
        self.defaults()

    def defaults(self):
        """Reset every setting to its default."""
        self.cells = 4
        self.takeback = False
        self.four_colour = False
        self.calibration = DEFAULT_CALIBRATION
        self.usb_writable = False  # False: the game writes CIRCUITPY (power-safe saves)

    def pack_into(self, buf, off):
        """Write settings into buf at off (12 bytes)."""
        cal = self.calibration
        struct.pack_into(
            "<BBBBHHHH",
            buf,
            off,
            self.cells,
            1 if self.takeback else 0,
            1 if self.four_colour else 0,
            1 if self.usb_writable else 0,
            cal[0][0],
            cal[0][1],
            cal[1][0],
            cal[1][1],
        )

    def unpack_from(self, buf, off):
        """Read settings from buf at off (a record refusal() passed: every value is sane)."""
        c, t, f, u, x0, x1, y0, y1 = struct.unpack_from("<BBBBHHHH", buf, off)
        self.cells = c
        self.takeback = t == 1
        self.four_colour = f == 1
        self.usb_writable = u == 1
        self.calibration = ((x0, x1), (y0, y1))


class Slot:
    """A saved game as slot() returns it: kind, number, cells, flags, pos, moves, elapsed."""

    def __init__(self):
        """Hold one slot; pos is a bytearray(68) refilled on every slot() call."""
        self.kind = 0
        self.number = 0
        self.cells = 4
        self.moves = 0
        self.elapsed = 0
        self.flags = 0
        self.pos = bytearray(_POS_LEN)


class Saves:
    """Settings, statistics and two game slots, kept in RAM and committed to flash."""

    def __init__(self, blocks):
        """Use blocks: [nvm or None, save file 0, save file 1, ...] (nvm-like objects)."""
        self.nvm = blocks[0] if blocks else None
        self._blocks = blocks  # the save files are blocks[1:], indexed (no copy, no slice)
        self._files = len(blocks) - 1 if blocks else 0
        self.settings = Settings()
        self.stats = Stats()
        self.last_date = None  # (y, m, d) once a plausible date was seen or set
        self.message = None
        self.files_ok = self._files > 0  # False once CIRCUITPY turns out to be unusable
        # why not: the errno (EROFS: left to USB, ENOSPC: drive full, others: a broken file)
        self.files_error = getattr(blocks, "error", 0) if blocks else 0
        self._group = getattr(blocks, "group", 1)  # places erased together (1: no erasing)
        self._ahead = 2  # groups to erase before the next write (restart: 2, then 1)
        self.writes = 0  # records written by this Saves (files and nvm)
        self.nvm_writes = 0
        self._rec = bytearray(REC)
        self._last = bytearray(REC)  # what the newest record on flash holds
        self._view = (Slot(), Slot())
        self._seq = 0
        self._next = 0  # ring index of the next file write
        self._since_nvm = 0  # file writes since nvm was last written
        self._nvm_ms = None  # ticks of the last nvm write by this Saves
        self._nvm_usb = None  # usb flag held by nvm's record (None: nvm has none)
        self._check_ms = None
        self._dirty_ms = None  # ticks when an unsaved change was first seen
        self._play_ms = None  # ticks of the last hard change (a pause past THINK_MS is idle)
        self._write_ms = None  # ticks of the last write
        self._fresh()

    # ----------------------------------------------------------------- loading

    def _fresh(self):
        """Reset RAM to a clean start: defaults, no statistics, empty slots, no date."""
        self.settings.defaults()
        self.stats.clear()
        self.last_date = None
        rec = self._rec
        for i in range(REC):
            rec[i] = 0
        rec[0:4] = _MAGIC
        rec[4] = VERSION
        rec[6] = REC & 255
        rec[7] = REC >> 8
        rec[_ACTIVE] = SLOT_FREE
        self._pack()
        self._last[:] = rec

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
                data = _read_into(into, at - 1, buf)
            else:
                data = _read(self.nvm if at == 0 else blocks[at])
            st = check(data)
            seq = _seq_of(data) if st == OK else -1
            # A number the game never writes says nothing of age: such a record is taken
            # as possibly the newest, so it is always looked at, refused and told.
            seqs[at] = _SEQ_LIMIT if seq == 0 or seq >= _SEQ_LIMIT else seq
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
        refused_seq = -1  # the highest sequence number among them (_SEQ_LIMIT: none usable)
        game = None  # a scratch engine to check the slots' positions with
        at = 0
        while at >= 0:
            seq = seqs[at]
            seqs[at] = -1
            data = _read(self.nvm if at == 0 else blocks[at]) if seq >= 0 else None
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
                        self._nvm_usb = data[_USB]
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
            if self._seq < refused_seq < _SEQ_LIMIT:
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

    def _unpack(self, data):
        """Take settings, date, statistics and slots from a record refusal() passed."""
        rec = self._rec
        rec[:] = data
        self._last[:] = data
        self.settings.unpack_from(rec, _SET)
        y, m, d = struct.unpack_from("<HBB", rec, _DATE)
        if y:
            self.last_date = (y, m, d)
        self.stats.unpack_from(rec, _STATS)

    # -------------------------------------------------------------- the state

    @property
    def active(self):
        """Return the slot the player was in last (SLOT_FREE or SLOT_DAILY)."""
        return self._rec[_ACTIVE]

    @active.setter
    def active(self, i):
        self._rec[_ACTIVE] = i

    def slot(self, i):
        """Return the saved game in slot i (a Slot, refilled in place) or None when empty."""
        rec = self._rec
        base = _SLOT0 + i * _SLOT_SIZE
        if not rec[base]:
            return None
        s = self._view[i]
        _, s.kind, s.cells, s.flags, s.number, s.moves, _, s.elapsed = struct.unpack_from(
            _SLOT_FMT, rec, base
        )
        s.pos[:] = rec[base + _S_POS : base + _S_POS + _POS_LEN]
        return s

    def put_slot(self, i, kind, number, cells, game, elapsed_s, flags=0):
        """Copy a game (its pos and moves) into slot i of the record in RAM; no allocation."""
        rec = self._rec
        base = _SLOT0 + i * _SLOT_SIZE
        m = game.moves
        # Two packs, so the reserved u16 between moves and elapsed keeps what it held.
        struct.pack_into("<BBBBIH", rec, base, 1, kind, cells, flags, number, min(m, 0xFFFF))
        e = elapsed_s if elapsed_s < 0x3FFFFFFF else 0x3FFFFFFF
        struct.pack_into("<I", rec, base + _S_ELAPSED, e)
        pos = game.pos
        p = base + _S_POS
        for j in range(_POS_LEN):
            rec[p + j] = pos[j]
        rec[_ACTIVE] = i

    def clear_slot(self, i):
        """Empty slot i (e.g. after its game was won)."""
        base = _SLOT0 + i * _SLOT_SIZE
        rec = self._rec
        for j in range(base, base + _SLOT_SIZE):
            rec[j] = 0

    def note_date(self, y, m, d):
        """Remember a plausible date as the last one the game knew (for the date picker)."""
        self.last_date = (y, m, d)

    def set_elapsed(self, i, seconds):
        """Put slot i's elapsed seconds into the RAM record (per poll: no allocation)."""
        base = _SLOT0 + i * _SLOT_SIZE
        rec = self._rec
        if not rec[base]:
            return
        e = seconds if seconds < 0x3FFFFFFF else 0x3FFFFFFF
        p = base + _S_ELAPSED
        rec[p] = e & 255
        rec[p + 1] = (e >> 8) & 255
        rec[p + 2] = (e >> 16) & 255
        rec[p + 3] = e >> 24

    def limit_reason(self):
        """Return None while saves are power-safe on CIRCUITPY, else a few words why not."""
        if self.files_ok:
            return None
        if self.files_error == _EROFS:
            return "USB mode"
        if self.files_error == _ENOSPC:
            return "drive full"
        if self.files_error:
            return "drive error"
        return "no drive"

    def mode_text(self):
        """Return one line for the settings screen saying how saves are kept."""
        why = self.limit_reason()
        if why is None:
            if self._files < RING and self._group > 1:
                return "Saves: power-safe, CIRCUITPY nearly full"
            return "Saves: power-safe on CIRCUITPY"
        if why == "USB mode":
            return "Saves: limited, CIRCUITPY is open for USB updates"
        if why == "drive full":
            return "Saves: limited, CIRCUITPY is full"
        if why == "drive error":
            return "Saves: limited, the save file cannot be written"
        return "Saves: limited to nvm"

    # ------------------------------------------------------------- committing

    def _pack(self):
        """Bring settings, date and statistics into the RAM record."""
        rec = self._rec
        self.settings.pack_into(rec, _SET)
        ld = self.last_date
        if ld is None:
            struct.pack_into("<HBB", rec, _DATE, 0, 0, 0)
        else:
            struct.pack_into("<HBB", rec, _DATE, ld[0], ld[1], ld[2])
        self.stats.pack_into(rec, _STATS)

    def _changed(self, hard):
        """Return True if the RAM record differs from flash (hard: in a non-soft byte)."""
        rec = self._rec
        last = self._last
        if hard:
            for lo, hi in _HARD:
                for i in range(lo, hi):
                    if rec[i] != last[i]:
                        return True
            return False
        for i in range(_SET, _CRC):
            if rec[i] != last[i]:
                return True
        return False

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

    def _timed(self):
        """Return True if a slot's elapsed seconds differ from the record on flash."""
        rec = self._rec
        last = self._last
        for i in range(2):
            p = _SLOT0 + i * _SLOT_SIZE + _S_ELAPSED
            for j in range(p, p + 4):
                if rec[j] != last[j]:
                    return True
        return False

    def _seal(self):
        """Give the RAM record the next sequence number and its CRC."""
        rec = self._rec
        self._seq += 1
        struct.pack_into("<I", rec, _SEQ, self._seq)
        struct.pack_into("<I", rec, _CRC, binascii.crc32(rec[0:_CRC]) & 0xFFFFFFFF)

    def _resume(self, newest):
        """Return the place to write next after a load found the newest record at newest.

        Erased ahead in groups (the board's save file), writing resumes two groups on:
        the group in between keeps every erase away from the 4 KB sector holding the
        newest record, whatever the file's alignment on flash (docs/saves.md).
        """
        n = self._files
        if n <= 0:
            return 0
        g = self._group
        self._ahead = 2
        if g <= 1:
            return (newest + 1) % n if newest >= 0 else 0
        if newest < 0:
            return 0
        return ((newest // g + 2) * g) % n

    def _write_files(self):
        """Write the sealed record to the next save place that takes it; True on success.

        Places are written in turn. Where places come in erase groups (the board's save
        file), entering a group first erases the next one (after a restart, this one and
        the next), so every record is programmed into erased flash: no erase per save, and
        no erase ever near the newest record. A place that fails is skipped for the next
        one; _TRIES failures in a row, or a read-only or full drive, end file saves for
        this session and saves fall back to nvm (files_error tells why).
        """
        blocks = self._blocks
        g = self._group
        if g > 1:
            try:
                blocks.prepare()
            except OSError as e:
                self.files_ok = False
                self.files_error = _errno(e)
                return False
        n = len(blocks) - 1  # a save file made shorter on a full drive has fewer places
        self._files = n
        if n < g or n <= 0:
            self.files_ok = False
            self.files_error = _ENOSPC
            return False
        err = 0
        for _ in range(min(n, _TRIES)):
            k = self._next % n
            self._next = (k + 1) % n
            try:
                if g > 1 and k % g == 0 and self._ahead:
                    first = k if self._ahead > 1 else (k + g) % n
                    for _ in range(self._ahead):
                        blocks.erase(first, g)
                        first = (first + g) % n
                    self._ahead = 1
                blocks[1 + k][0:REC] = self._rec
                return True
            except OSError as e:
                err = _errno(e)
                if err == _EROFS or err == _ENOSPC:
                    break  # boot.py left the drive to the computer, or it is full
                self._ahead = 2  # what the failed place's group holds is not known
        self.files_ok = False
        self.files_error = err
        return False

    def _write(self, now_ms, force):
        """Write the RAM record to the places the policy picks; True if it reached flash."""
        self._seal()
        wrote = False
        if self.files_ok:
            wrote = self._write_files()
            if wrote:
                self._since_nvm += 1
        usb = self._rec[_USB]
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


def read_usb_flag(blocks):
    """Return the USB-update flag for boot.py: from nvm, else the newest save file.

    Every change of the flag is written to nvm at once (see _write), so a valid nvm record
    holds the current flag and boot.py reads one block instead of the whole ring; only
    when nvm is unreadable (a cut while it was written) is the ring searched.
    """
    data = _read(blocks[0]) if blocks else None
    if check(data) == OK and refusal(data) is None:
        return data[_USB] == 1
    best_seq = -1
    flag = False
    for i in range(1, len(blocks)):
        data = _read(blocks[i])
        if check(data) == OK and refusal(data) is None and _seq_of(data) > best_seq:
            best_seq = _seq_of(data)
            flag = data[_USB] == 1
    return flag


class _Place:
    """One record place of a SaveLog, with nvm-like slice access."""

    def __init__(self, log, k):
        self.log = log
        self.k = k

    def __len__(self):
        return SECTOR

    def __getitem__(self, index):
        start, stop = index.start or 0, index.stop
        return self.log.read(self.k, start, stop - start)

    def __setitem__(self, index, data):
        self.log.write(self.k, data)


class SaveLog:
    """nvm, then the record places of the save file on CIRCUITPY (device_blocks).

    The file is made once, 1 MB of erased sectors in a folder of its own, and is then only
    rewritten in place through one handle kept open: every record is a whole 512-byte
    sector written at a sector boundary, which FatFs hands to the flash driver directly,
    and which the driver programs without an erase when the sector reads erased. The
    file's size and clusters never change and it is not closed while the game runs, so
    neither the FAT nor its folder entry is written by a save (docs/saves.md). `erase`
    writes 0xFF over a group of sectors and syncs: the driver erases their 4 KB sector(s).
    """

    group = GROUP

    def __init__(self, nvm, path=LOG_PATH, places=RING, fs=None):
        """Hold nvm and the save file's path; nothing is opened yet.

        fs: None for the board's open() and os; the simulator's tests hand in its FAT
        model instead (open, mkdir, stat_size, sync).
        """
        self.nvm = nvm
        self.fs = fs
        self.path = path
        self.want = places
        self._n = None
        self.error = 0  # errno when the file there cannot hold the ring (see _places)
        self._missing = False
        self._f = None
        self._writing = False
        self._buf = None  # the sector written: a record, then 0xFF
        self._erased = None  # REC bytes of 0xFF, to spot erased places quickly

    def __len__(self):
        return 1 + self._places()

    def __getitem__(self, i):
        if i < 0:
            i += 1 + self._places()
        if i == 0:
            return self.nvm
        if not 0 < i <= self._places():
            raise IndexError("no such save place")
        return _Place(self, i - 1)

    def _places(self):
        """Return the record places: the whole ring, or what a short file holds."""
        if self._n is None:
            size = _size(self.path, self.fs)
            self._missing = size == -1
            if size == -1:
                self._n = self.want  # made at the first write
            elif size < 0:
                self._n = 0
                self.error = 21  # EISDIR: a folder where the file should be
            else:
                n = size // SECTOR - _GUARD
                n = n - n % GROUP
                self._n = n if n >= _MIN_PLACES else 0
                if not self._n:
                    self.error = _ENOSPC  # cut short when it was made
        return self._n

    def read(self, k, start, n):
        """Return n bytes of place k from start (OSError when the file is missing)."""
        f = self._reader()
        if f is None:
            raise OSError(2, "no save file yet")
        f.seek((_GUARD + k) * SECTOR + start)
        data = f.read(n)
        if n == REC and self._reads_erased(data):
            return b""  # empty reads as EMPTY
        return data

    def read_into(self, k, buf):
        """Read the first len(buf) bytes of place k into buf; return how many, 0 if erased.

        A missing file reads as erased (read() raises OSError there; an exception a place
        is what this avoids). The load's scan of every place uses it, so a start makes no
        object per place.
        """
        f = self._reader()
        if f is None:
            return 0
        f.seek((_GUARD + k) * SECTOR)
        n = f.readinto(buf) or 0
        return 0 if n == REC and self._reads_erased(buf) else n

    def _reader(self):
        """Return the handle reads go through, or None while the file is missing."""
        f = self._f
        if f is None:
            self._places()  # looks for the file once
            if self._missing:
                return None
            f = self._f = self._open("rb")
        return f

    def _reads_erased(self, data):
        """Return True if data, a place's REC bytes, is all 0xFF.

        Most places are erased: one comparison in C instead of check()'s loop over 256
        bytes (2,048 places are read at every start).
        """
        if data[0] != 0xFF:
            return False
        erased = self._erased
        if erased is None:
            erased = self._erased = b"\xff" * REC
        return data == erased

    def write(self, k, data):
        """Write data at the start of place k as one whole sector."""
        buf = self._buf
        if buf is None:
            buf = self._buf = bytearray(b"\xff" * SECTOR)
        buf[0 : len(data)] = data
        self._put(k, buf)
        _sync(self.fs)  # a sector that was not erased waits in the driver's cache for a sync

    def erase(self, k, n):
        """Bring places k..k+n-1 back to the erased state (0xFF) on flash."""
        buf = self._buf
        if buf is None:
            buf = self._buf = bytearray(SECTOR)
        for i in range(SECTOR):
            buf[i] = 0xFF
        for i in range(n):
            self._put(k + i, buf)
        # One sync for the group: the driver erases each 4 KB sector it touches once.
        _sync(self.fs)

    def _put(self, k, buf):
        f = self._writer()
        f.seek((_GUARD + k) * SECTOR)
        if f.write(buf) != SECTOR:
            raise OSError(_ENOSPC, "short write")

    def prepare(self):
        """Open the save file for writing (made first if missing); OSError if it cannot be."""
        self._writer()

    def _writer(self):
        """Return the handle writes go through, making the file first if it is missing."""
        if self._writing:
            return self._f
        if self._f is not None:
            self._f.close()  # opened for reading only: nothing to write back
            self._f = None
        if _size(self.path, self.fs) < 0:
            self._create()
        self._f = self._open("r+b")
        self._missing = False
        self._writing = True
        return self._f

    def _open(self, mode):
        if self.fs is not None:
            return self.fs.open(self.path, mode)
        return open(self.path, mode, 0)  # unbuffered where open buffers (CPython)

    def _create(self):
        """Make the folder and the file, erased, as long as the drive allows (>= 5 groups)."""
        if self.fs is not None:
            mkdir = self.fs.mkdir
        else:
            import os

            mkdir = os.mkdir
        d = self.path.rsplit("/", 1)[0] if "/" in self.path else ""
        try:
            if d:
                mkdir(d)
        except OSError as e:
            if _errno(e) != 17:  # EEXIST
                raise
        ff = bytearray(b"\xff" * SECTOR)
        made = 0
        with self._open("wb") as f:
            try:
                for _ in range(_GUARD + self.want):
                    if f.write(ff) != SECTOR:
                        break
                    made += 1
            except OSError as e:
                if _errno(e) != _ENOSPC:
                    raise
        n = made - _GUARD
        n -= n % GROUP
        self._n = n if n >= _MIN_PLACES else 0
        if not self._n:
            raise OSError(_ENOSPC, "CIRCUITPY is full")


def _size(path, fs=None):
    """Return the size of the file at path, -1 when it is missing, -2 for a folder."""
    try:
        if fs is not None:
            return -2 if fs.is_dir(path) else fs.stat_size(path)
        import os

        st = os.stat(path)
        return -2 if st[0] & 0x4000 else st[6]
    except OSError:
        return -1


def _errno(e):
    """Return the errno of OSError e (0 when it has none)."""
    code = e.args[0] if e.args else 0
    return code if isinstance(code, int) else 0


def _sync(fs=None):
    """Push CircuitPython's flash cache out now, so a save is on flash when commit returns."""
    if fs is not None:
        fs.sync()
        return
    import os

    sync = getattr(os, "sync", None)
    if sync is not None:
        sync()


def device_blocks(nvm, places=RING):
    """Return the device's save blocks: nvm (may be None), then the save file's places."""
    return SaveLog(nvm, LOG_PATH, places)
