# SPDX-License-Identifier: MIT
"""Property tests: random play conserves the cards, undo is exact, illegal moves change
nothing, finish-available and dead-end agree with exhaustive oracles."""

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game, SLOT_CELL, SLOT_FOUND, SLOTS
from positions import game, position

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def all_cards(g):
    """Return every card byte on the table, read through the public API (52 when sane)."""
    out = []
    buf = bytearray(52)
    for c in range(8):
        n = g.column_cards(c, buf)
        out.extend(buf[:n])
    for i in range(4):
        if g.top(SLOT_CELL + i):
            out.append(g.top(SLOT_CELL + i))
    for s in range(4):
        top = g.top(SLOT_FOUND + s)
        out.extend((r << 2 | s) for r in range(1, (top >> 2) + 1))
    return out


def legal_moves(g):
    """Return every legal (src, dst, n), found by trying each one with move() and undo()."""
    found = []
    before = bytes(g.pos)
    for src in range(SLOTS):
        longest = g.run_len(src) if src < SLOT_CELL else 1
        for n in range(1, longest + 1):
            for dst in range(SLOTS):
                if g.move(src, dst, n):
                    found.append((src, dst, n))
                    assert g.undo()
                    assert bytes(g.pos) == before
    return found


def pick(moves, ch):
    """Return the move choice ch selects, mostly one that does not fill a free cell, so
    random games last long enough to build runs and empty columns."""
    other = [m for m in moves if not SLOT_CELL <= m[1] < SLOT_FOUND]
    pool = other if (ch % 4 and other) else moves
    return pool[(ch // 4) % len(pool)]


def seeded_game(seed, cells, takeback):
    """Return a Game with the seeded deal laid out."""
    g = Game(cells, takeback)
    g.deal(deals.seeded_deck(seed))
    return g


def play(g, choices):
    """Yield the legal move each choice selects, until none is left (the caller makes it)."""
    for ch in choices:
        moves = legal_moves(g)
        if not moves:
            return
        yield pick(moves, ch)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.booleans(),
       st.lists(st.integers(0, 10**6), min_size=1, max_size=150))
def test_random_play_conserves_cards_and_undo_is_exact(seed, cells, takeback, choices):
    history = []
    g = seeded_game(seed, cells, takeback)
    for src, dst, n in play(g, choices):
        mask = g.targets(src, n)
        assert (mask >> dst) & 1
        before = bytes(g.pos)
        count = g.moves
        history.append(before)
        assert g.move(src, dst, n)
        assert g.moves == count + 1
        assert sorted(all_cards(g)) == list(range(4, 56))
        assert bytes(g.pos) != before
        # Undo restores the 68 bytes exactly, then the move is made again.
        assert g.undo() and bytes(g.pos) == before and g.moves == count
        assert g.move(src, dst, n)
        # The position stays loadable: it passes the engine's own sanity check.
        Game(cells, takeback).load(g.pos, g.moves)
        if n > 1:
            event("a run of several cards moved")
    while history:
        assert g.undo()
        assert bytes(g.pos) == history.pop()
    assert not g.undo() and g.moves == 0


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.booleans(),
       st.lists(st.integers(0, 10**6), max_size=25),
       st.lists(st.tuples(st.integers(-1, 17), st.integers(-1, 17), st.integers(0, 14)),
                min_size=1, max_size=40))
def test_illegal_moves_change_nothing(seed, cells, takeback, choices, tries):
    g = seeded_game(seed, cells, takeback)
    for move in play(g, choices):
        assert g.move(*move)
    legal = set(legal_moves(g))
    for src, dst, n in tries:
        before = bytes(g.pos)
        count, kept = g.moves, g.history_len()
        ok = g.move(src, dst, n)
        assert ok == ((src, dst, n) in legal)
        if ok:
            assert g.undo()
        assert bytes(g.pos) == before and g.moves == count and g.history_len() == kept


