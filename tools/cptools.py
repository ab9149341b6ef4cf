# SPDX-License-Identifier: MIT
"""CircuitPython's own tools: its mpy-cross for each CircuitPython major, and its VM.

Neither is on a package registry, and neither is ever kept in this repository. Each is
looked for in this order, and the first that is there is taken:

    mpy-cross            --mpy-cross PATH, then $FREECELL_MPY_CROSS (one compiler: its
                         --version tells which CircuitPython it is for), then, per major,
                         the tools folder's mpy-cross-9.x / mpy-cross-10.x, then the cache
                         of circuitpython-build-tools (Adafruit's bundle builder, PyPI),
                         then (./dev bundle and ./dev release only) that tool's download of
                         Adafruit's prebuilt compiler, which it caches
    the VM               --circuitpython PATH, then $FREECELL_CIRCUITPYTHON, then the tools
                         folder's `circuitpython`

The tools folder is the per-user cache folder `freecell-mc` (~/.cache/freecell-mc on
Linux, as platformdirs names it elsewhere), or $FREECELL_TOOLS. A path given by option or
variable that does not work is an error, never a quiet fall-back to another tool.

The VM must be built like the board (README, "CircuitPython's own tools"): `check_vm` asks
it, property by property, and refuses one that differs, naming what is missing.
"""

import contextlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MPY_CROSS_VAR = "FREECELL_MPY_CROSS"
VM_VAR = "FREECELL_CIRCUITPYTHON"
TOOLS_VAR = "FREECELL_TOOLS"

# The CircuitPython majors the game is built for, as Adafruit's bundles name them. Each has
# its own compiler; circuitpython-build-tools (pinned in requirements-dev.txt) says which
# release of each it downloads (its target_versions.VERSIONS).
TARGETS = ("9.x", "10.x")
# The VM the tests run on is CircuitPython 10's: its images are compiled by 10.x's compiler.
VM_TARGET = "10.x"

# Where a user gets a compiler by hand: Adafruit's prebuilt mpy-cross for every release.
DOWNLOADS = "https://adafruit-circuit-python.s3.amazonaws.com/index.html?prefix=bin/mpy-cross/"

# The first bytes of every .mpy file of each major, from py/persistentcode.c of the
# releases circuitpython-build-tools names (9.2.9 and 10.x alike): b"C" (CircuitPython;
# MicroPython's is b"M"), MPY_VERSION 6, a flags byte of 0 (no native code: the
# sub-version is written only beside native code), and 31-bit small ints.
MPY_HEADER = {"9.x": b"C\x06\x00\x1f", "10.x": b"C\x06\x00\x1f"}


class ToolError(Exception):
    """A tool cannot be used; the message says why and what to do."""


class ToolMissing(ToolError):  # noqa: N818  (kept: renaming touches 9 places, tests and bench too)
    """A tool was looked for and is nowhere (not: found and unusable)."""


class VMError(ToolError):
    """The VM is not CircuitPython's built like the board; the message names what differs."""


