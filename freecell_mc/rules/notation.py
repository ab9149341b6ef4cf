# SPDX-License-Identifier: MIT
"""Board text (Freecell Solver's format) and standard move notation, in and out.

Board text: one line per column, first dealt card to exposed card (``JD KD 2S 4C 3S 6D 6S``);
a column line may start with ``: `` and a line holding only ``:`` is an empty column.
Optional lines ``Freecells: AH - - -`` and ``Foundations: H-0 C-0 D-0 S-0``.
Moves: columns ``1``-``8``, cells ``a``-``d``, foundations ``h``; ``38:3`` carries a count.
Nothing here runs per touch, so it may allocate; errors name the line or token.
"""

from freecell_mc.rules import cards
from freecell_mc.compat import const
from freecell_mc.rules.engine import (MAX_COLUMN, NCOLS, POS_SIZE, SLOT_CELL, SLOT_FOUND, Game,
                                      stacks)

# The position layout (engine.py). engine's names are private consts, which MicroPython
# folds away, so they cannot be imported from it.
_UNDER = const(0)
_COLS = const(52)
_CELLS = const(60)
_FOUND = const(64)

_CELL_CHARS = "abcd"
_FOUND_ORDER = "HCDS"
_FOUND_RANKS = "0A23456789TJQK"


def _card_line(no, tok):
    """Return the card byte of token tok on line no; raise ValueError naming both."""
    try:
        return cards.parse_card(tok)
    except ValueError:
        raise ValueError(
            "line %d: '%s' is not a card (expected a rank A23456789TJQK and a suit CDHS)"
            % (no, tok)
        ) from None


def _found_rank(no, tok):
    """Return the rank of a foundation token's rank part (0, A, 2..9, T/10, J, Q, K)."""
    t = tok.upper()
    if t == "10":
        return 10
    if t.isdigit() and 0 <= int(t) <= 13:
        return int(t)
    i = _FOUND_RANKS.find(t) if len(t) == 1 else -1
    if i < 0:
        raise ValueError(
            "line %d: '%s' is not a foundation rank (expected 0, A, 2..9, T, J, Q or K)"
            % (no, tok)
        )
    return i


def _parse_cells(no, rest, ncells):
    """Return the cell card bytes (0 = empty) of a Freecells line's text after the colon."""
    toks = rest.split()
    placeholders = [t for t in toks if t in ("-", "*")]
    if not placeholders and len(toks) < ncells and rest.strip():
        # Freecell Solver prints each cell as a 4-character field and empty ones as blanks.
        fields = [rest[i : i + 4].strip() for i in range(0, len(rest), 4)]
        toks = [f if f else "-" for f in fields]
        while toks and toks[-1] == "-":
            toks.pop()
    out = []
    for tok in toks:
        out.append(0 if tok in ("-", "*") else _card_line(no, tok))
    if len(out) > 4:
        raise ValueError(
            "line %d: %d free cells given, but FreeCell has at most 4" % (no, len(out))
        )
    # A board written with four cells may still be played with fewer when those are empty.
    for i in range(len(out) - 1, -1, -1):
        if i >= ncells and out[i] == 0:
            out.pop()
    if len(out) > ncells:
        raise ValueError(
            "line %d: %d free cells given, but the game has %d" % (no, len(out), ncells)
        )
    return out


def _lines(text):
    """Return the lines of text without line ends (str.splitlines is optional on boards)."""
    return [line.rstrip("\r") for line in text.split("\n")]


def board_cells(text):
    """Return the number of free cells a board text's Freecells line gives, or None."""
    for raw in _lines(text):
        if raw.strip().lower().startswith("freecells:"):
            rest = raw[raw.index(":") + 1 :].rstrip("\r\n")
            toks = rest.split()
            # Freecell Solver right-aligns each cell in 4 characters and leaves empty ones
            # blank: its lines are long or start with two blanks, and say nothing of a count.
            if not any(t in ("-", "*") for t in toks) and (
                len(rest) >= 16 or rest.startswith("  ")
            ):
                return None
            return len(toks) if 1 <= len(toks) <= 4 else None
    return None


