# SPDX-License-Identifier: MIT
"""The board runs this file after a hard reset, before USB: choose who may write CIRCUITPY."""

from freecell_mc.hardware.boot import main

# As in code.py: only the board (running this as __main__) should act on it.
if __name__ == "__main__":
    main()
