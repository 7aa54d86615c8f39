"""The cases of the real-input suite.

click/*   every control of the demo flow (data/flows/focus-onboarding.json) clicked in every
          state: the value buttons of the duration and choice pickers opened and closed with
          the same button, the page background, Done/Cancel then a click to reopen, the toolbar,
          Back/Next/Skip/Cancel and the indicator's dots, clicks during page animations, double
          clicks, a walkthrough finished by clicks; click/main-window: the main window after
          completion (the timer, Preferences… twice, Run the walkthrough again).
drag/*    pointer drags (press, several motions, release) across the pages with a picker open.
text/editing, focus/policy, keyboard/name-tab-to-next
          issue 18's "Done means" for the entry, the focus policy and Tab from Name to Next.
keyboard/FLOW
          each flow of data/flows walked to Finish with the keyboard alone (Tab, Shift+Tab,
          Return, Space, arrows, typing), following the desktop keyboard model of issue 18:
          Tab past the last field reaches the page's own controls (Back, the indicator, Skip,
          Next/Finish, Cancel); focus never rests on a container.
monkey    a seeded random run of --events real input events across pages and pickers (a new app
          and recording each time a random Cancel or Finish completes the walkthrough).
embed/*   the click and drag sequences again in the C host that embeds the view
          (meson-helper/examples/quire-gtk-walkthrough.c).

Every `quire run` case ends with Ctrl+Q and its recording replayed by `quire test`; every C host
case with SIGTERM, on which the host prints the session's state and exits 0.
"""

import glob
import json
import os
import re
import shutil
import time

from driver import Crashed, Failure, describe_status
from suite import ROOT, Skip, case  # noqa: F401

TOOLBAR = ("panel", "Input toolbar")
DEMO = "data/flows/focus-onboarding.json"


# ----------------------------------------------------------------------------- demo flow helpers

def value_match(label):
    return "^" + re.escape(label) + ": "


def value_button(t, label, snap=None):
    snap = snap or t.snap()
    return snap.find("push button", match=value_match(label))


def chrome_button(t, name, timeout=3.0):
    """A button of the chrome (not the accessory toolbar's button of the same name)."""
    return t.locate("push button", name, outside=TOOLBAR, timeout=timeout)


def click_chrome(t, name, **kw):
    snap, node = chrome_button(t, name)
    t.click_node(snap, node, **kw)
    return node


def click_toolbar(t, name, **kw):
    snap, node = t.locate("push button", name, within=TOOLBAR)
    t.click_node(snap, node, **kw)
    return node


def click_value(t, label, **kw):
    snap, node = t.locate("push button", match=value_match(label))
    t.click_node(snap, node, **kw)
    return node


def background(t, snap):
    """A point of the current page's background: its title, a plain label the pager's click
    gesture gets (a tap on the page, not on a control). Window coordinates."""
    pages = snap.find(None, "Pages")
    if pages is None:
        raise Failure("no 'Pages' panel in the tree")
    px, py, pw, ph = pages.extents()
    for node in snap.nodes:
        if node.role in ("label", "heading") and node.inside(None, "Pages") and node.name:
            x, y = node.center()
            if px <= x < px + pw and py <= y < py + ph:
                return x, y, node
    # no label: a point near the top of the pages
    return px + pw / 2, py + 12, pages


def click_background(t, repeat=1):
    snap = t.snap()
    x, y, node = background(t, snap)
    t.click_at(x, y, repeat=repeat, note=f" (page background: {node.label})")


def open_picker(t, label):
    click_value(t, label)
    t.wait_picker(label)
    t.settle()


def ensure_name(t):
    """On the demo's page 2: a name typed into the entry by a click and the keyboard, the
    entry's panel closed with the toolbar's Done."""
    snap, entry = t.locate("text", "Name")
    if (entry.text() or "").strip():
        return
    t.click_node(snap, entry)
    try:
        t.wait_picker("Name", timeout=1.5)
    except Failure:
        pass  # (focus/policy checks when a click on the entry shows no toolbar)
    t.type("Ada")
    t.wait(lambda s: (s.find("text", "Name").text() or "") == "Ada", "the entry to show 'Ada'")
    if t.snap().picker():
        click_toolbar(t, "Done")
        t.wait_picker(None)


def goto(t, target):
    """From wherever the demo is, by clicking Next/Back (typing the required name on page 2)."""
    for _ in range(12):
        snap = t.snap()
        if snap.picker():
            click_toolbar(t, "Done")
            t.wait_picker(None)
            continue
        page = t.page(snap)
        if page == target:
            return
        if page < target:
            if page == 2:
                ensure_name(t)
            click_chrome(t, "Next")
            t.wait_page(page + 1)
        else:
            click_chrome(t, "Back")
            t.wait_page(page - 1)
        t.settle()
    raise Failure(f"could not reach page {target}")


def dot_point(t, snap, index):
    """Window coordinates of the indicator's dot `index` (1-based), from DotGeometry: dots 8 px
    wide, 10 px apart, centred in the indicator (up to 9 dots: the demo has 5)."""
    slider = snap.find("slider")
    page, count = snap.page()
    x, y, w, h = slider.extents()
    strip = count * 8 + (count - 1) * 10
    return x + (w - strip) / 2 + (index - 1) * 18 + 4, y + h / 2


def click_dot(t, index, repeat=1):
    snap = t.snap()
    x, y = dot_point(t, snap, index)
    t.click_at(x, y, repeat=repeat, note=f" (indicator dot {index})")


