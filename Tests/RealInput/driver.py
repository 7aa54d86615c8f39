"""Driving a GTK window as a person does and reading it as a screen reader does.

- `Input`: real X input through XTest (`xdotool mousemove/click/mousedown/mouseup/key/type`),
  never AT-SPI actions. It keeps the last events sent, for failure reports.
- `A11y`: the AT-SPI tree over the accessibility bus (PyGObject's Atspi, which python3-pyatspi
  wraps): where a control is (role + accessible name -> extents), which page is shown (the
  indicator slider "Page 2 of 5"), what an entry holds, where keyboard focus is (STATE_FOCUSED).
- `Host`: one program with a window on the suite's display: `quire run FLOW --record OUT` or the
  C embedding example (`quire-gtk-walkthrough FLOW`), with its own XDG folders and logs.

GTK 4.8 answers extents in window coordinates only (it warns "Screen coordinates not supported"
when asked for desktop coordinates), relative to the window's content. A point on the screen is
the X window's origin on the root window (`xdotool getwindowgeometry`; 0,0 here, there is no
window manager) plus the margin GTK keeps around the content of a client-side-decorated window
(its resize border: the X window is 520x680 where the frame's extents are 510x670, so 5 px each
side) plus the node's extents. Checked on screenshots: the Next button GTK reports at
(443,629,38,24) is drawn centred on (466,645) of the root window.
"""

import collections
import os
import re
import signal
import subprocess
import time

_atspi = None


def atspi():
    """Atspi, imported once the suite's buses are in this process's environment."""
    global _atspi
    if _atspi is None:
        import warnings

        import gi
        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi, GLib  # noqa: F401
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        # A call into a hung app gives up after 3 s instead of D-Bus's 25 s.
        Atspi.set_timeout(3000, 10000)
        # libatspi warns (domain "dbind") about apps that left the bus: the suite's own crashed
        # and quit apps, every case. Not news here.
        GLib.log_set_handler("dbind", GLib.LogLevelFlags.LEVEL_WARNING | GLib.LogLevelFlags.LEVEL_MESSAGE,
                             lambda *args: None, None)
        _atspi = (Atspi, GLib)
    return _atspi


class Failure(Exception):
    """A case's expectation did not hold."""


class Crashed(Failure):
    """The program under test died (a signal) or exited when it should not have."""


class Hung(Failure):
    """The program under test stopped answering."""


SIGNAL_NAMES = {int(s): s.name for s in signal.Signals}


def describe_status(code):
    if code is None:
        return "running"
    if code < 0:
        return f"died from signal {-code} ({SIGNAL_NAMES.get(-code, '?')})"
    return f"exited with status {code}"


# ------------------------------------------------------------------------------------------ input

