# SPDX-License-Identifier: MIT
"""Helpers shared by the MicroPython test scripts (they also run under CPython).

A script reads its input from the JSON file named in sys.argv[1] and reports each result as
one line ``RESULT <json>``; the pytest driver compares the lines of both interpreters.
"""

import json
import sys

try:
    from gc import mem_alloc
except ImportError:
    # CPython has no allocation counter: scripts that measure run on MicroPython only.
    mem_alloc = None

# CircuitPython is MicroPython underneath: the same gc.mem_alloc and collector.
MICROPYTHON = sys.implementation.name in ("micropython", "circuitpython")


def load_input():
    """Return the decoded input JSON, or None when the script was given none."""
    if len(sys.argv) < 2:
        return None
    with open(sys.argv[1]) as f:
        return json.load(f)


def emit(name, value):
    """Report one named result to the driver."""
    print("RESULT " + json.dumps([name, value]))


def check(cond, what):
    """Raise AssertionError(what) unless cond: MicroPython's assert has no rich diff."""
    if not cond:
        raise AssertionError(what)


def build_pos(columns, cells=(), found=(0, 0, 0, 0)):
    """Return a 68-byte position from column card names (first dealt first), cells, found.

    :param columns: 8 lists of card names such as "KS"
    :param cells: up to 4 card names or None
    :param found: top rank per suit C D H S
    """
    from freecell_mc.rules.cards import parse_card

    pos = bytearray(68)
    for c in range(8):
        under = 0
        for name in columns[c]:
            b = parse_card(name)
            pos[b - 4] = under
            under = b
        pos[52 + c] = under
    for i in range(len(cells)):
        if cells[i]:
            pos[60 + i] = parse_card(cells[i])
    for s in range(4):
        pos[64 + s] = found[s]
    return pos


def all_names():
    """Return the 52 card names in card-id order."""
    ranks = "A23456789TJQK"
    suits = "CDHS"
    out = []
    for cid in range(52):
        out.append(ranks[cid // 4] + suits[cid % 4])
    return out


def legal_moves(g):
    """Return the (src, dst, n) a player could make in Game g: every single card, every
    whole run (allocates; never inside a measurement)."""
    out = []
    for src in range(16):
        m = g.targets(src, 1)
        for dst in range(16):
            if (m >> dst) & 1:
                out.append((src, dst, 1))
    for col in range(8):
        r = g.run_len(col)
        if r > 1:
            m = g.targets(col, r)
            for dst in range(16):
                if (m >> dst) & 1:
                    out.append((col, dst, r))
    return out
