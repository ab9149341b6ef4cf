# SPDX-License-Identifier: MIT
"""The engine's figures on MicroPython: heap per import, bytes per game, per operation, speed.

Run by bench/__main__.py through tests/mp/run.mjs (with bench/workload.py and
bench/baseline.py); prints ``RESULT <json>`` lines that the host formats. Allocation is
measured with the collector off around one call, inside a function. Heap figures are taken
at the start of a phase (``# mp-phase``): in this MicroPython build a collection frees only
garbage made before the current top-level call, so the figure never counts the compiler's
garbage or that of the code being measured.
"""

import gc
import json
import time

from gc import mem_alloc

STEPS = 1500


def emit(name, value):
    """Report one named figure to the host."""
    print("RESULT " + json.dumps([name, value]))


def heap_now():
    """Return the bytes in use after a full collection."""
    gc.collect()
    return mem_alloc()


_costs = []
_pending = [None, 0]


def _import(name):
    """Record the heap, then import freecell_mc.name; _settle() in the next phase measures it."""
    _pending[0] = name
    _pending[1] = heap_now()
    try:
        __import__("freecell_mc." + name)
    except ImportError:
        _pending[0] = None


def _settle():
    """Note what the previous phase's import kept, its garbage already freed."""
    if _pending[0] is not None:
        _costs.append([_pending[0], heap_now() - _pending[1]])
    _pending[0] = None


def play(g, moves):
    """Make up to `moves` random legal single-card moves without redealing; return how many."""
    n = 0
    x = 7
    while n < moves:
        m, src, dst, k = _pick(g, x)
        if m == 0:
            break
        g.move(src, dst, k)
        n += 1
        x = (x * 75 + 74) % 65537
    return n


def _pick(g, x):
    """Return (number of legal moves, src, dst, n) of the x-th legal single-card move."""
    count = 0
    for src in range(16):
        m = g.targets(src, 1)
        while m:
            m &= m - 1
            count += 1
    if not count:
        return 0, 0, 0, 0
    pick = x % count
    for src in range(16):
        m = g.targets(src, 1)
        for dst in range(16):
            if (m >> dst) & 1:
                if pick == 0:
                    return count, src, dst, 1
                pick -= 1
    return 0, 0, 0, 0


def deal_bytes(g):
    """Return bytes allocated by dealing: a seeded deck, a Microsoft deck, Game.deal()."""
    from freecell_mc.rules import deals

    gc.collect()
    gc.disable()
    a = mem_alloc()
    deck = deals.seeded_deck(20261130)
    b = mem_alloc()
    deals.ms_deck(11982)
    c = mem_alloc()
    g.deal(deck)
    d = mem_alloc()
    gc.enable()
    return [b - a, c - b, d - c]


def op_bytes(g):
    """Return {op: bytes} for one mid-game position of g."""
    # tests/mp/measure.py, which the runner puts on the path; imported here, after the
    # import costs are taken, so that its names never count in them.
    from measure import a_capacity, a_dead_end, a_finish_available, a_move, a_targets, a_undo

    _, src, dst, _ = _pick(g, 3)
    gc.collect()
    gc.disable()
    mv = a_move(g, src, dst, 1)
    un = a_undo(g)
    targets = 0
    for slot in range(16):
        targets += a_targets(g, slot, 1)
    out = {"targets": targets // 16, "move": mv, "undo": un, "capacity": a_capacity(g, False),
           "finish_available": a_finish_available(g), "dead_end": a_dead_end(g)}
    gc.enable()
    return out


_best = {}


def speed(name, make, deck_of):
    """Time the random-play workload once; keep the best [engine calls, microseconds]."""
    from bench.workload import playout

    g = make()
    t = time.ticks_us()
    calls, _, _ = playout(g, deck_of, STEPS, 1)
    us = time.ticks_diff(time.ticks_us(), t)
    if name not in _best or us < _best[name][1]:
        _best[name] = [calls, us]


# mp-phase
# (an empty phase: the big code object of the definitions above is freed before BASE)
# Every global is bound now: a new name later would grow the globals dict inside a figure.
BASE = G0 = G1 = G = G_MOVES = B0 = B1 = B = B_MOVES = DECK = None
Game = seeded_deck = baseline = None
# mp-phase
BASE = heap_now()
_import("rules.engine")
# mp-phase
_settle()
emit("heap_after_engine", heap_now() - BASE)
_import("dates")
# mp-phase
_settle()
_import("rules.cards")
# mp-phase
_settle()
_import("rules.deals")
# mp-phase
_settle()
_import("rules.notation")
# mp-phase
_settle()
_import("saves.record")
# mp-phase
_settle()
_import("saves.savelog")
# mp-phase
_settle()
_import("saves.policy")
# mp-phase
_settle()
_import("hardware.clock")
# mp-phase
_settle()
_import("saves.stats")
# mp-phase
_settle()
_import("hardware.taps")
# mp-phase
_settle()
_import("ui.layout")
# mp-phase
_settle()
emit("imports", _costs)
emit("heap_after_pure_modules", heap_now() - BASE)
# Imported after the import figures, so they count none of these; the names were bound to None
# above, so binding them here does not grow the globals dict.
from freecell_mc.rules.deals import seeded_deck  # noqa: E402, F811  (after the import figures; bound to None above)
from freecell_mc.rules.engine import Game  # noqa: E402, F811  (after the import figures; bound to None above)
from bench import baseline  # noqa: E402, F811  (after the import figures; bound to None above)

DECK = seeded_deck(1)
# mp-phase
G0 = heap_now()
G = Game()
G.deal(DECK)
# mp-phase
G1 = heap_now()
G_MOVES = play(G, 100)
# mp-phase
emit("game_bytes", [G1 - G0, heap_now() - G0, G_MOVES])
emit("ops", op_bytes(G))
emit("deal_bytes", deal_bytes(Game()))
del G
# mp-phase
B0 = heap_now()
B = baseline.Game()
B.deal(DECK)
# mp-phase
B1 = heap_now()
B_MOVES = play(B, 100)
# mp-phase
emit("baseline_game_bytes", [B1 - B0, heap_now() - B0, B_MOVES])
emit("baseline_ops", op_bytes(B))
del B
# Alternate the two engines, one run per phase so each starts with the garbage freed.
# mp-phase
speed("speed", Game, seeded_deck)
# mp-phase
speed("baseline_speed", baseline.Game, seeded_deck)
# mp-phase
speed("speed", Game, seeded_deck)
# mp-phase
speed("baseline_speed", baseline.Game, seeded_deck)
# mp-phase
speed("speed", Game, seeded_deck)
# mp-phase
speed("baseline_speed", baseline.Game, seeded_deck)
# mp-phase
emit("speed", _best["speed"])
emit("baseline_speed", _best["baseline_speed"])
