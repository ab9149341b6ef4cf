# SPDX-License-Identifier: MIT
"""Flash wear of saves over CIRCUITPY's real FAT layout: erases per 4 KB sector, projected life.

The player is simulated with the engine and a fixed pseudo-random pacing: quick moves,
thinking pauses, long looks, an undo now and then, a menu visit, games won or abandoned and a
daily deal beside the free one. The App's contract is followed exactly: put_slot after every
move, set_elapsed and commit(now) every 50 ms poll, commit(force=True) on leaving a game,
winning, and changing a setting. The drive is host_sim/fat.py: the 8 MB flash formatted as
CircuitPython formats it (FAT16, 1 KB clusters, data from sector 65, so nothing is 4 KB
aligned), the programs a PyPortal holds, CircuitPython's 4 KB sector cache and FatFs
writing the save file; every erase of every 4 KB sector is counted, the FAT's and the
folders' included. Making the save file (once per drive) is counted apart.

Reported per hour: records written, nvm erases, erases of the most-erased 4 KB sector of
CIRCUITPY, the longest any change waited for flash (what a power cut could lose), the
longest a save kept the flash busy, and the life at 2 hours of play a day with 10,000 erase
cycles per sector. A second run is the worst case, a move every second for the whole time;
a third is USB-update mode, where nvm alone takes the saves.

    python -m bench.saves
"""

import sys

from host_sim import hardware, options
from freecell_mc import dates
from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game
from freecell_mc.saves import policy, record, savelog

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


def simulate(hours=1, relentless=False, ring=savelog.RING, seed=12345, writable=True):
    """Play `hours` through Saves over the FAT model; return a dict of figures.

    writable=False plays with CIRCUITPY left to the computer (USB-update mode): nvm alone.
    """
    blocks = hardware.fat_blocks(places=ring, writable=writable)
    fl = blocks.fs.vol.flash if not writable else blocks.fs.flash
    saves = policy.Saves(blocks)
    saves.load()
    rnd = _Rand(seed)
    now = 0
    end = hours * 3600 * 1000
    games = won = moves_total = 0
    worst_wait = 0
    dirty_since = None
    slot = record.SLOT_FREE
    g = None
    game_moves = 0
    elapsed_ms = 0
    made = [None]  # erases per sector once the save file exists (making it is apart)
    busiest = [0]

    def commit(force=False):
        """Commit; a write ends the wait of the oldest change, which lasted until it is done."""
        nonlocal worst_wait, dirty_since
        before = fl.busy_us
        wrote = saves.commit(now & 0x1FFFFFFF, force)
        if wrote:
            busy = fl.busy_us - before
            if made[0] is None and writable:
                made[0] = (list(fl.erases), busy)  # making the file: once per drive
            else:
                busiest[0] = max(busiest[0], busy)
                if dirty_since is not None:
                    worst_wait = max(worst_wait, now - dirty_since + busy // 1000)
            dirty_since = None
        return wrote

    def poll_until(t):
        nonlocal now, worst_wait, elapsed_ms, dirty_since
        while now < t:
            now += POLL_MS
            if g is not None:
                elapsed_ms += POLL_MS
                sec = elapsed_ms // 1000
                if sec != (elapsed_ms - POLL_MS) // 1000 and dirty_since is None:
                    dirty_since = now  # a second of play the record does not hold yet
                saves.set_elapsed(slot, sec)
            commit()
            if dirty_since is not None:
                worst_wait = max(worst_wait, now - dirty_since)

    def force():
        nonlocal dirty_since
        commit(True)
        dirty_since = None

    while now < end:
        if g is None:
            # A new deal: free most of the time, the daily now and then.
            slot = record.SLOT_DAILY if rnd.next(6) == 0 else record.SLOT_FREE
            seed_no = rnd.next(1 << 30)
            g = Game()
            g.deal(deals.seeded_deck(seed_no))
            kind = deals.KIND_DAILY if slot else deals.KIND_SEED
            game_moves = 60 + rnd.next(120)  # how long this player sticks with the deal
            actions = 0
            elapsed_ms = 0
            saves.put_slot(slot, kind, seed_no, 4, g, 0)
            poll_until(now + 3000)  # looking at the new table
        pause = _pause_ms(rnd, relentless)
        poll_until(now + pause)
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
            g_keep, g = g, None
            poll_until(now + 5000)
            g = g_keep
        if actions >= game_moves:
            if rnd.next(3):  # won (the other deals are left half-played)
                saves.stats.record_win(elapsed_ms // 1000, g.moves)
                if slot == record.SLOT_DAILY:
                    y, m, d = dates.add_days(2026, 11, 30, won)  # one daily a day
                    saves.stats.mark_day_won(y, m, d)
                saves.clear_slot(slot)
                won += 1
            force()
            g = None
    force()
    base = made[0][0] if made[0] is not None else [0] * len(fl.erases)
    per_sector = [fl.erases[i] - base[i] for i in range(len(base))]
    most = max(per_sector)
    nvm = blocks.nvm.erase_count
    per_hour_most = most / hours
    per_hour_nvm = nvm / hours

    def life(per_hour):
        return float("inf") if per_hour == 0 else CYCLES / (per_hour * HOURS_PER_DAY * 365)

    return {
        "hours": hours,
        "ring": ring,
        "games": games,
        "won": won,
        "moves": moves_total,
        "writes_per_hour": saves.writes / hours,
        "nvm_erases_per_hour": per_hour_nvm,
        "ring_erases_per_hour": sum(per_sector) / hours,
        "max_sector_erases_per_hour": per_hour_most,
        "worst_sector": per_sector.index(most) if most else None,
        "worst_wait_s": worst_wait / 1000,
        "longest_save_ms": busiest[0] / 1000,
        "first_save_ms": made[0][1] / 1000 if made[0] is not None else 0,
        "life_ring_years": life(per_hour_most),
        "life_nvm_years": life(per_hour_nvm),
        "checkpoint_s": policy.CHECKPOINT_MS / 1000,
    }


def _report(out, title, r):
    """Print one run's figures."""
    out.write(
        "%s (per hour, over %d h; save file of %d records)\n" % (title, r["hours"], r["ring"])
    )
    out.write("  games started %d, won %d, moves %d\n" % (r["games"], r["won"], r["moves"]))
    out.write("  records written per hour      %8.1f\n" % r["writes_per_hour"])
    out.write("  nvm erases per hour           %8.2f\n" % r["nvm_erases_per_hour"])
    out.write(
        "  CIRCUITPY 4 KB erases per hour %7.1f (every sector, FAT and folders included)\n"
        % r["ring_erases_per_hour"]
    )
    out.write(
        "  most erases of one 4 KB sector per hour %6.2f\n" % r["max_sector_erases_per_hour"]
    )
    out.write(
        "  longest a change waited until it was on flash %5.2f s (checkpoint %.1f s)\n"
        % (r["worst_wait_s"], r["checkpoint_s"])
    )
    out.write(
        "  longest a save kept the flash busy %5.0f ms (making the save file: %.0f ms, once)\n"
        % (r["longest_save_ms"], r["first_save_ms"])
    )
    out.write(
        "  projected life at %d h/day, %d cycles: worst CIRCUITPY sector %.1f years, "
        "nvm %.1f years\n"
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


def build_parser():
    """Return the command line's parser: it takes no arguments."""
    return options.Parser(prog="python -m bench.saves", description=__doc__.split("\n")[0])


def main(argv=None):
    """Print the figures; return the exit code (2: arguments, which it takes none of)."""
    p = build_parser()
    p.parse_args(sys.argv[1:] if argv is None else argv)
    run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
