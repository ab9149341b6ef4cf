# SPDX-License-Identifier: MIT
"""Flash wear of saves over CIRCUITPY's real FAT layout: erases per 4 KB sector, projected life.

The player is simulated with the engine and a fixed pseudo-random pacing: quick moves,
thinking pauses, long looks, an undo now and then, a menu visit, games won or abandoned and a
daily deal beside the free one. The App's contract is followed exactly: put_slot after every
move, set_elapsed and commit(now) every 50 ms poll, commit(force=True) on leaving a game,
winning, and changing a setting, and erase_ahead() at a poll a second or more after the last
touch. The drive is host_sim/fat.py: the 8 MB flash formatted as CircuitPython formats it
(FAT16, 1 KB clusters, data from sector 65, so nothing is 4 KB aligned), the save file made
as the copy tool makes it, the programs a PyPortal holds, CircuitPython's 4 KB sector cache
and FatFs; every erase of every 4 KB sector is counted, the FAT's and the folders' included.

Counting starts once the ring has turned over (the steady state): before that the saves
program flash the computer wrote erased and erase nothing, which flatters the figures. Every
run, the tap storms included, is played tap by tap and poll by poll until the ring has turned
over whole a set number of times (TURNS); its figures are what the flash model counted over
those turns, not a rate worked out from the write budget.

Runs: scripted play; a move every second; two tap storms (Menu after every move, a Settings
switch tapped 5 times a second, each a forced save); the USB switch tapped 5 times a second
(every tap a change for nvm); and USB-update mode, where nvm alone takes the saves.
Reported: the taps played, the forced saves asked for and the records written (whole turns
of the ring); the erases of the save file's 4 KB sectors, the most and the fewest, and those
of every other sector of CIRCUITPY (0: a save erases nothing outside the file); per hour:
records written, nvm erases, erases of the most-erased 4 KB sector of CIRCUITPY, the
longest any change waited for flash (what a power cut could lose), the longest a save
and an erase done ahead kept the flash busy, and the life at 2 hours of play a day with
10,000 erase cycles per sector.

    python -m bench.saves
"""

import sys

from host_sim import hardware, options, savefile
from freecell_mc import dates
from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game
from freecell_mc.saves import policy, record, savelog

POLL_MS = 50
QUIET_MS = 1000  # the App's: erase ahead only this long after the last touch
CYCLES = 10000
HOURS_PER_DAY = 2
PLAY = "scripted play"
RELENTLESS = "a move every second"
MENU_STORM = "tap storm: Menu after every move"
SWITCH_STORM = "tap storm: a Settings switch 5 times a second"
USB_STORM = "tap storm: the USB switch 5 times a second"
USB_MODE = "USB-update mode (CIRCUITPY read-only, nvm alone)"
TURNS = 10  # whole turns of the ring each run is measured over (about ten hours of play)
RING = savelog.RING  # record places of the save file (a test makes the ring small)


class _Rand:
    """A small LCG, so every run plays the same hour."""

    def __init__(self, seed):
        self.x = seed

    def next(self, n):
        """Return 0..n-1."""
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _pause_ms(rnd, kind):
    """Return the time before the next move: the pacing of a real player."""
    if kind == RELENTLESS:
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