class Input:
    """Real X input. Every method logs what it sent; `last(n)` gives the recent history."""

    def __init__(self, env, on_event=None, log_path=None):
        self.env = env
        self.log = open(log_path, "w", encoding="utf-8") if log_path else None
        self.started = time.monotonic()
        self.history = collections.deque(maxlen=40)
        self.count = 0
        self.on_event = on_event  # called after each event (the case checks the app is alive)
        self.pointer = None

    def _xdotool(self, *args):
        result = subprocess.run(["xdotool", *map(str, args)], env=self.env, capture_output=True, text=True,
                                timeout=20)
        if result.returncode != 0:
            raise Failure(f"xdotool {' '.join(map(str, args))} failed: {result.stderr.strip()}")
        return result.stdout

    def _sent(self, what):
        self.count += 1
        self.history.append(f"{self.count}: {what}")
        if self.log:
            self.log.write(f"{time.monotonic() - self.started:8.3f} {self.count}: {what}\n")
            self.log.flush()
        if self.on_event:
            self.on_event()

    def last(self, n=12):
        return list(self.history)[-n:]

    def move(self, x, y, note=""):
        x, y = int(round(x)), int(round(y))
        if self.pointer == (x, y):
            return
        self._xdotool("mousemove", x, y)
        self.pointer = (x, y)
        self._sent(f"move {x},{y}{note}")

    def _arrive(self, x, y):
        """xdotool commands that put the pointer on x, y. GTK picks the widget under a press
        from the press itself, but a pointer that has not moved since the last event has given
        GTK no motion: it arrives from a pixel away then. One xdotool process runs a whole
        event's chain of commands."""
        steps = []
        if self.pointer == (x, y):
            steps += ["mousemove", x + 1, y]
        steps += ["mousemove", x, y]
        self.pointer = (x, y)
        return steps

    def click(self, x, y, button=1, repeat=1, note=""):
        x, y = int(round(x)), int(round(y))
        steps = self._arrive(x, y)
        if repeat > 1:
            steps += ["click", "--repeat", repeat, "--delay", 60, button]
        else:
            steps += ["click", "--delay", 0, button]  # (xdotool waits 100 ms after a click by default)
        self._xdotool(*steps)
        kind = {1: "click", 2: "double click", 3: "triple click"}.get(repeat, f"{repeat}x click")
        self._sent(f"{kind} {x},{y}" + (f" button {button}" if button != 1 else "") + note)

    def press(self, x, y, note=""):
        x, y = int(round(x)), int(round(y))
        self._xdotool(*self._arrive(x, y), "mousedown", 1)
        self._sent(f"mousedown {x},{y}{note}")

    def release(self, note=""):
        self._xdotool("mouseup", 1)
        self._sent(f"mouseup at {self.pointer[0]},{self.pointer[1]}{note}" if self.pointer else "mouseup")

    def drag(self, x1, y1, x2, y2, steps=10, step_ms=25, note=""):
        """Press, `steps` motions `step_ms` apart, release: a pointer drag as a hand makes it."""
        x1, y1, x2, y2 = (int(round(v)) for v in (x1, y1, x2, y2))
        chain = self._arrive(x1, y1) + ["mousedown", 1]
        pause = f"{step_ms / 1000:.3f}"
        for i in range(1, steps + 1):
            chain += ["sleep", pause, "mousemove", x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps]
        chain += ["sleep", pause, "mouseup", 1]
        self._xdotool(*chain)
        self.pointer = (x2, y2)
        self._sent(f"drag {x1},{y1} -> {x2},{y2} in {steps} moves{note}")

    def key(self, *names):
        self._xdotool("key", "--delay", 12, *names)
        self._sent("key " + " ".join(names))

    def type(self, text):
        # A character missing from the keymap (日, é, 👍) is typed by mapping it onto a spare
        # keycode for the key press and mapping it back afterwards; with 20 ms between keys the
        # mapping could go back before GTK read the key, dropping it (seen with the last
        # character of 日本語). 120 ms gives GTK the time.
        delay = 20 if text.isascii() else 120
        self._xdotool("type", "--delay", delay, "--", text)
        if not text.isascii():
            time.sleep(0.1)
        self._sent(f"type {text!r}")


# ------------------------------------------------------------------------------------------ a11y

# The pager is labelled with the current page's name ("About you — page 2 of 5", "Page 1 of 5"
# for a page without a title; in Japanese "あなたについて — 5ページ中2ページ目"). "Pages", as a
# name to find or be inside, means the pager whatever page it names.
PAGER_NAME = re.compile(r"^Page \d+ of \d+$| — page \d+ of \d+$|^\d+ページ中\d+ページ目$| — \d+ページ中\d+ページ目$")


def name_is(name, wanted, role=None):
    """Whether an accessible's name is `wanted` ("Pages": a filler named with a page name, the
    pager; the window, titled the same, is a frame)."""
    if wanted == "Pages" and role is not None:
        return role == "filler" and (name == wanted or bool(PAGER_NAME.search(name or "")))
    return name == wanted


class Node:
    """One accessible, read once: role, name, states; extents and text on demand."""

    __slots__ = ("acc", "role", "name", "states", "ancestors", "_extents")

    def __init__(self, acc, role, name, states, ancestors):
        self.acc = acc
        self.role = role
        self.name = name
        self.states = states
        self.ancestors = ancestors  # [(role, name)], the application first
        self._extents = None

    def __repr__(self):
        return f"{self.role} {self.name!r}"

    @property
    def label(self):
        return f"{self.role} {self.name!r}"

    def has(self, state):
        return state in self.states

    def inside(self, role, name=None):
        """Whether an ancestor has this role (None: any) and name (None: any)."""
        return any((role is None or r == role) and (name is None or name_is(n, name, r)) for r, n in self.ancestors)

    def extents(self):
        if self._extents is None:
            Atspi, GLib = atspi()
            try:
                r = self.acc.get_extents(Atspi.CoordType.WINDOW)
                self._extents = (r.x, r.y, r.width, r.height)
            except Exception:  # noqa: BLE001 - gone meanwhile
                self._extents = (0, 0, 0, 0)
        return self._extents

    def center(self):
        x, y, w, h = self.extents()
        return x + w / 2, y + h / 2

    def text(self):
        Atspi, GLib = atspi()
        try:
            n = Atspi.Text.get_character_count(self.acc)
            return Atspi.Text.get_text(self.acc, 0, n)
        except Exception:  # noqa: BLE001
            return None