def tools_dir(environ=None):
    """Return the tools folder: $FREECELL_TOOLS, else the per-user cache folder freecell-mc."""
    environ = os.environ if environ is None else environ
    if environ.get(TOOLS_VAR):
        return Path(environ[TOOLS_VAR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("freecell-mc", appauthor=False))


def _executable(path):
    return path.is_file() and os.access(path, os.X_OK)


def _given(how, value):
    """Return the Path given by option or variable; ToolError unless it is an executable."""
    path = Path(value).expanduser()
    if not _executable(path):
        raise ToolError("%s %s is not an executable file" % (how, value))
    return path


# --- the compiler ----------------------------------------------------------------------


def mpy_cross_version(exe):
    """Return (target, --version line) of CircuitPython's compiler exe; ToolError otherwise.

    MicroPython's mpy-cross is refused: CircuitPython rejects its files ("incompatible .mpy
    file"). A compiler of a major the game is not built for is refused too.
    """
    try:
        proc = subprocess.run([str(exe), "--version"], capture_output=True, text=True,
                              timeout=30)
    except OSError as e:
        raise ToolError("cannot run %s: %s" % (exe, e)) from e
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    line = lines[0] if lines else ""
    m = re.match(r"CircuitPython (\d+)\.\d+", line)
    if proc.returncode != 0 or not m:
        raise ToolError("%s is not CircuitPython's mpy-cross (it says %r); the board refuses "
                        "MicroPython's .mpy files" % (exe, line))
    target = m.group(1) + ".x"
    if target not in TARGETS:
        raise ToolError("%s is CircuitPython %s's mpy-cross; the game is built for %s"
                        % (exe, target, " and ".join(TARGETS)))
    return target, line


def _checked(exe, want):
    """Return (exe, target, --version line) if exe is CircuitPython's compiler for want."""
    target, line = mpy_cross_version(exe)
    if want is not None and target != want:
        raise ToolError("%s is CircuitPython %s's mpy-cross, not %s's" % (exe, target, want))
    return exe, target, line


def given_mpy_cross(option=None, environ=None):
    """Return (path, target, line) of the compiler given by --mpy-cross or
    $FREECELL_MPY_CROSS, checked, or None when neither gives one."""
    environ = os.environ if environ is None else environ
    for how, value in (("--mpy-cross", option), ("$" + MPY_CROSS_VAR, environ.get(MPY_CROSS_VAR))):
        if value:
            return _checked(_given(how, value), None)
    return None


def build_tools_version(target):
    """Return circuitpython-build-tools' entry {"tag", "name"} for a target such as "10.x"."""
    from circuitpython_build_tools import target_versions

    for version in target_versions.VERSIONS:
        if version["name"] == target:
            return version
    raise ToolError("circuitpython-build-tools knows no CircuitPython %s (run ./dev setup)"
                    % target)


def _cached(target, environ):
    """Return the places a compiler for target may already be: ours, then the builder's."""
    places = [tools_dir(environ) / ("mpy-cross-" + target)]
    try:
        from circuitpython_build_tools import build
    except ImportError:
        return places
    return places + [Path(build.mpy_cross_path) / ("mpy-cross-" + target)]


def _missing(target, tried, why=""):
    return ToolMissing(
        "CircuitPython %s's mpy-cross was not found (looked at %s)%s: give it with "
        "--mpy-cross PATH or $%s, or put Adafruit's prebuilt one (%s) at %s"
        % (target, ", ".join(str(p) for p in tried), why, MPY_CROSS_VAR, DOWNLOADS, tried[0]))


def find_mpy_cross(target=VM_TARGET, option=None, environ=None, download=False):
    """Return (path, target, --version line) of CircuitPython's compiler for target.

    A compiler given by option or variable is taken whatever its major, unless target is
    given and differs (ToolError). download=True lets circuitpython-build-tools fetch
    Adafruit's prebuilt one into its cache when none is found (it needs the internet).
    """
    environ = os.environ if environ is None else environ
    given = given_mpy_cross(option, environ)
    if given is not None:
        return _checked(given[0], target) if target else given
    target = target or VM_TARGET
    tried = _cached(target, environ)
    for path in tried:
        if _executable(path):
            return _checked(path, target)
    if not download:
        raise _missing(target, tried)
    path, why = _download(target)
    if path is None:
        raise _missing(target, tried, " and could not be downloaded (%s)" % why)
    return _checked(path, target)


@contextlib.contextmanager
def _quiet_fds():
    """Send what is written to fds 1 and 2 (child processes included) to a file meanwhile."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)


def _download(target):
    """Ask circuitpython-build-tools for target's compiler; return (path, None) or (None, why).

    Its mpy_cross() takes a cached copy, else downloads Adafruit's prebuilt one, else clones
    CircuitPython and builds it: each is its own way; what it prints is kept out of ours.
    """
    try:
        from circuitpython_build_tools import build
    except ImportError:
        return None, "circuitpython-build-tools is not installed; run ./dev setup"
    version = build_tools_version(target)
    try:
        with _quiet_fds():
            path = build.mpy_cross(version, quiet=True)
    except (OSError, subprocess.SubprocessError):
        # No prebuilt one came, and the tool's fall-back (git clone, make) failed too.
        return None, "is the computer offline?"
    except Exception as e:  # noqa: BLE001  (requests' own errors, whatever the tool raises)
        return None, "%s: %s" % (type(e).__name__, " ".join(str(e).split())[:80])
    path = Path(path)
    if not _executable(path):
        return None, "it gave no compiler"
    return path, None


def compilers(option=None, environ=None, targets=TARGETS, download=True):
    """Return [(path, target, --version line)]: the one given, else one for each target."""
    given = given_mpy_cross(option, environ)
    if given is not None:
        if given[1] not in targets:
            raise ToolError("%s is CircuitPython %s's mpy-cross; asked for %s"
                            % (given[0], given[1], " and ".join(targets)))
        return [given]
    return [find_mpy_cross(target, environ=environ, download=download) for target in targets]


# --- the VM ----------------------------------------------------------------------------


def find_vm(option=None, environ=None):
    """Return the path of CircuitPython's VM (not yet checked: see check_vm)."""
    environ = os.environ if environ is None else environ
    for how, value in (("--circuitpython", option), ("$" + VM_VAR, environ.get(VM_VAR))):
        if value:
            return _given(how, value)
    path = tools_dir(environ) / "circuitpython"
    if _executable(path):
        return path
    raise ToolMissing("CircuitPython's VM was not found (looked at %s): give it with "
                      "--circuitpython PATH or $%s (README, \"CircuitPython's own tools\", "
                      "says which VM)" % (path, VM_VAR))


# The frozen libraries of the PyPortal, Pynt and Titano firmware (tools/bundle.py FROZEN)
# that the probe asks the VM to import from its frozen modules, never from a file.
_FROZEN_PROBE = ("adafruit_display_text", "adafruit_portalbase", "adafruit_requests",
                 "adafruit_esp32spi", "neopixel", "adafruit_fakerequests",
                 "adafruit_connection_manager")

# Each line of the probe prints `name value`; vm_problem compares them with the board's.
_PROBE = """
import sys, gc
print("implementation", sys.implementation.name)
print("maxsize", sys.maxsize)
def grows(n):
    gc.collect()
    a = gc.mem_alloc()
    x = (1 << n) - 1 + 1
    return gc.mem_alloc() - a
print("smallint", 31 if grows(29) == 0 and grows(30) > 0 else 0)
f = [1.5]
def product():
    gc.collect()
    a = gc.mem_alloc()
    x = f[0] * 3
    return gc.mem_alloc() - a
print("float", "immediate" if product() == 0 else "boxed")
try:
    print("mpz", (1 << 100) % 1000003 == 1267650600228229401496703205376 % 1000003)
except Exception:
    print("mpz", False)
print("heap", gc.mem_free() + gc.mem_alloc())
calls = [0]
def deeper():
    calls[0] += 1
    deeper()
try:
    deeper()
except RuntimeError as e:
    print("pystack", "exhausted" if "pystack" in str(e) else "-".join(str(e).split()))
print("depth", calls[0])
for name in ("displayio", "vectorio", "fontio", "terminalio", "struct", "binascii",
             "micropython"):
    try:
        __import__(name)
        print("module", name, "ok")
    except ImportError:
        print("module", name, "missing")
import terminalio
print("font", terminalio.FONT.get_bounding_box()[0])
for name in FROZEN:
    try:
        __import__(name)
        print("frozen", name, "ok")
    except ImportError as e:
        # On the board too a frozen library may need one that is not frozen (portalbase
        # needs adafruit_bitmap_font): only the library itself not found is missing.
        missing = str(e).endswith("'" + name + "'")
        print("frozen", name, "missing" if missing else "ok")
""".replace("FROZEN", repr(_FROZEN_PROBE))


def probe_vm(exe, heap=200000, pystack=1536):
    """Run the probe on exe at heap and pystack bytes; return {key: value} of what it said.

    It runs in an empty folder with no $MICROPYPATH, so a library can only come from the
    VM's frozen modules.
    """
    with tempfile.TemporaryDirectory() as empty:
        env = {k: v for k, v in os.environ.items() if k != "MICROPYPATH"}
        try:
            proc = subprocess.run([str(exe), "-X", "heapsize=%d" % heap, "-X",
                                   "pystack=%d" % pystack, "-c", _PROBE],
                                  capture_output=True, text=True, timeout=60, env=env,
                                  cwd=empty)
        except (OSError, subprocess.SubprocessError) as e:
            raise VMError("cannot run %s: %s" % (exe, e)) from e
    said = {}
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) >= 2:
            said[" ".join(words[:-1])] = words[-1]
    if proc.returncode != 0 and "implementation" not in said:
        last = (proc.stdout + proc.stderr).strip().splitlines() or [""]
        raise VMError("%s is not CircuitPython's VM built like the board: it cannot run the "
                      "probe (%r)" % (exe, last[-1][:100]))
    return said