def expect_completed(t, outcome=None, timeout=5.0):
    """The walkthrough completed: `quire run` shows its main window; the C host prints the
    result and quits (exit 0)."""
    if t.host.kind == "app":
        t.wait(lambda s: s.main_window(), "the main window after completion", timeout)
        t.completed = True
        return
    t.expect_exit = True
    deadline = time.monotonic() + timeout
    while t.host.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    if t.host.alive():
        raise Failure("the C host did not quit when its session completed")
    status = t.host.status()
    if status != 0:
        raise Crashed(f"the C host {describe_status(status)} on completing")
    with open(t.host.stderr_path, errors="replace") as f:
        err = f.read()
    if "completed:" not in err:
        raise Failure("the C host exited without saying 'completed:'")
    if outcome and f'"outcome":"{outcome}"' not in err.replace(" ", ""):
        t.expect(False, f"the C host completed, but not as {outcome}: {err.strip()[-200:]}")


# --------------------------------------------------------------------- click and drag sequences

SEQUENCES = []
EMBEDDED = []  # the C host's cases, registered last (after the monkey)


def sequence(name, embed=True, timeout=45):
    """A click (or drag) sequence, registered for `quire run` (click/NAME or drag/NAME) and, when
    it applies, for the C host (embed/NAME)."""
    def register(fn):
        group = "drag" if name.startswith("drag-") else "click"
        short = name[len("drag-"):] if group == "drag" else name

        def app_case(t):
            t.start(DEMO)
            fn(t)
        case(f"{group}/{short}", timeout=timeout)(app_case)
        if embed:
            def embed_case(t):
                t.start(DEMO, kind="embed")
                fn(t)
            EMBEDDED.append((f"embed/{name}", timeout, embed_case))
        SEQUENCES.append(name)
        return fn
    return register


@sequence("duration-same-button")
def _(t):
    """Focus time's value button opens the duration picker; clicked again, it closes it."""
    goto(t, 3)
    before = value_button(t, "Focus time").name
    for _round in range(2):
        open_picker(t, "Focus time")
        click_value(t, "Focus time")
        t.wait_picker(None)
    t.expect(value_button(t, "Focus time").name == before,
             f"opening and closing changed nothing: {before!r}, now {value_button(t, 'Focus time').name!r}")


@sequence("choice-same-button")
def _(t):
    goto(t, 2)
    before = value_button(t, "Feed language").name
    for _round in range(2):
        open_picker(t, "Feed language")
        click_value(t, "Feed language")
        t.wait_picker(None)
    t.expect(value_button(t, "Feed language").name == before, "opening and closing changed the value")


@sequence("duration-background")
def _(t):
    goto(t, 3)
    for _round in range(2):
        open_picker(t, "Focus time")
        click_background(t)
        t.wait_picker(None)
    click_background(t)  # with nothing open
    t.settle()


@sequence("choice-background")
def _(t):
    goto(t, 2)
    for _round in range(2):
        open_picker(t, "Feed language")
        click_background(t)
        t.wait_picker(None)


@sequence("duration-done-cancel-reopen")
def _(t):
    """Done and Cancel of the picker's toolbar, each followed by a click that reopens it; a
    wheel turned by a click below its centre, kept by Done, dropped by Cancel."""
    goto(t, 3)
    start = value_button(t, "Focus time").name
    open_picker(t, "Focus time")
    click_toolbar(t, "Done")
    t.wait_picker(None)
    open_picker(t, "Focus time")
    snap, wheel = t.locate("spin button", match=r", (min|minutes)$")
    t.click_node(snap, wheel, dy=wheel.extents()[3] / 3)  # below the centre: one step on
    t.settle(0.3)
    click_toolbar(t, "Cancel")
    t.wait_picker(None)
    t.expect(value_button(t, "Focus time").name == start, f"Cancel kept a turned wheel: {value_button(t, 'Focus time').name!r}")
    open_picker(t, "Focus time")
    snap, wheel = t.locate("spin button", match=r", (min|minutes)$")
    t.click_node(snap, wheel, dy=wheel.extents()[3] / 3)
    t.settle(0.3)
    click_toolbar(t, "Done")
    t.wait_picker(None)
    t.expect(value_button(t, "Focus time").name != start, "Done did not keep the turned wheel")
    open_picker(t, "Focus time")
    click_toolbar(t, "Done")
    t.wait_picker(None)


@sequence("choice-select-done-reopen")
def _(t):
    goto(t, 2)
    open_picker(t, "Feed language")
    t.click("list item", "日本語")
    t.wait(lambda s: s.find("list item", "日本語") is not None and s.find("list item", "日本語").has("selected"),
           "日本語 to be selected")
    click_toolbar(t, "Done")
    t.wait_picker(None)
    t.expect(value_button(t, "Feed language").name == "Feed language: 日本語",
             f"Done did not keep 日本語: {value_button(t, 'Feed language').name!r}")
    open_picker(t, "Feed language")
    t.click("list item", "English")
    t.settle(0.2)
    click_toolbar(t, "Done")
    t.wait_picker(None)
    open_picker(t, "Feed language")
    click_value(t, "Feed language")
    t.wait_picker(None)


