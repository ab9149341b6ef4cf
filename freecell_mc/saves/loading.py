# SPDX-License-Identifier: MIT
"""What a start reads of the saves: every place, the newest record the game could have written.

policy.Saves.load calls find() once, at the start, and applies what it found; the App lets
this module go after the start (app._forget), so none of its code stays on the heap in play
(what that saves: docs/memory.md). Places are nvm's two (savelog.NVM_COPY), then the save
file's; the earlier layout's file (fcsave/saves.bin) is read too when this one holds no
record. boot.py and the copy tool use newest_of.
"""

from freecell_mc.compat import const
from freecell_mc.saves.record import BAD, NEWER, OK, REC, SEQ_LIMIT, check, refusal, seq_of
from freecell_mc.saves.savelog import NVM_COPY, SaveLog, read_place, read_place_into

# newest_of cuts the circle of sequence numbers into 64 arcs of 2**_ARC numbers.
_ARC = const(24)
# Where records are read from: nvm's two places (savelog.NVM_COPY), then the save file's.
NVM_PLACES = const(2)
# An nvm record's vote in newest_of: more than every place of the save file together. Only
# the game writes nvm (it is the chip's own flash, out of the computer's reach), so the run
# of numbers holding nvm's records is the board's own, however many records a save file
# holds elsewhere.
_NVM_VOTE = const(8192)
# What a scan of the places found besides intact records (_scan).
_UNREADABLE = const(1)  # a place holds what the game never wrote
_NEWER = const(2)  # a record of a newer layout
_TORN = const(4)  # one place holds the start of a record and not the rest: a cut mid-write
_TORN_MORE = const(8)  # more than one place does
# What find() says of the places besides the records (policy.Saves.load tells it).
DAMAGE_NONE = const(0)
DAMAGE_UNREADABLE = const(1)  # what the game never wrote, or more than one torn record
DAMAGE_NEWER = const(2)  # a record of a newer layout


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


def _place(nvm, blocks, at):
    """Return the REC bytes of place at: nvm's two, then blocks' save places."""
    if at < NVM_PLACES:
        return read_place(nvm, at * NVM_COPY)
    return read_place(blocks[at - NVM_PLACES + 1])


def _scan(nvm, blocks, into, buf, seqs):
    """Read every place: put each intact record's sequence number into seqs (then turned
    into age keys by newest_of); return what else was found (_UNREADABLE, _NEWER, _TORN,
    _TORN_MORE)."""
    found = 0
    for at in range(len(seqs)):
        if at >= NVM_PLACES and into is not None:
            data = read_place_into(into, at - NVM_PLACES, buf)
        else:
            data = _place(nvm, blocks, at)
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


def _choose(nvm, blocks, seqs):
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
        data = _place(nvm, blocks, at)
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


def nvm_record(nvm):
    """Return nvm's newest record the game could have written, or None."""
    seqs = [-1] * NVM_PLACES
    for at in range(NVM_PLACES):
        data = _place(nvm, None, at)
        if check(data) == OK and refusal(data) is None:
            seqs[at] = seq_of(data)
    if newest_of(seqs) < 0:
        return None
    return _place(nvm, None, seqs.index(max(seqs)))


def find(nvm, blocks, n):
    """Read nvm and the save places blocks[1..n]; return what a start goes on from:
    (best record or None, its age key, its save-file place or -1, nvm's newest record the
    game could have written or None, the age key and number of the newest refused record
    (-1, 0: none), DAMAGE_*, carried: True when best comes from the earlier layout's file).

    A record refused for an impossible value counts as damaged; one that claims to be newer
    than the best is reported (its key above best's) so the start tells it. When the save
    file holds no record, the earlier layout's fcsave/saves.bin is read too (never written):
    its records compete with nvm's, and its newest, when newer than nvm's, is carried over
    (the writer then starts the save file afresh: place -1). The damage told is what this
    file and nvm showed.
    """
    # The board's save file reads every place into one buffer: 2,048 places a start,
    # which as new bytes objects were half a megabyte of garbage (several collections).
    into = getattr(blocks, "read_into", None)
    buf = bytearray(REC) if into is not None else None
    # Per place: the sequence number of an intact record, -1 for none (made at its full
    # length at once: grown by appends, 2,049 numbers left twice their size in garbage).
    seqs = [-1] * (NVM_PLACES + n)
    found = _scan(nvm, blocks, into, buf, seqs)
    best, best_key, newest_file, nvm_data, refused_key, refused_seq = _choose(nvm, blocks, seqs)
    carried = False
    if newest_file < 0 and into is not None:
        # The save file holds no record: missing, or new, the game copied by hand over
        # the earlier layout, whose board made fcsave/saves.bin itself and may have left
        # newer play there than in nvm (docs/saves.md).
        old = SaveLog(None, "fcsave/saves.bin", blocks.want, blocks.fs)
        m = len(old) - 1
        if m > 0:
            seqs = [-1] * (NVM_PLACES + m)
            _scan(nvm, old, old.read_into, buf, seqs)
            best, best_key, newest_file, nvm_data, refused_key, refused_seq = _choose(
                nvm, old, seqs)
            carried = best is not None and best is not nvm_data
            newest_file = -1
        old.close()
    if nvm_data is None and best is not None:
        nvm_data = nvm_record(nvm)  # older than the file's newest: its USB flag still counts
    if found & _NEWER:
        damage = DAMAGE_NEWER
    elif found & (_UNREADABLE | _TORN_MORE):
        damage = DAMAGE_UNREADABLE
    else:
        # One torn record and nothing else is the very first save, cut: nothing lost but
        # the moment it held, so nothing to tell.
        damage = DAMAGE_NONE
    return best, best_key, newest_file, nvm_data, refused_key, refused_seq, damage, carried
