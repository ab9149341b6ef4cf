# SPDX-License-Identifier: MIT
"""Game: the 68-byte FreeCell position, legal moves, the undo log, finish and dead end.

The whole mutable position is one bytearray(68) (a card byte is ``rank << 2 | suit``,
0 = no card; see cards.py)::

    bytes 0..51   _UNDER  indexed by card id (byte - 4): the byte of the card directly
                          beneath it in its column; 0 = first card of its column, or the
                          card is not in a column at all
    bytes 52..59  _COLS   column i: byte of its exposed (uncovered) card; 0 = empty column
    bytes 60..63  _CELLS  free cell i: card byte; 0 = empty (cells >= self.cells stay 0)
    bytes 64..67  _FOUND  foundation of suit s: its top rank 0..13

Slots are small ints: 0..7 columns, 8..11 cells, 12..15 the foundation of suit slot - 12.
A move (src, dst, n) is logged in 12 bits, ``src << 4 | dst`` in a byte and ``n`` (1..13) in
half of one, two moves in 3 bytes; undo replays it backwards. The log is a list of 384-byte
chunks (256 moves each): the first LOG_MOVES moves of a game go into chunks allocated with
the Game, and a longer game gets one more chunk per 256 moves (1.5 bytes a move, amortised),
so undo reaches back to the deal however long the game. Should the heap refuse a chunk,
the oldest one is reused and its 256 moves are forgotten instead of the move failing.
Every method after ``deal``/``load`` allocates nothing on MicroPython (but for that one
chunk per 256 moves beyond LOG_MOVES): loops over range(), small-int bit masks,
preallocated scratch buffers.
"""

from freecell_mc.compat import const

_UNDER = const(0)
_COLS = const(52)
_CELLS = const(60)
_FOUND = const(64)
POS_SIZE = const(68)

SLOT_COL = const(0)
SLOT_CELL = const(8)
SLOT_FOUND = const(12)
NCOLS = const(8)
MAX_CELLS = const(4)
SLOTS = const(16)

# Undo log chunks: 256 moves, two in 3 bytes (a pair: the first's src << 4 | dst, both
# counts of cards as the low and high halves of a byte, the second's src << 4 | dst), so
# 384 bytes: small enough for a fragmented heap to find, large enough that a chunk's own
# object header (16 bytes) stays near 4% of it. With 768-byte chunks of 512 moves the day
# of play's Titano lost a chunk of its history at a heap of 128,256 bytes (a 768-byte gap
# was not there); with 384 every heap from 128,000 up runs (docs/memory.md).
CHUNK_MOVES = const(256)
CHUNK_BYTES = const(384)
_CHUNK_SHIFT = const(8)
_CHUNK_MASK = const(255)
# Moves logged without any allocation while playing (the SPEC asks that at least 2,000 be
# kept; beyond them the log grows).
LOG_MOVES = const(2048)
_FIRST_CHUNKS = const(8)

# All foundations full: 52 cards home.
_ALL_HOME = const(52)

# The tallest possible column: 7 dealt cards under a full K..2 run.
MAX_COLUMN = const(19)


def stacks(b, on):
    """Return True if card b may lie on card on in a column: one rank lower, other colour.

    The game's one statement of the rule (cards.py: red is ``(b ^ (b >> 1)) & 1``, so the
    colours differ exactly when the xor of the two colour bits is 1).
    """
    return (on >> 2) == (b >> 2) + 1 and ((b ^ (b >> 1) ^ on ^ (on >> 1)) & 1) == 1


