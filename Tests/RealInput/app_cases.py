"""The app's own chrome met by real input (issue 20): app/*.

app/shortcuts-window   Ctrl+? opens the Keyboard Shortcuts window, which lists the app's and the
                       walkthrough's keys; Escape closes it.
app/menu-about         the primary menu ("Main Menu") opened with a real click, About Quire
                       chosen with a real click: the About dialog shows the name and version.
app/timer-ends         a timer saved paused at 2.5 s left says Resume; clicked, it runs out: the
                       window shows "Time's up" over AT-SPI (an alert, the time's name) and a
                       notification reaches org.freedesktop.Notifications (a stand-in server
                       this process owns on the suite's session bus); Start disabled, the
                       focus on Reset.
app/run-again-prefills Ctrl+R after a finished walkthrough starts from its answers: the name is
                       on page 2; the recording of the second walkthrough (with its `values`)
                       replays headlessly.
app/title-360          issue 33: at 360 px the header's AdwWindowTitle shows each page's title over
                       "Page N of 5", neither cut (as wide as at 520 px) nor over Cancel or the menu.
app/start-focused      the main window gives Start the focus, after completion and at launch.
app/tab-reaches-menu   Tab reaches the primary menu: Next, Main Menu, Cancel in the walkthrough
                       (Shift+Tab back), from Start in the main window; Return opens it.
app/preferences-keys   Preferences (Ctrl+,) closes with Escape, and again with Ctrl+W.
app/ctrl-w-closes      Ctrl+W closes the main window: the app ends (exit 0), settings kept.
app/record-expect      issue 38: while recording, Ctrl+E inserts an `expect` of what is on screen
                       (page 2, the name typed, no error): it is in the recording where it was
                       pressed, and the recording replays headlessly with it.
"""

import json
import os
import subprocess
import time

from cases import DEMO, click_chrome, ensure_name, expect_completed, goto
from driver import Failure, atspi
from suite import case


def top_levels(snap):
    return [n for n in snap.nodes if len(n.ancestors) == 1]


def top_level(snap, name):
    return next((n for n in top_levels(snap) if n.name == name), None)


def names_inside(snap, top):
    return {n.name for n in snap.nodes if len(n.ancestors) > 1 and n.ancestors[1] == (top.role, top.name)}


def to_main_window(t):
    click_chrome(t, "Cancel")
    expect_completed(t)
    t.settle()


def finish_walkthrough(t):
    """The demo finished (the name typed on page 2): its settings are saved as finished, so the
    next launch opens the main window (a cancelled first run starts the walkthrough again)."""
    goto(t, 5)
    click_chrome(t, "Finish")
    expect_completed(t)
    t.settle()


def quit_app(t, key="ctrl+q", failure=None):
    """`key` (Ctrl+Q), and the app gone with exit status 0 within 10 s (the case may go on with
    another launch); else a failure, worded by `failure(t)` when given."""
    t.expect_exit = True
    t.key(key)
    deadline = time.monotonic() + 10
    while t.host.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    if t.host.alive():
        t.expect_exit = False
        raise Failure(failure(t) if failure else f"the app did not quit within 10 s of {key}")
    t.expect(t.host.status() == 0, f"the app ended with status {t.host.status()} on {key}")


@case("app/shortcuts-window", timeout=40)
def shortcuts_window(t):
    t.start(DEMO)
    t.key("ctrl+question")
    snap = t.wait(lambda s: top_level(s, "Keyboard Shortcuts"), "the Keyboard Shortcuts window after Ctrl+?", timeout=4)
    shown = names_inside(snap, top_level(snap, "Keyboard Shortcuts"))
    for title in ("Start or pause the timer", "Run the walkthrough again", "Next page", "Previous page",
                  "Finish the walkthrough", "Next field or control", "Show keyboard shortcuts", "Quit"):
        t.expect(title in shown, f"the shortcuts window does not list {title!r}; it shows {sorted(shown)[:40]}")
    t.key("Escape")
    t.wait(lambda s: not top_level(s, "Keyboard Shortcuts"), "Escape to close the shortcuts window", timeout=3)
    t.expect(t.page() == 1, "the walkthrough moved while the shortcuts window was open")


