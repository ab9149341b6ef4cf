# SPDX-License-Identifier: MIT
"""bitmaptools stood in: the board runs these in C, so they must not take a Python frame here.

`"".format` takes any arguments and keywords, allocates nothing and is a built-in, so a
call costs no pystack, as the C function costs none on the board. No pixels are drawn.
"""

blit = "".format
replace_color = "".format
fill_region = "".format
