# SPDX-License-Identifier: MIT
"""The save record: 256 self-contained bytes, their layout, their checks, their copy in RAM.

Every save is one record (layout below) holding EVERYTHING: the settings, the statistics,
the last known date and both slots. Records carry a magic, a version, a sequence number and
a CRC-32 (check), and every field is held to what the game itself writes (refusal). The
game fills `Record`, the record in RAM (settings, statistics, slots); savelog.py writes it
round the places on flash, policy.py decides when, and which one a start loads.
docs/saves.md has the design.
"""

import binascii
import struct

from freecell_mc import dates
from freecell_mc.compat import const
from freecell_mc.rules import deals
from freecell_mc.saves import stats
from freecell_mc.saves.settings import (  # noqa: F401  (the calibration rule, read here too)
    CAL_MIN_SPAN, DEFAULT_CALIBRATION, Settings, valid_calibration, valid_light,
)
from freecell_mc.saves.stats import Stats

SLOT_FREE = const(0)
SLOT_DAILY = const(1)

VERSION = const(1)
REC = const(256)  # record size: half a 512-byte FAT sector

_MAGIC = b"FCMC"
# CRC-32 over data followed by its own CRC (little-endian) always gives this: its residue.
_RESIDUE = const(0x2144DF1C)

# Record layout (little-endian):
#   0 magic "FCMC" | 4 version u8 | 5 where u8 (1: written to the save file too; soft)
#   6 length u16 (= REC) | 8 seq u32 (1 .. 2**30 - 1, wrapping: see loading.newest_of)
#  12 settings: 12 cells u8 | 13 takeback u8 | 14 four_colour u8 | 15 usb_writable u8
#               16 calibration x_min, x_max, y_min, y_max u16 x4 | 24 active slot u8
#               25 confirmed day u16 (day number of the last date the player or a running
#               clock vouched for, 0: none; stats' window never moves far past it)
#               27 told u8 (TOLD_LIMITED: the start-up notice about saves limited to nvm)
#  28 last date: y u16 | m u8 | d u8                    (soft: never triggers a write)
#  32 statistics, 40 bytes (stats.py)
#  72 slot 0, 88 bytes | 160 slot 1, 88 bytes; within a slot:
#      +0 present u8 | +1 kind u8 | +2 cells u8 | +3 flags u8 (SLOT_PLAYED, SLOT_WON)
#      +4 deal number u32
#      +8 moves u16 | +10 elapsed milliseconds past the seconds u16 (soft)
#      +12 elapsed seconds u32 (soft) | +16 position 68
# 248 nvm credit i16 (seconds of play nvm may spend, policy.py; soft)
# 250 backlight u8: when the screen dims (low nibble) and goes dark (high nibble), each
#     1 + an index into settings.DIM_AFTER_S / DARK_AFTER_S (0: the default)
# 251 reserved u8
# 252 CRC-32 of bytes 0..251
# Records of the first layout hold 0 in every field added since: no confirmed day, nothing
# told, no credit, whole seconds, the default backlight times; they load as they are.
_WHERE = const(5)
_SEQ = const(8)
_SET = const(12)
_USB = const(15)
_ACTIVE = const(24)
_CONFIRMED = const(25)
_TOLD = const(27)
_DATE = const(28)
_STATS = const(32)
_SLOT0 = const(72)
_SLOT_SIZE = const(88)
_S_MOVES = const(8)
_S_MILLIS = const(10)
_S_ELAPSED = const(12)
_SLOT_FMT = "<BBBBIHHI"  # present, kind, cells, flags, number, moves, milliseconds, elapsed
_S_POS = const(16)
_POS_LEN = const(68)
_CREDIT = const(248)
_LIGHT = const(250)
_CRC = const(252)
_MAX_ELAPSED = const(0x3FFFFFFF)  # the cap on a slot's elapsed seconds (a small int everywhere)
# Sequence numbers run from 1 to SEQ_LIMIT - 1 and then start again at 1, so every number
# the game writes is one a load accepts and a small int on the board (below 2**30). Which
# is newest is not told by the distance of two numbers round that circle (a number half
# the circle away is neither, and one planted just short of half becomes "newer" after a
# save or two): loading.newest_of finds the arc of the circle that holds the board's own
# records and orders that arc from its start. One board's records lie a few million writes
# apart at most (the save file wears out after about 10 million), less than 2**24.
SEQ_LIMIT = const(0x40000000)
TOLD_LIMITED = const(1)  # told at a start that saves go to nvm only (no usable save file)
# A confirmed day is a day number of a plausible date (2025-01-01 .. 2099-12-31).
_FIRST_CONFIRMED = const(9131)  # dates.day_number(2025, 1, 1)
_LAST_CONFIRMED = const(36524)  # dates.day_number(2099, 12, 31)
CREDIT_MIN = const(-3600)  # the nvm credit's range in seconds (policy.py keeps it inside)
CREDIT_MAX = const(7200)

