# SPDX-License-Identifier: MIT
"""The script runner: plays a text script through the touch panel and the keyboard.

A script is read from inside `touch_point` reads: each read is one poll of the game, so
a `tap` is a few polls of pressed readings followed by a few of none, exactly what the
game would see from a finger. Commands that look at the game (`shot`, `dump`,
`expect`) run between two polls, after the previous poll has finished and refreshed.

    tap X Y [MS]       press at screen pixel (X, Y) for 50 ms (or MS), then lift for 80 ms
    move 3a            the taps a player makes for a move in standard notation
    key u              a key: u z n r d f esc enter back 0..9
    wait MS            no touch for MS milliseconds of simulated time
    shot PATH.png      the screen as a PNG
    dump PATH          the position as board text (Freecell Solver's format)
    expect won | expect not-won | expect screen NAME | expect moves N
    expect light full | dim | dark     the backlight as the display holds it
    # comment
"""

import os

# Durations are board time, so a script plays the same headless (10 ms per poll) and in
# a window (the wall clock, however fast the polls come).
PRESS_MS = 50  # a quick finger on a resistive panel: 5 headless polls of readings
RELEASE_MS = 80  # then none for longer than the game's 40 ms release debounce
KEY_MS = 30  # after a key, so the game reads it and redraws
TAP_Z = 32000  # pressure in the range a PyPortal panel reports for a fingertip

KEYS = ("u", "z", "n", "r", "d", "f", "esc", "enter", "back") + tuple("0123456789")
WAIT_MAX = 3600000  # an hour of board time; a longer pause is a typo, not a test
MOVES_MAX = 999999  # `expect moves N`: the move counter never gets near it
LIGHTS = ("full", "dim", "dark")
FIRST_FRAME_POLLS = 1000  # a shot waits at most this many polls for the first frame


class ScriptEnd(SystemExit):
    """The script is done: the run ends cleanly (a SystemExit: the game lets it through,
    as it lets through every harness's end of a session, app.main)."""


class ScriptFailure(SystemExit):
    """An expectation failed or a command could not be carried out."""

    def __init__(self, lineno, message):
        super().__init__("line %d: %s" % (lineno, message))
        self.lineno = lineno


class ScriptError(ValueError):
    """The script text itself is wrong (unknown command, bad arguments)."""


def _number(text, lo, hi, bad=None):
    """Return the int of plain decimal text within lo..hi, else bad."""
    digits = text[1:] if text[:1] == "-" else text
    # str.isdigit() also takes '²', which int() refuses; 7 digits bound the work.
    if not digits or len(digits) > 7 or not all("0" <= c <= "9" for c in digits):
        return bad
    n = int(text)
    return n if lo <= n <= hi else bad


def parse(text, base_dir="."):
    """Return [(lineno, command, args)] for a script; raise ScriptError on a bad line.

    Paths in `shot` and `dump` are made absolute against base_dir, because the game runs
    with the simulated CIRCUITPY folder as its working directory.
    """
    out = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        cmd, args = words[0].lower(), words[1:]
        where = "line %d: " % lineno
        if cmd == "tap":
            if len(args) not in (2, 3):
                raise ScriptError(where + "tap needs X Y, and may say how long: X Y MS")
            xy = [_number(a, -100000, 100000) for a in args[:2]]
            if None in xy:
                raise ScriptError(where + "tap needs whole numbers X Y (pixels)")
            ms = _number(args[2], 1, WAIT_MAX) if len(args) == 3 else PRESS_MS
            if ms is None:
                raise ScriptError(where + "a tap lasts 1 to %d milliseconds" % WAIT_MAX)
            args = xy + [ms]
        elif cmd == "move":
            if len(args) != 1 or len(args[0]) > 12:
                raise ScriptError(where + "move needs one move, e.g. move 3a")
        elif cmd == "key":
            if len(args) != 1 or args[0].lower() not in KEYS:
                raise ScriptError(where + "key is one of " + " ".join(KEYS))
            args = [args[0].lower()]
        elif cmd == "wait":
            ms = _number(args[0], 0, WAIT_MAX) if len(args) == 1 else None
            if ms is None:
                raise ScriptError(where + "wait needs milliseconds, 0 to %d" % WAIT_MAX)
            args = [ms]
        elif cmd in ("shot", "dump"):
            if len(args) != 1:
                raise ScriptError(where + cmd + " needs a path")
            args = [os.path.abspath(os.path.join(base_dir, args[0]))]
        elif cmd == "expect":
            if args in (["won"], ["not-won"]):
                pass
            elif len(args) == 2 and args[0] == "screen" and len(args[1]) <= 40:
                pass
            elif len(args) == 2 and args[0] == "moves" and _number(args[1], 0, MOVES_MAX, -1) >= 0:
                args = ["moves", int(args[1])]
            elif len(args) == 2 and args[0] == "light" and args[1] in LIGHTS:
                pass
            else:
                raise ScriptError(where + "expect won | not-won | screen NAME | moves N | "
                                  "light full|dim|dark")
        else:
            raise ScriptError(where + "unknown command %r" % cmd)
        out.append((lineno, cmd, args))
    return out


def load(path):
    """Parse the script file at path (paths inside are relative to the caller's directory).

    Raises ValueError with one line: the file cannot be read, is not UTF-8 text or is over
    options.MAX_TEXT bytes, a line is wrong, or a `shot`/`dump` could not be written.
    """
    from host_sim import options

    commands = parse(options.read_text(path, "script"), os.getcwd())
    for lineno, cmd, args in commands:
        if cmd in ("shot", "dump"):
            try:
                options.out_file(args[0], cmd, ".png" if cmd == "shot" else None)
            except ValueError as e:
                raise ScriptError("line %d: %s" % (lineno, e)) from None
    return commands


