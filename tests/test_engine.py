# SPDX-License-Identifier: MIT
"""Engine: layout, moves, undo, capacity, targets, finish and dead end on known positions."""

import pytest

from freecell_mc import play
from freecell_mc.rules import cards, deals, engine
from freecell_mc.rules.engine import Game, SLOT_CELL, SLOT_FOUND

C = cards.parse_card


def game_of(cols, cells=(), found=(0, 0, 0, 0), ncells=4, takeback=False):
    """Build a Game from column strings (first dealt first), cell names and foundation ranks."""
    g = Game(ncells, takeback)
    pos = bytearray(68)
    for i, line in enumerate(cols):
        under = 0
        for name in line.split():
            b = C(name)
            pos[b - 4] = under
            under = b
        pos[52 + i] = under
    for i, name in enumerate(cells):
        if name != "-":
            pos[60 + i] = C(name)
    for s in range(4):
        pos[64 + s] = found[s]
    g.load(pos, 0)
    return g


def test_deal_layout_ms1():
    g = Game()
    g.deal(deals.ms_deck(1))
    buf = bytearray(19)
    n = g.column_cards(0, buf)
    assert n == 7 and " ".join(cards.card_name(b) for b in buf[:n]) == "JD KD 2S 4C 3S 6D 6S"
    assert [g.column_len(c) for c in range(8)] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert g.top(0) == C("6S") and g.top(SLOT_CELL) == 0 and g.top(SLOT_FOUND) == 0


def test_card_bytes():
    assert cards.card_name(C("td")) == "TD"
    assert C("10h") == C("TH")
    # b - 4 is the Microsoft deck order (the deals and the position's _UNDER index by it).
    assert C("AC") - 4 == 0 and C("AD") - 4 == 1 and C("KS") - 4 == 51
    # The colour bit: a card stacks on one rank higher exactly when the colours differ.
    for s in "CDHS":
        for t in "CDHS":
            assert engine.stacks(C("9" + s), C("T" + t)) == ((s in "DH") != (t in "DH"))
    assert not engine.stacks(C("9H"), C("JS")) and not engine.stacks(C("TH"), C("9S"))
    with pytest.raises(ValueError, match="Not a card"):
        C("1X")


def test_move_undo_and_counter():
    g = Game()
    g.deal(deals.ms_deck(1))
    before = bytes(g.pos)
    assert g.move(0, SLOT_CELL, 1)
    assert g.moves == 1 and g.top(SLOT_CELL) == C("6S") and g.top(0) == C("6D")
    assert not g.move(SLOT_CELL, SLOT_CELL + 1, 1)  # cell to cell is not a move
    assert g.undo() and g.moves == 0 and bytes(g.pos) == before
    assert not g.undo()


def test_capacity_table():
    # Rows: free cells 0..4; columns: 0,1,2 empty columns onto a card, into an empty column.
    table = {0: (1, 2, 4, 1, 2), 1: (2, 4, 8, 2, 4), 2: (3, 6, 12, 3, 6), 3: (4, 8, 16, 4, 8),
             4: (5, 10, 20, 5, 10)}
    for free, row in table.items():
        got = []
        for empty in (0, 1, 2):
            g = spread_game(free, empty)
            got.append(g.capacity(False))
        for empty in (1, 2):
            got.append(spread_game(free, empty).capacity(True))
        assert tuple(got) == row


def spread_game(free_cells, empty_cols):
    """Return a 4-cell game with exactly that many empty cells and empty columns."""
    deck = deals.ms_deck(5)
    names = [cards.card_name(c + 4) for c in deck]
    full = 4 - free_cells
    cells = names[:full]
    rest = names[full:]
    ncols = 8 - empty_cols
    cols = [" ".join(rest[i::ncols]) for i in range(ncols)] + [""] * empty_cols
    return game_of(cols, cells)


def test_run_move_and_undo_as_one():
    # Build a full position: a run QH JC TD onto KC in another column.
    rest = [n for n in all_names() if n not in ("QH", "JC", "TD", "KC")]
    cols = ["QH JC TD", "KC"] + [" ".join(rest[i::6]) for i in range(6)]
    g = game_of(cols)
    assert g.run_len(0) == 3
    assert (g.targets(0, 3) >> 1) & 1
    before = bytes(g.pos)
    assert g.move(0, 1, 3)
    assert g.column_len(0) == 0 and g.column_len(1) == 4 and g.moves == 1
    assert g.undo() and bytes(g.pos) == before and g.moves == 0


def all_names():
    """Return all 52 card names in id order."""
    return [cards.card_name(i + 4) for i in range(52)]


