"""The app's own chrome met by real input (issue 20): app/*.

app/shortcuts-window   Ctrl+? opens the Keyboard Shortcuts window, which lists the app's and the
                       walkthrough's keys; Escape closes it.
app/menu-about         the primary menu ("Main Menu") opened with a real click, About Quire
                       chosen with a real click: the About dialog shows the name and version.
app/timer-ends         a timer saved paused at 2.5 s left says Resume; clicked, it runs out: the
                       window shows "Time's up" over AT-SPI (an alert, the time's name) and a
                       notification reaches org.freedesktop.Notifications (a stand-in server
                       this process owns on the suite's session bus).
app/run-again-prefills Ctrl+R after a finished walkthrough starts from its answers: the name is
                       on page 2; the recording of the second walkthrough (with its `values`)
                       replays headlessly.
"""

import json
import os
import time

from cases import DEMO, click_chrome, expect_completed, goto
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
        header = snap.find_all("push button", "Focus timer: Time's up")
        t.expect(len(header) >= 1, "the header bar's timer button does not say Time's up")
        try:
            t.wait(lambda s: any(not n.has("sensitive") for n in s.find_all("push button", "Start")),
                   "Start, disabled at zero", timeout=2)
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
