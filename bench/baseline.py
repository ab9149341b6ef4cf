# SPDX-License-Identifier: MIT
"""A plain list-of-lists FreeCell engine, written the obvious way, to compare against.

Same public API and the same rules as freecell_mc.rules.engine.Game (slots 0..7 columns, 8..11
cells, 12..15 foundations; targets() returns a bit mask), but a card is a (rank, suit) tuple,
a column is a list, and the undo history is a list of (src, dst, n) tuples. It is what the
68-byte engine is measured against: speed, bytes per game, bytes per move. It also serves the
tests as an independent statement of the rules. Runs on CPython and MicroPython.
"""


def _red(card):
    """Return True for diamonds and hearts (suits 1 and 2 in C D H S order)."""
    return card[1] == 1 or card[1] == 2


class Game:
    """A FreeCell game kept as lists: columns, cells, foundations and a history list."""

    def __init__(self, cells=4, takeback=False):
        """Create an empty table with `cells` free cells (1..4)."""
        if cells < 1 or cells > 4:
            raise ValueError("Free cells must be 1 to 4")
        self.ncells = cells
        self.takeback = takeback
        self.columns = [[] for _ in range(8)]
        self.cells = [None] * cells
        self.foundations = [0, 0, 0, 0]
        self.history = []
        self.moves = 0

    def deal(self, deck):
        """Lay out deck (52 card ids in deal order, card k onto column k % 8)."""
        self.columns = [[] for _ in range(8)]
        for k, cid in enumerate(deck):
            self.columns[k % 8].append((cid // 4 + 1, cid % 4))
        self.cells = [None] * self.ncells
        self.foundations = [0, 0, 0, 0]
        self.history = []
        self.moves = 0

    def run_len(self, col):
        """Return the length of the ordered run at the bottom of column col."""
        column = self.columns[col]
        if not column:
            return 0
        n = 1
        while n < len(column):
            below, above = column[-n], column[-n - 1]
            if above[0] != below[0] + 1 or _red(above) == _red(below):
                break
            n += 1
        return n

    def capacity(self, to_empty):
        """Return (1 + empty cells) * 2 ** empty columns, the target column not counted."""
        free = 1 + sum(1 for c in self.cells if c is None)
        empty = sum(1 for col in self.columns if not col)
        if to_empty and empty:
            empty -= 1
        return free * 2 ** empty

    def _moving_card(self, src, n):
        """Return the top card of the n cards that would leave src, or None."""
        if n < 1:
            return None
        if src < 8:
            if n > self.run_len(src):
                return None
            return self.columns[src][-n]
        if n != 1:
            return None
        if src < 12:
            i = src - 8
            return self.cells[i] if i < self.ncells else None
        if self.takeback and self.foundations[src - 12]:
            return (self.foundations[src - 12], src - 12)
        return None

    def targets(self, src, n=1):
        """Return a bit mask of the slots where the bottom n cards of src may go."""
        if src < 0 or src >= 16:
            return 0
        card = self._moving_card(src, n)
        if card is None:
            return 0
        mask = 0
        for c, column in enumerate(self.columns):
            if c == src:
                continue
            if column:
                on = column[-1]
                if on[0] == card[0] + 1 and _red(on) != _red(card):
                    if n <= self.capacity(False):
                        mask |= 1 << c
            elif n <= self.capacity(True):
                mask |= 1 << c
        if n == 1:
            if src < 8 or src >= 12:
                for i, c in enumerate(self.cells):
                    if c is None:
                        mask |= 1 << (8 + i)
            if src < 12 and self.foundations[card[1]] + 1 == card[0]:
                mask |= 1 << (12 + card[1])
        return mask

    def _take(self, src, n):
        """Remove and return the bottom n cards of src as a list."""
        if src < 8:
            column = self.columns[src]
            cards = column[-n:]
            del column[-n:]
            return cards
        if src < 12:
            card = self.cells[src - 8]
            self.cells[src - 8] = None
            return [card]
        s = src - 12
        card = (self.foundations[s], s)
        self.foundations[s] -= 1
        return [card]

    def _put(self, dst, cards):
        """Place cards on dst."""
        if dst < 8:
            self.columns[dst].extend(cards)
        elif dst < 12:
            self.cells[dst - 8] = cards[0]
        else:
            self.foundations[cards[0][1]] = cards[0][0]

    def move(self, src, dst, n=1):
        """Apply a legal move and return True; else return False."""
        if dst < 0 or dst >= 16 or not (self.targets(src, n) >> dst) & 1:
            return False
        self._put(dst, self._take(src, n))
        self.history.append((src, dst, n))
        self.moves += 1
        return True

    def undo(self):
        """Take back the last move; return True if there was one."""
        if not self.history:
            return False
        src, dst, n = self.history.pop()
        self._put(src, self._take(dst, n))
        if self.moves:
            self.moves -= 1
        return True

    def won(self):
        """Return True when all 52 cards are home."""
        return sum(self.foundations) == 52

    def finish_available(self):
        """Return True if foundation moves alone bring every remaining card home."""
        columns = [list(c) for c in self.columns]
        cells = [c for c in self.cells if c is not None]
        found = list(self.foundations)
        progress = True
        while progress:
            progress = False
            for column in columns:
                while column and found[column[-1][1]] + 1 == column[-1][0]:
                    found[column[-1][1]] += 1
                    column.pop()
                    progress = True
            for card in list(cells):
                if found[card[1]] + 1 == card[0]:
                    found[card[1]] += 1
                    cells.remove(card)
                    progress = True
        return sum(found) == 52

    def dead_end(self):
        """Return True if no legal move exists (and the game is not won)."""
        if self.won():
            return False
        return not any(self.targets(src, 1) for src in range(16))
