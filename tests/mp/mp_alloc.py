# SPDX-License-Identifier: MIT
"""The engine's per-tap operations allocate 0 bytes on MicroPython (SPEC section 7).

Random legal play over several deals visits many positions; at each one every operation is
measured with the collector off: gc.mem_alloc() before and after one call, inside a function
(module globals would grow the globals dict). The largest figure per operation is reported
and must be 0. The harness proves it can see an allocation (bytearray(68)) and that a call
by itself costs nothing.
"""

import gc

from mpcheck import (load_input, emit, check, build_pos, mem_alloc, MICROPYTHON, all_names,
                     legal_moves)
from measure import (a_noop, a_bytearray, a_targets, a_fit, a_move, a_undo, a_capacity,
                     a_finish_available, a_dead_end, a_won, a_run_len, a_column_len,
                     a_column_cards, a_top, a_finish_step)
from freecell_mc.rules.deals import seeded_deck
from freecell_mc import play
from freecell_mc.rules.engine import Game

check(MICROPYTHON and mem_alloc is not None, "this script measures MicroPython's heap")

OPS = ("targets", "fit", "move", "undo", "capacity", "finish_available", "dead_end",
       "won", "run_len", "column_len", "column_cards", "top", "finish_step")
worst = {}
count = {}
for _op in OPS:
    worst[_op] = 0
    count[_op] = 0


def note(op, nbytes):
    """Keep the largest allocation seen for op."""
    count[op] += 1
    if nbytes > worst[op]:
        worst[op] = nbytes


def measure_position(g, buf):
    """Measure every reading operation on the current position."""
    gc.collect()
    gc.disable()
    for slot in range(16):
        note("targets", a_targets(g, slot, 1))
        note("top", a_top(g, slot))
    for col in range(8):
        note("run_len", a_run_len(g, col))
        note("column_len", a_column_len(g, col))
        note("column_cards", a_column_cards(g, col, buf))
        r = g.run_len(col)
        for n in range(2, r + 1):
            note("targets", a_targets(g, col, n))
        for dst in range(16):
            if dst != col:
                note("fit", a_fit(g, col, dst, r if r > 1 else 1))
                if r > 2:
                    note("fit", a_fit(g, col, dst, r - 1))
    note("capacity", a_capacity(g, False))
    note("capacity", a_capacity(g, True))
    note("finish_available", a_finish_available(g))
    note("dead_end", a_dead_end(g))
    note("won", a_won(g))
    gc.enable()


def walk(seed, steps, cells):
    """Play random legal moves from a seeded deal, measuring every step."""
    g = Game(cells=cells, takeback=True)
    g.deal(seeded_deck(seed))
    buf = bytearray(19)
    x = seed % 65537 or 1
    for _ in range(steps):
        measure_position(g, buf)
        moves = legal_moves(g)
        if not moves:
            break
        x = (x * 75 + 74) % 65537
        if x % 6 == 0 and g.history_len():
            gc.collect()
            gc.disable()
            note("undo", a_undo(g))
            gc.enable()
            continue
        src, dst, n = moves[x % len(moves)]
        gc.collect()
        gc.disable()
        note("move", a_move(g, src, dst, n))
        gc.enable()


def finish(cells):
    """From a position one foundation-run from home, measure finish_step to the win."""
    names = []
    for s in "CDHS":
        for r in "KQJT98":
            names.append(r + s)
    # Every suit home up to 7; the rest sits in columns, highest first so the finish works.
    columns = [names[0:6], names[6:12], names[12:18], names[18:24], [], [], [], []]
    g = Game(cells=cells)
    g.load(build_pos(columns, (), (7, 7, 7, 7)))
    check(g.finish_available(), "finish must be available from this position")
    while not g.won():
        gc.collect()
        gc.disable()
        note("finish_step", a_finish_step(g))
        gc.enable()
        measure_position(g, bytearray(19))
    check(g.moves == 24, "finish took %d moves, not 24" % g.moves)
    while g.undo():
        pass
    check(g.moves == 0, "undo brings every finished card back")