def click_menu_item(t, name):
    """Clicks a menu item of the open popover menu where it is on the screen. GTK 4.8 gives a
    popover's nodes extents whose origin is its parent button's, not the window's: the point is
    the popover's own X window (the one of the menu's size) plus the item's offset in the menu."""
    snap, item = t.locate("menu item", name)
    menu = next((n for n in snap.nodes if n.role == "menu" and item.inside("menu", n.name)), None)
    if menu is None:
        raise Failure(f"menu item {name!r} is in no menu")
    mx, my, mw, mh = menu.extents()
    ix, iy, iw, ih = item.extents()
    popup = next(((x, y) for _wid, x, y, w, h in t.host.windows() if (w, h) == (mw, mh)), None)
    if popup is None:
        raise Failure(f"no X window of the menu's size {mw}x{mh}: {t.host.windows()}")
    t.input.click(popup[0] + ix - mx + iw / 2, popup[1] + iy - my + ih / 2, note=f" (menu item {name!r})")


@case("app/menu-about", timeout=40)
def menu_about(t):
    t.start(DEMO)
    to_main_window(t)
    t.click("push button", "Main Menu")
    snap = t.wait(lambda s: s.find("menu item", "About Quire"), "the primary menu to open on a click")
    items = [n.name for n in snap.find_all("menu item")]
    t.expect(items == ["Preferences…", "Keyboard Shortcuts", "About Quire", "Quit"], f"the primary menu holds {items}")
    click_menu_item(t, "About Quire")
    snap = t.wait(lambda s: top_level(s, "About Quire"), "the About dialog after About Quire was clicked", timeout=4)
    shown = names_inside(snap, top_level(snap, "About Quire"))
    for text in ("Quire", "0.1.0", "Fill in paged forms and walkthroughs"):
        t.expect(text in shown, f"the About dialog does not show {text!r}: {sorted(shown)[:30]}")
    t.key("Escape")
    t.wait(lambda s: not top_level(s, "About Quire"), "Escape to close the About dialog", timeout=3)


NOTIFICATIONS_XML = """<node><interface name="org.freedesktop.Notifications">
<method name="Notify"><arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/><arg type="a{sv}" direction="in"/>
<arg type="i" direction="in"/><arg type="u" direction="out"/></method>
<method name="GetCapabilities"><arg type="as" direction="out"/></method>
<method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
<arg type="s" direction="out"/><arg type="s" direction="out"/></method>
<method name="CloseNotification"><arg type="u" direction="in"/></method>
</interface></node>"""


class Notifications:
    """A stand-in notification server on the suite's session bus: owns
    org.freedesktop.Notifications and keeps every Notify call as (app, summary, body). Its calls
    are answered while the suite pumps GLib's default context (every read of the tree)."""

    def __init__(self):
        _Atspi, GLib = atspi()
        from gi.repository import Gio
        self.GLib = GLib
        self.calls = []
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        self.bus = Gio.DBusConnection.new_for_address_sync(os.environ["DBUS_SESSION_BUS_ADDRESS"], flags, None, None)
        info = Gio.DBusNodeInfo.new_for_xml(NOTIFICATIONS_XML).interfaces[0]
        self.registration = self.bus.register_object("/org/freedesktop/Notifications", info, self.on_call, None, None)
        reply = self.bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                   GLib.Variant("(su)", ("org.freedesktop.Notifications", 4)), None,
                                   Gio.DBusCallFlags.NONE, 3000, None)
        if reply.unpack()[0] != 1:
            raise Failure(f"could not own org.freedesktop.Notifications (RequestName answered {reply.unpack()[0]})")

    def on_call(self, connection, sender, path, interface, method, parameters, invocation):
        GLib = self.GLib
        if method == "Notify":
            app, _replaces, _icon, summary, body = parameters.unpack()[:5]
            self.calls.append((app, summary, body))
            invocation.return_value(GLib.Variant("(u)", (len(self.calls),)))
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["body"],)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("stand-in", "quire", "1", "1.2")))
        else:
            invocation.return_value(None)

    def close(self):
        self.bus.unregister_object(self.registration)
        self.bus.close_sync(None)