CONTAINER_ROLES = {"panel", "filler", "frame", "window", "application", "scroll pane", "viewport",
                   "layered pane", "unknown", "grouping", "section", "generic"}


class Snapshot:
    """The tree of one app at one moment (visible nodes only). `window_size` is the size of the
    first frame's content (extents are relative to it)."""

    def __init__(self, nodes):
        self.nodes = nodes
        frame = self.frame()
        self.window_size = frame.extents()[2:] if frame is not None else (0, 0)

    def frame(self):
        for node in self.nodes:
            if node.role in ("frame", "window", "dialog") and len(node.ancestors) == 1:
                return node
        return None

    def find_all(self, role=None, name=None, match=None, within=None, enabled=None, on_screen=True, outside=None):
        out = []
        for node in self.nodes:
            if role is not None and node.role != role:
                continue
            if name is not None and not name_is(node.name, name, node.role):
                continue
            if match is not None and not re.search(match, node.name):
                continue
            if within is not None and not node.inside(*within):
                continue
            if outside is not None and node.inside(*outside):
                continue
            if enabled is not None and node.has("sensitive") != enabled:
                continue
            if on_screen and not self.on_screen(node):
                continue
            out.append(node)
        return out

    def find(self, role=None, name=None, match=None, within=None, enabled=None, on_screen=True, outside=None):
        found = self.find_all(role, name, match, within, enabled, on_screen, outside)
        return found[0] if found else None

    def on_screen(self, node):
        x, y, w, h = node.extents()
        if w <= 0 or h <= 0:
            return False
        ww, wh = self.window_size
        cx, cy = x + w / 2, y + h / 2
        return 0 <= cx < ww and 0 <= cy < wh

    def page(self):
        """(index, count) from the indicator slider "Page 2 of 5" ("5ページ中2ページ目"), or None
        (no indicator)."""
        for node in self.nodes:
            if node.role == "slider":
                m = re.match(r"Page (\d+) of (\d+)", node.name)
                if m:
                    return int(m.group(1)), int(m.group(2))
                m = re.match(r"(\d+)ページ中(\d+)ページ目", node.name)
                if m:
                    return int(m.group(2)), int(m.group(1))
        return None

    def focused(self):
        for node in self.nodes:
            if node.has("focused") and node.role not in ("frame", "window", "application"):
                return node
        return None

    def picker(self):
        """The open input panel's name (the field's label), or None: the panel holding the
        accessory toolbar is visible while a field is first responder."""
        for node in self.nodes:
            if node.role == "panel" and node.name == "Input toolbar":
                for r, n in reversed(node.ancestors):
                    if r == "panel" and n and n != "Input toolbar":
                        return n
                return "?"
        return None

    def main_window(self):
        """True when the walkthrough has completed and the app shows its main window."""
        return self.find("push button", "Run the walkthrough again", on_screen=False) is not None

    def describe(self, limit=60):
        lines = []
        for node in self.nodes[:limit]:
            lines.append(f"{'  ' * len(node.ancestors)}{node.label} [{','.join(sorted(node.states))}]")
        return "\n".join(lines)


class A11y:
    def __init__(self):
        self.Atspi, self.GLib = atspi()

    def pump(self):
        context = self.GLib.MainContext.default()
        for _ in range(200):
            if not context.pending():
                break
            context.iteration(False)

    def find_app(self, pid):
        """The application accessible of process `pid` once it has a window, else None."""
        Atspi = self.Atspi
        self.pump()
        desktop = Atspi.get_desktop(0)
        try:
            count = desktop.get_child_count()
        except Exception:  # noqa: BLE001
            return None
        for i in range(count):
            try:
                app = desktop.get_child_at_index(i)
                if app is not None and app.get_process_id() == pid and app.get_child_count() > 0:
                    return app
            except Exception:  # noqa: BLE001 - an app that left the bus
                continue
        return None

    def walk(self, app, max_nodes=3000):
        """Visible nodes, depth first. Invisible subtrees (a closed panel, a hidden error) are
        skipped, and so are the pages the pager keeps built beside the window (a neighbour page
        wholly outside the frame: the tree is read many times a case, this halves it); a page
        partly in view during a slide is kept (Snapshot.on_screen tells what is in view)."""
        Atspi = self.Atspi
        self.pump()
        nodes = []
        visible = Atspi.StateType.VISIBLE
        frame_width = {}

        def visit(acc, ancestors):
            if len(nodes) >= max_nodes:
                return
            try:
                role = acc.get_role_name()
                name = acc.get_name() or ""
                state_set = acc.get_state_set()
                states = {s.value_nick for s in state_set.get_states()}
                count = acc.get_child_count()
            except Exception as error:  # noqa: BLE001 - a node dropped while we read it
                if re.search(r"timed out|timeout|noreply|no reply|did not receive a reply", str(error), re.I):
                    raise Hung(f"the app did not answer over AT-SPI ({error})")
                return
            if ancestors and not state_set.contains(visible):
                return
            node = Node(acc, role, name, states, ancestors)
            if len(ancestors) == 1:
                frame_width[len(nodes)] = node.extents()[2]
            elif len(ancestors) >= 3 and name_is(ancestors[-2][1], "Pages", ancestors[-2][0]) \
                    and role == "panel":
                width = frame_width.get(max(frame_width)) if frame_width else None
                x, _y, w, _h = node.extents()
                if width and (x >= width or x + w <= 0):
                    return
            nodes.append(node)
            here = ancestors + [(role, name)]
            for i in range(count):
                try:
                    child = acc.get_child_at_index(i)
                except Exception:  # noqa: BLE001
                    continue
                if child is not None:
                    visit(child, here)

        visit(app, [])
        return nodes