@sequence("toolbar")
def _(t):
    """The text field's toolbar (Previous, Next, Done) and the picker's."""
    goto(t, 2)
    snap, entry = t.locate("text", "Name")
    t.click_node(snap, entry)
    t.wait_picker("Name")
    t.settle()
    t.type("Ada")
    click_toolbar(t, "Next")
    t.wait_picker("Feed language")
    t.settle()
    click_toolbar(t, "Previous")
    t.wait_picker("Name")
    t.settle()
    click_toolbar(t, "Next")
    t.wait_picker("Feed language")
    t.settle()
    click_toolbar(t, "Done")
    t.wait_picker(None)
    t.expect((t.snap().find("text", "Name").text() or "") == "Ada", "the name typed was not kept")


@sequence("chrome-buttons")
def _(t):
    """Back, Next, Skip, the dots and Cancel."""
    click_chrome(t, "Next")
    t.wait_page(2)
    t.settle()
    click_chrome(t, "Back")
    t.wait_page(1)
    t.settle()
    click_dot(t, 2)
    t.wait_page(2)
    t.settle()
    ensure_name(t)
    click_dot(t, 3)
    t.wait_page(3)
    t.settle()
    click_dot(t, 1)
    t.wait_page(1)
    t.settle()
    click_dot(t, 3)  # the dot of the current page and beyond
    t.wait_page(3)
    t.settle()
    click_dot(t, 3)
    t.settle()
    snap = t.snap()
    if snap.find("push button", "Skip", outside=TOOLBAR, enabled=True):
        page = t.page(snap)
        click_chrome(t, "Skip")
        t.wait(lambda s: t.page(s) != page or s.main_window(), "Skip to move on")
        t.settle()
    else:
        t.note("Skip is never enabled in the demo flow")
    if not t.snap().main_window():
        click_chrome(t, "Cancel")
        expect_completed(t, "cancelled")


@sequence("picker-open-other-controls")
def _(t):
    """With a picker open, click the other controls a person can reach: another field, the
    switch, Cancel above the pages."""
    goto(t, 2)
    ensure_name(t)
    open_picker(t, "Feed language")
    snap, entry = t.locate("text", "Name")
    t.click_node(snap, entry)
    t.wait_picker("Name")
    t.settle()
    click_value(t, "Feed language")
    t.wait_picker("Feed language")
    t.settle()
    click_toolbar(t, "Done")
    t.wait_picker(None)
    goto(t, 3)
    open_picker(t, "Focus time")
    snap, switch = t.locate("check box", "Remind me to take breaks")
    t.click_node(snap, switch)
    t.settle()
    click_value(t, "Focus time")
    t.settle()
    if not t.snap().picker():
        open_picker(t, "Focus time")
    click_chrome(t, "Cancel")
    expect_completed(t, "cancelled")


@sequence("during-animations")
def _(t):
    """Clicks while pages slide (250 ms): Next twice at once, Back mid-way, a dot mid-way, the
    background and a field of the incoming page."""
    snap, next_button = chrome_button(t, "Next")
    t.click_node(snap, next_button)
    t.click_node(snap, next_button)  # the gate stops at the empty name
    t.settle(0.5)
    t.expect(t.page() == 2, f"two quick Nexts from page 1 should stop at page 2 (empty name), not {t.page()}")
    snap, back = chrome_button(t, "Back")
    t.click_node(snap, next_button)
    time.sleep(0.08)
    t.click_node(snap, back)
    t.settle(0.6)
    click_chrome(t, "Next")
    time.sleep(0.05)
    click_dot(t, 1)
    time.sleep(0.05)
    click_background(t)
    t.settle(0.6)
    goto(t, 2)
    ensure_name(t)
    click_chrome(t, "Next")
    time.sleep(0.08)
    snap = t.snap()
    button = value_button(t, "Focus time", snap)
    if button is not None and snap.on_screen(button):
        t.click_node(snap, button)  # the incoming page's value button, mid-slide
    t.settle(0.6)
    if t.snap().picker():
        click_toolbar(t, "Done")
        t.wait_picker(None)
    page = t.page()
    t.expect(page in (1, 2, 3), f"on page {page}")


@sequence("double-clicks")
def _(t):
    snap, next_button = chrome_button(t, "Next")
    t.click_node(snap, next_button, repeat=2)
    t.settle(0.6)
    snap, back = chrome_button(t, "Back")
    t.click_node(snap, back, repeat=2)
    t.settle(0.6)
    goto(t, 2)
    snap, entry = t.locate("text", "Name")
    t.click_node(snap, entry, repeat=2)
    t.settle()
    t.type("Ada")
    click_toolbar(t, "Done", repeat=2)
    t.settle()
    click_value(t, "Feed language", repeat=2)
    t.settle()
    if not t.snap().picker():
        open_picker(t, "Feed language")
    t.click("list item", "日本語", repeat=2)
    t.settle()
    click_toolbar(t, "Done", repeat=2)
    t.settle()
    click_background(t, repeat=2)
    t.settle()
    click_dot(t, 1, repeat=2)
    t.settle(0.6)
    goto(t, 3)
    click_value(t, "Focus time", repeat=2)
    t.settle()
    if not t.snap().picker():
        open_picker(t, "Focus time")
    snap, wheel = t.locate("spin button", match=r", (min|minutes)$")
    t.click_node(snap, wheel, repeat=2, dy=wheel.extents()[3] / 3)
    t.settle()
    click_toolbar(t, "Done", repeat=2)
    t.settle()
    snap, switch = t.locate("check box", "Remind me to take breaks")
    t.click_node(snap, switch, repeat=2)
    t.settle()