def dead_end():
    """A table with full cells and nothing that fits: dead_end() is True, measured."""
    black = ["KC", "KS", "QC", "QS", "JC", "JS", "TC", "TS"]
    cells = ["8D", "8H", "7D", "7H"]
    rest = []
    for name in all_names():
        if name not in black and name not in cells:
            rest.append(name)
    columns = []
    for c in range(8):
        columns.append(rest[c * 6:c * 6 + 6] + [black[c]])
    g = Game(cells=4)
    g.load(build_pos(columns, cells))
    check(g.dead_end(), "full cells and nothing fits must be a dead end")
    measure_position(g, bytearray(19))


def set_aside(g):
    """Return what play.keep() allocates to set g's history aside; give the history back."""
    gc.collect()
    gc.disable()
    before = mem_alloc()
    kept = play.keep(g, [])
    held = mem_alloc() - before
    gc.enable()
    check(g.history_len() == 0 and play.resume(g, kept) is not None, "taken back at once")
    return held


def long_game(count):
    """Shuttle one card count times; return the (log index, bytes) of every move that allocated.

    The first LOG_MOVES moves go into the chunks the Game was built with; past them one
    chunk of CHUNK_MOVES moves is allocated at each chunk's first move, and never else.
    Undo back to the deal allocates nothing.
    """
    names = all_names()
    columns = []
    for i in range(7):
        columns.append(names[i::7])
    columns.append([])
    g = Game(cells=4)
    g.load(build_pos(columns))
    start = bytes(g.pos)
    grew = []
    for i in range(count):
        if i == 0:
            src, dst = 0, 7
        elif i % 2:
            src, dst = 7, 8
        else:
            src, dst = 8, 7
        gc.collect()
        gc.disable()
        nbytes = a_move(g, src, dst, 1)
        gc.enable()
        if nbytes:
            grew.append([i, nbytes])
    # Set aside (another game in the same Game) and taken back: what play.keep() allocates
    # (the history changes hands, so no more for count moves than for one), and the whole
    # history back for undo.
    held = [set_aside(g)]
    short = Game(cells=4)
    short.load(build_pos(columns))
    check(short.move(0, 7), "a first move")
    held.append(set_aside(short))
    kept = play.keep(g, [])
    pos = bytes(g.pos)
    g.deal(seeded_deck(1))
    g.load(pos, count)
    check(g.history_len() == 0 and play.resume(g, kept) is not None,
          "the kept history is taken back")
    check(g.history_len() == count, "all of it")
    kept = None
    undo_worst = 0
    while g.history_len():
        gc.collect()
        gc.disable()
        nbytes = a_undo(g)
        gc.enable()
        if nbytes > undo_worst:
            undo_worst = nbytes
    check(g.moves == 0 and bytes(g.pos) == start, "undo went back to the deal")
    return grew, undo_worst, held


def main():
    """Run the walks the driver asked for and report the worst allocation per operation."""
    data = load_input()
    gc.collect()
    gc.disable()
    base = a_noop(Game)
    seen = a_bytearray()
    gc.enable()
    check(base == 0, "a plain call allocated %d bytes: the harness is off" % base)
    check(seen > 0, "bytearray(68) showed no allocation: the harness is blind")
    emit("harness", [base, seen])
    for seed in data["seeds"]:
        for cells in data["cells"]:
            walk(seed, data["steps"], cells)
    finish(4)
    dead_end()
    grew, undo_worst, held = long_game(data.get("long_game", 0))
    emit("long_game", {"grew": grew, "undo_worst": undo_worst, "kept_heap": held})
    emit("worst", worst)
    emit("count", count)
    for op in OPS:
        check(count[op] > 0, "never measured " + op)
        check(worst[op] == 0, "%s allocates %d bytes" % (op, worst[op]))


main()