def write_timer(t, remaining_ms, duration=1500):
    """A saved focus timer (quire.timer/1) in the XDG state folder the case's app will get."""
    xdg = os.path.join(t.desktop.dir, "xdg", t.folder.replace("/", "_"))
    folder = os.path.join(xdg, "state", "quire")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "focus-onboarding.timer.json"), "w") as f:
        json.dump({"format": "quire.timer/1", "duration": duration, "remainingMs": remaining_ms, "running": False,
                   "savedAt": int(time.time() * 1e6)}, f)


@case("app/timer-ends", timeout=40)
def timer_ends(t):
    server = Notifications()
    try:
        write_timer(t, 2500)
        t.start(DEMO)
        to_main_window(t)
        # Paused part-way (saved so): Resume, not Start.
        snap = t.wait(lambda s: s.find("push button", "Resume"), "a timer paused at 00:03 to say Resume")
        t.expect(snap.find("push button", "Start") is None, "a paused timer still offers Start")
        t.click("push button", "Resume")
        t.wait(lambda s: s.find("push button", "Pause"), "Resume to become Pause")
        snap = t.wait(lambda s: s.find(None, "Focus timer: Time's up"), "the timer to reach zero and say Time's up",
                      timeout=6)
        try:
            t.wait(lambda s: s.find("alert", "Time's up"), "'Time's up' shown as an alert (what a screen reader announces)",
                   timeout=2)
        except Failure as e:
            t.expect(False, f"{e}: {[n.label for n in t.snap().nodes if n.name == 'Time' + chr(39) + 's up']}")
        try:
            # (Its own wait: the first node to say so may be the main view's, a moment earlier.)
            t.wait(lambda s: s.find_all("push button", "Focus timer: Time's up"),
                   "the header bar's timer button to say Time's up", timeout=2)
        except Failure as e:
            t.expect(False, str(e))
        try:
            t.wait(lambda s: any(not n.has("sensitive") for n in s.find_all("push button", "Start")),
                   "Start, disabled at zero", timeout=2)
        except Failure as e:
            t.expect(False, str(e))
        # The end disabled Start, which had the focus: the focus is on Reset, not nowhere.
        try:
            t.wait(lambda s: s.focused() is not None and s.focused().name == "Reset", "the focus on Reset at zero",
                   timeout=2)
        except Failure as e:
            t.expect(False, str(e))
        t.wait(lambda s: server.calls, "the notification to reach org.freedesktop.Notifications", timeout=3)
        app, summary, body = server.calls[0]
        t.expect(summary == "Time's up", f"the notification says {summary!r}")
        t.expect("25 min" in body, f"the notification's body does not name the session's length: {body!r}")
        t.expect(len(server.calls) == 1, f"{len(server.calls)} notifications for one ending")
        t.note(f"notification: {summary!r} / {body!r} from {app!r}")
        t.click("push button", "Reset")
        t.wait(lambda s: s.find(None, "Focus timer: 25 min remaining") and not s.find(None, "Time's up"),
               "Reset to bring back 25:00 and hide Time's up")
    finally:
        server.close()


@case("app/run-again-prefills", timeout=45)
def run_again_prefills(t):
    t.start(DEMO)
    goto(t, 5)  # (typing the name on page 2)
    click_chrome(t, "Finish")
    expect_completed(t)
    t.settle()
    t.wait(lambda s: s.find("label", "Ada"), "the main window to show the name Ada")
    t.key("ctrl+r")
    t.wait(lambda s: not s.main_window() and s.page() == (1, 5), "Ctrl+R to run the walkthrough again from page 1")
    t.settle()
    click_chrome(t, "Next")
    t.wait_page(2)
    t.settle()
    snap, entry = t.locate("text", "Name")
    t.expect(entry.text() == "Ada", f"the walkthrough run again shows the name {entry.text()!r}, not 'Ada'")
    # Next goes on at once: the name is there, so the gate lets it pass.
    click_chrome(t, "Next")
    t.wait_page(3)
    t.finish()
    with open(t.recording, encoding="utf-8") as f:
        script = json.load(f)
    t.expect((script.get("values") or {}).get("userName") == "Ada",
             f"the recording of the second walkthrough does not start from the answers: {script.get('values')}")