@sequence("finish-by-clicks")
def _(t):
    """The whole demo with the pointer (and the name typed): every picker opened, changed and
    closed, the switch clicked off and on, Finish."""
    click_chrome(t, "Next")
    t.wait_page(2)
    t.settle()
    ensure_name(t)
    open_picker(t, "Feed language")
    t.click("list item", "日本語")
    click_toolbar(t, "Done")
    t.wait_picker(None)
    click_chrome(t, "Next")
    t.wait_page(3)
    t.settle()
    open_picker(t, "Focus time")
    snap, wheel = t.locate("spin button", match=r", (min|minutes)$")
    t.click_node(snap, wheel, dy=wheel.extents()[3] / 3)
    t.settle(0.3)
    click_toolbar(t, "Done")
    t.wait_picker(None)
    for _round in range(2):
        snap, switch = t.locate("check box", "Remind me to take breaks")
        t.click_node(snap, switch)
        t.settle()
    click_chrome(t, "Next")
    t.wait_page(4)
    t.settle()
    open_picker(t, "Remind me after")
    click_toolbar(t, "Done")
    t.wait_picker(None)
    click_chrome(t, "Next")
    t.wait_page(5)
    t.settle()
    click_chrome(t, "Finish")
    expect_completed(t, "finished")


@case("click/main-window", timeout=45)
def main_window(t):
    """After completion, the main window's controls: Start/Pause, Reset, Preferences… (a + of a
    spin button, its Close), Preferences… a second time, Run the walkthrough again."""
    t.start(DEMO)
    click_chrome(t, "Cancel")
    expect_completed(t)
    t.settle()
    t.click("push button", "Start")
    t.wait(lambda s: s.find("push button", "Pause"), "Start to become Pause")
    t.click("push button", "Pause")
    t.settle(0.2)
    t.click("push button", "Reset")
    t.settle(0.2)
    for attempt in (1, 2):
        t.click("push button", match=r"^Preferences")
        try:
            t.wait(lambda s: any(len(n.ancestors) == 1 and n.name == "Preferences" for n in s.nodes),
                   "the Preferences window in the accessible tree", timeout=2)
        except Failure:
            windows = t.host.windows()
            raise Failure(f"Preferences… opened a window for the {['first', 'second'][attempt - 1]} time that "
                          f"AT-SPI does not list (X windows of the app: {[w[3:] for w in windows]}); "
                          "its Close button then does nothing, and being modal it blocks the main window "
                          "(Ctrl+Q, Ctrl+R) for good")
        t.close_extra_windows()
        t.wait(lambda s: not any(len(n.ancestors) == 1 and n.name == "Preferences" for n in s.nodes),
               "the Preferences window to close", timeout=2)
        t.expect(len(t.host.windows()) == 1, f"after Close, the app still has {len(t.host.windows())} windows")
    t.click("push button", "Run the walkthrough again")
    t.wait_page(1)


def pages_drag_line(t, snap):
    """A horizontal line across the pages above the open panel: from 80 % to 20 % of their width,
    at the height of the page's title."""
    pages = snap.find(None, "Pages")
    px, py, pw, ph = pages.extents()
    _x, y, _node = background(t, snap)
    return px + pw * 0.8, px + pw * 0.2, y


@sequence("drag-duration-picker-open")
def _(t):
    """Drags across the pages while the duration picker is open: forward, back, a short one that
    springs back, one that starts on the value button, one on a wheel, one from the panel into the
    pages."""
    goto(t, 3)
    open_picker(t, "Focus time")
    snap = t.snap()
    right, left, y = pages_drag_line(t, snap)
    t.drag(right, y, left, y, steps=10)
    t.settle(0.6)
    page = t.page()
    t.expect(page in (3, 4), f"a forward drag from page 3 went to page {page}")
    snap = t.snap()
    right, left, y = pages_drag_line(t, snap)
    t.drag(left, y, right, y, steps=10)
    t.settle(0.6)
    if t.page() != 3:
        goto(t, 3)
    if not t.snap().picker():
        open_picker(t, "Focus time")
    snap = t.snap()
    right, left, y = pages_drag_line(t, snap)
    t.drag(right, y, right - 30, y, steps=6)  # short: springs back
    t.settle(0.6)
    snap = t.snap()
    button = value_button(t, "Focus time", snap)
    if button is not None and snap.on_screen(button):
        x, by = button.center()
        t.drag(x, by, x - 250, by, steps=12)
        t.settle(0.6)
    if t.page() != 3:
        goto(t, 3)
    if not t.snap().picker():
        open_picker(t, "Focus time")
    snap, wheel = t.locate("spin button", match=r", (min|minutes)$")
    x, wy = wheel.center()
    t.drag(x, wy, x, wy - 60, steps=8)
    t.settle(0.4)
    snap = t.snap()
    panel = t.covering_panel(snap)
    if panel:
        px, py, pw, ph = panel
        _r, _l, y = pages_drag_line(t, snap)
        t.drag(px + pw * 0.7, py + ph * 0.6, px + pw * 0.2, y, steps=10)
        t.settle(0.6)


