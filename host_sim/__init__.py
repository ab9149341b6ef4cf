# SPDX-License-Identifier: MIT
"""The desktop simulator and host tools for FreeCell MC (CPython only)."""

import os


def host_env():
    """Let Blinka run on a plain PC, and pygame without sound or its greeting (TOOLCHAIN.md).

    Call it before anything imports board, displayio or pygame; a value already set wins.
    """
    for name, value in (("BLINKA_OS_AGNOSTIC", "1"), ("SDL_AUDIODRIVER", "dummy"),
                        ("PYGAME_HIDE_SUPPORT_PROMPT", "1")):
        os.environ.setdefault(name, value)


def headless_env():
    """host_env(), and pygame with no screen either."""
    host_env()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
