# SPDX-License-Identifier: MIT
"""The simulator's window: the board's screen scaled up, the mouse as the touch panel.

Mouse button held = finger on the panel; the keys of SPEC section 4 go to the game's
keyboard. Closing the window ends the run.
"""

import os
import sys
import time

from host_sim.display import FramebufferDisplay

TOUCH_Z = 32000  # a fingertip's pressure as the PyPortal panel reports it
# SDL's drivers that draw into memory only: a window there is never seen by anyone.
INVISIBLE = ("offscreen", "dummy", "evdev")
NO_WINDOW = "run it with --headless --script FILE, or where a desktop is"


def check_video(env=None, platform=None):
    """Raise ValueError (one line) when no window can be seen here.

    SDL_VIDEODRIVER set on purpose wins (the tests draw windows on SDL's dummy driver).
    Otherwise a Linux or BSD desktop has DISPLAY (X11) or WAYLAND_DISPLAY: without either,
    SDL would fall back to an offscreen driver and the game would run where no one sees it.
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if env.get("SDL_VIDEODRIVER"):
        return
    if platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
            raise ValueError(
                "cannot open the window: no display (DISPLAY and WAYLAND_DISPLAY are not set); "
                + NO_WINDOW
            )


class WindowClosed(SystemExit):
    """The player closed the window: the run ends cleanly (a SystemExit: see fatfile.Hang)."""


class WindowDisplay(FramebufferDisplay):
    """The framebuffer display shown in a pygame window, `scale` times the board's size."""

    def __init__(self, width, height, scale=2, backlight=True, caption="FreeCell MC"):
        self._screen = None  # no window yet while the display sets its first brightness
        super().__init__(width, height, backlight)
        import pygame

        self._pygame = pygame
        self.scale = max(1, int(scale))
        pygame.init()
        pygame.display.init()  # pygame.init() keeps quiet when video fails; this one says why
        driver = pygame.display.get_driver()
        if driver in INVISIBLE and not os.environ.get("SDL_VIDEODRIVER"):
            pygame.quit()
            # RuntimeError like pygame.error: the simulator says so in one line and exits 2.
            raise RuntimeError("SDL found no screen and fell back to its %r driver" % driver)
        pygame.display.set_caption(caption)
        self._screen = pygame.display.set_mode((width * self.scale, height * self.scale))

    def _refresh_display(self):
        drew = super()._refresh_display()
        self.present()
        # a window may stay open for hours: keep the dirty-area log to its recent part
        if len(self.refreshes) > 2000:
            del self.refreshes[:1000]
        return drew

    def backlight_changed(self):
        """Show the new backlight at once, as the panel does."""
        self.present()

    def present(self):
        """Copy the framebuffer to the window."""
        if self._screen is None:
            return
        img = self.image(self.scale)
        surf = self._pygame.image.frombuffer(img.tobytes(), img.size, "RGB")
        self._screen.blit(surf, (0, 0))
        self._pygame.display.flip()

    def save_window_png(self, path):
        """Write what the window shows (scaled) to a PNG file."""
        self._pygame.image.save(self._screen, path)

    def _release(self):
        super()._release()
        self._screen = None
        self._pygame.quit()


class MouseInput:
    """Touch readings from the mouse, keys from the keyboard; one read per game poll."""

    def __init__(self, display, keys, idle_s=0.005):
        import pygame

        self._pygame = pygame
        self.display = display
        self.keys = keys
        self.idle_s = idle_s
        p = pygame
        self._keymap = {
            p.K_u: "u",
            p.K_z: "z",
            p.K_n: "n",
            p.K_r: "r",
            p.K_d: "d",
            p.K_f: "f",
            p.K_ESCAPE: "esc",
            p.K_RETURN: "enter",
            p.K_KP_ENTER: "enter",
            p.K_BACKSPACE: "back",
        }
        for i in range(10):
            self._keymap[getattr(p, "K_%d" % i)] = str(i)
            self._keymap[getattr(p, "K_KP%d" % i)] = str(i)

    def read(self):
        """Handle window events, then return (x, y, z) while the left button is down."""
        p = self._pygame
        for event in p.event.get():
            if event.type in (p.QUIT, p.WINDOWCLOSE):
                raise WindowClosed()
            if event.type == p.KEYDOWN:
                key = self._keymap.get(event.key)
                if key is not None:
                    self.keys.push(key)
            elif event.type in (p.WINDOWEXPOSED, p.WINDOWSHOWN, p.WINDOWRESTORED):
                self.display.present()
        # the game polls as fast as it can on the desktop; a short pause keeps a core free
        time.sleep(self.idle_s)
        if not p.mouse.get_focused() or not p.mouse.get_pressed()[0]:
            return None
        mx, my = p.mouse.get_pos()
        s = self.display.scale
        x, y = mx // s, my // s
        if 0 <= x < self.display.width and 0 <= y < self.display.height:
            return (x, y, TOUCH_Z)
        return None
