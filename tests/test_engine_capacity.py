# SPDX-License-Identifier: MIT
"""Sequence capacity: the formula equals a card-by-card carry search on real positions."""

from collections import deque

import pytest

from freecell_mc.rules import cards
from freecell_mc.rules.engine import SLOT_CELL, stacks
from positions import game

C = cards.parse_card
ONTO_CARD = ("KS", "QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D AS".split())
INTO_EMPTY = (None, "KH QC JD TS 9H 8C 7D 6S 5H 4C 3D 2S AH".split())
SRC, DST = 0, 1


def position(n, free_cells, empty_cols, to_empty):
    """Return a Game: a run of n in column 1 over a card it does not stack on, a target in
    column 2 (a king, or empty), exactly free_cells empty cells and empty_cols empty columns
    (the empty target among them), every other card packed into the remaining columns."""
    target, run = INTO_EMPTY if to_empty else ONTO_CARD
    run = [C(x) for x in run[:n]]
    used = set(run)
    if target:
        used.add(C(target))
    rest = [b for b in range(4, 56) if b not in used]
    base = next(b for b in rest if not stacks(run[0], b))
    rest.remove(base)
    cols = [[base] + run, [C(target)] if target else []]
    others = 6 - (empty_cols - (1 if to_empty else 0))
    cells = rest[: 4 - free_cells]
    rest = rest[4 - free_cells :]
    for i in range(others):
        cols.append(rest[i::others])
    return game(cols, cells), run


def carry_card_by_card(g, run):
    """Return True if single-card moves through empty cells and columns carry the run from
    column SRC onto column DST (breadth-first over every reachable position)."""
    run_set = set(run)
    want = g.column_len(DST) + len(run)
    free_cols = [c for c in range(8) if c in (SRC, DST) or g.column_len(c) == 0]
    start = bytes(g.pos)
    seen = {start}
    todo = deque([start])
    while todo:
        state = todo.popleft()
        g.load(state, 0)
        if g.top(DST) == run[-1] and g.column_len(DST) == want:
            return True
        for src in free_cols + list(range(SLOT_CELL, SLOT_CELL + 4)):
            if g.top(src) not in run_set:
                continue
            mask = g.targets(src, 1)
            for dst in free_cols + list(range(SLOT_CELL, SLOT_CELL + 4)):
                if (mask >> dst) & 1:
                    assert g.move(src, dst, 1)
                    nxt = bytes(g.pos)
                    g.undo()
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
    return False


CASES = [
    (fc, ec, False) for fc in range(5) for ec in range(3) if (fc + 1) << ec <= 12
] + [(fc, ec, True) for fc in range(5) for ec in (1, 2, 3) if (fc + 1) << (ec - 1) <= 12]
# The two searches that take seconds each, where the others take a fraction of one.
CASES = [pytest.param(*c, marks=pytest.mark.slow) if c in ((2, 3, True), (4, 2, True)) else c
         for c in CASES]


@pytest.mark.parametrize("free_cells,empty_cols,to_empty", CASES)
def test_capacity_equals_card_by_card_search(free_cells, empty_cols, to_empty):
    expect = (free_cells + 1) << (empty_cols - (1 if to_empty else 0))
    g, _ = position(1, free_cells, empty_cols, to_empty)
    assert g.capacity(to_empty) == expect
    longest = len(INTO_EMPTY[1] if to_empty else ONTO_CARD[1])
    # The boundary: the capacity carries, one more card does not (when such a run exists).
    for n in (expect, expect + 1):
        if n > longest:
            continue
        g, run = position(n, free_cells, empty_cols, to_empty)
        searched = carry_card_by_card(g, run)
        g, run = position(n, free_cells, empty_cols, to_empty)
        assert g.run_len(SRC) == n
        assert searched == (n <= expect)
        assert bool((g.targets(SRC, n) >> DST) & 1) == searched
        assert g.fit(SRC, DST, n) == (n if searched else (expect if to_empty else 0))


def test_spec_table_from_seed_001():
    # 4 empty cells + 1 empty column: 10 cards onto a card, only 5 into that empty column.
    g, _ = position(1, 4, 1, False)
    assert g.capacity(False) == 10
    g, _ = position(1, 4, 1, True)
    assert g.capacity(True) == 5


def test_removed_cells_do_not_count():
    g, _ = position(1, 4, 0, False)
    for cells, cap in ((4, 5), (3, 4), (2, 3), (1, 2)):
        g.cells = cells
        assert g.capacity(False) == cap