@case("app/record-expect", timeout=60)
def record_expect(t):
    t.start(DEMO)
    goto(t, 2)
    ensure_name(t)
    t.settle()
    t.key("ctrl+e")
    t.settle(0.3)
    goto(t, 3)
    t.finish()  # Ctrl+Q; the recording must replay headlessly, the inserted expect with it
    with open(t.recording, encoding="utf-8") as f:
        steps = json.load(f)["steps"]
    inserted = [step["expect"] for step in steps[:-1] if "expect" in step]
    t.expect(len(inserted) == 1, f"Ctrl+E inserted {len(inserted)} expectations: {inserted}")
    on_screen = inserted[0]
    t.expect(on_screen.get("page", {}).get("id") == "profile" and on_screen.get("values", {}).get("userName") == "Ada"
             and on_screen.get("errors") == {},
             f"the inserted expectation is not what page 2 showed: {on_screen}")
    t.expect(sorted(on_screen) == ["buttons", "errors", "focus", "page", "values"], f"its keys: {sorted(on_screen)}")
    after = steps.index({"expect": on_screen})
    t.expect(any("tap" in step and step["tap"] == "button:next" for step in steps[after:]),
             "the expectation is not where Ctrl+E was pressed (before the move to page 3)")


# ---------------------------------------------------------------- issue 33: the libadwaita chrome

def header_title(snap):
    """The header bar's AdwWindowTitle: (title label, subtitle label or None), each a Node."""
    labels = [n for n in snap.find_all("label", on_screen=False) if n.inside("filler", "AdwWindowTitle")]
    return (labels[0] if labels else None), (labels[1] if len(labels) > 1 else None)


def resize(t, width, height):
    subprocess.run(["xdotool", "windowsize", t.host.window, str(width), str(height)], env=t.desktop.env,
                   capture_output=True, timeout=10)
    time.sleep(0.5)
    t.refresh_window()
    return t.snap().window_size


@case("app/title-360", timeout=60)
def title_360(t):
    """At 360 px the header shows each page's title over "Page N of 5" whole: both labels on
    screen, inside the window, between Cancel and the primary menu, as wide as at 520 px (an
    ellipsized label is narrower than its text). Under GNOME's window-button layout (close only,
    gtk-decoration-layout ":close", as GNOME and Phosh set it): with minimize and maximize too
    (GTK's fallback without a settings daemon) 70 px are left and a long title is ellipsized —
    its place, the subtitle, still whole."""
    t.start(DEMO, gtk_settings=["gtk-decoration-layout = :close"])
    wide = {}
    for page in range(1, 6):
        goto(t, page)
        t.settle()
        title, subtitle = header_title(t.snap())
        t.expect(title is not None and subtitle is not None, f"page {page}: the header has no title and subtitle")
        if title is not None and subtitle is not None:
            wide[page] = (title.name, title.extents()[2], subtitle.name, subtitle.extents()[2])
    width, _height = resize(t, 360, 640)
    t.expect(0 < width <= 360, f"asked for 360 px, the window is {width} px wide")
    for page in range(5, 0, -1):
        goto(t, page)
        t.settle()
        snap = t.snap()
        title, subtitle = header_title(snap)
        if title is None or subtitle is None or page not in wide:
            t.expect(False, f"page {page} at 360 px: the header has no title and subtitle")
            continue
        name, title_width, sub_name, sub_width = wide[page]
        if page == 3:
            subprocess.run(["import", "-window", "root", "-crop", "420x120+0+0", os.path.join(t.folder, "header-360.png")],
                           env=t.desktop.env, capture_output=True, timeout=20)
        t.expect(title.name == name and subtitle.name == sub_name == f"Page {page} of 5",
                 f"page {page} at 360 px: the header says {title.name!r} / {subtitle.name!r}")
        ww, _wh = snap.window_size
        cancel = snap.find("push button", "Cancel", outside=("panel", "Input toolbar"))
        menu = snap.find("push button", "Main Menu")
        for node, natural in ((title, title_width), (subtitle, sub_width)):
            x, _y, w, _h = node.extents()
            # (The two labels share the title's column: each is allocated its width, which is
            # less than at 520 px only when the longer of them is ellipsized.)
            t.expect(w >= natural - 1, f"page {page} at 360 px: {node.label} is {w} px wide, {natural} at 520 px "
                                       "(cut with an ellipsis)")
            t.expect(x >= 0 and x + w <= ww, f"page {page} at 360 px: {node.label} at {x}..{x + w} is outside the window")
            if cancel is not None:
                t.expect(x >= sum(cancel.extents()[::2]), f"page {page}: {node.label} overlaps Cancel")
            if menu is not None:
                t.expect(x + w <= menu.extents()[0], f"page {page}: {node.label} overlaps the primary menu")
        t.note(f"page {page}: {title.name!r} {title.extents()[2]} px over {subtitle.name!r} in {ww} px")