def endgame(found, order, split, cell_count, cells):
    """Return a Game with foundations at found and the other cards, in order, spread over
    the columns at the split points, the first cell_count of them in free cells."""
    rest = [r << 2 | s for s in range(4) for r in range(found[s] + 1, 14)]
    rest.sort(key=lambda b: order[b - 4])
    k = min(cell_count, cells, len(rest))
    in_cells = rest[:k]
    rest = rest[k:]
    cuts = sorted(x % (len(rest) + 1) for x in split[:7])
    bounds = [0] + cuts + [len(rest)]
    cols = [rest[bounds[c]:bounds[c + 1]] for c in range(8)]
    return game(cols, in_cells, found, cells)


def foundation_only_wins(g):
    """Return True if some order of foundation moves alone wins (exhaustive search)."""
    seen = set()
    stack = [bytes(g.pos)]
    while stack:
        state = stack.pop()
        g.load(state, 0)
        if g.won():
            return True
        for src in range(SLOT_FOUND):
            b = g.top(src)
            if b and g.move(src, SLOT_FOUND + (b & 3), 1):
                nxt = bytes(g.pos)
                g.undo()
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return False


ENDGAME = (
    # At most 4 * 4 = 16 cards left, so no column exceeds the 19 a game can build.
    st.tuples(*[st.integers(9, 13)] * 4),
    st.permutations(range(52)),
    st.lists(st.integers(0, 100), min_size=7, max_size=7),
    st.integers(0, 4),
    st.integers(1, 4),
)


@SETTINGS
@given(*ENDGAME)
def test_finish_available_exactly_when_foundation_moves_win(found, order, split, nc, cells):
    g = endgame(found, order, split, nc, cells)
    start = bytes(g.pos)
    avail = g.finish_available()
    assert bytes(g.pos) == start  # asking changes nothing
    assert avail == foundation_only_wins(g)
    event("finish available" if avail else "finish not available")
    g.load(start, 0)
    left = 52 - sum(found)
    steps = 0
    while g.finish_step():
        steps += 1
    if avail:
        assert g.won() and steps == left == g.moves
        for _ in range(steps):
            assert g.undo()
        assert bytes(g.pos) == start
    else:
        assert not g.won()


def dealt(found, order, cells, reds_last):
    """Return a Game with foundations at found, every cell full and the other cards dealt
    row by row in the order given; with reds_last the red cards are dealt last, so the
    exposed cards and the cells are mostly red and seldom fit anywhere."""
    rest = [r << 2 | s for s in range(4) for r in range(found[s] + 1, 14)]
    rest.sort(key=lambda b: order[b - 4])
    if reds_last:
        rest.sort(key=lambda b: (b ^ (b >> 1)) & 1)
    pos = bytearray(68)
    for i in range(cells):
        pos[60 + i] = rest.pop()
    for k, b in enumerate(rest):
        c = k % 8
        pos[b - 4] = pos[52 + c]
        pos[52 + c] = b
    for s in range(4):
        pos[64 + s] = found[s]
    g = Game(cells)
    g.load(pos, 0)
    return g


@SETTINGS
@given(st.tuples(*[st.integers(0, 4)] * 4), st.permutations(range(52)), st.integers(1, 4),
       st.booleans(), st.booleans())
def test_dead_end_exactly_when_no_legal_move(found, order, cells, reds_last, takeback):
    g = dealt(found, order, cells, reds_last)
    g.takeback = takeback
    dead = g.dead_end()
    assert dead == (not legal_moves(g) and not g.won())
    event("dead end" if dead else "moves left")


def test_dead_end_example():
    # The only cell is full and every available card is red: nothing stacks, no ace is free.
    exposed = [0x0D << 2 | 1, 0x0C << 2 | 1, 0x0B << 2 | 1, 0x0A << 2 | 1,
               0x0D << 2 | 2, 0x0C << 2 | 2, 0x0B << 2 | 2, 0x0A << 2 | 2]
    cell = 9 << 2 | 1
    others = [b for b in range(4, 56) if b not in exposed and b != cell]
    pos = position([others[c::8] + [exposed[c]] for c in range(8)], [cell])
    g = Game(1)
    g.load(pos, 0)
    assert g.dead_end() and not legal_moves(g)
    # Two cells: the second one is empty, so the game goes on.
    g = Game(2)
    g.load(pos, 0)
    assert not g.dead_end() and legal_moves(g)
    # Take back from foundations does not help with nothing on the foundations.
    g = Game(1, True)
    g.load(pos, 0)
    assert g.dead_end()
