# SPDX-License-Identifier: MIT
"""terminalio stood in: FONT is the firmware's built-in font (in flash on the board)."""

import fontio

FONT = fontio.BuiltinFont()
