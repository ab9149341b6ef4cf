# SPDX-License-Identifier: MIT
"""Command-line values of the simulator and the host tools, checked before anything runs.

Every bad value ends the run with one line on stderr and exit status 2, never a traceback:
the parser prints no usage block, the value checks name the option, the range and what
was given, and text inputs (board, moves, script) are read only up to `MAX_TEXT` bytes and
must be UTF-8 (a byte-order mark at the start is allowed and dropped).
"""

import argparse
import os
import sys
import tempfile

from freecell_mc.rules import deals

# A board is a few hundred bytes and a long game's moves a few kilobytes: a file a thousand
# times that is not one of ours, and reading it all would only cost time and memory.
MAX_TEXT = 1 << 20
MAX_TEXT_NAME = "1 MB"

SEED_MAX = 0xFFFFFFFF
SCALE_MAX = 8  # a 480x320 board at 8 is 3840x2560, already larger than most screens
STEP_MS_MAX = 1000  # a poll of the game is a few ms on the board; a second is already slow
NVM_SIZE = 8192
YEAR_MIN = 2000  # the internal RTC restarts at 2000-01-01 and the RTC chips hold 2000..2099
YEAR_MAX = 2099


def error_line(prog, message):
    """Return the one line every refusal prints: `prog: error: message`."""
    return "%s: error: %s" % (prog, message)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message):
        """Print `prog: error: message (see --help)` on one line and exit 2."""
        self.exit(2, error_line(self.prog, " ".join(message.split()) + " (see --help)") + "\n")

    def refuse(self, message):
        """Print `prog: error: message` on one line and exit 2: a value that parsed but
        cannot be used (a folder that cannot be written, a tool that is not there)."""
        self.exit(2, error_line(self.prog, " ".join(str(message).split())) + "\n")


def _whole(text, what):
    """Return the int of a plain decimal number (an optional sign, at most 12 digits)."""
    t = text.strip()
    digits = t[1:] if t[:1] in ("-", "+") else t
    # str.isdigit() also takes '²' and other digits int() refuses; 12 digits bound the work.
    if not digits or len(digits) > 12 or not all("0" <= c <= "9" for c in digits):
        raise argparse.ArgumentTypeError("%s, not %r" % (what, text))
    return int(t)


def int_range(lo, hi, what):
    """Return an argparse type: a whole number lo..hi, else the error `what, not 'X'`."""

    def conv(text):
        n = _whole(text, what)
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError("%s, not %s" % (what, text.strip()))
        return n

    return conv


seed = int_range(0, SEED_MAX, "seeds are whole numbers 0 to 4294967295")
ms = int_range(1, deals.MS_MAX, "Microsoft deals are numbered 1 to 1,000,000 (as in the game)")
cells = int_range(1, 4, "free cells are 1 to 4")
scale = int_range(1, SCALE_MAX, "the window scale is 1 to %d" % SCALE_MAX)
step_ms = int_range(1, STEP_MS_MAX, "a poll takes 1 to %d ms of board time" % STEP_MS_MAX)


def split_date(text):
    """Return (y, m, d) of YYYY-MM-DD with a four-digit year; raise ValueError if not."""
    parts = text.strip().split("-")
    ok = (
        len(parts) == 3
        and len(parts[0]) == 4
        and 1 <= len(parts[1]) <= 2
        and 1 <= len(parts[2]) <= 2
        and all(p and all("0" <= c <= "9" for c in p) for p in parts)
    )
    if not ok:
        raise ValueError("dates are YYYY-MM-DD with a four-digit year, e.g. 2026-11-30, not %r"
                         % text[:40])
    y, m, d = (int(p) for p in parts)
    if not deals.valid_date(y, m, d):
        raise ValueError("No such date: %s" % text.strip())
    return y, m, d