# Slot flags: what the statistics already hold of this deal, so a game continued after a
# restart or a switch of slots is never counted as played, or as won, a second time.
SLOT_PLAYED = const(1)
SLOT_WON = const(2)


def unfinished(moves, flags):
    """Return True if a saved game was begun and its win is not recorded: it can still be lost."""
    return moves > 0 and not flags & SLOT_WON


# What counts as a change worth a write: every byte except seq, CRC and the soft fields
# (the date and the elapsed seconds change on their own and ride along with real changes).
HARD = (
    (_SET, _DATE),
    (_STATS, _SLOT0 + _S_MILLIS),
    (_SLOT0 + _S_POS, _SLOT0 + _SLOT_SIZE + _S_MILLIS),
    (_SLOT0 + _SLOT_SIZE + _S_POS, _CREDIT),
    (_LIGHT, _LIGHT + 1),
)
# What nvm takes at once, within its wear budget (policy.py): the settings and calibration
# (not the active slot) and the statistics from the games won on (a game begun alone is
# not worth a write of its own). The games in the slots ride along.
IMPORTANT = (
    (_SET, _ACTIVE), (_CONFIRMED, _DATE), (_STATS + 4, _SLOT0), (_LIGHT, _LIGHT + 1),
)
# The statistics of the games won (a win, its time and moves, a day won): where nvm is the
# only place, they may spend the write kept in reserve for them (policy.py).
WINS = ((_STATS + 4, _SLOT0),)


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
    for i in range(4):
        if data[i] != _MAGIC[i]:
            return BAD
    if data[4] > VERSION:
        return NEWER  # before the CRC: a later layout may put it elsewhere
    # A record ends in its CRC, so the CRC of the whole record is CRC-32's residue when it
    # is intact: a small int to compare, where reading the stored CRC (a u32) would make a
    # long int on the board. Longer data (a place read whole) is checked on its first REC.
    if binascii.crc32(data if len(data) == REC else memoryview(data)[0:REC]) != _RESIDUE:
        return BAD
    length = data[6] | data[7] << 8
    if data[4] != VERSION or length != REC:
        return BAD
    return OK


