# SPDX-License-Identifier: MIT
"""The board's edge: its parts gathered for the game, the clock, touch to taps, boot."""