# ------------------------------------------------------------------------------------------ hosts

class Host:
    """A program with a window on the suite's display.

    kind "app": `quire run --locale en FLOW --record OUT`; kind "embed": the C example
    `quire-gtk-walkthrough FLOW` (SIGTERM makes it print the session's state and quit).
    """

    def __init__(self, kind, argv, env, folder):
        self.kind = kind
        self.argv = argv
        self.env = env
        self.folder = folder
        self.proc = None
        self.window = None
        self.origin = (0, 0)
        self.size = (0, 0)
        self.app = None
        self.stdout_path = os.path.join(folder, "stdout.txt")
        self.stderr_path = os.path.join(folder, "stderr.txt")

    def start(self):
        self.out = open(self.stdout_path, "ab")  # appended: a case may start its program again
        self.err = open(self.stderr_path, "ab")
        self.proc = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL, stdout=self.out,
                                     stderr=self.err, start_new_session=True)

    @property
    def pid(self):
        return self.proc.pid

    def status(self):
        return self.proc.poll()

    def alive(self):
        return self.proc.poll() is None

    def windows(self):
        """The process's visible top-level X windows: [(id, x, y, width, height)], largest first."""
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.pid)], env=self.env,
                               capture_output=True, text=True, timeout=10)
        out = []
        for wid in found.stdout.split():
            geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], env=self.env,
                                 capture_output=True, text=True, timeout=10)
            values = dict(line.split("=", 1) for line in geo.stdout.split() if "=" in line)
            try:
                x, y, w, h = (int(values[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
            except (KeyError, ValueError):
                continue
            if w > 1 and h > 1:
                out.append((wid, x, y, w, h))
        return sorted(out, key=lambda g: -g[3] * g[4])

    def find_window(self):
        """The largest visible top-level X window of the process, with its geometry."""
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.pid)], env=self.env,
                               capture_output=True, text=True, timeout=10)
        best = None
        for wid in found.stdout.split():
            geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], env=self.env,
                                 capture_output=True, text=True, timeout=10)
            values = dict(line.split("=", 1) for line in geo.stdout.split() if "=" in line)
            try:
                x, y, w, h = (int(values[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
            except (KeyError, ValueError):
                continue
            if w > 1 and h > 1 and (best is None or w * h > best[3] * best[4]):
                best = (wid, x, y, w, h)
        return best

    def focus_window(self):
        if self.window:
            subprocess.run(["xdotool", "windowfocus", self.window], env=self.env, capture_output=True, timeout=10)
            time.sleep(0.05)

    def stderr_tail(self, lines=12):
        """The crash message and the first frames when there is one, else the last lines."""
        try:
            with open(self.stderr_path, errors="replace") as f:
                text = f.read().splitlines()
        except OSError:
            return []
        noise = ("Failed to set fd limit", "dbind-WARNING")
        text = [line for line in text if not any(n in line for n in noise)]
        for i, line in enumerate(text):
            if re.search(r"Fatal error|fatal error|Crash|Segmentation|Illegal instruction|Aborted|"
                         r"\*\*\*|ERROR \*\*|assertion", line):
                return text[max(0, i - 2):i + 6]
        return text[-lines:]

    def warnings(self):
        try:
            with open(self.stderr_path, errors="replace") as f:
                return [line for line in f.read().splitlines()
                        if re.search(r"(CRITICAL|WARNING)", line) and "dbind-WARNING" not in line]
        except OSError:
            return []

    def stdout_text(self):
        try:
            with open(self.stdout_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        for f in (getattr(self, "out", None), getattr(self, "err", None)):
            if f:
                f.close()
