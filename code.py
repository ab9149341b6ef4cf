# SPDX-License-Identifier: MIT
"""The board runs this file after boot.py: start FreeCell MC."""

from freecell_mc.app import main

# The board runs code.py as __main__; on a desktop the repo root is often on sys.path, where
# `import code` (pdb does it) must not start the game.
if __name__ == "__main__":
    main()