class _Run:
    """One simulated board: the saves, the clock, and what is measured."""

    def __init__(self, kind, ring, seed):
        writable = kind != USB_MODE
        self.blocks = hardware.fat_blocks(places=ring, writable=writable)
        self.fl = self.blocks.fs.vol.flash if not writable else self.blocks.fs.flash
        self.saves = policy.Saves(self.blocks)
        self.saves.load()
        self.rnd = _Rand(seed)
        self.kind = kind
        self.now = 0
        self.touch_ms = 0  # the last tap
        self.taps = 0  # taps played (a pick, a drop, a button, a switch)
        self.forced = 0  # forced saves asked for (Menu, a setting, a game's end)
        self.dirty_since = None  # the oldest change not on flash yet
        self.worst_wait = 0
        self.longest_save = 0
        self.longest_erase = 0
        self.quiet_erases = 0
        self.g = None
        self.slot = record.SLOT_FREE
        self.elapsed_ms = 0
        self.games = self.won = self.moves = 0

    def commit(self, force=False):
        """Commit; a write ends the wait of the oldest change, which lasted until it is done."""
        before = self.fl.busy_us
        if self.saves.commit(self.now & 0x1FFFFFFF, force):
            busy = self.fl.busy_us - before
            self.longest_save = max(self.longest_save, busy)
            if self.dirty_since is not None:
                self.worst_wait = max(self.worst_wait, self.now - self.dirty_since + busy // 1000)
            self.dirty_since = None

    def tap(self):
        """Note a tap on the screen now: the erase ahead waits for a quiet second after it.

        A change noted at the instant of a tap (a drop that moves, Menu that saves) is that
        tap, not another."""
        if self.touch_ms != self.now:
            self.taps += 1
        self.touch_ms = self.now

    def changed(self):
        """Note a change the record must take (a move, a tap on a setting)."""
        self.tap()
        if self.dirty_since is None:
            self.dirty_since = self.now

    def poll_until(self, t):
        """Poll every 50 ms up to t: the clock, the saves, the erase ahead when quiet."""
        s = self.saves
        while self.now < t:
            self.now += POLL_MS
            if self.g is not None:
                self.elapsed_ms += POLL_MS
                if self.dirty_since is None:
                    self.dirty_since = self.now  # play time the record does not hold yet
                s.set_elapsed(self.slot, self.elapsed_ms // 1000, self.elapsed_ms % 1000)
            self.commit()
            if self.dirty_since is not None:
                self.worst_wait = max(self.worst_wait, self.now - self.dirty_since)
            if self.now - self.touch_ms >= QUIET_MS and s.erase_due():
                before = self.fl.busy_us
                s.erase_ahead()
                self.quiet_erases += 1
                self.longest_erase = max(self.longest_erase, self.fl.busy_us - before)

    def force(self):
        """A forced save (leaving the table, a setting, a win)."""
        self.forced += 1
        self.commit(True)

    def deal(self):
        """Start a deal: free most of the time, the daily now and then."""
        rnd = self.rnd
        self.slot = record.SLOT_DAILY if rnd.next(6) == 0 else record.SLOT_FREE
        self.seed_no = rnd.next(1 << 30)
        self.g = Game()
        self.g.deal(deals.seeded_deck(self.seed_no))
        self.kind_no = deals.KIND_DAILY if self.slot else deals.KIND_SEED
        self.game_moves = 60 + rnd.next(120)  # how long this player sticks with the deal
        self.actions = 0
        self.elapsed_ms = 0
        self.saves.put_slot(self.slot, self.kind_no, self.seed_no, 4, self.g, 0)
        self.changed()
        self.poll_until(self.now + 3000)  # looking at the new table

    def step(self):
        """Play one action of the run's kind."""
        if self.kind in (SWITCH_STORM, USB_STORM):
            st = self.saves.settings
            if self.kind == SWITCH_STORM:
                st.four_colour = not st.four_colour
            else:
                st.usb_writable = not st.usb_writable
            self.changed()
            self.force()  # App.settings_changed
            self.poll_until(self.now + 200)
            return
        if self.g is None:
            self.deal()
        rnd, g, s = self.rnd, self.g, self.saves
        if self.kind == MENU_STORM:
            # Pick, drop, Menu, Continue: a tap every 250 ms, never a quiet second.
            for _ in range(3):
                self.tap()
                self.poll_until(self.now + 250)
        else:
            self.poll_until(self.now + _pause_ms(rnd, self.kind))
        self.actions += 1
        if _some_move(g, rnd):
            self.moves += 1
            if g.moves == 1:
                s.stats.record_start()
                self.games += 1
            s.put_slot(self.slot, self.kind_no, self.seed_no, 4, g, self.elapsed_ms // 1000, 0,
                       self.elapsed_ms % 1000)
            self.changed()
        if self.kind == MENU_STORM:
            self.force()  # Menu: the table is left, and saved
            self.tap()
            self.poll_until(self.now + 250)
            self.tap()  # Continue
        elif rnd.next(150) == 0:
            self.force()  # a visit to the menu
            keep, self.g = self.g, None
            self.tap()
            self.poll_until(self.now + 5000)
            self.g = keep
            self.tap()
        if self.actions >= self.game_moves:
            if rnd.next(3):  # won (the other deals are left half-played)
                s.stats.record_win(self.elapsed_ms // 1000, g.moves)
                if self.slot == record.SLOT_DAILY:
                    y, m, d = dates.add_days(2026, 11, 30, self.won)  # one daily a day
                    s.stats.mark_day_won(y, m, d)
                s.clear_slot(self.slot)
                self.won += 1
            self.changed()
            self.force()
            self.g = None


def _file_sectors(blocks):
    """Return the 4 KB erase sectors of the flash that hold the save file's clusters."""
    vol = blocks.fs.vol if hasattr(blocks.fs, "vol") else blocks.fs
    return {b // (4096 // savelog.SECTOR) for b in savefile._blocks_of(vol, savelog.LOG_PATH)}


def simulate(kind=PLAY, turns=TURNS, ring=RING, seed=12345, hours=10):
    """Play a run's kind through Saves over the FAT model: once the ring has turned over,
    `turns` more whole turns of it, tap by tap (so every 4 KB sector of the file is counted
    over the same turns; about 10 h of play), or `hours` where nvm alone takes the saves.
    Return a dict of figures."""
    r = _Run(kind, ring, seed)
    s = r.saves
    first_busy = None
    if kind != USB_MODE:
        while s.writes < ring + 2 * savelog.GROUP:  # a full turn, and the first erases ahead
            r.step()
            if first_busy is None and s.writes:
                first_busy = r.longest_save
    start_ms = r.now
    erases0 = list(r.fl.erases)
    nvm0 = r.blocks.nvm.erase_count
    writes0 = s.writes
    r.worst_wait = r.longest_save = r.longest_erase = 0
    r.games = r.won = r.moves = r.taps = r.forced = 0
    end = start_ms + hours * 3600 * 1000
    while (r.now < end) if kind == USB_MODE else (s.writes - writes0 < turns * ring):
        r.step()
    span_h = (r.now - start_ms) / 3600000
    per_sector = [r.fl.erases[i] - erases0[i] for i in range(len(erases0))]
    most = max(per_sector)
    mine = _file_sectors(r.blocks)
    in_file = [per_sector[i] for i in sorted(mine)]
    # The file's first and last sectors hold a guard and the next folder's or file's data
    # besides: no group reaches them. Every other sector of the file holds record places.
    inner = in_file[1:-1]
    per_hour_most = most / span_h
    per_hour_nvm = (r.blocks.nvm.erase_count - nvm0) / span_h

    def life(per_hour):
        return float("inf") if per_hour == 0 else CYCLES / (per_hour * HOURS_PER_DAY * 365)

    return {
        "kind": kind,
        "hours": span_h,
        "turns": 0 if kind == USB_MODE else turns,
        "worst_sector_erases": most,
        "ring": ring,
        "games": r.games,
        "won": r.won,
        "moves": r.moves,
        "taps": r.taps,
        "forced": r.forced,
        "records": s.writes - writes0,
        "file_most": max(inner),
        "file_fewest": min(inner),
        "elsewhere": sum(per_sector) - sum(in_file),
        "writes_per_hour": (s.writes - writes0) / span_h,
        "nvm_erases_per_hour": per_hour_nvm,
        "ring_erases_per_hour": sum(per_sector) / span_h,
        "max_sector_erases_per_hour": per_hour_most,
        "worst_wait_s": r.worst_wait / 1000,
        "longest_save_ms": r.longest_save / 1000,
        "longest_erase_ms": r.longest_erase / 1000,
        "first_save_ms": (first_busy or 0) / 1000,
        "life_ring_years": life(per_hour_most),
        "life_nvm_years": life(per_hour_nvm),
    }


def _report(out, r):
    """Print one run's figures."""
    over = ("%d turns of the ring, %.1f h" % (r["turns"], r["hours"]) if r["turns"]
            else "%.1f h" % r["hours"])
    out.write("saves: %s (per hour, steady state over %s; save file of %d records)\n"
              % (r["kind"], over, r["ring"]))
    if r["moves"]:
        out.write("  games started %d, won %d, moves %d\n" % (r["games"], r["won"], r["moves"]))
    secs = r["hours"] * 3600
    out.write("  played: %d taps (%.2f a second), %d forced saves asked; %d records written"
              % (r["taps"], r["taps"] / secs if secs else 0, r["forced"], r["records"]))
    if r["turns"]:
        out.write(", over %d whole turns of %d places\n" % (r["turns"], r["ring"]))
        out.write("  erases of the save file's 4 KB sectors over those turns: most %d"
                  " (%.2f a turn), fewest %d; of every other sector of CIRCUITPY: %d\n"
                  % (r["file_most"], r["file_most"] / r["turns"], r["file_fewest"],
                     r["elsewhere"]))
    else:
        out.write("\n")
    out.write("  records written per hour        %8.1f\n" % r["writes_per_hour"])
    out.write("  nvm erases per hour             %8.2f\n" % r["nvm_erases_per_hour"])
    out.write("  CIRCUITPY 4 KB erases per hour  %8.1f (every sector, FAT and folders included)\n"
              % r["ring_erases_per_hour"])
    out.write("  most erases of one 4 KB sector per hour %6.2f (%d in all)\n"
              % (r["max_sector_erases_per_hour"], r["worst_sector_erases"]))
    out.write("  longest a change waited until it was on flash %5.2f s\n" % r["worst_wait_s"])
    out.write("  longest a save kept the flash busy %5.0f ms; an erase done ahead %4.0f ms"
              " (first save on a fresh drive %.0f ms)\n"
              % (r["longest_save_ms"], r["longest_erase_ms"], r["first_save_ms"]))
    out.write("  projected life at %d h/day, %d cycles: worst CIRCUITPY sector %.1f years, "
              "nvm %.1f years\n"
              % (HOURS_PER_DAY, CYCLES, r["life_ring_years"], r["life_nvm_years"]))


def run(out=None, turns=None, ring=None):
    """Play every kind of run; print per-hour figures to out; return them.

    TURNS turns of a ring of RING places by default (ten turns, about ten hours), so a
    sector's erases per hour are an average over several turns.
    """
    out = sys.stdout if out is None else out
    turns = TURNS if turns is None else turns
    ring = RING if ring is None else ring
    results = []
    for kind in (PLAY, RELENTLESS, MENU_STORM, SWITCH_STORM, USB_STORM, USB_MODE):
        r = simulate(kind, turns, ring)
        _report(out, r)
        results.append(r)
    return results


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
