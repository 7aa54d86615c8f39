"""size/* — window sizes met as a person meets them (docs/gtk-shell.md, "Window sizes").

size/narrow-pickers  the window resized (XResizeWindow, as a window manager would) to 300×640:
                     GTK keeps it at its minimum, at most 360 px wide; each picker of the demo
                     opened by a real click on its value button leaves the window's size (X and
                     AT-SPI) as it was, and Next stays inside it.
size/wide-1920       the window resized to 1920×1080: the panel's toolbar keeps Cancel and Done
                     within 600 px of each other, centred; Next inside the window. (The suite's
                     screen is 1920×1080 for this: GTK keeps a window within its monitor.)

A page of 400 (and 1,000) fields is checked in-process (WindowSizeTests): walking its 1,200
accessibles over AT-SPI takes seconds per look, and the check is about sizes only.
"""

import subprocess
import time

from cases import DEMO, click_toolbar, goto, open_picker
from driver import Failure
from suite import case


def resize(t, width, height):
    """Resizes the app's X window (no window manager: the X server does it at once) and waits
    for GTK to lay out at the size it accepts; returns the content's size read over AT-SPI."""
    subprocess.run(["xdotool", "windowsize", t.host.window, str(width), str(height)], env=t.desktop.env,
                   capture_output=True, timeout=10)
    time.sleep(0.5)
    t.refresh_window()
    snap = t.snap()
    return snap.window_size


def sizes(t):
    """(X window size, AT-SPI frame size)."""
    found = t.host.find_window()
    snap = t.snap()
    return (found[3], found[4]) if found else None, tuple(snap.window_size)


def next_inside(t, snap=None):
    snap = snap or t.snap()
    node = snap.find("push button", "Next", on_screen=False, outside=("panel", "Input toolbar"))
    if node is None:
        raise Failure("no Next button in the tree")
    x, y, w, h = node.extents()
    ww, wh = snap.window_size
    t.expect(w > 0 and h > 0 and x >= 0 and y >= 0 and x + w <= ww and y + h <= wh,
             f"Next at {(x, y, w, h)} is not inside the window {ww}x{wh}")


@case("size/narrow-pickers", timeout=60)
def narrow_pickers(t):
    t.start(DEMO)
    width, height = resize(t, 300, 640)
    t.expect(0 < width <= 360, f"asked for 300 px, the window is {width} px wide (at most 360 expected)")
    t.note(f"minimum: {width}x{height}")
    for page, label in ((2, "Feed language"), (3, "Focus time")):
        goto(t, page)
        before = sizes(t)
        open_picker(t, label)
        t.settle(0.3)
        after = sizes(t)
        t.expect(after == before, f"opening {label!r} changed the window from {before} to {after}")
        next_inside(t)
        click_toolbar(t, "Done")
        t.wait_picker(None)
        t.settle(0.3)
        closed = sizes(t)
        t.expect(closed == before, f"closing {label!r} left the window at {closed}, was {before}")


@case("size/wide-1920", timeout=60)
def wide(t):
    t.start(DEMO)
    # The X window is the screen's size; its content is 10 px less (GTK's margin around a
    # client-side-decorated window).
    width, height = resize(t, 1920, 1080)
    t.note(f"content: {width}x{height}")
    t.expect(width >= 1900 and height >= 1060, f"the window is {width}x{height}, not about 1920x1080")
    goto(t, 3)
    open_picker(t, "Focus time")
    snap = t.snap()
    cancel = snap.find("push button", "Cancel", within=("panel", "Input toolbar"))
    done = snap.find("push button", "Done", within=("panel", "Input toolbar"))
    if cancel is None or done is None:
        raise Failure("no Cancel and Done in the open panel's toolbar")
    cx, _, cw, _ = cancel.extents()
    dx, _, dw, _ = done.extents()
    apart = dx + dw - cx
    t.note(f"Cancel to Done: {apart} px")
    t.expect(100 < apart <= 600, f"Cancel's left edge to Done's right edge: {apart} px (at most 600 expected)")
    t.expect(abs((cx + dx + dw) / 2 - width / 2) <= 40, f"the toolbar is not centred: {cx}..{dx + dw} in {width}")
    next_inside(t, snap)
    click_toolbar(t, "Done")
    t.wait_picker(None)
