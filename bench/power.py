# SPDX-License-Identifier: MIT
"""The battery: the backlight current the dimming saves per hour, from published figures.

Nothing here is measured on a board: the figures are the sources' (each cited where it is
set), the times are the game's own (freecell_mc/saves/settings.py, the defaults;
freecell_mc/hardware/backlight.py, the dimmed level), and the arithmetic is printed with
them. An LED backlight's current follows its PWM duty, so a screen dimmed to a fifth
draws a fifth of the backlight's current, and a dark one none.
"""

from freecell_mc.hardware import backlight
from freecell_mc.saves import settings

# The PyPortal's 3.2" and the Pynt's 2.4" panels are ILI9341 TFTs lit by white LEDs
# (Adafruit's ILI9341 breakouts: "bright (4 white-LED backlight)", the 2.8" breakout's
# README, github.com/adafruit/2.8-tft-breakout-pcb). Adafruit gives the current of its
# 2.8" ILI9341 panel's backlight: "4 LEDs ... draws ~75mA at all times" (learn.adafruit.com,
# "Adafruit PiTFT 2.8" ... Backlight Control"); no figure was found for the 3.2" and 2.4"
# panels themselves, so that one stands in for both.
PYPORTAL_BACKLIGHT_MA = 75
# The Titano's 3.5" 480x320 HX8357 panel: "6 LEDs in a row, and we use a boost converter to
# get the 5V ... up to the ~20V needed" (the same Adafruit page, its 3.5" display), a FAN5333
# boost LED driver on the Titano (adafruit/circuitpython issue #6236). At the string current
# of 20 mA white LEDs are rated for, 20 V x 20 mA through a boost of about 85 % efficiency
# takes 94 mA from the 5 V supply.
TITANO_STRING_MA = 20
TITANO_STRING_V = 20.0
BOOST_EFFICIENCY = 0.85
SUPPLY_V = 5.0
# The panel's own controller keeps running whatever the backlight does: "Power Consumption
# (w/o backlight current) 6mA" (done.land, ILI9341 overview). The SAMD51 and the board's
# regulators add their own draw, which no source at hand gives for these boards: it is left
# out, so the shares below are of the backlight and the controller only (an upper bound).
CONTROLLER_MA = 6


def titano_backlight_ma():
    """Return the Titano backlight's current from the 5 V supply, in mA."""
    return TITANO_STRING_V * TITANO_STRING_MA / BOOST_EFFICIENCY / SUPPLY_V


def hour_untouched(full_ma, dim_s, dark_s):
    """Return (mAh without dimming, mAh with it) for an hour nobody touches the board."""
    hour = 3600.0
    dark_at = dark_s if dark_s else hour
    dim_at = dim_s if dim_s and dim_s < dark_at else dark_at
    lit = min(dim_at, hour)
    dimmed = max(0.0, min(dark_at, hour) - lit)
    used = (lit + dimmed * backlight.DIM_LEVEL) * full_ma / hour
    return full_ma, used


def hour_of_play(full_ma, dim_s, dark_s, pause_s=150, play_s=90):
    """Return (mAh without dimming, mAh with it) for an hour of play_s of taps, pause_s of
    thought, over and over: a pause longer than dim_s dims for what is left of it."""
    hour = 3600.0
    cycle = pause_s + play_s
    dimmed = 0.0
    dark = 0.0
    if dim_s and pause_s > dim_s:
        dimmed = (min(pause_s, dark_s or pause_s) - dim_s) * hour / cycle
    if dark_s and pause_s > dark_s:
        dark = (pause_s - dark_s) * hour / cycle
    used = (hour - dimmed - dark + dimmed * backlight.DIM_LEVEL) * full_ma / hour
    return full_ma, used


def run(out):
    """Print the estimate."""
    dim_s = settings.DIM_AFTER_S[settings.DIM_DEFAULT]
    dark_s = settings.DARK_AFTER_S[settings.DARK_DEFAULT]
    out.write("battery (estimate from published figures, not measured on a board)\n")
    out.write("  the defaults: dim to %d %% after %d s without a touch, dark after %d s\n"
              % (int(backlight.DIM_LEVEL * 100), dim_s, dark_s))
    boards = (("pyportal, pynt", PYPORTAL_BACKLIGHT_MA), ("titano", titano_backlight_ma()))
    out.write("    %-15s %10s %22s %22s\n" % ("board", "backlight", "an hour untouched",
                                              "an hour of play"))
    for name, ma in boards:
        a, b = hour_untouched(ma, dim_s, dark_s)
        c, d = hour_of_play(ma, dim_s, dark_s)
        out.write("    %-15s %7.0f mA %9.0f -> %3.0f mAh %9.0f -> %3.0f mAh\n"
                  % (name, ma, a, b, c, d))
    for name, ma in boards:
        a, b = hour_untouched(ma, dim_s, dark_s)
        share = (a - b) / (a + CONTROLLER_MA)
        out.write("  %s: %.0f mAh saved an hour the board lies untouched, %.0f %% of the\n"
                  "    backlight and panel controller's %.0f mAh\n"
                  % (name, a - b, 100 * share, a + CONTROLLER_MA))
    out.write("  an hour of play: 90 s of moves, then 150 s of thought, over and over (the\n"
              "    screen dims for the last 90 s of each pause)\n")
    out.write("  left out: the SAMD51's and the regulators' own draw (no published figure for\n"
              "    these boards), and what the slower polls in the dark save of it\n")