@case("app/start-focused", timeout=45)
def start_focused(t):
    """The main window gives Start the keyboard focus: when the walkthrough completes, and when
    the app is launched again onto it."""
    t.start(DEMO)
    finish_walkthrough(t)
    focus = t.wait(lambda s: s.focused() is not None, "a focused node in the main window").focused()
    t.expect(focus.role == "push button" and focus.name == "Start", f"after completion the focus is on {focus.label}")
    quit_app(t)
    t.start(DEMO, record=False)  # finished: the main window at launch
    t.wait(lambda s: s.main_window(), "the main window at the second launch")
    snap = t.wait(lambda s: s.focused() is not None, "a focused node in the main window at launch")
    focus = snap.focused()
    t.expect(focus.role == "push button" and focus.name == "Start", f"at launch the focus is on {focus.label}")
    # Space on the focused Start starts the timer: the focus is real, not only reported.
    t.key("space")
    t.wait(lambda s: s.find("push button", "Pause"), "Space on the focused Start to start the timer")
    t.key("space")  # (paused within a second it says Start again, else Resume)
    t.wait(lambda s: not s.find("push button", "Pause") and (s.find("push button", "Resume") or s.find("push button", "Start")),
           "Space on the focused Pause to pause it")


def tab_until(t, role, name, limit=12):
    """Presses Tab until the focused node is (role, name); the focused nodes met on the way."""
    met = []
    for _ in range(limit):
        t.key("Tab")
        t.settle(0.15)
        focus = t.snap().focused()
        met.append(focus.label if focus else "nothing")
        if focus is not None and focus.role == role and focus.name == name:
            return met
    raise Failure(f"{limit} Tabs never reached {role} {name!r}; focus went {' → '.join(met)}")


@case("app/tab-reaches-menu", timeout=45)
def tab_reaches_menu(t):
    """Tab reaches the header bar's primary menu: in the walkthrough from Next (where the page's
    stops wrap: Next, Main Menu, Cancel), Shift+Tab back to Next; in the main window from Start.
    Return on it opens the menu."""
    t.start(DEMO)
    t.wait(lambda s: s.focused() is not None and s.focused().name == "Next", "focus on Next at the start")
    met = tab_until(t, "push button", "Main Menu", limit=1)
    t.note("walkthrough: Next → " + " → ".join(met))
    t.key("Tab")
    t.wait(lambda s: s.focused() is not None and s.focused().name == "Cancel", "Tab from the menu to Cancel")
    t.key("shift+Tab")
    t.wait(lambda s: s.focused() is not None and s.focused().name == "Main Menu", "Shift+Tab from Cancel to the menu")
    t.key("shift+Tab")
    t.wait(lambda s: s.focused() is not None and s.focused().name == "Next", "Shift+Tab from the menu to Next")
    to_main_window(t)
    t.wait(lambda s: s.focused() is not None and s.focused().name == "Start", "focus on Start in the main window")
    met = tab_until(t, "push button", "Main Menu")
    t.note("main window: Start → " + " → ".join(met))
    t.key("Return")
    t.wait(lambda s: s.find("menu item", "About Quire"), "Return on the focused menu button to open the menu")
    t.key("Escape")
    t.wait(lambda s: not s.find("menu item", "About Quire"), "Escape to close the menu")


