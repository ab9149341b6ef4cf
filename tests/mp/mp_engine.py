# SPDX-License-Identifier: MIT
"""Engine behaviour that must hold on both interpreters; the driver runs it on each.

Checks supermove capacity and fit on a built table, a full undo round trip after random play,
the dead end, finish and take-back, then plays the random-play workload on the engine and on
the list-of-lists baseline and reports the checksums (the driver compares them with CPython's).
"""

from mpcheck import load_input, emit, check, build_pos, all_names, legal_moves
from freecell_mc.rules.deals import seeded_deck
from freecell_mc.rules.engine import Game
from bench.workload import playout
from bench import baseline


def supermove_table(cell_card):
    """Return columns (and cells) with a 10-card run JD..2S in column 1 and QC ending column 2."""
    run = ["2C", "JD", "TC", "9D", "8C", "7D", "6C", "5D", "4C", "3D", "2S"]
    cells = [cell_card] if cell_card else []
    rest = []
    for name in all_names():
        if name not in run and name != "QC" and name not in cells:
            rest.append(name)
    columns = [run]
    per = len(rest) // 6
    for c in range(6):
        part = rest[c * per:(c + 1) * per] if c < 5 else rest[5 * per:]
        columns.append(part)
    columns[1] = columns[1] + ["QC"]
    columns.append([])
    return columns, cells


def check_supermoves():
    """Capacity is (1 + empty cells) * 2 ** empty columns; the target column does not count."""
    columns, cells = supermove_table(None)
    g = Game(cells=4)
    start = build_pos(columns, cells)
    g.load(start)
    check(g.run_len(0) == 10, "the run JD..2S is 10 cards")
    check(g.capacity(False) == 10, "4 cells + 1 empty column carry 10 onto a card")
    check(g.capacity(True) == 5, "but only 5 into that empty column")
    check((g.targets(0, 10) >> 1) & 1, "10 cards may go onto QC")
    check(not (g.targets(0, 10) >> 7) & 1, "10 cards may not go into the empty column")
    check((g.targets(0, 5) >> 7) & 1, "5 cards may go into the empty column")
    check(g.fit(0, 7, 10) == 5, "the bottom 5 fit the empty column")
    check(g.fit(0, 1, 10) == 10, "all 10 fit onto QC")
    check(g.move(0, 1, 10), "the supermove is legal")
    check(g.moves == 1, "a supermove counts as one move")
    check(g.column_len(1) == len(columns[1]) + 10, "the run arrived")
    check(g.undo(), "undo the supermove")
    check(bytes(g.pos) == bytes(start) and g.moves == 0, "undo restores the table exactly")
    # Two free cells only: (1 + 2) * 2 = 6 onto a card, 3 into the empty column.
    g2 = Game(cells=2)
    g2.load(start)
    check(g2.capacity(False) == 6 and g2.capacity(True) == 3, "two cells: 6 and 3")
    check(not (g2.targets(0, 10) >> 1) & 1, "10 cards are too many with two cells")
    check(g2.fit(0, 1, 10) == 0, "only the whole run stacks on QC, and it does not fit")
    check(g2.fit(0, 7, 10) == 3, "3 cards fit the empty column")
    # A card in a cell: (1 + 3) * 2 = 8.
    columns, cells = supermove_table("AH")
    g.load(build_pos(columns, cells))
    check(g.capacity(False) == 8, "one cell used: 8 onto a card")
    check(g.fit(0, 7, 10) == 4, "one cell used: 4 into the empty column")
    check(not g.move(0, 1, 10), "an illegal move is refused")
    check(g.moves == 0, "a refused move is not counted")
    return g.capacity(False)


def check_undo_round_trip(seed, steps):
    """Random legal play, then undo everything: the dealt position comes back byte for byte."""
    g = Game(cells=4)
    g.deal(seeded_deck(seed))
    start = bytes(g.pos)
    x = seed % 65537 or 1
    played = 0
    for _ in range(steps):
        moves = legal_moves(g)
        if not moves:
            break
        x = (x * 75 + 74) % 65537
        src, dst, n = moves[x % len(moves)]
        check(g.move(src, dst, n), "a legal target refused the move")
        played += 1
    check(g.moves == played and g.history_len() == played, "every move counted and logged")
    while g.undo():
        pass
    check(bytes(g.pos) == start, "undo all the way back restores the deal")
    check(g.moves == 0, "and the move counter")
    return played


def check_end_states():
    """Dead end, finish and take-back on built tables."""
    black = ["KC", "KS", "QC", "QS", "JC", "JS", "TC", "TS"]
    cells = ["8D", "8H", "7D", "7H"]
    rest = [n for n in all_names() if n not in black and n not in cells]
    columns = [rest[c * 6:c * 6 + 6] + [black[c]] for c in range(8)]
    g = Game(cells=4)
    g.load(build_pos(columns, cells))
    check(g.dead_end() and not g.won(), "full cells, nothing fits: a dead end")
    for src in range(16):
        check(g.targets(src, 1) == 0, "no card has a target in a dead end")

    top = [n for s in "CDHS" for n in (r + s for r in "KQJT98")]
    columns = [top[0:6], top[6:12], top[12:18], top[18:24], [], [], [], []]
    g = Game(cells=4)
    g.load(build_pos(columns, (), (7, 7, 7, 7)))
    check(g.finish_available() and not g.dead_end(), "the rest goes home")
    steps = 0
    while g.finish_step():
        steps += 1
    check(g.won() and steps == 24 and g.moves == 24, "finish brings 24 cards home, one move each")
    check(not g.dead_end(), "a won game is not a dead end")
    check(g.targets(12, 1) == 0, "classic rules: nothing comes back from a foundation")
    g.takeback = True
    check(g.targets(12, 1) != 0, "take-back: the foundation's top card may come back")
    check(g.undo() and not g.won() and g.moves == 23, "undo takes one card back from home")
    return steps


def main():
    """Run the checks, then the workload on both engines, and report."""
    data = load_input()
    emit("capacity", check_supermoves())
    emit("round_trip", [check_undo_round_trip(s, data["round_trip_steps"]) for s in data["seeds"]])
    emit("finish", check_end_states())
    runs = []
    for seed in data["seeds"]:
        deck_of = seeded_deck
        ours = playout(Game(), deck_of, data["playout_steps"], seed)
        theirs = playout(baseline.Game(), deck_of, data["playout_steps"], seed)
        check(list(ours) == list(theirs), "engine and baseline disagree on seed %d" % seed)
        runs.append(list(ours))
    emit("playout", runs)


main()
