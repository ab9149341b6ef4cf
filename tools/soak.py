# SPDX-License-Identifier: MIT
"""The soak: random touches through the headless simulator, across every screen.

    python -m tools.soak --touches 100000            (the full run; ./dev soak does this)
    python -m tools.soak --touches 3000 --seed 7     (the short run in the test suite)

The real code.py runs on the simulated PyPortal; instead of a script, a seeded random
finger plays it: quick taps, long presses, jittery presses, one-poll blips, readings
below the pressure threshold, points far off the screen, and now and then a key. A
third of the taps aim at a button of the current screen or a card of the table, so the
run reaches every screen and makes moves rather than tapping felt.

After every poll the position is checked (52 distinct cards, each exactly once, the
linked columns consistent with the 68-byte layout); the live object count is sampled
after warm-up whenever the table is showing. The run fails on any exception, any broken
position, or a live-object count that keeps growing. It prints its figures at the end.
"""

import gc
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE_EVERY = 500  # touches between live-object samples
GROWTH_LIMIT = 400  # live objects the table may gain between warm-up and the end


_RESET = ("reset",)  # yielded by the gesture generator to ask read() for a hard reset


class SoakFailure(AssertionError):  # noqa: N818  (kept: renaming touches 20 places, the tests too)
    """The game broke an invariant during the soak."""


def check_position(game):
    """Raise SoakFailure unless the game's 68 bytes hold 52 distinct cards once each."""
    pos = game.pos
    seen = bytearray(53)
    buf = bytearray(24)
    total = 0
    for col in range(8):
        n = game.column_cards(col, buf)
        if n != game.column_len(col):
            raise SoakFailure("column %d: column_cards %d != column_len %d"
                              % (col, n, game.column_len(col)))
        for i in range(n):
            b = buf[i]
            if not 4 <= b <= 55:
                raise SoakFailure("column %d holds byte %d" % (col, b))
            cid = b - 4
            if seen[cid]:
                raise SoakFailure("card %d seen twice" % cid)
            seen[cid] = 1
            total += 1
            # _UNDER: the byte beneath each card; the first card of a column has 0.
            want = buf[i - 1] if i else 0
            if pos[cid] != want:
                raise SoakFailure("card %d: under byte %d, expected %d" % (cid, pos[cid], want))
        if pos[52 + col] != (buf[n - 1] if n else 0):
            raise SoakFailure("column %d: exposed byte does not match" % col)
    for c in range(4):
        b = pos[60 + c]
        if b:
            if c >= game.cells:
                raise SoakFailure("cell %d used with %d cells" % (c, game.cells))
            cid = b - 4
            if seen[cid]:
                raise SoakFailure("card %d seen twice (cell)" % cid)
            seen[cid] = 1
            total += 1
            if pos[cid] != 0:
                raise SoakFailure("cell card %d has an under byte" % cid)
    for s in range(4):
        top = pos[64 + s]
        if top > 13:
            raise SoakFailure("foundation %d at rank %d" % (s, top))
        for r in range(1, top + 1):
            cid = (r - 1) * 4 + s
            if seen[cid]:
                raise SoakFailure("card %d seen twice (foundation)" % cid)
            seen[cid] = 1
            total += 1
    if total != 52:
        raise SoakFailure("%d cards on the table, not 52" % total)