def preferences_open(snap):
    return top_level(snap, "Preferences") is not None


@case("app/preferences-keys", timeout=45)
def preferences_keys(t):
    """Preferences (Ctrl+,) closes with Escape and with Ctrl+W, and the main window stays."""
    t.start(DEMO)
    to_main_window(t)
    for key in ("Escape", "ctrl+w"):
        t.key("ctrl+comma")
        t.wait(preferences_open, "Ctrl+, to open the Preferences window", timeout=4)
        t.settle(0.3)
        t.key(key)
        t.wait(lambda s: not preferences_open(s), f"{key} to close the Preferences window", timeout=3)
        t.expect(len(t.host.windows()) == 1, f"after {key}, the app has {len(t.host.windows())} windows")
        t.wait(lambda s: s.main_window(), f"the main window after {key} closed Preferences")
        t.refresh_window()
        t.host.focus_window()
        t.settle(0.2)


@case("app/ctrl-w-closes", timeout=45)
def ctrl_w_closes(t):
    """Ctrl+W closes the main window, which ends the app (exit 0) with its settings kept: the
    next launch opens the main window again."""
    t.start(DEMO)
    finish_walkthrough(t)
    quit_app(t, "ctrl+w", lambda _t: "Ctrl+W did not close the main window (the app still runs 10 s later)")
    t.start(DEMO, record=False)
    t.wait(lambda s: s.main_window(), "the main window at the next launch (the settings kept)")


# ---------------------------------------------------------------- issue 37: the last page applies

# The app's built-in demo: the demo flow with an apply on its last page (quire run's default).
APP_DEMO = "data/flows/focus-app.json"


def config_folder(t):
    """The XDG config folder of the case's app (its settings are there)."""
    return os.path.join(t.desktop.dir, "xdg", t.folder.replace("/", "_"), "config", "quire")


@case("app/finish-applies", timeout=60)
def finish_applies(t):
    """The app's demo saves the settings in the background (GIO) when Next leaves its 'All set'
    page. A save that fails (here a folder where the settings file goes: root writes into a
    read-only folder, a user would not) keeps the walkthrough on the page with the reason in the
    notice and Next usable again; once the save can work, Next moves on to 'Settings saved', from
    which there is no way back, and Finish completes."""
    t.start(APP_DEMO)
    goto(t, 5)
    blocker = os.path.join(config_folder(t), "focus-onboarding.settings.json")
    os.makedirs(blocker, exist_ok=True)
    click_chrome(t, "Next")
    snap = t.wait(lambda s: s.find(None, match=r"^Your settings could not be saved"),
                  "the notice to say the settings could not be saved", timeout=6)
    t.expect(t.page(snap) == 5 and snap.page() == (5, 6), f"a failed save left page 5: {snap.page()}")
    t.wait(lambda s: s.find("push button", "Next", enabled=True), "Next usable again after the failed save")
    os.rmdir(blocker)
    click_chrome(t, "Next")
    t.wait_page(6)
    t.settle()
    snap = t.snap()
    back = snap.find("push button", "Back")
    t.expect(back is None or not back.has("sensitive"), "Back is usable on the page after the apply")
    with open(blocker, encoding="utf-8") as f:
        saved = json.load(f)
    t.expect(saved.get("outcome") == "finished" and (saved.get("values") or {}).get("userName") == "Ada",
             f"the settings saved by the apply: {saved}")
    click_chrome(t, "Finish")
    expect_completed(t, timeout=6)