@sequence("drag-choice-picker-open")
def _(t):
    goto(t, 2)
    ensure_name(t)
    open_picker(t, "Feed language")
    snap = t.snap()
    right, left, y = pages_drag_line(t, snap)
    t.drag(right, y, left, y, steps=10)
    t.settle(0.6)
    t.expect(t.page() in (2, 3), f"a forward drag from page 2 went to page {t.page()}")
    snap = t.snap()
    right, left, y = pages_drag_line(t, snap)
    t.drag(left, y, right, y, steps=10)
    t.settle(0.6)
    if t.page() != 2:
        goto(t, 2)
    if not t.snap().picker():
        open_picker(t, "Feed language")
    snap = t.snap()
    option = snap.find("list item", "日本語")
    if option is not None:
        x, oy = option.center()
        _r, _l, y = pages_drag_line(t, snap)
        t.drag(x, oy, x - 200, y, steps=10)  # from an option out into the pages
        t.settle(0.6)
    snap = t.snap()
    right, left, y = pages_drag_line(t, snap)
    t.drag(left, y, left + 40, y, steps=5)
    t.settle(0.6)


# ------------------------------------------------------------------- text editing, focus policy

def entry_text(t):
    node = t.snap().find("text", "Name")
    return (node.text() or "") if node is not None else None


def expect_text(t, want, after):
    try:
        t.wait(lambda s: (s.find("text", "Name").text() or "") == want, f"the entry to show {want!r}", timeout=1.0)
    except Failure:
        t.expect(False, f"after {after}, the entry shows {entry_text(t)!r}, not {want!r}")


@case("text/editing", timeout=45)
def text_editing(t):
    """Issue 18's "Done means" for the entry, with real keys: Home then "Z" on "Ada" gives "ZAda";
    select all then "Bo" gives "Bo"; a character typed in the middle; BackSpace at the end;
    Japanese text (xdotool maps each character onto a spare keycode: GTK's built-in input method
    commits it; no IBus pre-edit here). The entry and the session agree at the end (the recording
    is compared with what the entry shows)."""
    t.start(DEMO)
    goto(t, 2)
    snap, entry = t.locate("text", "Name")
    t.click_node(snap, entry)
    t.wait_picker("Name")
    t.type("Ada")
    expect_text(t, "Ada", "typing 'Ada'")
    t.key("Home")
    t.type("Z")
    expect_text(t, "ZAda", "Home, 'Z'")
    t.key("ctrl+a")
    t.type("Bo")
    expect_text(t, "Bo", "Ctrl+A, 'Bo'")
    t.key("End")
    t.key("Left")
    t.type("x")
    expect_text(t, "Bxo", "End, Left, 'x'")
    t.key("End")
    t.key("BackSpace")
    expect_text(t, "Bx", "End, BackSpace")
    t.key("ctrl+a")
    t.key("BackSpace")
    t.type("日本語")
    expect_text(t, "日本語", "Ctrl+A, BackSpace, '日本語'")
    t.key("ctrl+a")
    t.type("Ada")
    expect_text(t, "Ada", "Ctrl+A, 'Ada'")
    click_toolbar(t, "Done")
    t.wait_picker(None)


@case("focus/policy", timeout=45)
def focus_policy(t):
    """Where keyboard focus is after each kind of move (issue 18, items 4 and 5): never on a
    container or nowhere — at the start, after Next is clicked, after a picker closes; after a
    refused Next, on the field whose error was revealed; after completion, on a control of the
    main window."""
    t.start(DEMO)

    def focus_ok(moment):
        try:  # (focus may be on its way for a moment)
            snap = t.wait(lambda s: s.focused() is not None and s.focused().role not in CONTAINERS,
                          "focus on a control", timeout=0.6)
        except Failure:
            snap = t.snap()
        focus = snap.focused()
        t.expect(focus is not None and focus.role not in CONTAINERS,
                 f"{moment}: keyboard focus on {focus.label if focus else 'nothing'}")
        return focus

    focus_ok("at the start")
    click_chrome(t, "Next")
    t.wait_page(2)
    t.settle()
    focus_ok("after Next was clicked")
    click_chrome(t, "Next")  # refused: the name is required
    t.settle(0.5)
    t.expect(t.page() == 2, f"Next with an empty required name moved to page {t.page()}")
    focus = t.snap().focused()
    t.expect(focus is not None and focus.role == "text" and focus.name == "Name",
             f"after a refused Next: keyboard focus on {focus.label if focus else 'nothing'}, not on the Name "
             "field whose error was revealed")
    snap, entry = t.locate("text", "Name")
    t.click_node(snap, entry)
    try:
        t.wait_picker("Name", timeout=1.5)
    except Failure:
        t.expect(False, "after a refused Next, a click on the Name entry shows no input toolbar (the entry has "
                        "the keyboard focus, but the session's first responder is not the field)")
    ensure_name(t)
    focus_ok("after the text field's panel closed with Done")
    open_picker(t, "Feed language")
    focus = t.snap().focused()
    t.expect(focus is not None and focus.inside(None, "Feed language"),
             f"with the choice list open: keyboard focus on {focus.label if focus else 'nothing'}, not on an option")
    click_toolbar(t, "Done")
    t.wait_picker(None)
    focus_ok("after the choice list closed with Done")
    click_chrome(t, "Cancel")
    expect_completed(t)
    t.settle()
    focus_ok("in the main window after completion")


