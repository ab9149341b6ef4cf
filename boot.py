# SPDX-License-Identifier: MIT
"""The board runs this file after a hard reset, before USB: choose who may write CIRCUITPY."""

# As in code.py: only the board (running this as __main__) should act on it.
if __name__ == "__main__":
    try:
        from freecell_mc.hardware.boot import main
    except Exception:  # noqa: BLE001  (no game to import: the board starts as CircuitPython's)
        main = None
    if main is not None:
        main()
