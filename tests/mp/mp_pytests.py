# SPDX-License-Identifier: MIT
"""Run the engine's own pytest modules under MicroPython, unchanged, with a small shim.

The driver copies the test modules in with --with and names them in the input. Every
test_* function runs, once per parameter set; a test that needs a fixture (tmp_path...) is
reported as such. Each outcome is reported: passed, failed (an assertion: a real difference)
or error (a language feature MicroPython lacks, with the message).
"""

import sys

import collections_shim
import pytest_shim
from mpcheck import load_input, emit

sys.modules["pytest"] = pytest_shim
sys.modules["collections"] = collections_shim
# The modules import their shared helpers (tests/positions.py) by bare name, as under pytest.
sys.path.append("/lib/tests")


def run_one(fn, kwargs):
    """Return ("passed", "") or ("failed"|"error"|"fixture", message) for one call."""
    try:
        fn(**kwargs)
    except AssertionError as e:
        return "failed", str(e)
    except TypeError as e:
        msg = str(e)
        if not kwargs and "argument" in msg:
            return "fixture", msg
        return "error", "TypeError: " + msg
    except Exception as e:  # noqa: BLE001  (anything else is a difference to report, never to hide)
        return "error", type(e).__name__ + ": " + str(e)
    return "passed", ""


def main():
    """Import each module, run its tests and report every outcome."""
    data = load_input()
    outcomes = []
    for name in data["modules"]:
        try:
            mod = __import__("tests." + name, None, None, ["x"])
        except Exception as e:  # noqa: BLE001  (a module that fails to import is reported)
            outcomes.append([name, "<import>", "error", type(e).__name__ + ": " + str(e)])
            continue
        for attr in sorted(dir(mod)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(mod, attr)
            sets = pytest_shim.PARAMS.get(fn) or [{}]
            # Some parameter sets are searches that take minutes on this interpreter.
            limit = data.get("max_params", {}).get(name)
            if limit is not None:
                sets = sets[:limit]
            for i in range(len(sets)):
                label = attr if len(sets) == 1 else "%s[%d]" % (attr, i)
                status, msg = run_one(fn, sets[i])
                outcomes.append([name, label, status, msg[:200]])
    emit("outcomes", outcomes)


main()