def parse_board(text, cells=4):
    """Return the 68-byte position of board text; raise ValueError naming line and problem."""
    if cells < 1 or cells > 4:
        raise ValueError("Free cells must be 1 to 4")
    if text[:1] == "\ufeff":
        text = text[1:]  # a byte-order mark some editors put first is not part of the board
    pos = bytearray(POS_SIZE)
    where = {}
    columns = []
    cells_line = 0
    found_line = 0
    for no, raw in enumerate(_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        low = line.lower()
        if low.startswith("freecells:"):
            if cells_line:
                raise ValueError(
                    "line %d: a second Freecells line (the first is line %d)" % (no, cells_line)
                )
            cells_line = no
            cell_cards = _parse_cells(no, raw[raw.index(":") + 1 :], cells)
            for i, b in enumerate(cell_cards):
                if b:
                    _place(where, b, no)
                    pos[_CELLS + i] = b
            continue
        if low.startswith("foundations:"):
            if found_line:
                raise ValueError(
                    "line %d: a second Foundations line (the first is line %d)" % (no, found_line)
                )
            found_line = no
            for tok in line[line.index(":") + 1 :].split():
                if "-" not in tok:
                    raise ValueError(
                        "line %d: '%s' is not a foundation (expected suit-rank, e.g. H-0)"
                        % (no, tok)
                    )
                s, r = tok.split("-", 1)
                si = cards.SUITS.find(s.upper()) if len(s) == 1 else -1
                if si < 0:
                    raise ValueError(
                        "line %d: '%s' is not a foundation (expected suit C, D, H or S)"
                        % (no, tok)
                    )
                rank = _found_rank(no, r)
                pos[_FOUND + si] = rank
                for k in range(1, rank + 1):
                    _place(where, k << 2 | si, no)
            continue
        if line.startswith(":"):
            line = line[1:].strip()
        # Refused at the line that shows it, without reading the rest of a long text.
        if len(columns) == NCOLS:
            raise ValueError(
                "line %d: a ninth column line (a board has 8; '#' starts a comment)" % no
            )
        toks = line.split()
        if len(toks) > MAX_COLUMN:
            raise ValueError(
                "line %d: %d cards in one column (FreeCell builds at most %d)"
                % (no, len(toks), MAX_COLUMN)
            )
        columns.append((no, toks))
    if len(columns) != NCOLS:
        raise ValueError(
            "expected 8 column lines (':' alone for an empty column), found %d" % len(columns)
        )
    for c, (no, toks) in enumerate(columns):
        under = 0
        for tok in toks:
            b = _card_line(no, tok)
            _place(where, b, no)
            pos[_UNDER + b - 4] = under
            under = b
        pos[_COLS + c] = under
    missing = [cards.card_name(i + 4) for i in range(52) if (i + 4) not in where]
    if missing:
        raise ValueError("cards missing from the board: " + " ".join(missing))
    # A final check by the engine itself, so text and saves obey one definition of sane.
    Game(cells).load(pos, 0)
    return pos


def _place(where, b, no):
    """Record card b as seen on line no; raise ValueError if it was seen before."""
    if b in where:
        raise ValueError(
            "line %d: %s appears twice (first on line %d)" % (no, cards.card_name(b), where[b])
        )
    where[b] = no


def board_text(game, full=None):
    """Return game's board text (cell and foundation lines if full, or if any are used)."""
    # By default those lines appear when a foundation or cell holds a card, or when the game
    # has fewer than 4 cells, so the text says which game it is.
    p = game.pos
    lines = []
    if full is None:
        full = (
            game.cells != 4
            or any(p[_FOUND + s] for s in range(4))
            or any(p[_CELLS + i] for i in range(4))
        )
    if full:
        lines.append(
            "Foundations: "
            + " ".join(
                s + "-" + _FOUND_RANKS[p[_FOUND + cards.SUITS.index(s)]] for s in _FOUND_ORDER
            )
        )
        n = max(game.cells, max([i + 1 for i in range(4) if p[_CELLS + i]] or [0]))
        lines.append(
            "Freecells: "
            + " ".join(cards.card_name(p[_CELLS + i]) if p[_CELLS + i] else "-" for i in range(n))
        )
    buf = bytearray(52)
    for c in range(NCOLS):
        n = game.column_cards(c, buf)
        lines.append(" ".join(cards.card_name(buf[i]) for i in range(n)) if n else ":")
    return "\n".join(lines) + "\n"


def _slot_of(ch):
    """Return the slot of one notation character, or -1."""
    if "1" <= ch <= "8":
        return ord(ch) - 49
    i = _CELL_CHARS.find(ch)
    if i >= 0:
        return SLOT_CELL + i
    if ch == "h":
        return SLOT_FOUND
    return -1


def parse_move(text):
    """Return (src, dst, count) of a move token, count 0 if not given; dst h is SLOT_FOUND."""
    t = text.strip().lower()
    count = 0
    if ":" in t:
        t, n = t.split(":", 1)
        if not n.isdigit() or int(n) < 1:
            raise ValueError("'%s': the count after ':' must be a number of cards" % text)
        count = int(n)
    if len(t) != 2:
        raise ValueError(
            "'%s' is not a move (expected two places from 1-8, a-d, h, e.g. 3a, a3, 3h, 38:3)"
            % text
        )
    src = _slot_of(t[0])
    dst = _slot_of(t[1])
    if src < 0 or dst < 0:
        bad = t[0] if src < 0 else t[1]
        raise ValueError(
            "'%s' is not a move: '%s' is not a place (expected 1-8, a-d or h)" % (text, bad)
        )
    if src == SLOT_FOUND:
        raise ValueError("'%s': cards are not taken from a foundation in this notation" % text)
    if src == dst:
        raise ValueError("'%s' is not a move: the same place twice" % text)
    if count > 1 and (src >= SLOT_CELL or dst >= SLOT_CELL):
        raise ValueError("'%s': only column-to-column moves carry more than one card" % text)
    return src, dst, count


def move_text(src, dst, n=1):
    """Return the standard notation of a move; foundation slots print as h."""

    def place(slot):
        """Return the notation character of a slot."""
        if slot < SLOT_CELL:
            return str(slot + 1)
        if slot < SLOT_FOUND:
            return _CELL_CHARS[slot - SLOT_CELL]
        return "h"

    text = place(src) + place(dst)
    return text + (":%d" % n if n > 1 else "")


def _name_slot(slot):
    """Return a player's name for a slot."""
    if slot < SLOT_CELL:
        return "column %d" % (slot + 1)
    if slot < SLOT_FOUND:
        return "cell %s" % _CELL_CHARS[slot - SLOT_CELL]
    return "the foundation"


def resolve_move(game, text):
    """Return the legal (src, dst, n) that move text means in game; raise ValueError why not."""
    src, dst, count = parse_move(text)
    if dst == SLOT_FOUND:
        b = game.top(src)
        if not b:
            raise ValueError("'%s': %s is empty" % (text, _name_slot(src)))
        dst = SLOT_FOUND + (b & 3)
    for slot in (src, dst):
        if SLOT_CELL <= slot < SLOT_FOUND and slot - SLOT_CELL >= game.cells:
            raise ValueError("'%s': the game has only %d free cells" % (text, game.cells))
    if not game.top(src):
        raise ValueError("'%s': %s is empty" % (text, _name_slot(src)))
    if src < SLOT_CELL and dst < SLOT_CELL:
        run = game.run_len(src)
        t = game.top(dst)
        if count:
            n = count
        elif t:
            # The part of the run that would reach t by rank, so a refusal names the
            # real reason (colour or room) rather than the exposed card.
            k = (t >> 2) - (game.top(src) >> 2)
            n = k if 1 <= k <= run else 1
        else:
            n = game.fit(src, dst, run) or 1
        if n > run:
            raise ValueError(
                "'%s': column %d ends in an ordered run of %d, too short for %d"
                % (text, src + 1, run, n)
            )
    else:
        n = 1
    if not (game.targets(src, n) >> dst) & 1:
        raise ValueError("'%s': %s" % (text, _why_not(game, src, dst, n)))
    return src, dst, n


def _why_not(game, src, dst, n):
    """Return why moving the bottom n cards of src to dst is illegal."""
    b = game.top(src)
    if src < SLOT_CELL and n > 1:
        # The card that would land: the top of the moving run.
        buf = bytearray(52)
        k = game.column_cards(src, buf)
        b = buf[k - n]
    name = cards.card_name(b)
    if SLOT_CELL <= src < SLOT_FOUND and SLOT_CELL <= dst < SLOT_FOUND:
        return "moving a card from cell to cell is not a move"
    if dst >= SLOT_FOUND:
        have = game.pos[_FOUND + (b & 3)]
        return "%s cannot go home: its foundation is at %s" % (name, _FOUND_RANKS[have])
    if dst >= SLOT_CELL:
        return "%s is full" % _name_slot(dst)
    t = game.top(dst)
    if t:
        if not stacks(b, t):
            return "%s does not go on %s" % (name, cards.card_name(t))
        return "%d cards need room to carry them, and only %d can move" % (
            n,
            game.capacity(False),
        )
    return "%d cards need room to carry them into an empty column, and only %d can move" % (
        n,
        game.capacity(True),
    )