class Finger:
    """A touch source for the simulator: seeded random gestures, checks between polls."""

    KEYS = ("esc", "esc", "u", "z", "n", "r", "d", "f", "enter", "back", "1", "7", "0")

    def __init__(self, sim, touches, seed, warmup, log=None):
        self.sim = sim
        self.touches = touches
        self.rng = random.Random(seed)
        self.warmup = warmup
        self.log = log
        self.done = 0
        self.polls = 0
        self.moves = 0
        self.checks = 0
        self.refreshes = 0
        self.resets = 0
        self.screens = {}
        self.last_screen = None
        self.last_pos = None
        self.last_moves = 0
        self.samples = []  # (touch, live objects) on the table after warm-up
        self._gen = self._play()

    # --- the game as it runs ---------------------------------------------------------

    def _app(self):
        from freecell_mc.app import App

        return App.current

    def _observe(self):
        """Between two polls: note the screen, check the position when it changed."""
        app = self._app()
        if app is None:
            return
        screen = getattr(app, "screen", None)
        name = getattr(screen, "name", None)
        if name != self.last_screen:
            self.screens[name] = self.screens.get(name, 0) + 1
            self.last_screen = name
        game = app.game
        if game is None:
            return
        pos = bytes(game.pos)
        if pos != self.last_pos:
            check_position(game)
            self.checks += 1
            if game.moves > self.last_moves:
                self.moves += game.moves - self.last_moves
            self.last_pos = pos
        self.last_moves = game.moves

    def read(self):
        """Return this poll's reading (the simulator calls it once per poll)."""
        self.polls += 1
        self._observe()
        try:
            reading = next(self._gen)
        except StopIteration:
            from host_sim.script import ScriptEnd

            raise ScriptEnd() from None
        if reading is _RESET:
            from host_sim import fakes

            self.last_pos = None
            self.last_moves = 0
            raise fakes.HardReset()
        return reading

    # --- gestures ------------------------------------------------------------------------

    def _target(self):
        """Return a point worth tapping: a button of this screen or a card/slot of the table."""
        app = self._app()
        rng = self.rng
        if app is None:
            return None
        screen = app.screen
        buttons = getattr(screen, "buttons", None)
        if buttons:
            live = [b for b in buttons if not b.hidden and b.enabled]
            if live:
                b = rng.choice(live)
                return (b.x + rng.randrange(max(1, b.w)), b.y + rng.randrange(max(1, b.h)))
        table = getattr(app, "table", None)
        if screen is table and table is not None and app.game is not None:
            slot = rng.randrange(16)
            if slot < 8:
                n = app.game.column_len(slot)
                idx = rng.randrange(n) if n else -1
                return table.tap_point(slot, idx)
            return table.tap_point(slot, 0)
        return None

    def _move_taps(self):
        """Tap a movable card, then (usually) one of the places it may legally go."""
        rng = self.rng
        app = self._app()
        table = getattr(app, "table", None) if app else None
        if app is None or table is None or app.screen is not table or app.game is None:
            return
        game = app.game
        srcs = [s for s in range(12) if game.top(s)]
        if not srcs:
            return
        src = rng.choice(srcs)
        n = 1
        if src < 8:
            n = rng.randint(1, max(1, game.run_len(src)))
            x, y = table.tap_point(src, game.column_len(src) - n)
        else:
            x, y = table.tap_point(src, 0)
        yield from self._press(x, y, rng.randint(3, 6))
        yield from self._idle(rng.randint(6, 10))
        mask = game.targets(src, n)
        dsts = [d for d in range(16) if mask >> d & 1]
        if dsts and rng.random() < 0.9:
            dst = rng.choice(dsts)
        else:
            dst = rng.randrange(16)
        x, y = table.tap_point(dst, -1 if dst < 8 else 0)
        yield from self._press(x, y, rng.randint(3, 6))
        yield from self._idle(rng.randint(6, 10))

    def _press(self, x, y, polls, z=32000):
        for _ in range(polls):
            yield (x, y, z)

    def _idle(self, polls):
        for _ in range(polls):
            yield None

    def _play(self):
        rng = self.rng
        sim = self.sim
        w, h = sim.width, sim.height
        while self.done < self.touches:
            self.done += 1
            if self.done % SAMPLE_EVERY == 0:
                self._sample()
            r = rng.random()
            if r < 0.0005:
                # Power off and on: the RTC forgets the date, boot.py and code.py run
                # again, the game comes back from its saves (and asks for the date).
                self.resets += 1
                yield _RESET
                continue
            if r < 0.15:
                yield from self._move_taps()
                continue
            if r < 0.35:
                p = self._target() or (rng.randrange(w), rng.randrange(h))
                yield from self._press(p[0], p[1], rng.randint(3, 8))
                yield from self._idle(rng.randint(5, 12))
            elif r < 0.65:
                yield from self._press(rng.randrange(w), rng.randrange(h), rng.randint(2, 8))
                yield from self._idle(rng.randint(3, 12))
            elif r < 0.73:
                # A jittery finger: the reading wanders a few pixels while pressed.
                x, y = rng.randrange(w), rng.randrange(h)
                for _ in range(rng.randint(3, 12)):
                    yield (x + rng.randint(-8, 8), y + rng.randint(-8, 8),
                           rng.randint(15000, 40000))
                yield from self._idle(rng.randint(1, 12))
            elif r < 0.79:
                # A one-poll blip, then release: noise, not a tap.
                yield (rng.randrange(w), rng.randrange(h), 32000)
                yield from self._idle(rng.randint(1, 4))
            elif r < 0.85:
                # Out of range: far off the panel, negative, or huge.
                x = rng.choice((rng.randint(-5000, -1), rng.randint(w, w + 5000), rng.randrange(w)))
                y = rng.choice((rng.randint(-5000, -1), rng.randint(h, h + 5000)))
                yield from self._press(x, y, rng.randint(1, 8))
                yield from self._idle(rng.randint(2, 10))
            elif r < 0.89:
                # Too light: below the panel's pressure threshold.
                yield from self._press(rng.randrange(w), rng.randrange(h), rng.randint(2, 8),
                                       z=rng.randint(0, 9000))
                yield from self._idle(rng.randint(2, 8))
            elif r < 0.93:
                # A long press.
                x, y = rng.randrange(w), rng.randrange(h)
                yield from self._press(x, y, rng.randint(30, 150))
                yield from self._idle(rng.randint(5, 12))
            elif r < 0.97:
                # Taps in quick succession with barely a gap.
                for _ in range(rng.randint(2, 5)):
                    yield from self._press(rng.randrange(w), rng.randrange(h), rng.randint(1, 3))
                    yield from self._idle(rng.randint(0, 2))
                yield from self._idle(8)
            else:
                sim.keys.push(rng.choice(self.KEYS))
                yield from self._idle(3)
        yield from self._idle(20)
        self._sample(final=True)

    def _sample(self, final=False):
        """Record the live object count when the table is showing (after warm-up)."""
        # The simulator logs every refreshed area; that log is the harness's, not the
        # game's, so it is counted and emptied rather than mistaken for a leak.
        log = getattr(self.sim.display, "refreshes", None)
        if log is not None:
            self.refreshes += sum(1 for a in log if a)
            del log[:]
        if self.done < self.warmup and not final:
            return
        app = self._app()
        if app is None or getattr(app, "screen", None) is not getattr(app, "table", None):
            if not final:
                return
        gc.collect()
        n = len(gc.get_objects())
        self.samples.append((self.done, n, getattr(app.screen, "name", None) if app else None))
        if self.log:
            self.log("  touch %d: %d live objects (%s)" % self.samples[-1])