def _app():
    """Return the running App (freecell_mc.app.App.current)."""
    from freecell_mc.app import App

    app = App.current
    if app is None:
        raise RuntimeError("the game has not started an App")
    return app


def board_text(game):
    """Return the game's position as board text (SPEC section 8)."""
    from freecell_mc.rules import notation

    return notation.board_text(game)


class ScriptInput:
    """A touch source that plays a parsed script: `read()` is one poll's touch reading."""

    def __init__(self, sim, commands):
        self.sim = sim
        self.commands = commands
        self.lineno = 0
        self._drawn = False
        self._gen = self._play()

    def read(self):
        """Return the reading for this poll; raise ScriptEnd after the last command."""
        try:
            return next(self._gen)
        except StopIteration:
            raise ScriptEnd() from None

    def _hold(self, reading, ms, polls=0):
        """Give `reading` to every poll for ms of board time and to at least `polls` polls."""
        clock = self.sim.clock
        start = clock.ms()
        n = 0
        while n < polls or clock.ms() - start < ms:
            yield reading
            n += 1

    def _tap(self, x, y, ms=PRESS_MS):
        # Polls as well as time: in a window one slow poll (a full redraw) can outlast
        # the whole press, and a finger gives the panel several readings.
        yield from self._hold((x, y, TAP_Z), ms, PRESS_MS // 10)
        yield from self._hold(None, RELEASE_MS, RELEASE_MS // 10)

    def _play(self):
        for lineno, cmd, args in self.commands:
            self.lineno = lineno
            if cmd == "tap":
                yield from self._tap(args[0], args[1], args[2])
            elif cmd == "key":
                self.sim.keys.push(args[0])
                yield from self._hold(None, KEY_MS)
            elif cmd == "wait":
                yield from self._hold(None, args[0])
            elif cmd == "move":
                yield from self._move(lineno, args[0])
            elif cmd == "shot":
                # At the start nothing is drawn yet: the player sees the first frame.
                yield from self._first_frame()
                self._write(lineno, args[0], self.sim.write_png, args[0])
            elif cmd == "dump":
                self._write(lineno, args[0], self.sim.write_text, args[0], board_text(_app().game))
            elif cmd == "expect":
                self._expect(lineno, args)

    def _first_frame(self):
        """Give polls without a touch until the display has drawn once (or a bound passes)."""
        display = self.sim.display
        n = 0
        while not self._drawn and n < FIRST_FRAME_POLLS:
            self._drawn = any(display.refreshes)
            if not self._drawn:
                yield None
                n += 1

    def _write(self, lineno, path, write, *args):
        """Write a shot or dump; a file that cannot be written fails the line."""
        try:
            write(*args)
        except OSError as e:
            raise ScriptFailure(lineno, "cannot write %s: %s" % (path, e.strerror or e)) from None

    def _expect(self, lineno, args):
        app = _app()
        if args[0] == "won":
            if not app.game.won():
                raise ScriptFailure(lineno, "expected won, saw not-won")
        elif args[0] == "not-won":
            if app.game.won():
                raise ScriptFailure(lineno, "expected not-won, saw won")
        elif args[0] == "screen":
            seen = app.screen.name
            if seen != args[1]:
                raise ScriptFailure(lineno, "expected screen %s, saw screen %s" % (args[1], seen))
        elif args[0] == "moves":
            if app.game.moves != args[1]:
                raise ScriptFailure(
                    lineno, "expected moves %d, saw moves %d" % (args[1], app.game.moves)
                )
        elif args[0] == "light":
            level = self.sim.display.brightness
            seen = "full" if level >= 1.0 else ("dark" if level <= 0.0 else "dim")
            if seen != args[1]:
                raise ScriptFailure(lineno, "expected light %s, saw light %s" % (args[1], seen))

    def _move(self, lineno, text):
        """Tap the source card, then the target, as a player would; check the move happened."""
        app = _app()
        game = app.game
        try:
            src, dst, n, expected = move_taps(game, text)
        except ValueError as e:
            raise ScriptFailure(lineno, "move %s refused: %s" % (text, e)) from None
        table = app.table
        if table is None or app.screen is not table:
            # The table exists only while it is shown (the App drops it under other screens).
            raise ScriptFailure(lineno, "move %s: the table is not shown (on %s)"
                                % (text, app.screen.name))
        if src < 8:
            x, y = table.tap_point(src, game.column_len(src) - n)
        else:
            x, y = table.tap_point(src, 0)
        yield from self._tap(x, y)
        x, y = table.tap_point(dst, -1 if dst < 8 else 0)
        yield from self._tap(x, y)
        app = _app()
        game = app.game
        if bytes(game.pos) != expected:
            raise ScriptFailure(
                lineno,
                "expected move %s to be made, saw screen %s and this position:\n%s"
                % (text, app.screen.name, board_text(game)),
            )


def move_taps(game, text):
    """Return (src slot, dst slot, cards to pick up, position expected after the move).

    The count is where the player taps in the source column: the top card of the run to
    carry, exactly the cards the move takes (`38:3` three; `38` the part of the run that
    fits there), since a place takes the whole held run or nothing (SPEC 4).
    Raises ValueError (with the reason) when the move is not legal.
    """
    from freecell_mc.rules import notation
    from freecell_mc.rules.engine import Game

    src, dst, n = notation.resolve_move(game, text)
    shadow = Game(game.cells, game.takeback)
    shadow.load(bytes(game.pos), game.moves)
    if not shadow.move(src, dst, n):
        raise ValueError("the engine refuses it")
    return src, dst, n, bytes(shadow.pos)
