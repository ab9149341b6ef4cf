# SPDX-License-Identifier: MIT
"""The random-play workload: the same engine calls in the same order on any Game-like engine.

Runs unchanged on CPython and MicroPython, on freecell_mc.rules.engine.Game and on the list-of-lists
baseline (bench/baseline.py). Each step asks what a player's taps ask: the legal targets of
every card that can move, the finish check and the dead-end check; then it plays one of the
legal moves, chosen by a small LCG, and now and then takes one back. The checksum covers every
answer, so two engines that agree on the rules produce the same checksum.

The LCG stays below 2**24 so MicroPython never needs a long int for it (those allocate).
"""

_SLOTS = 16
_COLS = 8
# Random play rarely ends; a fresh deal now and then keeps the positions varied.
_MAX_MOVES = 150


def _lcg(x):
    """Return the next state of the ZX81 LCG (x < 65537 stays small on every port)."""
    return (x * 75 + 74) % 65537


def playout(game, deck_of, steps, seed=1):
    """Play `steps` steps of random legal play; return (engine calls, checksum, last deal).

    :param game: a Game-like engine (deal, targets, run_len, move, undo, won,
        finish_available, dead_end)
    :param deck_of: function returning the deck (52 card ids) of deal number i; the
        workload plays deals seed, seed + 1, ...
    """
    x = seed % 65537 or 1
    deal_no = seed
    game.deal(deck_of(deal_no))
    calls = 1
    check = 0
    for _ in range(steps):
        # Choose among all legal (src, n, dst) as the table shows them: n = 1 for every slot,
        # plus the whole bottom run of each column.
        count = 0
        for src in range(_SLOTS):
            m = game.targets(src, 1)
            calls += 1
            check = (check * 33 + m) % 1000003
            while m:
                m &= m - 1
                count += 1
        for col in range(_COLS):
            r = game.run_len(col)
            calls += 1
            if r > 1:
                m = game.targets(col, r)
                calls += 1
                check = (check * 33 + m) % 1000003
                while m:
                    m &= m - 1
                    count += 1
        fin = game.finish_available()
        dead = game.dead_end()
        calls += 2
        check = (check * 33 + (2 if fin else 0) + (1 if dead else 0)) % 1000003
        # A dead end, a win or a long wander: go on with the next deal.
        if count == 0 or game.won() or game.moves >= _MAX_MOVES:
            calls += 1
            deal_no += 1
            game.deal(deck_of(deal_no))
            calls += 1
            continue
        x = _lcg(x)
        if x % 5 == 0:
            calls += 1
            if game.undo():
                continue
        pick = x % count
        done = False
        for src in range(_SLOTS):
            m = game.targets(src, 1)
            calls += 1
            for dst in range(_SLOTS):
                if (m >> dst) & 1:
                    if pick == 0:
                        done = game.move(src, dst, 1)
                        calls += 1
                    pick -= 1
            if pick < 0:
                break
        if not done:
            for col in range(_COLS):
                r = game.run_len(col)
                calls += 1
                if r > 1:
                    m = game.targets(col, r)
                    calls += 1
                    for dst in range(_SLOTS):
                        if (m >> dst) & 1:
                            if pick == 0:
                                done = game.move(col, dst, r)
                                calls += 1
                            pick -= 1
                if pick < 0:
                    break
        if not done:
            raise AssertionError("a legal target refused the move")
        check = (check * 33 + game.moves) % 1000003
    return calls, check, deal_no