def refusal(data, game=None):
    """Return why a record whose check() is OK cannot come from this game, or None if it can.

    Every field is held to what the game itself writes: a foreign or broken writer can
    produce a correct CRC around impossible values, and one such value must not crash a
    start or a save. game is a scratch engine.Game for the slots' positions (the engine's
    own validation); without it (boot.py, which only needs the USB flag) they go unchecked.
    """
    seq = seq_of(data)
    if seq == 0 or seq >= SEQ_LIMIT:
        return "sequence number out of range"
    c, t, f, u, x0, x1, y0, y1 = struct.unpack_from("<BBBBHHHH", data, _SET)
    if not 1 <= c <= 4:
        return "settings: free cells not 1 to 4"
    if t > 1 or f > 1 or u > 1:
        return "settings: a switch neither on nor off"
    if not valid_calibration(((x0, x1), (y0, y1))):
        return "settings: a touch calibration that cannot map the panel"
    if not valid_light(data[_LIGHT]):
        return "settings: no such time before the screen dims or goes dark"
    if data[_ACTIVE] > SLOT_DAILY:
        return "no such active slot"
    day = data[_CONFIRMED] | data[_CONFIRMED + 1] << 8
    if day and not _FIRST_CONFIRMED <= day <= _LAST_CONFIRMED:
        return "confirmed day: no such date"
    if data[_TOLD] & ~TOLD_LIMITED:
        return "unknown notices told"
    (credit,) = struct.unpack_from("<h", data, _CREDIT)
    if not CREDIT_MIN <= credit <= CREDIT_MAX:
        return "nvm credit out of range"
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
    present, kind, cells, flags, number, moves, millis, elapsed = struct.unpack_from(
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
    if elapsed > _MAX_ELAPSED or millis > 999:
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


def seq_of(data):
    """Return the sequence number of a checked record."""
    return struct.unpack_from("<I", data, _SEQ)[0]


def next_seq(seq):
    """Return the sequence number after seq: 1 after SEQ_LIMIT - 1 (and after 0, none)."""
    return seq + 1 if 0 <= seq < SEQ_LIMIT - 1 else 1


def usb_flag(data):
    """Return the USB-update byte of a record (1: the computer gets CIRCUITPY after a reset)."""
    return data[_USB]


def in_file(data):
    """Return True if a checked record was written to the save file too (not to nvm alone)."""
    return data[_WHERE] == 1


def credit_of(data):
    """Return the nvm credit (seconds of play) a checked record holds."""
    return struct.unpack_from("<h", data, _CREDIT)[0]


class Slot:
    """A saved game as slot() returns it: kind, number, cells, flags, pos, moves, elapsed.

    The Record has one for each slot and slot() refills it: it is a reading of the
    record, valid until the next slot() of the same slot, never a copy to keep.
    """

    def __init__(self):
        """Hold one slot; pos is a bytearray(68) refilled on every slot() call."""
        self.kind = 0
        self.number = 0
        self.cells = 4
        self.moves = 0
        self.elapsed = 0  # whole seconds
        self.millis = 0  # and the milliseconds past them
        self.flags = 0
        self.pos = bytearray(_POS_LEN)


class Record:
    """The record in RAM: settings, statistics, the last date and two game slots, as bytes.

    Each field is read and written in place in one bytearray, so a move or a poll that
    touches a slot allocates nothing; `_last` holds what the newest record on flash holds.
    """

    def __init__(self):
        """Hold an empty record; _fresh() fills in the defaults."""
        self.settings = Settings()
        self.stats = Stats()
        self.last_date = None  # (y, m, d) once a plausible date was seen or set
        self._rec = bytearray(REC)
        self._body = memoryview(self._rec)[0:_CRC]  # what the CRC covers, without a copy
        self._last = bytearray(REC)  # what the newest record on flash holds
        self._view = (Slot(), Slot())
        self._halves = [None, 0, 0]  # a deal number and its u16 halves (put_slot, slot)
        self._seq = 0

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

    def _unpack(self, data):
        """Take settings, date, statistics and slots from a record refusal() passed."""
        rec = self._rec
        rec[:] = data
        self._last[:] = data
        self.settings.unpack_from(rec, _SET)
        self.settings.take_light(rec[_LIGHT])
        y, m, d = struct.unpack_from("<HBB", rec, _DATE)
        if y:
            self.last_date = (y, m, d)
        self.stats.unpack_from(rec, _STATS)

    # -------------------------------------------------------------- the slots

    @property
    def active(self):
        """Return the slot the player was in last (SLOT_FREE or SLOT_DAILY)."""
        return self._rec[_ACTIVE]

    @active.setter
    def active(self, i):
        self._rec[_ACTIVE] = i

    def slot(self, i):
        """Return the saved game in slot i (a Slot, refilled in place) or None when empty.

        Refilled byte by byte as put_slot writes it: a look allocates nothing but a deal
        number from 2**30 on that is not the one put last (tests/test_cpvm_alloc.py). Read it
        at once: a Slot held across another slot(i), or a call that makes one (play.py's
        _restore), has changed; put_slot and clear_slot change the record, not a Slot.
        """
        rec = self._rec
        base = _SLOT0 + i * _SLOT_SIZE
        if not rec[base]:
            return None
        s = self._view[i]
        s.kind, s.cells, s.flags = rec[base + 1], rec[base + 2], rec[base + 3]
        lo, hi = rec[base + 4] | rec[base + 5] << 8, rec[base + 6] | rec[base + 7] << 8
        h = self._halves  # the number put last, shared: the slot in play's, at every move
        s.number = h[0] if lo == h[1] and hi == h[2] and h[0] is not None else lo | hi << 16
        # Moves and milliseconds u16, seconds u32 (at most _MAX_ELAPSED: a small int).
        p = base + _S_MOVES
        s.moves, s.millis = rec[p] | rec[p + 1] << 8, rec[p + 2] | rec[p + 3] << 8
        s.elapsed = rec[p + 4] | rec[p + 5] << 8 | rec[p + 6] << 16 | rec[p + 7] << 24
        pos = s.pos
        p = base + _S_POS
        for j in range(_POS_LEN):
            pos[j] = rec[p + j]
        return s

    def put_slot(self, i, kind, number, cells, game, elapsed_s, flags=0, millis=0):
        """Copy a game (its pos and moves) into slot i of the record in RAM; no allocation.

        elapsed_s and millis: its play time, whole seconds and the milliseconds past them.
        """
        rec = self._rec
        base = _SLOT0 + i * _SLOT_SIZE
        m = game.moves
        # A free deal's number is a 32-bit seed, a long int on the board from 2**30 on,
        # and struct checks a long int's range by building more of them: the number goes
        # in as two u16 halves, worked out once per number, since this runs every move.
        # Compared by value: comparing ints allocates nothing, long or small, and an
        # equal number from another object (a deal read back from its slot) needs no
        # new halves.
        h = self._halves
        if number != h[0]:
            h[0] = number
            h[1] = number & 0xFFFF
            h[2] = number >> 16
        e = elapsed_s if elapsed_s < _MAX_ELAPSED else _MAX_ELAPSED
        struct.pack_into("<BBBBHHHHI", rec, base, 1, kind, cells, flags, h[1], h[2],
                         min(m, 0xFFFF), millis, e)
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

    def set_elapsed(self, i, seconds, millis=0):
        """Put slot i's play time (seconds, and milliseconds past them) into the RAM record.

        Called every poll, it allocates nothing. The milliseconds are kept so that a cut
        costs the clock no more than the time since the last save (at most 2 s), not that
        and the second begun as well.
        """
        base = _SLOT0 + i * _SLOT_SIZE
        rec = self._rec
        if not rec[base]:
            return
        e = seconds if seconds < _MAX_ELAPSED else _MAX_ELAPSED
        p = base + _S_MILLIS
        rec[p] = millis & 255
        rec[p + 1] = millis >> 8
        rec[p + 2] = e & 255
        rec[p + 3] = (e >> 8) & 255
        rec[p + 4] = (e >> 16) & 255
        rec[p + 5] = e >> 24

    @property
    def confirmed_day(self):
        """Return the day number the date was last vouched for (0: never)."""
        rec = self._rec
        return rec[_CONFIRMED] | rec[_CONFIRMED + 1] << 8

    @confirmed_day.setter
    def confirmed_day(self, day):
        self._rec[_CONFIRMED] = day & 255
        self._rec[_CONFIRMED + 1] = day >> 8

    def told(self, what):
        """Return True if the notice `what` (TOLD_LIMITED) was shown and is still true."""
        return bool(self._rec[_TOLD] & what)

    def set_told(self, what, on):
        """Remember that the notice `what` was shown (on) or no longer holds (off)."""
        if on:
            self._rec[_TOLD] |= what
        else:
            self._rec[_TOLD] &= ~what & 255

    # --------------------------------------------------- against flash

    def _pack(self):
        """Bring settings, date and statistics into the RAM record."""
        rec = self._rec
        self.settings.pack_into(rec, _SET)
        rec[_LIGHT] = self.settings.light_byte()
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
            for lo, hi in HARD:
                for i in range(lo, hi):
                    if rec[i] != last[i]:
                        return True
            return False
        for i in range(_SET, _CREDIT):
            if rec[i] != last[i]:
                return True
        return rec[_LIGHT] != last[_LIGHT]

    def _differs(self, data, ranges):
        """Return True if data differs from the RAM record in any of the byte ranges."""
        rec = self._rec
        for lo, hi in ranges:
            for i in range(lo, hi):
                if rec[i] != data[i]:
                    return True
        return False

    def _timed(self):
        """Return True if a slot's play time differs from the record on flash."""
        rec = self._rec
        last = self._last
        for i in range(2):
            p = _SLOT0 + i * _SLOT_SIZE + _S_MILLIS
            for j in range(p, p + 6):
                if rec[j] != last[j]:
                    return True
        return False

    def _seal(self, in_file, credit):
        """Give the RAM record the next sequence number, where it goes, nvm's credit, its CRC.

        in_file: it is written to the save file (nvm may hold it too); credit: the seconds
        of play nvm may still spend (policy.py), kept so that a restart does not refill it.
        """
        rec = self._rec
        self._seq = next_seq(self._seq)
        struct.pack_into("<I", rec, _SEQ, self._seq)
        rec[_WHERE] = 1 if in_file else 0
        struct.pack_into("<h", rec, _CREDIT, credit)
        # The one long int of a write (3 CRCs in 4 are 2**30 or more): crc32 makes it and
        # struct checks it, 96 bytes. Looks for changes and polls make none.
        struct.pack_into("<I", rec, _CRC, binascii.crc32(self._body))
