# SPDX-License-Identifier: MIT
"""collections for test modules under MicroPython: deque() without arguments, as in CPython.

MicroPython's deque needs (iterable, maxlen) and keeps a fixed ring; the engine's BFS tests
call deque(). mp_pytests.py installs this module as ``collections`` before importing them.
"""

from collections import OrderedDict, namedtuple  # noqa: F401  (re-exported)
from collections import deque as _deque

# Room for every state the tests' searches visit; MicroPython allocates the ring up front.
MAXLEN = 200000


def deque(iterable=(), maxlen=MAXLEN):
    """Return a MicroPython deque that takes CPython's optional arguments."""
    return _deque(iterable, maxlen)
