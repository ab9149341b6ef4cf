# SPDX-License-Identifier: MIT
"""Flash wear of saves: a scripted hour of play through Saves, erase counts, projected life.

The player is simulated with the engine and a fixed pseudo-random pacing: quick moves,
thinking pauses, long looks, an undo now and then, a menu visit, games won or abandoned and a
daily deal beside the free one. The App's contract is followed exactly: put_slot after every
move, commit(now) every 50 ms poll, commit(force=True) on leaving a game, winning, and
changing a setting. The flash is the simulator's model (host_sim/flash.py): every file write
erases its own 4 KB sector and the sector of its directory entry; nvm erases its 8 KB block.

Reported per hour: records written, nvm erases, the most erases of any one flash sector of
the file ring (data or directory), the longest any change waited for flash (what a power cut
could lose), and the life at 2 hours of play a day with 10,000 erase cycles per sector.
A second run is the worst case, a move every second for the whole hour; a third is
USB-update mode, where nvm alone takes the saves.

    python -m bench.saves
"""

import sys

from host_sim import flash
from freecell_mc import clock, deals, storage
from freecell_mc.engine import Game

POLL_MS = 50
CYCLES = 10000
HOURS_PER_DAY = 2


class _Rand:
    """A small LCG, so every run plays the same hour."""

    def __init__(self, seed):
        self.x = seed

    def next(self, n):
        """Return 0..n-1."""
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _pause_ms(rnd, relentless):
    """Return the time before the next move: the pacing of a real player."""
    if relentless:
        return 1000
    r = rnd.next(100)
    if r < 55:
        return 1500 + rnd.next(2000)  # a quick move, the next is obvious
    if r < 85:
        return 4000 + rnd.next(5000)  # a short think
    if r < 97:
        return 10000 + rnd.next(20000)  # a long look at the table
    return 40000 + rnd.next(50000)  # distracted


def _some_move(g, rnd):
    """Make one legal move (or undo when stuck); return True if the position changed."""
    for _ in range(24):
        src = rnd.next(12)
        if not g.top(src):
            continue
        mask = g.targets(src, 1)
        if mask:
            dsts = [d for d in range(16) if mask >> d & 1]
            return g.move(src, dsts[rnd.next(len(dsts))], 1)
    return g.undo()


def simulate(hours=1, relentless=False, ring=storage.RING, seed=12345, writable=True):
    """Play `hours` through Saves over simulated flash; return a dict of figures.

    writable=False plays with CIRCUITPY left to the computer (USB-update mode): nvm alone.
    """
    blocks = flash.sim_blocks(ring=ring, writable=writable)
    saves = storage.Saves(blocks)
    saves.load()
    rnd = _Rand(seed)
    now = 0
    end = hours * 3600 * 1000
    games = won = moves_total = 0
    worst_wait = 0
    dirty_since = None
    slot = storage.SLOT_FREE
    g = None
    game_moves = 0
    elapsed_ms = 0

    def poll_until(t):
        nonlocal now, worst_wait, dirty_since
        while now < t:
            now += POLL_MS
            if saves.commit(now & 0x1FFFFFFF):
                dirty_since = None
            if dirty_since is not None:
                worst_wait = max(worst_wait, now - dirty_since)

    def force():
        nonlocal dirty_since
        saves.commit(now & 0x1FFFFFFF, force=True)
        dirty_since = None

    while now < end:
        if g is None:
            # A new deal: free most of the time, the daily now and then.
            slot = storage.SLOT_DAILY if rnd.next(6) == 0 else storage.SLOT_FREE
            seed_no = rnd.next(1 << 30)
            g = Game()
            g.deal(deals.seeded_deck(seed_no))
            kind = deals.KIND_DAILY if slot else deals.KIND_SEED
            game_moves = 60 + rnd.next(120)  # how long this player sticks with the deal
            actions = 0
            elapsed_ms = 0
            poll_until(now + 3000)  # looking at the new table
        pause = _pause_ms(rnd, relentless)
        poll_until(now + pause)
        elapsed_ms += pause
        actions += 1
        if _some_move(g, rnd):
            moves_total += 1
            if g.moves == 1:
                saves.stats.record_start()
                games += 1
            saves.put_slot(slot, kind, seed_no, 4, g, elapsed_ms // 1000)
            if dirty_since is None:
                dirty_since = now
        if rnd.next(150) == 0:
            force()  # a visit to the menu
            poll_until(now + 5000)
        if actions >= game_moves:
            if rnd.next(3):  # won (the other deals are left half-played)
                saves.stats.record_win(elapsed_ms // 1000, g.moves)
                if slot == storage.SLOT_DAILY:
                    y, m, d = clock.add_days(2026, 11, 30, won)  # one daily a day
                    saves.stats.mark_day_won(y, m, d)
                saves.clear_slot(slot)
                won += 1
            force()
            g = None
    force()
    nvm, most = flash.total_erases(blocks)
    ring_all = sum(b.erase_count + b.meta_erase_count for b in blocks[1:])
    per_hour_most = most / hours
    per_hour_nvm = nvm / hours
    per_hour_writes = saves.writes / hours

    def life(per_hour):
        return float("inf") if per_hour == 0 else CYCLES / (per_hour * HOURS_PER_DAY * 365)

    return {
        "hours": hours,
        "ring": ring,
        "games": games,
        "won": won,
        "moves": moves_total,
        "writes_per_hour": per_hour_writes,
        "nvm_erases_per_hour": per_hour_nvm,
        "ring_erases_per_hour": ring_all / hours,
        "max_sector_erases_per_hour": per_hour_most,
        "worst_wait_s": worst_wait / 1000,
        "life_ring_years": life(per_hour_most),
        "life_nvm_years": life(per_hour_nvm),
        "checkpoint_s": storage.CHECKPOINT_MS / 1000,
    }


def _report(out, title, r):
    """Print one run's figures."""
    out.write("%s (per hour, over %d h; ring of %d files)\n" % (title, r["hours"], r["ring"]))
    out.write(
        "  games started %d, won %d, moves %d\n" % (r["games"], r["won"], r["moves"])
    )
    out.write("  records written per hour      %8.1f\n" % r["writes_per_hour"])
    out.write("  nvm erases per hour           %8.2f\n" % r["nvm_erases_per_hour"])
    out.write(
        "  file ring erases per hour     %8.1f (data + directory sectors, all files)\n"
        % r["ring_erases_per_hour"]
    )
    out.write("  most erases of one file/dir sector per hour %6.2f\n" % r["max_sector_erases_per_hour"])
    out.write(
        "  longest a change waited for flash %5.1f s (checkpoint %.0f s)\n"
        % (r["worst_wait_s"], r["checkpoint_s"])
    )
    out.write(
        "  projected life at %d h/day, %d cycles: file ring %.1f years, nvm %.1f years\n"
        % (HOURS_PER_DAY, CYCLES, r["life_ring_years"], r["life_nvm_years"])
    )


def run(out=None, hours=10):
    """Play the realistic and the worst-case pacing; print per-hour figures to out.

    Ten hours by default so a single file's erases per hour are an average over several
    turns of the ring, not a count rounded to a whole turn.
    """
    out = sys.stdout if out is None else out
    r = simulate(hours)
    _report(out, "saves: scripted play", r)
    w = simulate(hours, relentless=True)
    _report(out, "saves: worst case, a move every second", w)
    u = simulate(hours, writable=False)
    _report(out, "saves: USB-update mode (CIRCUITPY read-only, nvm alone)", u)
    return r, w, u


if __name__ == "__main__":
    run()
