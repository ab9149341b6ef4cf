# SPDX-License-Identifier: MIT
"""The desktop simulator and host tools for FreeCell MC (CPython only)."""

import os


def headless_env():
    """Let Blinka run on a plain PC and pygame with no screen and no sound (TOOLCHAIN.md).

    Call it before anything imports board, displayio or pygame; a value already set wins.
    """
    for name, value in (("BLINKA_OS_AGNOSTIC", "1"), ("SDL_VIDEODRIVER", "dummy"),
                        ("SDL_AUDIODRIVER", "dummy"), ("PYGAME_HIDE_SUPPORT_PROMPT", "1")):
        os.environ.setdefault(name, value)