def test_finish_and_won():
    cols = ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
            "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
            "", "", "", ""]
    g = game_of(cols, cells=("AC", "AS"))
    assert g.finish_available() and not g.won() and not g.dead_end()
    steps = 0
    while g.finish_step():
        steps += 1
    assert steps == 52 and g.won() and g.moves == 52 and not g.dead_end()
    for _ in range(52):
        assert g.undo()
    assert g.moves == 0 and not g.won()


def test_finish_not_available_on_cross_block():
    # Each two covers the ace the other two needs: foundation moves alone stall.
    hearts = " ".join(r + "H" for r in "KQJT9876543")
    spades = " ".join(r + "S" for r in "KQJT9876543")
    g = game_of(["AH 2S", "AS 2H", hearts, spades, "", "", "", ""], found=(13, 13, 0, 0))
    assert not g.finish_available()
    g = game_of(["2S AH", "AS 2H", hearts, spades, "", "", "", ""], found=(13, 13, 0, 0))
    assert g.finish_available()


def test_load_rejects_insane_positions():
    g = Game()
    g.deal(deals.ms_deck(1))
    good = bytes(g.pos)
    bad = bytearray(good)
    bad[60] = bad[52]  # exposed card of column 1 also in a cell
    with pytest.raises(ValueError):
        g.load(bad, 0)
    bad = bytearray(good)
    bad[52] = 0  # a column lost
    with pytest.raises(ValueError):
        g.load(bad, 0)
    bad = bytearray(good)
    bad[64] = 14
    with pytest.raises(ValueError):
        g.load(bad, 0)
    with pytest.raises(ValueError):
        g.load(good[:67], 0)
    # Column 1 on top of column 2: 14 cards is fine, but no game builds 20.
    bad = bytearray(good)
    bad[C("JD") - 4] = bad[53]
    bad[53] = 0
    assert g.load(bad, 0) is None and g.column_len(0) == 14
    bad[C("JD") - 4] = 0
    bad[53] = good[53]
    bottom = [bad[52 + c] for c in range(8)]
    chain = bytearray(bad)
    # Stack columns 2 and 3 (7 + 7 cards) onto column 1 (7 cards): 21 cards.
    chain[C("2D") - 4] = bottom[0]
    chain[C("9H") - 4] = bottom[1]
    chain[52] = bottom[2]
    chain[53] = 0
    chain[54] = 0
    with pytest.raises(ValueError, match="more than 19 cards"):
        g.load(chain, 0)
    g.load(good, 7)
    assert g.moves == 7 and g.history_len() == 0


def test_takeback_option():
    hearts = " ".join(r + "H" for r in "KQJT9876543")
    spades = " ".join(r + "S" for r in "KQJT98765")
    cols = ["AH 2S", "AS 2H", hearts, spades, "4S", "3S", "", ""]
    g = game_of(cols, found=(13, 13, 0, 0))
    kc = SLOT_FOUND + 0
    assert g.top(kc) == C("KC") and g.targets(kc, 1) == 0 and not g.move(kc, 6)
    g.takeback = True
    mask = g.targets(kc, 1)
    # KC may go to either empty column or any empty cell, never back onto a foundation.
    assert mask == (1 << 6) | (1 << 7) | (0b1111 << SLOT_CELL)
    before = bytes(g.pos)
    assert g.move(kc, 6) and g.top(6) == C("KC") and g.top(kc) == C("QC") and g.moves == 1
    # The next club down goes on a red king only: none is exposed, so cells and column 8.
    assert g.targets(kc, 1) == (1 << 7) | (0b1111 << SLOT_CELL)
    assert g.move(kc, SLOT_CELL + 2) and g.top(SLOT_CELL + 2) == C("QC")
    assert g.undo() and g.undo() and bytes(g.pos) == before
    # A taken-back card may go home again.
    assert g.move(kc, 6) and g.move(6, kc) and g.top(kc) == C("KC")


def shuttle(g, count, snapshots=None):
    """Make count legal moves: one card shuttles between column 8 and cell a."""
    for _ in range(count):
        k = g.moves
        if k == 0:
            assert g.move(0, 7, 1)
        elif k % 2:
            assert g.move(7, SLOT_CELL, 1)
        else:
            assert g.move(SLOT_CELL, 7, 1)
        if snapshots is not None:
            snapshots[g.moves] = bytes(g.pos)


def shuttle_game():
    """Return a game whose first card of column 1 can shuttle through column 8 and cell a."""
    names = all_names()
    return game_of([" ".join(names[i::7]) for i in range(7)] + [""])


