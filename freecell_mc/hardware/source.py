# SPDX-License-Identifier: MIT
"""Tell a maker who copied the game as source (.py) which release zip the board needs,
and a player whose game stopped on a fault that it starts again.

Compiled at import on the board, the game's source needs about 185 KB of heap
(docs/memory.md), more than a PyPortal leaves; a MemoryError would come half-way through
the first screen. code.py asks `installed()` before it imports anything else and, for a
source copy, shows one calm screen naming the zip to unzip onto CIRCUITPY instead. This
module stays small and draws with displayio alone, so it compiles where the game cannot.
"""

import sys

_FG = 0xFFFFFF
_BG = 0x0B5D1E  # the table's green


def installed(implementation=None, path=None):
    """Return True when this is CircuitPython running the game from .py files."""
    name = (implementation or sys.implementation).name
    return name == "circuitpython" and (path or __file__).endswith(".py")


def lines(major):
    """Return the screen's lines for a board running CircuitPython `major` (an int)."""
    zipname = "freecell-mc-%d.x-mpy-*.zip" % major
    return (
        "FreeCell MC needs its",
        "compiled release here.",
        "",
        "This copy is the source",
        "(.py): the board has too",
        "little memory to compile",
        "it. Unzip this release",
        "onto CIRCUITPY instead:",
        "",
        zipname,
    )


def draw(display, text):
    """Show the lines of text on display, centred on the table's green; return the root Group."""
    import displayio
    import terminalio
    import vectorio

    font = terminalio.FONT
    fw, fh = font.get_bounding_box()
    cols = max(len(t) for t in text)
    scale = 2 if display.width >= cols * fw * 2 else 1
    palette = displayio.Palette(2)
    palette[0] = _BG
    palette[1] = _FG
    root = displayio.Group()
    # A rectangle, not a screen-sized bitmap: it costs a few bytes where a bitmap would
    # cost 9.6 KB.
    root.append(vectorio.Rectangle(pixel_shader=palette, width=display.width,
                                   height=display.height, x=0, y=0))
    grid = displayio.TileGrid(font.bitmap, pixel_shader=palette, width=cols,
                              height=len(text), tile_width=fw, tile_height=fh)
    # The lines are printable ASCII: tiles 0..94 of the built-in font, in code point order
    # (as widgets._glyph says), so no Glyph object is built for each one.
    for row, line in enumerate(text):
        for col in range(cols):
            grid[col, row] = ord(line[col]) - 0x20 if col < len(line) else 0
    words = displayio.Group(scale=scale, x=(display.width - cols * fw * scale) // 2,
                            y=(display.height - len(text) * fh * scale) // 2)
    words.append(grid)
    root.append(words)
    display.root_group = root
    return root


def tell():
    """Show the lines on the board's display and wait: code.py ends here for a source copy.

    The drive stays open to the computer (boot.py leaves it so for a source copy), so the
    zip can be copied at once; the board restarts by itself when it is.
    """
    import time

    import board

    draw(board.DISPLAY, lines(sys.implementation.version[0]))
    while True:  # until the board is reset or the new files arrive
        time.sleep(1)


def fault(display, e):
    """After an exception reached the main loop: one calm screen, then a reset.

    A MemoryError at the heap's edge, or any fault of the game's, costs no game: every save
    on flash is whole (at most the last 1.5 s of play are not yet on it), and the restart
    continues the newest save, with the clock's time carried across (hardware/carry.py).
    The traceback goes to the serial console only. Drawn with this module's few objects,
    after the App has been let go (display None: the hardware was never built).

    The board restarts with microcontroller.reset(), never by ending code.py: CircuitPython's
    finalisers would then close the save file, which rewrites its directory entry (an
    erase of the 4 KB sector holding it: a cut there loses the file). A reset closes nothing
    (docs/saves.md, "When code.py ends"). The save file's handle stays reachable from the
    Hardware (hw.blocks) through the collection below, so no finaliser closes it there
    either. Ctrl-C at the serial console (KeyboardInterrupt), and a second fault in a row
    before the game's first poll (a fault at every start would reset the board for ever),
    restart into CircuitPython's safe mode: the REPL, the drive the computer's, until the
    next reset; neither writes to flash.
    """
    import microcontroller

    try:
        try:
            import traceback

            traceback.print_exception(e)
        except ImportError:
            print(repr(e))
        if isinstance(e, KeyboardInterrupt):
            microcontroller.on_next_reset(microcontroller.RunMode.SAFE_MODE)
            return
        import gc
        import time

        if display is None:
            import board

            display = board.DISPLAY
        display.root_group = None  # the last screen's objects go with the App's
        gc.collect()
        from freecell_mc.hardware import carry

        stuck = carry.fault()
        if stuck is not None:
            draw(display, stuck)
            microcontroller.on_next_reset(microcontroller.RunMode.SAFE_MODE)
        else:
            draw(display, ("FreeCell MC stopped", "for a moment.", "", "Your game is saved:",
                           "it starts again now."))
        time.sleep(3)
    finally:
        microcontroller.reset()  # whatever happened above: code.py must not end