def vm_problem(said, heap=200000):
    """Return the first property the probe's answers lack, as a phrase, or None."""
    want = [
        ("implementation", "circuitpython", "the circuitpython implementation"),
        ("maxsize", str(2**31 - 1), "32-bit words (sys.maxsize 2**31-1)"),
        ("smallint", "31", "31-bit small ints"),
        # The board's object model, MICROPY_OBJ_REPR_C (py/circuitpy_mpconfig.h): a float is
        # a word, not a heap object, so float arithmetic allocates nothing, as on the board.
        ("float", "immediate", "floats in the object word (MICROPY_OBJ_REPR_C, the board's)"),
        ("mpz", "True", "MPZ long ints"),
        ("pystack", "exhausted", "the pystack option (-X pystack=BYTES)"),
    ]
    want += [("module " + m, "ok", "the %s module" % m)
             for m in ("displayio", "vectorio", "fontio", "terminalio", "struct", "binascii",
                       "micropython")]
    want += [("font", "6", "terminalio.FONT as the firmware's (6 px wide)")]
    want += [("frozen " + m, "ok", "the board's frozen module %s" % m) for m in _FROZEN_PROBE]
    for key, value, what in want:
        if said.get(key) != value:
            return "%s (it says %s %s)" % (what, key, said.get(key, "nothing"))
    try:
        total = int(said.get("heap", "0"))
    except ValueError:
        total = 0
    # The fixed heap is the size asked for, less the collector's own tables.
    if not heap * 0.9 <= total <= heap:
        return "a fixed heap (-X heapsize=%d gave %s bytes)" % (heap, said.get("heap"))
    return None


def _more(a, b):
    try:
        return int(a) > int(b)
    except (TypeError, ValueError):
        return False


def check_vm(exe):
    """Raise VMError unless exe is CircuitPython's VM built like the board, naming what lacks."""
    said = probe_vm(exe)
    why = vm_problem(said)
    if why is None:
        # The pystack must be the size asked for, not one fixed at build time.
        deep = probe_vm(exe, pystack=16384)
        if deep.get("pystack") != "exhausted" or not _more(deep.get("depth"), said["depth"]):
            why = ("the pystack option (-X pystack=1536 and 16384 both allow %s calls)"
                   % said.get("depth"))
    if why is not None:
        raise VMError("%s is not CircuitPython's VM built like the board: it lacks %s"
                      % (exe, why))
