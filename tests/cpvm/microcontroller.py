# SPDX-License-Identifier: MIT
"""microcontroller stood in: nvm is 8 KB of flash, kept in a file so it costs no heap.

On the board nvm is a static object over flash; a bytearray here would put 8 KB on the
heap the board never spends. Reads return new bytes objects, as the board's slicing does.
The file `nvm.bin` in the current folder outlives the VM: the next start finds the saves.
"""

_PATH = "nvm.bin"
_SIZE = 8192


class _NVM:
    """microcontroller.nvm: 8,192 bytes, sliced like a bytearray."""

    def __len__(self):
        return _SIZE

    def __getitem__(self, i):
        with open(_PATH, "rb") as f:
            if isinstance(i, slice):
                start = i.start or 0
                f.seek(start)
                return f.read((_SIZE if i.stop is None else i.stop) - start)
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


try:
    open(_PATH, "rb").close()
except OSError:
    with open(_PATH, "wb") as _f:
        _f.write(b"\xff" * _SIZE)  # erased flash
nvm = _NVM()


class RunMode:
    """microcontroller.RunMode."""

    NORMAL = 0
    SAFE_MODE = 1


def on_next_reset(run_mode):
    """The run mode after the reset: said on the console."""
    print("NEXT", run_mode)


def reset():
    """The board resets (no finaliser runs); the session ends here, marked, with status 3."""
    print("RESET")
    raise SystemExit(3)


class Pin:
    """The type of board pins."""