@case("keyboard/name-tab-to-next", timeout=45)
def name_tab_to_next(t):
    """Issue 18: from the Name field of "About you", Tab reaches Next, through the choice list,
    which opens (focus on its selected option, nothing beneath it focused) and commits on the way;
    Shift+Tab from Next comes back the same way."""
    t.start(DEMO)
    goto(t, 2)
    snap, entry = t.locate("text", "Name")
    t.click_node(snap, entry)
    t.wait_picker("Name")
    t.type("Ada")
    trail = []
    reported = False
    for _tab in range(8):
        t.key("Tab")
        t.settle(0.3)
        snap = t.snap()
        focus = snap.focused()
        picker = snap.picker()
        trail.append((focus.label if focus else "nothing") + (f" [picker {picker!r}]" if picker else ""))
        if picker and picker != "Name" and not (focus is not None and focus.inside(None, picker)):
            try:  # focus may follow the panel's opening a moment later, or the panel is sliding away
                snap = t.wait(lambda s: s.picker() != picker or (
                    s.focused() is not None and s.focused().inside(None, picker)), "focus in the picker", timeout=0.6)
                focus, picker = snap.focused(), snap.picker()
            except Failure:
                pass
        if picker and picker != "Name" and not reported and not (focus is not None and focus.inside(None, picker)):
            reported = True
            t.expect(False, f"with the {picker!r} picker open, keyboard focus is on "
                            f"{focus.label if focus else 'nothing'}, not on its selected option")
        if focus is not None and focus.role == "push button" and focus.name == "Next" and not focus.inside(*TOOLBAR):
            break
    else:
        raise Failure("8 Tabs from the Name field never reached Next; focus went: " + " → ".join(trail))
    t.expect(any("Feed language" in stop for stop in trail),
             "Tab from Name did not pass through the Feed language choice list: " + " → ".join(trail))
    t.expect(t.snap().picker() is None, "the choice list is still open with focus on Next")
    back = []
    for _tab in range(8):
        t.key("shift+Tab")
        t.settle(0.3)
        snap = t.snap()
        focus = snap.focused()
        back.append(focus.label if focus else "nothing")
        if focus is not None and focus.role == "text" and focus.name == "Name":
            break
    else:
        t.expect(False, "8 Shift+Tabs from Next never reached the Name field: " + " → ".join(back))


# --------------------------------------------------------------------------- keyboard walkthroughs

def flow_fields(flow):
    fields = {}
    for page in flow["pages"]:
        for field in page.get("fields", []):
            label = field.get("label")
            if isinstance(label, dict):
                label = label.get("en") or next(iter(label.values()))
            fields[label] = field
    return fields


CONTAINERS = ("panel", "filler", "frame", "window", "unknown")


