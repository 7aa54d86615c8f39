#!/usr/bin/env python3
"""Reads an app's accessible tree over AT-SPI, as a screen reader does, and drives it with X input, for EndToEndTests.

usage: atspi-walk.py PID STEP...
  dump                  print the tree: one "role<TAB>name<TAB>text<TAB>states" line per node (states: of selected, checked, required, invalid, invalid-entry), depth first
  press ROLE:NAME       run the first action of the first node with that role and name
  wait ROLE:NAME        wait (up to 15 s) until a node with that role and name is in the tree
                        (ROLE:NAME[STATE]: one that also has STATE, of those `dump` reports or focused)
  sleep SECONDS
  key NAMES             X key presses through xdotool (e.g. "key Right", "key ctrl+Return")
  type TEXT             typed text through xdotool
  drag X1 Y1 X2 Y2      a pointer drag across the window through xdotool (12 moves over 240 ms)
Each dump is preceded by a line "== dump". Exit 3 when the app never shows up on the bus.
"""
import subprocess
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402


def find_app(pid, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        desktop = Atspi.get_desktop(0)
        for index in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(index)
            if app is not None and app.get_process_id() == pid:
                return app
        time.sleep(0.2)
    return None


def text_of(node):
    if "Text" not in (node.get_interfaces() or []):
        return ""
    try:
        return Atspi.Text.get_text(node, 0, Atspi.Text.get_character_count(node))
    except Exception:
        return ""


STATES = ("selected", "checked", "required", "invalid", "invalid-entry")
# What `wait` may ask for beyond STATES (not dumped: a dump's lines stay as they were).
WAIT_STATES = STATES + ("focused",)


def states_of(node, states=STATES):
    """The states a test reads of a node (of `states`), comma-separated."""
    try:
        have = {s.value_nick for s in node.get_state_set().get_states()}
    except GLib.Error:
        return ""
    return ",".join(s for s in states if s in have)


def walk(node, out, depth=0, states=STATES):
    if node is None or depth > 60:
        return
    try:
        entry = (node.get_role_name(), node.get_name() or "", text_of(node), states_of(node, states), node)
        count = node.get_child_count()
    except GLib.Error:
        return  # the widget went away while we looked (the app builds and drops pages as it goes)
    out.append(entry)
    for index in range(count):
        try:
            child = node.get_child_at_index(index)
        except GLib.Error:
            continue
        walk(child, out, depth + 1, states)


focused_window = None


def xdotool(*arguments):
    subprocess.run(["xdotool", *arguments], check=True, timeout=20)


def focus_window(pid):
    """Gives the app's window the X input focus (there is no window manager to do it)."""
    global focused_window
    if focused_window is None:
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(pid)],
                               capture_output=True, text=True, timeout=20)
        focused_window = found.stdout.split()[0]
        xdotool("windowfocus", focused_window)
        time.sleep(0.2)


def main():
    pid = int(sys.argv[1])
    app = find_app(pid)
    if app is None:
        print("no app with pid %d on the accessibility bus" % pid, file=sys.stderr)
        return 3
    for step in sys.argv[2:]:
        if step == "dump":
            nodes = []
            walk(app, nodes)
            print("== dump")
            for role, name, text, states, _node in nodes:
                print("%s\t%s\t%s\t%s" % (role, name.replace("\n", " "), text.replace("\n", " "), states))
        elif step.startswith("press "):
            role, name = step[len("press "):].split(":", 1)
            nodes = []
            walk(app, nodes)
            matches = [node for r, n, _, _st, node in nodes if r == role and n == name]
            if not matches:
                print("nothing to press: %s" % step, file=sys.stderr)
                return 1
            Atspi.Action.do_action(matches[0], 0)
        elif step.startswith("key "):
            focus_window(pid)
            xdotool("key", "--delay", "60", *step[len("key "):].split())
        elif step.startswith("type "):
            focus_window(pid)
            xdotool("type", "--delay", "60", step[len("type "):])
        elif step.startswith("drag "):
            focus_window(pid)
            x1, y1, x2, y2 = (int(value) for value in step[len("drag "):].split())
            # Arrive from elsewhere (the pointer may already stand there from an earlier run, and
            # GTK then has seen no motion), then press.
            xdotool("mousemove", str(x1 - 40), str(y1 - 40))
            time.sleep(0.05)
            xdotool("mousemove", str(x1), str(y1))
            time.sleep(0.05)
            xdotool("mousedown", "1")
            time.sleep(0.05)
            for index in range(1, 13):
                time.sleep(0.02)
                xdotool("mousemove", str(x1 + (x2 - x1) * index // 12), str(y1 + (y2 - y1) * index // 12))
            xdotool("mouseup", "1")
        elif step.startswith("wait "):
            role, name = step[len("wait "):].split(":", 1)
            want = ""
            if name.endswith("]") and "[" in name:  # "NAME[selected]": with that state too
                name, want = name[:-1].rsplit("[", 1)
            deadline = time.time() + 15
            while True:
                nodes = []
                walk(app, nodes, states=WAIT_STATES)
                if any(r == role and n == name and (not want or want in st.split(",")) for r, n, _, st, _node in nodes):
                    break
                if time.time() > deadline:
                    print("waited in vain: %s" % step, file=sys.stderr)
                    return 1
                time.sleep(0.1)
        elif step.startswith("sleep "):
            time.sleep(float(step[len("sleep "):]))
        else:
            print("unknown step: %s" % step, file=sys.stderr)
            return 64
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