def daily(text):
    """Return (y, m, d) of a daily deal's date (argparse type)."""
    try:
        return split_date(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def rtc_date(text):
    """Return the YYYY-MM-DD text of a date the board's clocks can hold (argparse type)."""
    try:
        y, _, _ = split_date(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if not YEAR_MIN <= y <= YEAR_MAX:
        raise argparse.ArgumentTypeError(
            "the board's clocks hold years %d to %d, not %d" % (YEAR_MIN, YEAR_MAX, y)
        )
    return text.strip()


def code(text):
    """Return the (kind, number, cells) of a deal code (argparse type)."""
    if len(text) > 40:  # the longest code is 13 digits and its dashes
        raise argparse.ArgumentTypeError("That code is too long")
    try:
        return deals.parse_code(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError("%s (%r)" % (e, text)) from None


def _name(path):
    """Return a short printable form of a path for messages."""
    return path if len(path) <= 80 else path[:77] + "..."


def read_text(path, what, stdin=None):
    """Return the text of a UTF-8 file, or of stdin for '-'; raise ValueError with one line.

    :param path: the file, or '-' for stdin
    :param what: what the file should hold, for messages ("board", "moves", "script")
    :param stdin: the stream read for '-' (default sys.stdin)
    """
    too_big = "%s is larger than " + MAX_TEXT_NAME + ": not a " + what + " file"
    if path == "-":
        stream = sys.stdin if stdin is None else stdin
        name = "stdin"
        raw = getattr(stream, "buffer", None)
        data = (raw if raw is not None else stream).read(MAX_TEXT + 1)
    else:
        name = _name(path)
        if os.path.isdir(path):
            raise ValueError("%s is a folder, not a %s file" % (name, what))
        try:
            # A regular file is measured first: a huge one is refused without reading it.
            if os.path.isfile(path) and os.path.getsize(path) > MAX_TEXT:
                raise ValueError(too_big % name)
            with open(path, "rb") as f:
                data = f.read(MAX_TEXT + 1)  # a pipe or device has no size: read one byte over
        except OSError as e:
            raise ValueError("cannot read %s: %s" % (name, e.strerror or e)) from None
    if len(data) > MAX_TEXT:
        raise ValueError(too_big % name)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(
                "%s is not UTF-8 text (byte 0x%02x at offset %d): not a %s file"
                % (name, data[e.start], e.start, what)
            ) from None
    # Windows editors start UTF-8 files with a byte-order mark; it is not part of the text.
    return data[1:] if data[:1] == "\ufeff" else data


def _writable(folder, what, name):
    """Raise ValueError unless a file can be made in the existing folder (tried, not guessed:
    permissions, a read-only mount and a pseudo file system all answer the same way)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise ValueError("%s %s: cannot write in %s (%s)"
                         % (what, name, _name(folder), e.strerror or e)) from None


def out_file(path, what, suffix=None):
    """Return path made absolute if a file can be written there; raise ValueError if not."""
    name = _name(path)
    if suffix and not path.lower().endswith(suffix):
        raise ValueError("%s must be a %s file, not %s" % (what, suffix, name))
    full = os.path.abspath(path)
    if os.path.isdir(full):
        raise ValueError("%s %s is a folder; give a file name" % (what, name))
    parent = os.path.dirname(full)
    if not os.path.isdir(parent):
        raise ValueError("%s %s: the folder %s does not exist" % (what, name, _name(parent)))
    _writable(parent, what, name)
    return full


def nvm_file(path):
    """Return an absolute --nvm path that is new or an 8 KB flash block; raise ValueError."""
    full = out_file(path, "--nvm")
    if os.path.exists(full):
        if not os.path.isfile(full):
            raise ValueError("--nvm %s is not a plain file" % _name(path))
        size = os.path.getsize(full)
        # Any other file would be overwritten by the first save: refuse it rather than lose it.
        if size not in (0, NVM_SIZE):
            raise ValueError(
                "--nvm %s holds %d bytes, not an 8 KB flash block (8192 bytes); "
                "give a new file name" % (_name(path), size)
            )
    return full


def folder(path, what):
    """Return an absolute folder path that exists or can be made; raise ValueError if not."""
    full = os.path.abspath(path)
    if os.path.exists(full) and not os.path.isdir(full):
        raise ValueError("%s %s is a file, not a folder" % (what, _name(path)))
    probe = full
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        raise ValueError("%s %s: %s is a file, not a folder" % (what, _name(path), _name(probe)))
    _writable(probe, what, _name(path))
    return full