def keyboard_walk(t, max_keys=220):
    """Walks the flow to Finish with keys only, as a keyboard user does with the desktop keyboard
    model of issue 18. On each page it Tabs along: types into an empty text field, switches on a
    required toggle, turns an opened picker with Down, and once it has met the page's fields (or
    the page has none) and focus is on Next/Finish, checks that Shift+Tab then Tab comes back to
    it and presses Return. Fails when Tab never reaches Next/Finish (a dead end), and notes (soft
    failures) focus resting on a container or nowhere, focus beneath an open picker, a refused
    Next that leaves focus where it was."""
    fields = flow_fields(t.flow)
    keys = 0
    last_page = None
    seen_spots = set()

    def field_node(node):
        if node is None or node.inside(*TOOLBAR):
            return False
        if node.role in ("text", "entry") and node.has("editable"):
            return True
        if node.role in ("check box", "toggle button", "switch"):
            return True
        if node.role == "push button" and re.match(r"^.+: ", node.name) and node.inside(None, "Pages"):
            return True
        return node.inside(None, "Pages") and node.role in ("spin button",)

    def path(trail, n=8):
        """The last stops, repeats folded: "a → b → a → b" stays, "a → a → a" is "a (×3)"."""
        folded = []
        for stop in trail[-n * 3:]:
            if folded and folded[-1][0] == stop:
                folded[-1][1] += 1
            else:
                folded.append([stop, 1])
        return " → ".join(f"{s} (×{c})" if c > 1 else s for s, c in folded[-n:])

    def once(key, message):
        if key not in seen_spots:
            seen_spots.add(key)
            t.expect(False, message)

    while keys < max_keys:
        snap = t.snap()
        if snap.main_window():
            t.completed = True
            return
        page = t.page(snap)
        focus = snap.focused()
        picker = snap.picker()
        if page != last_page:
            last_page = page
            tabs, trail, armed, met_field, refused, backtab_done = 0, [], False, False, 0, False
            typed, turned = set(), set()
        if focus is None or focus.role in CONTAINERS:
            try:  # a moment without focus while it moves (a panel closing under it) is no resting place
                snap = t.wait(lambda s: s.focused() is not None and s.focused().role not in CONTAINERS,
                              "focus on a control", timeout=0.6)
                focus, picker, page = snap.focused(), snap.picker(), t.page(snap)
            except Failure:
                pass
        where = (focus.label if focus else "nothing") + (f" [picker {picker!r} open]" if picker else "")
        trail.append(where)
        if focus is None or focus.role in CONTAINERS:
            once((page, "container"),
                 f"page {page}: keyboard focus on {where} (a container, or nothing), after "
                 f"{path(trail[:-1], 3) or 'the page opened'}")
        picked = fields.get(picker) if picker else None
        if picked and picked.get("kind") in ("duration", "choice"):
            if not (focus is not None and focus.inside(None, picker)):
                # Focus may follow the panel's opening a moment later; or the panel is sliding
                # away (Tab left the chain: focus moved on, the panel closes): wait for either.
                try:
                    snap = t.wait(lambda s: s.picker() != picker or (
                        s.focused() is not None and s.focused().inside(None, picker)), "focus in the picker", timeout=0.6)
                    if snap.picker() != picker:
                        trail.pop()
                        continue  # the panel closed or another opened: look again
                    focus = snap.focused()
                except Failure:
                    pass
            if not (focus is not None and focus.inside(None, picker)):
                once((page, "picker"),
                     f"page {page}: the {picked['kind']} picker {picker!r} is open but keyboard focus is on "
                     f"{focus.label if focus else 'nothing'}, not on its wheel or option")
            if picker not in turned:
                turned.add(picker)
                t.key("Down")  # an arrow turns the wheel / chooses the next option
                keys += 1
                t.settle(0.12, still=False)
                continue
        if field_node(focus):
            met_field = True
            field = fields.get(focus.name)
            if focus.role in ("text", "entry") and focus.has("sensitive"):
                if not (focus.text() or "") and focus.name not in typed:
                    typed.add(focus.name)
                    t.type("Abcd")
                    keys += 1
                    t.settle(0.1, still=False)
                    continue
            elif focus.role in ("check box", "toggle button", "switch") and field and field.get("required") \
                    and not focus.has("checked"):
                t.key("space")
                keys += 1
                t.settle(0.12, still=False)
                continue
        elif focus is not None and focus.role == "push button" and focus.name in ("Next", "Finish") \
                and not focus.inside(*TOOLBAR):
            has_fields = any(field_node(n) and n.has("sensitive") and snap.on_screen(n)
                             for n in snap.nodes if n.inside(None, "Pages"))
            if met_field or armed or not has_fields:
                if not backtab_done:
                    backtab_done = True
                    name = focus.name
                    t.key("shift+Tab")
                    t.settle(0.12, still=False)
                    back = t.snap().focused()
                    t.key("Tab")
                    t.settle(0.12, still=False)
                    again = t.snap().focused()
                    keys += 2
                    if again is None or again.name != name:
                        once((page, "backtab"), f"page {page}: Shift+Tab then Tab from {name} went to "
                             f"{back.label if back else 'nothing'}, then {again.label if again else 'nothing'}")
                    continue
                before = page
                t.key("Return")
                keys += 1
                try:
                    t.wait(lambda s: s.main_window() or t.page(s) != before, "a page change", timeout=1.5)
                except Failure:
                    refused += 1
                    if refused > 3:
                        raise Failure(f"page {page}: Return on {focus.name} refused 4 times; "
                                      f"focus went: {path(trail)}")
                    after = t.snap().focused()
                    if not field_node(after):
                        once((page, "refused"), f"page {page}: after a refused {focus.name}, focus is on "
                             f"{after.label if after else 'nothing'}, not on the field whose error was revealed")
                    armed = met_field = False
                t.settle(0.3)
                continue
            armed = True  # met Next before any field: go round once more
        tabs += 1
        if tabs > 24:
            raise Failure(f"page {page}: 24 Tabs never reached Next/Finish with the page's fields done "
                          f"(a keyboard dead end); focus went: {path(trail)}")
        t.key("Tab")
        keys += 1
        t.settle(0.08, still=False)
    raise Failure(f"not finished after {max_keys} keys")


def keyboard_case(flow_file):
    name = os.path.splitext(os.path.basename(flow_file))[0]

    def run(t):
        t.start(os.path.relpath(flow_file, ROOT))
        keyboard_walk(t)
    case(f"keyboard/{name}", timeout=75, flow=os.path.relpath(flow_file, ROOT))(run)


for _flow in sorted(glob.glob(os.path.join(ROOT, "data", "flows", "*.json"))):
    keyboard_case(_flow)


# ------------------------------------------------------------------------------------------ monkey

MONKEY_KEYS = ["Tab", "shift+Tab", "Return", "space", "Escape", "Left", "Right", "Up", "Down", "Page_Up",
               "Page_Down", "Home", "End", "BackSpace", "Delete", "alt+Left", "alt+Right", "ctrl+a", "shift+Left",
               "ctrl+BackSpace", "ctrl+z", "alt+s"]
MONKEY_TEXT = ["a", "Ada", "日本語", "x y", "é", "12", "Zoë", "👍"]


@case("monkey", timeout=300)
def monkey(t):
    """--events real input events chosen by a seeded generator: clicks at random points and on
    random controls, double clicks, keys, typed text, drags, across pages and pickers. The app
    must stay alive throughout (checked after every event) and answer over AT-SPI (every 40
    events, and after a picker opens, when the tree is read again for the controls to aim at). When
    the walkthrough completes (a random Cancel or Finish), the recording it wrote must replay, and
    Ctrl+R runs the walkthrough again (a new recording), so the events stay on pages and pickers;
    the last one's recording is checked after the quit."""
    rng = t.rng
    events = t.options.events
    delay = t.options.delay
    header = 50  # the header bar: its close button would end the app (no random clicks there)
    pages_seen = set()
    pickers_seen = set()
    t.completions = 0
    t.note(f"monkey: seed {t.options.seed} (rerun: scripts/test-real-input --seed {t.options.seed} "
           f"--events {events} --only monkey)")
    tally = {}
    t.start(DEMO)
    w, h = t.host.size
    try:
        monkey_events(t, rng, events, delay, w, h, header, pages_seen, pickers_seen, tally)
        t.finish()
        tally_recording(t.recording, tally)
    finally:
        t.note(f"monkey: {t.input.count} events sent, pages seen {sorted(pages_seen)}, walkthroughs completed "
               f"{t.completions} (each one's recording replayed, and the last one's)")
        if tally:
            heard = sorted(tally.items(), key=lambda kv: -kv[1])
            t.note("monkey: the sessions heard " + ", ".join(f"{k} {v}" for k, v in heard))