def sparse(display, every):
    """Make display draw pixels on one refresh in every `every` (all when every <= 1).

    Blinka renders in pure Python (about 50 ms for a full screen), which would make the
    soak a render benchmark. Every refresh still runs displayio's dirty-area pass and
    clears the dirty state; only the pixel fill is skipped on the others.
    """
    if every <= 1:
        return
    get_areas = display._get_refresh_areas
    fill = display._refresh_area
    count = [0]

    def areas():
        count[0] += 1
        return get_areas()

    def refresh_area(area):
        if count[0] % every == 0:
            return fill(area)
        return True

    display._get_refresh_areas = areas
    display._refresh_area = refresh_area


def run(touches=100000, seed=1, board="pyportal", date=None, warmup=None, log=print,
        render_every=8):
    """Run the soak; return a dict of figures. Raise SoakFailure if anything broke."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from host_sim import headless_env

    headless_env()
    from host_sim.sim import Simulator

    if warmup is None:
        warmup = max(200, touches // 10)

    class SoakSimulator(Simulator):
        """The simulator with the random finger instead of a script."""

        def _make_display(self):
            super()._make_display()
            sparse(self.display, render_every)

        def _make_input(self):
            self.input = Finger(self, touches, seed, warmup, log=log if touches >= 20000 else None)

    sim = SoakSimulator(board=board, headless=True, date=date, script=None)
    t0 = time.perf_counter()
    try:
        rc = sim.run()
        finger = sim.input
        elapsed = time.perf_counter() - t0
        if rc != 0:
            raise SoakFailure("the game stopped with an exception after %d touches (%s)"
                              % (finger.done, sim.failure or "see the traceback above"))
        figures = {
            "touches": finger.done,
            "polls": finger.polls,
            "seconds": elapsed,
            "touches_per_s": finger.done / elapsed if elapsed else 0.0,
            "screens": dict(sorted((k, v) for k, v in finger.screens.items() if k)),
            "moves": finger.moves,
            "position_checks": finger.checks,
            "samples": finger.samples,
            "nvm_erases": sim.nvm.erase_count,
            "refreshes": finger.refreshes,
            "resets": finger.resets,
            "render_every": render_every,
            # Every poll is one step of board time; the board's own clock restarts at each
            # hard reset, so it cannot tell the whole run's length.
            "board_seconds": finger.polls * sim.step_ms / 1000.0,
        }
    finally:
        sim.close()
    samples = figures["samples"]
    table = [s for s in samples if s[2] == "table"]
    if len(table) >= 2:
        first, last = table[0][1], table[-1][1]
        figures["live_start"], figures["live_end"] = first, last
        peak_late = max(n for t, n, _ in table[len(table) // 2:])
        if last - first > GROWTH_LIMIT and peak_late - first > GROWTH_LIMIT:
            raise SoakFailure("live objects grew from %d to %d on the table" % (first, last))
    return figures


def report(f):
    """Return the figures as printable lines."""
    lines = [
        "touches %d in %.1f s (%.0f touches/s, %d polls, %.0f s on the board's clock)"
        % (f["touches"], f["seconds"], f["touches_per_s"], f["polls"], f["board_seconds"]),
        "screens entered: " + ", ".join("%s %d" % kv for kv in f["screens"].items()),
        "moves made %d; position checked %d times, always 52 distinct cards"
        % (f["moves"], f["position_checks"]),
        "display refreshes with dirty areas %d (pixels drawn for one in %d); hard resets %d; "
        "nvm erases %d" % (f["refreshes"], f["render_every"], f["resets"], f["nvm_erases"]),
    ]
    if "live_start" in f:
        lines.append("live objects on the table: %d after warm-up, %d at the end"
                     % (f["live_start"], f["live_end"]))
    return lines


TOUCHES_MAX = 100000000  # a thousand full runs; more is a typo, not a soak
RENDER_EVERY_MAX = 1000


def build_parser():
    """Return the command line's parser; every value is checked as it is read."""
    _path()
    from host_sim import options

    p = options.Parser(prog="python -m tools.soak", description=__doc__.split("\n")[0])
    p.add_argument("--touches", metavar="N", default=100000,
                   type=options.int_range(1, TOUCHES_MAX, "touches are 1 to %d" % TOUCHES_MAX),
                   help="random touches to play (default 100000)")
    p.add_argument("--seed", metavar="N", type=options.seed, default=1,
                   help="the finger's seed, 0 .. 4294967295 (default 1)")
    from freecell_mc.ui import layout

    p.add_argument("--board", default="pyportal", choices=tuple(b[0] for b in layout.BOARDS))
    p.add_argument("--date", metavar="YYYY-MM-DD", default=None, type=options.rtc_date,
                   help="the board's RTC date (default: unset, 2000-01-01)")
    p.add_argument("--render-every", metavar="N", default=8,
                   type=options.int_range(1, RENDER_EVERY_MAX,
                                          "--render-every is 1 to %d" % RENDER_EVERY_MAX),
                   help="draw the pixels of one refresh in N (default 8; 1 draws all)")
    return p


def _path():
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)


def main(argv=None):
    """Run the soak from the command line; return the exit code (2: bad arguments)."""
    args = build_parser().parse_args(argv)
    try:
        f = run(args.touches, args.seed, args.board, args.date, render_every=args.render_every)
    except SoakFailure as e:
        print("soak FAILED: %s" % e, file=sys.stderr)
        return 1
    for line in report(f):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
