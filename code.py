# SPDX-License-Identifier: MIT
"""The board runs this file after boot.py: start FreeCell MC."""

from freecell_mc.hardware import source

# The board runs code.py as __main__; on a desktop the repo root is often on sys.path, where
# `import code` (pdb does it) must not start the game.
if __name__ == "__main__":
    if source.installed():
        source.tell()  # copied as .py: too big to compile here, so say which zip to use
    from freecell_mc.app import main

    main()