def tally_recording(path, tally):
    """Counts the recorded events by kind (a tap by its target: button, accessory, indicator,
    background, or the field's id), to show what the run reached."""
    try:
        with open(path, encoding="utf-8") as f:
            steps = json.load(f).get("steps", [])
    except (OSError, ValueError):
        return
    for step in steps:
        if not isinstance(step, dict) or not step or any(k.startswith("expect") for k in step):
            continue
        kind = next(iter(step))
        if kind == "tap" and isinstance(step["tap"], str):
            kind = "tap " + (step["tap"].split(":", 1)[0] if ":" in step["tap"] else step["tap"])
        tally[kind] = tally.get(kind, 0) + 1


def monkey_events(t, rng, events, delay, w, h, header, pages_seen, pickers_seen, tally):
    controls = []
    navigation = []
    cancel = None
    pages = None
    refresh = False
    while t.input.count < events:
        # The walkthrough's "Pages" accessible goes defunct the moment the walkthrough completes
        # (a random Cancel, Finish, Ctrl+Return): one cheap call, so the main window is left at
        # once and random clicks do not wander through it (its Preferences window, see
        # click/main-window).
        gone = False
        if pages is not None:
            t.a11y.pump()
            try:
                gone = pages.acc.get_index_in_parent() < 0
            except Exception:  # noqa: BLE001
                gone = True
        if gone or refresh or t.input.count % 40 == 0 or not controls:
            refresh = False
            snap = t.snap()  # raises Hung if the app stopped answering
            if snap.main_window():
                # Completed (a random Cancel or Finish): the recording was written as it
                # completed; a copy must replay. Then Ctrl+R runs the walkthrough again (its own
                # recording, written at the next completion or at the quit).
                t.completions += 1
                done = os.path.join(t.folder, f"recording-{t.completions}.json")
                shutil.copyfile(t.recording, done)
                t.check_recording(path=done)
                tally_recording(done, tally)
                t.close_extra_windows()
                t.host.focus_window()
                t.key("ctrl+r")
                snap = t.wait(lambda s: not s.main_window() and s.page(), "the walkthrough again after Ctrl+R")
            page = snap.page()
            if page:
                pages_seen.add(page[0])
            pages = snap.find(None, "Pages", on_screen=False)
            if snap.picker():
                pickers_seen.add(snap.picker())
            frame = snap.frame()
            controls = [n for n in snap.nodes if n.role in (
                "push button", "text", "check box", "spin button", "slider", "toggle button", "list item")
                and len(n.ancestors) > 1 and n.ancestors[1] == (frame.role, frame.name)
                and snap.on_screen(n) and n.extents()[1] > header
                and not (n.name == "Cancel" and not n.inside(*TOOLBAR))]  # Cancel ends it: rarely, below
            cancel = snap.find("push button", "Cancel", outside=TOOLBAR)
            # what moves a walkthrough on: Next/Back/Finish, the fields, the toolbar
            navigation = [n for n in controls if n.name in ("Next", "Back", "Done", "Previous")
                          or n.role in ("text", "check box") or re.match(r"^.+: ", n.name)]
            t.host.focus_window()
        roll = rng.random()
        if roll < 0.005 and cancel is not None:
            x, y = cancel.center()
            t.click_at(x, y, note=f" ({cancel.label}, ends the walkthrough)")
        elif roll < 0.28:
            x, y = rng.uniform(2, w - 2), rng.uniform(header, h - 2)
            t.click_at(x, y, note=" (random point)")
        elif roll < 0.50 and controls:
            node = rng.choice(controls)
            x, y = node.center()
            t.click_at(x, y, note=f" ({node.label})")
            refresh = bool(re.match(r"^.+: ", node.name))  # a picker opens: aim at its wheels and options
        elif roll < 0.57 and navigation:
            node = rng.choice(navigation)
            x, y = node.center()
            t.click_at(x, y, note=f" ({node.label})")
            if node.role == "text":
                t.type(rng.choice(MONKEY_TEXT))
            refresh = bool(re.match(r"^.+: ", node.name))
        elif roll < 0.62:
            x, y = rng.uniform(2, w - 2), rng.uniform(header, h - 2)
            t.click_at(x, y, repeat=2, note=" (random point)")
        elif roll < 0.84:
            t.key(rng.choice(MONKEY_KEYS))
        elif roll < 0.92:
            t.type(rng.choice(MONKEY_TEXT))
        else:
            x1, y1 = rng.uniform(10, w - 10), rng.uniform(header + 10, h - 10)
            x2, y2 = rng.uniform(10, w - 10), y1 + rng.uniform(-80, 80)
            t.drag(x1, y1, x2, max(header + 5, min(h - 5, y2)), steps=rng.randint(3, 8), step_ms=12)
        if delay:
            time.sleep(delay)


import accessibility  # noqa: E402,F401 - a11y/* (Tests/RealInput/accessibility.py)

for _name, _timeout, _fn in EMBEDDED:
    case(_name, timeout=_timeout, host="embed")(_fn)