class Game:
    """A FreeCell game: position, move counter and undo log."""

    def __init__(self, cells=4, takeback=False):
        """Create an empty table with `cells` free cells (1..4)."""
        if cells < 1 or cells > MAX_CELLS:
            raise ValueError("Free cells must be 1 to 4")
        self.cells = cells
        self.takeback = takeback
        self.pos = bytearray(POS_SIZE)
        self.moves = 0
        self._log = []
        for _ in range(_FIRST_CHUNKS):
            self._log.append(bytearray(CHUNK_BYTES))
        self._count = 0  # undoable moves held in the log, oldest first
        # Scratch for finish_available: simulated column bottoms and foundation ranks.
        self._sim = bytearray(NCOLS + 4)
        # Scratch for load(): which card ids were seen.
        self._seen = bytearray(52)
        self.last_src = -1
        self.last_dst = -1
        self.last_n = 0

    # -- setting up -------------------------------------------------------------------

    def deal(self, deck):
        """Lay out deck (52 card ids in deal order, card k onto column k % 8); clear undo."""
        if len(deck) != 52:
            raise ValueError("A deck has 52 cards")
        p = self.pos
        for i in range(POS_SIZE):
            p[i] = 0
        seen = self._seen
        for i in range(52):
            seen[i] = 0
        for k in range(52):
            cid = deck[k]
            if cid < 0 or cid > 51 or seen[cid]:
                raise ValueError("A deck holds each of the 52 cards once")
            seen[cid] = 1
            col = _COLS + (k & 7)
            p[_UNDER + cid] = p[col]
            p[col] = cid + 4
        self._reset(0)

    def load(self, pos, moves=0):
        """Take over a saved position (68 bytes) and move count; raise ValueError if insane."""
        if len(pos) != POS_SIZE:
            raise ValueError("A position is 68 bytes")
        seen = self._seen
        for i in range(52):
            seen[i] = 0
        for s in range(4):
            top = pos[_FOUND + s]
            if top > 13:
                raise ValueError("Foundation rank above king")
            for r in range(1, top + 1):
                seen[(r << 2 | s) - 4] = 1
        for i in range(MAX_CELLS):
            b = pos[_CELLS + i]
            if b == 0:
                continue
            if b < 4 or b > 55:
                raise ValueError("Not a card in a free cell")
            if i >= self.cells:
                raise ValueError("A card in a free cell that is switched off")
            if seen[b - 4]:
                raise ValueError("A card is in two places")
            if pos[_UNDER + b - 4]:
                raise ValueError("A free cell card has a card beneath it")
            seen[b - 4] = 1
        for c in range(NCOLS):
            b = pos[_COLS + c]
            steps = 0
            while b:
                if b < 4 or b > 55:
                    raise ValueError("Not a card in a column")
                if seen[b - 4]:
                    raise ValueError("A card is in two places")
                seen[b - 4] = 1
                steps += 1
                if steps > MAX_COLUMN:
                    # No game builds a longer column, and the table has room for 19 only.
                    raise ValueError("A column holds more than 19 cards")
                b = pos[_UNDER + b - 4]
        for i in range(52):
            if not seen[i]:
                raise ValueError("A card is missing")
        # Cards outside columns must have no card beneath them, or undo would resurrect one.
        for s in range(4):
            for r in range(1, pos[_FOUND + s] + 1):
                if pos[_UNDER + (r << 2 | s) - 4]:
                    raise ValueError("A foundation card has a card beneath it")
        if moves < 0:
            raise ValueError("The move count is negative")
        self.pos[:] = pos
        self._reset(moves)

    def _reset(self, moves):
        """Start counting at moves with an empty undo log (a long last game's chunks go)."""
        self.moves = moves
        if len(self._log) > _FIRST_CHUNKS:
            del self._log[_FIRST_CHUNKS:]
        self._count = 0
        self.last_src = -1
        self.last_dst = -1
        self.last_n = 0

    def history_len(self):
        """Return how many moves undo can take back."""
        return self._count

    def trade_history(self, log, count):
        """Take log, a list of chunks holding count moves that undo this very position
        (as trade_history gave them, or [] and 0), as the undo history; return the history
        held until now as (log, count). Nothing is copied: a history changes hands whole."""
        old = (self._log, self._count)
        self._log = log
        self._count = count
        return old

    # -- reading the table -------------------------------------------------------------

    def column_len(self, col):
        """Return the number of cards in column col."""
        p = self.pos
        b = p[_COLS + col]
        n = 0
        while b:
            n += 1
            b = p[_UNDER + b - 4]
        return n

    def column_cards(self, col, buf):
        """Fill buf with column col's cards, first dealt to exposed; return the count."""
        p = self.pos
        n = self.column_len(col)
        b = p[_COLS + col]
        i = n
        while b:
            i -= 1
            buf[i] = b
            b = p[_UNDER + b - 4]
        return n

    def run_len(self, col):
        """Return the length of the ordered run at the bottom of column col (0 if empty)."""
        p = self.pos
        b = p[_COLS + col]
        if not b:
            return 0
        n = 1
        u = p[_UNDER + b - 4]
        # Ordered: each card stacks on the one beneath it.
        while u and stacks(b, u):
            n += 1
            b = u
            u = p[_UNDER + b - 4]
        return n

    def top(self, slot):
        """Return the exposed card of a column, a cell's card or a foundation's top card."""
        if slot < SLOT_CELL:
            return self.pos[_COLS + slot]
        if slot < SLOT_FOUND:
            return self.pos[_CELLS + slot - SLOT_CELL]
        s = slot - SLOT_FOUND
        r = self.pos[_FOUND + s]
        return (r << 2 | s) if r else 0

    def _card_at(self, col, n):
        """Return the card n deep from the bottom of column col (n = 1 is the exposed card)."""
        p = self.pos
        b = p[_COLS + col]
        while n > 1 and b:
            b = p[_UNDER + b - 4]
            n -= 1
        return b

    def capacity(self, to_empty):
        """Return (1 + empty cells) * 2 ** empty columns; the empty target column not counted."""
        p = self.pos
        free = 1
        for i in range(self.cells):
            if not p[_CELLS + i]:
                free += 1
        shift = 0
        for c in range(NCOLS):
            if not p[_COLS + c]:
                shift += 1
        if to_empty and shift:
            shift -= 1
        return free << shift

    def _source_ok(self, src, n):
        """Return the top card of the n cards leaving src, or 0 if src cannot give them."""
        if n < 1:
            return 0
        if src < SLOT_CELL:
            if n > self.run_len(src):
                return 0
            return self._card_at(src, n)
        if n != 1:
            return 0
        if src < SLOT_FOUND:
            return self.pos[_CELLS + src - SLOT_CELL]
        if src < SLOTS and self.takeback:
            return self.top(src)
        return 0

    def targets(self, src, n=1):
        """Return a bit mask of the slots where the bottom n cards of src may legally go."""
        if src < 0 or src >= SLOTS:
            return 0
        b = self._source_ok(src, n)
        if not b:
            return 0
        p = self.pos
        mask = 0
        cap_on = 0
        cap_empty = 0
        if n > 1:
            cap_on = self.capacity(False)
            # Used only when there is an empty column, which then is not counted: half.
            cap_empty = cap_on >> 1
        for c in range(NCOLS):
            if c == src:
                continue
            t = p[_COLS + c]
            if t:
                if stacks(b, t):
                    if n == 1 or n <= cap_on:
                        mask |= 1 << c
            elif n == 1 or n <= cap_empty:
                mask |= 1 << c
        if n == 1:
            # Cell to cell is no move at all: it changes nothing that matters.
            if src < SLOT_CELL or src >= SLOT_FOUND:
                for i in range(self.cells):
                    if not p[_CELLS + i]:
                        mask |= 1 << (SLOT_CELL + i)
            if src < SLOT_FOUND:
                s = b & 3
                if p[_FOUND + s] + 1 == (b >> 2):
                    mask |= 1 << (SLOT_FOUND + s)
        return mask

    def fit(self, src, dst, n):
        """Return the largest k <= n whose bottom-k cards may go src -> dst, else 0.

        For move notation without a card count (SPEC 8); a tap never moves part of a run.
        """
        if src < SLOT_CELL and dst < SLOT_CELL and n > 1:
            run = self.run_len(src)
            if n > run:
                n = run
            t = self.pos[_COLS + dst]
            if t:
                # Only one depth can stack on t: the card one rank below it.
                k = (t >> 2) - (self.pos[_COLS + src] >> 2)
                if k < 1 or k > n:
                    return 0
                return k if (self.targets(src, k) >> dst) & 1 else 0
            # Into an empty column any part of the run goes that the capacity carries.
            cap = self.capacity(True)
            if n > cap:
                n = cap
            if n > 1:
                return n
        if n >= 1 and (self.targets(src, 1) >> dst) & 1:
            return 1
        return 0

    # -- changing the table ------------------------------------------------------------

    def _transfer(self, src, dst, n):
        """Carry the bottom n cards from src to dst without asking the rules."""
        p = self.pos
        if src < SLOT_CELL:
            bottom = p[_COLS + src]
            b = bottom
            for _ in range(n - 1):
                b = p[_UNDER + b - 4]
            p[_COLS + src] = p[_UNDER + b - 4]
        elif src < SLOT_FOUND:
            b = p[_CELLS + src - SLOT_CELL]
            p[_CELLS + src - SLOT_CELL] = 0
            bottom = b
        else:
            s = src - SLOT_FOUND
            b = p[_FOUND + s] << 2 | s
            p[_FOUND + s] -= 1
            bottom = b
        # b is the top card of the moving group, bottom its exposed card.
        if dst < SLOT_CELL:
            p[_UNDER + b - 4] = p[_COLS + dst]
            p[_COLS + dst] = bottom
        elif dst < SLOT_FOUND:
            p[_UNDER + b - 4] = 0
            p[_CELLS + dst - SLOT_CELL] = b
        else:
            p[_UNDER + b - 4] = 0
            p[_FOUND + (b & 3)] = b >> 2
        self.last_src = src
        self.last_dst = dst
        self.last_n = n

    def move(self, src, dst, n=1):
        """Apply a legal move, log and count it and return True; else change nothing."""
        if dst < 0 or dst >= SLOTS or not (self.targets(src, n) >> dst) & 1:
            return False
        i = self._count
        if (i >> _CHUNK_SHIFT) == len(self._log):
            i = self._grow()  # first: should it raise, the position is as it was
        self._transfer(src, dst, n)
        chunk = self._log[i >> _CHUNK_SHIFT]
        j = i & _CHUNK_MASK
        o = (j >> 1) * 3  # the pair's first byte
        if j & 1:
            chunk[o + 2] = src << 4 | dst
            chunk[o + 1] = (chunk[o + 1] & 15) | n << 4
        else:
            chunk[o] = src << 4 | dst
            chunk[o + 1] = n  # the pair's second count comes with its move
        self._count = i + 1
        self.moves += 1
        return True

    def _grow(self):
        """Make room for one more chunk of moves; return the log index of the next move."""
        log = self._log
        try:
            log.append(bytearray(CHUNK_BYTES))
        except MemoryError:
            if not log:
                raise  # a log handed over empty (trade_history) and no chunk to start it
            # No heap for more history: the oldest chunk's moves make room for the next ones.
            # The chunks rotate by assignment, which needs no heap at all.
            first = log[0]
            last = len(log) - 1
            for k in range(last):
                log[k] = log[k + 1]
            log[last] = first
            self._count -= CHUNK_MOVES
        return self._count

    def undo(self):
        """Take back the last move (a run as one move); return True if there was one."""
        i = self._count - 1
        if i < 0:
            return False
        chunk = self._log[i >> _CHUNK_SHIFT]
        j = i & _CHUNK_MASK
        o = (j >> 1) * 3
        if j & 1:
            sd = chunk[o + 2]
            n = chunk[o + 1] >> 4
        else:
            sd = chunk[o]
            n = chunk[o + 1] & 15
        self._transfer(sd & 15, sd >> 4, n)
        self._count = i
        if self.moves:
            self.moves -= 1
        return True

    # -- the state of the game ---------------------------------------------------------

    def won(self):
        """Return True when all 52 cards are on the foundations."""
        p = self.pos
        return p[_FOUND] + p[_FOUND + 1] + p[_FOUND + 2] + p[_FOUND + 3] == _ALL_HOME

    def finish_available(self):
        """Return True if foundation moves alone bring every remaining card home."""
        p = self.pos
        sim = self._sim
        for c in range(NCOLS):
            sim[c] = p[_COLS + c]
        for s in range(4):
            sim[NCOLS + s] = p[_FOUND + s]
        # Foundation moves never block each other, so playing any available one greedily
        # until nothing moves decides it.
        progress = True
        while progress:
            progress = False
            for c in range(NCOLS):
                b = sim[c]
                while b and sim[NCOLS + (b & 3)] + 1 == (b >> 2):
                    sim[NCOLS + (b & 3)] += 1
                    b = p[_UNDER + b - 4]
                    progress = True
                sim[c] = b
            for i in range(MAX_CELLS):
                b = p[_CELLS + i]
                if b and sim[NCOLS + (b & 3)] + 1 == (b >> 2):
                    sim[NCOLS + (b & 3)] += 1
                    progress = True
        return sim[NCOLS] + sim[NCOLS + 1] + sim[NCOLS + 2] + sim[NCOLS + 3] == _ALL_HOME

    def finish_step(self):
        """Send the lowest available card that fits home as one move; return it, or 0."""
        p = self.pos
        best = 0
        src = -1
        for slot in range(SLOT_FOUND):
            b = p[_COLS + slot] if slot < SLOT_CELL else p[_CELLS + slot - SLOT_CELL]
            if b and p[_FOUND + (b & 3)] + 1 == (b >> 2) and (not best or b < best):
                best = b
                src = slot
        if best and self.move(src, SLOT_FOUND + (best & 3), 1):
            return best
        return 0

    def dead_end(self):
        """Return True if no legal move exists at all (and the game is not won)."""
        if self.won():
            return False
        # With an empty cell or column the capacity is > 1 only when a single card can
        # move anyway, so single-card moves decide it.
        for src in range(SLOTS):
            if self.targets(src, 1):
                return False
        return True