def test_undo_reaches_back_to_the_deal_after_thousands_of_moves():
    g = shuttle_game()
    snapshots = {0: bytes(g.pos)}
    # Far beyond the 2,048 moves logged without allocating: the log grows as it goes.
    shuttle(g, 5000, snapshots)
    assert g.moves == 5000 and g.history_len() == 5000
    for k in range(5000, 0, -1):
        assert g.undo()
        assert g.moves == k - 1 and bytes(g.pos) == snapshots[k - 1]
    assert not g.undo() and g.history_len() == 0


def test_undo_log_costs_1_5_bytes_a_move_and_a_new_deal_gives_the_growth_back():
    g = shuttle_game()
    first = sum(len(c) for c in g._log)
    assert first * 2 == 3 * engine.LOG_MOVES
    shuttle(g, 5000)
    held = sum(len(c) for c in g._log)
    # Whole chunks only: 5,000 moves in as many chunks as they fill, two moves in three bytes.
    chunks = -(-5000 // engine.CHUNK_MOVES)
    assert held == engine.CHUNK_BYTES * chunks and engine.CHUNK_BYTES * 2 == 3 * engine.CHUNK_MOVES
    g.load(bytes(g.pos), 7)
    assert sum(len(c) for c in g._log) == first and g.history_len() == 0


def test_with_no_heap_left_the_oldest_moves_are_forgotten_not_the_move(monkeypatch):
    g = shuttle_game()
    snapshots = {0: bytes(g.pos)}
    shuttle(g, 2048, snapshots)

    def no_heap(n):
        raise MemoryError

    monkeypatch.setattr(engine, "bytearray", no_heap, raising=False)
    shuttle(g, 100, snapshots)  # the move after the 2,048th finds no heap for a chunk
    assert g.moves == 2148
    # The oldest chunk's moves made room: the newer ones can still be taken back, in order.
    oldest = engine.CHUNK_MOVES
    assert g.history_len() == 2148 - oldest
    for k in range(2148, oldest, -1):
        assert g.undo() and bytes(g.pos) == snapshots[k - 1]
    assert not g.undo() and g.moves == oldest


@pytest.mark.parametrize("n", [1, 2, 5, 13])
def test_every_count_of_cards_comes_back_whole_at_both_halves_of_a_pair(n):
    # A move's count is 4 bits beside its neighbour's: every count, at an even and an odd
    # place of a pair, in a chunk and across a chunk's end, undoes exactly.
    g = Game()
    for i in range(engine.CHUNK_MOVES + 3):
        g._count = i + 1  # the move at i is the last
        g._log = [bytearray(engine.CHUNK_BYTES) for _ in range(2)]
        j = i & (engine.CHUNK_MOVES - 1)
        chunk = g._log[i // engine.CHUNK_MOVES]
        o = (j >> 1) * 3
        # Write as move() does, the neighbour of the pair holding another count.
        if j & 1:
            chunk[o + 1] = 9
            chunk[o + 2] = 3 << 4 | 5
            chunk[o + 1] = (chunk[o + 1] & 15) | n << 4
        else:
            chunk[o + 1] = 11 << 4
            chunk[o] = 3 << 4 | 5
            chunk[o + 1] = n | (chunk[o + 1] & 0xF0)
        seen = []
        g._transfer = lambda src, dst, k, seen=seen: seen.append((src, dst, k))
        assert g.undo() and seen == [(5, 3, n)]


def test_cells_beyond_the_count_never_take_a_card():
    g = Game(2)
    g.deal(deals.ms_deck(1))
    assert g.targets(0, 1) >> SLOT_CELL & 0b1111 == 0b0011
    assert not g.move(0, SLOT_CELL + 2) and not g.move(0, SLOT_CELL + 3)
    assert g.capacity(False) == 3
    g.cells = 1
    assert g.targets(0, 1) >> SLOT_CELL & 0b1111 == 0b0001
    with pytest.raises(ValueError, match="Free cells must be 1 to 4"):
        Game(5)


def test_fit_takes_the_part_of_a_run_that_fits():
    used = ("KS", "QH", "JC", "TD", "9S", "JS", "QD")
    rest = [n for n in all_names() if n not in used]
    cols = ["KS QH JC TD 9S", "JS", "QD", ""] + [" ".join(rest[i::4]) for i in range(4)]
    g = game_of(cols)
    assert g.run_len(0) == 5
    assert g.fit(0, 1, 5) == 2  # TD 9S onto JS
    assert g.fit(0, 2, 5) == 3  # JC TD 9S onto QD
    assert g.fit(0, 2, 2) == 0  # the held part is too short to reach QD
    assert g.fit(0, 3, 5) == 5  # into the empty column: capacity (4 + 1) * 2 ** 0 = 5
    # With three cells full the capacity into the empty column is 2.
    g.pos[60], g.pos[61], g.pos[62] = 0, 0, 0
    for i, c in enumerate((4, 5, 6)):
        b = g.pos[52 + c]
        g.pos[52 + c] = g.pos[b - 4]
        g.pos[b - 4] = 0
        g.pos[60 + i] = b
    g.load(bytes(g.pos), 0)
    assert g.capacity(True) == 2 and g.fit(0, 3, 5) == 2 and g.fit(0, 1, 5) == 2
    # Onto a card the empty column counts: (1 + 1) * 2 = 4 carries JC TD 9S onto QD.
    assert g.capacity(False) == 4 and g.fit(0, 2, 5) == 3


def test_a_kept_history_changes_hands_whole_and_undoes_to_the_deal_once_resumed():
    g = shuttle_game()
    snapshots = {0: bytes(g.pos)}
    shuttle(g, 2600, snapshots)  # beyond the chunks the game began with
    log = g._log
    kept = play.keep(g, [])
    # The log itself is kept, not a copy of it; the game goes on with an empty one.
    assert len(log) == -(-2600 // engine.CHUNK_MOVES) > engine.LOG_MOVES // engine.CHUNK_MOVES
    assert kept[2] is log and kept[3] == 2600 and g._log == []
    assert kept[0] == g.pos and kept[1] == g.moves == 2600 and g.history_len() == 0
    pos, moves = bytes(g.pos), g.moves
    # Another game is played in the same Game meanwhile, then this one is loaded again.
    g.deal(deals.ms_deck(5))
    assert g.move(0, SLOT_CELL) and g.history_len() == 1
    g.load(pos, moves)
    assert g.history_len() == 0
    assert play.resume(g, kept) is not None and g.history_len() == 2600
    for k in range(2600, 0, -1):
        assert g.undo() and bytes(g.pos) == snapshots[k - 1] and g.moves == k - 1
    assert not g.undo()


def test_a_short_history_takes_only_the_chunks_its_moves_fill():
    g = shuttle_game()
    shuttle(g, 600)  # the first few chunks of those the game began with
    chunks = list(g._log)
    used = -(-600 // engine.CHUNK_MOVES)
    assert used < len(chunks)
    kept = play.keep(g, [])
    assert kept[2] == chunks[:used] and sorted(map(id, g._log)) == sorted(map(id, chunks[used:]))
    pos, moves = bytes(g.pos), g.moves
    g.deal(deals.ms_deck(5))
    g.load(pos, moves)
    # Taken back, the history's log gets the game's empty chunks up to those it began with.
    assert play.resume(g, kept) is not None and g.history_len() == 600
    assert len(g._log) == len(chunks) and all(any(c is k for k in chunks) for c in g._log)


def test_a_kept_history_is_refused_by_another_position_or_move_count():
    g = shuttle_game()
    shuttle(g, 3)
    kept = play.keep(g, [])
    pos = bytes(g.pos)
    g.load(pos, 4)  # the same cards, another count: not the game that was kept
    assert play.resume(g, kept) is None and g.history_len() == 0
    assert g.move(7, SLOT_CELL + 1)  # another position, the same count as kept
    g.load(bytes(g.pos), 3)
    assert play.resume(g, kept) is None and g.history_len() == 0
    g.load(pos, 3)
    assert play.resume(g, kept) is not None and g.history_len() == 3
    for _ in range(3):
        assert g.undo()
    assert g.moves == 0 and not g.undo()


def test_an_empty_history_keeps_the_position_only():
    g = Game(4)
    g.deal(deals.ms_deck(1))
    kept = play.keep(g, [])
    assert kept[0] == g.pos and kept[3] == 0
    assert play.resume(g, kept) is not None and g.history_len() == 0


def test_a_move_that_finds_no_heap_for_its_log_changes_nothing(monkeypatch):
    # A game handed an empty log (play.keep, when the history set aside filled all the
    # chunks) makes its first chunk at its first move.
    g = Game(4)
    g.deal(deals.ms_deck(1))
    g.trade_history([], 0)
    before = bytes(g.pos)

    def no_heap(n):
        raise MemoryError

    monkeypatch.setattr(engine, "bytearray", no_heap, raising=False)
    with pytest.raises(MemoryError):
        g.move(0, SLOT_CELL)
    assert bytes(g.pos) == before and g.moves == 0 and g.history_len() == 0
    monkeypatch.undo()
    assert g.move(0, SLOT_CELL) and g.history_len() == 1 and g.undo()
