# SPDX-License-Identifier: MIT
"""The rules of FreeCell: cards, the engine and its 68-byte position, deals, notation."""
