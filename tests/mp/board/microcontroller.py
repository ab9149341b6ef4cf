# SPDX-License-Identifier: MIT
"""microcontroller stood in: nvm is 8 KB of flash, kept in a file so it costs no heap.

On the board nvm is a static object over flash; a bytearray here would put 8 KB on the
heap the board never spends. Each access opens the file: garbage, as the board's own
slicing makes bytes objects.
"""

_PATH = "/nvm.bin"


class _NVM:
    """microcontroller.nvm: 8,192 bytes, sliced like a bytearray."""

    def __init__(self):
        with open(_PATH, "wb") as f:
            f.write(b"\xff" * 8192)

    def __len__(self):
        return 8192

    def __getitem__(self, i):
        with open(_PATH, "rb") as f:
            if isinstance(i, slice):
                start, stop = i.start or 0, 8192 if i.stop is None else i.stop
                f.seek(start)
                return f.read(stop - start)
            f.seek(i)
            return f.read(1)[0]

    def __setitem__(self, i, v):
        with open(_PATH, "r+b") as f:
            if isinstance(i, slice):
                f.seek(i.start or 0)
                f.write(v)
            else:
                f.seek(i)
                f.write(bytes((v,)))


nvm = _NVM()


class Pin:
    """The type of board pins."""
