"""The real-input suite: `quire run` (and the C host embedding the view) driven by real X input.

Run through scripts/test-real-input, which picks a python3 with PyGObject and the Atspi typelib.
One private desktop (Xvfb, session bus, a11y bus) for the whole run; each case starts its own
program with its own XDG folders, drives it with xdotool (XTest), reads it back over AT-SPI and,
for `quire run`, quits it with Ctrl+Q and replays the recording headlessly with
`quire test --plain --quiet OUT.json`, which must pass (the recording's last step expects the whole
final state). Output: a TAP-like line per case with its time, then `N passed, N failed`.
"""

import argparse
import fnmatch
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from driver import A11y, Crashed, Failure, Host, Hung, Input, Snapshot, atspi, describe_status  # noqa: E402
from session import Desktop, SetupError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


class CaseTimeout(Exception):
    pass


class Skip(Exception):
    pass


class Case:
    def __init__(self, name, fn, timeout, host, flow, tags):
        self.name = name
        self.fn = fn
        self.timeout = timeout
        self.host = host
        self.flow = flow
        self.tags = tags


CASES = []


def case(name, timeout=45, host="app", flow="data/flows/focus-onboarding.json", tags=()):
    def register(fn):
        CASES.append(Case(name, fn, timeout, host, flow, tags))
        return fn
    return register


class T:
    """What a case sees: the program it drives, real input, the AT-SPI tree."""

    def __init__(self, suite, case, folder):
        self.suite = suite
        self.case = case
        self.folder = folder
        self.options = suite.options
        self.desktop = suite.desktop
        self.host = None
        self.input = Input(self.desktop.env, on_event=self.check_alive, log_path=os.path.join(folder, "events.txt"))
        self.a11y = A11y()
        self.app = None
        self.notes = []
        self.problems = []
        self.flow_path = None
        self.flow = None
        self.recording = os.path.join(folder, "recording.json")
        self.rng = random.Random(f"{suite.options.seed}:{case.name}")
        self.expect_exit = False
        self.completed = False
        self.finished = False
        self.replayed = []  # events of each recording replayed

    # ---- the program
    def start(self, flow=None, kind=None, gtk_settings=None, extra_env=None, record=True, locale="en"):
        """gtk_settings: lines added to the app's gtk-4.0/settings.ini ("gtk-enable-animations =
        false"); extra_env: variables added to the program's environment (ime/*: the input
        method's GTK_IM_MODULE and IBUS_ADDRESS). record=False: `quire run` without --record,
        which always starts the walkthrough (a recording needs one), so a finished walkthrough's
        next launch opens the main window; the case's recording is then an earlier launch's.
        locale: the session's language (`quire run --locale`)."""
        kind = kind or self.case.host
        flow = flow or self.case.flow
        self.flow_path = os.path.join(ROOT, flow)
        with open(self.flow_path, encoding="utf-8") as f:
            self.flow = json.load(f)
        xdg = os.path.join(self.desktop.dir, "xdg", self.folder.replace("/", "_"))
        if kind == "app":
            argv = [self.suite.quire, "run", "--locale", locale, self.flow_path] + (["--record", self.recording] if record else [])
            env = self.desktop.app_env(xdg, extra_env)
            if gtk_settings:
                with open(os.path.join(xdg, "config", "gtk-4.0", "settings.ini"), "a") as f:
                    f.write("".join(line + "\n" for line in gtk_settings))
        else:
            if not self.suite.embed_bin:
                raise Skip(self.suite.embed_missing)
            argv = [self.suite.embed_bin, self.flow_path]
            env = self.desktop.app_env(xdg, {"LD_LIBRARY_PATH": self.suite.embed_libdir, **(extra_env or {})})
        if self.host is not None:
            self.host.kill()
        self.host = Host(kind, argv, env, self.folder)
        self.app = None
        self.expect_exit = False
        self.finished = False
        self.host.start()
        deadline = time.monotonic() + 25
        while True:
            if not self.host.alive():
                raise Crashed(f"{describe_status(self.host.status())} before its window showed")
            if self.app is None:
                self.app = self.a11y.find_app(self.host.pid)
            if self.app is not None:
                snap = self.snap()
                ready = snap.find(None, "Pages", on_screen=False) is not None or snap.main_window()
                if ready and self.host.find_window():
                    self.refresh_window(snap)
                    break
            if time.monotonic() > deadline:
                raise Hung("no window on the accessibility bus 25 s after the start")
            time.sleep(0.1)
        self.host.focus_window()
        # The first frames (the window may still be sized and laid out after it is mapped) and the
        # input panel built when idle: until a button of the chrome (Next, Finish, Cancel: any
        # flow) or the main window is on screen and the layout is at rest, then the window's
        # origin again from that layout. A fixed 0.3 s here was a race on a loaded machine.
        self.wait(lambda s: s.main_window() or s.find("push button") is not None,
                  "a button of the window on screen", timeout=10)
        self.refresh_window(self.wait_still())
        return self

    def check_alive(self):
        if self.host is not None and not self.host.alive() and not self.expect_exit:
            raise Crashed(f"the program {describe_status(self.host.status())}")

    def refresh_window(self, snap=None):
        """The X window and where the content's (0, 0) is on the screen: the window's position
        plus GTK's margin around the content (half the difference between the X window's size
        and the frame's extents: the resize border of a client-side-decorated window)."""
        found = self.host.find_window()
        if not found:
            return
        self.host.window, x, y, w, h = found
        snap = snap or self.snap()
        fw, fh = snap.window_size
        if fw and fh:
            self.host.origin = (x + (w - fw) // 2, y + (h - fh) // 2)
            self.host.size = (fw, fh)
        else:
            self.host.origin, self.host.size = (x, y), (w, h)

    def close_extra_windows(self):
        """Closes any window besides the main one (the modal Preferences window: while it is
        open the main window takes no input, and Ctrl+Q does nothing) with its header bar's
        Close button, clicked."""
        for _attempt in range(3):
            snap = self.snap()
            frames = [n for n in snap.nodes if len(n.ancestors) == 1 and n.role in ("frame", "window", "dialog")]
            windows = self.host.windows()
            if len(frames) < 2 and len(windows) > 1:
                # A window X has but AT-SPI does not list (seen: the Preferences window after the
                # walkthrough was run again several times): its header bar's Close button sits
                # 27 px from the right and the top of the X window (margin 5 + 14 + 8).
                for wid, x, y, w, h in windows[1:]:
                    self.input.click(x + w - 27, y + 27, note=" (Close of a window missing from AT-SPI)")
                    time.sleep(0.3)
                continue
            if len(frames) < 2:
                return
            main = windows[0][0] if windows else None
            for frame in frames:
                fw, fh = frame.extents()[2:]
                close = next((n for n in snap.nodes if n.role == "push button" and n.name == "Close"
                              and n.ancestors[:2] == [n.ancestors[0], (frame.role, frame.name)]), None)
                for wid, x, y, w, h in windows:
                    if wid == main or close is None or not (0 <= w - fw <= 80 and 0 <= h - fh <= 80):
                        continue
                    cx, cy = close.center()
                    self.input.click(x + (w - fw) // 2 + cx, y + (h - fh) // 2 + cy,
                                     note=f" (Close of the window {frame.name!r})")
                    time.sleep(0.3)
                    break

    # ---- reading
    def snap(self):
        self.check_alive()
        return Snapshot(self.a11y.walk(self.app))

    def wait(self, predicate, what, timeout=3.0, interval=0.05):
        """Polls the tree until predicate(snapshot) holds; returns the snapshot. Fails naming
        `what` (and what was seen last) when it does not within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            snap = self.snap()
            try:
                if predicate(snap):
                    return snap
            except Failure:
                raise
            except Exception:  # noqa: BLE001 - a node that went while we looked
                pass
            if time.monotonic() > deadline:
                raise Failure(f"waited {timeout:g} s for {what}; seen: {self.summary(snap)}")
            time.sleep(interval)

    def summary(self, snap):
        page = snap.page()
        focus = snap.focused()
        return (f"page {page[0]} of {page[1]}" if page else "no indicator") + \
            (", main window" if snap.main_window() else "") + \
            (f", picker {snap.picker()!r} open" if snap.picker() else ", no picker") + \
            (f", focus on {focus.label}" if focus else ", no focused node")

    def page(self, snap=None):
        snap = snap or self.snap()
        p = snap.page()
        return p[0] if p else None

    def wait_page(self, index, timeout=3.0):
        return self.wait(lambda s: s.page() and s.page()[0] == index, f"page {index}", timeout)

    def wait_picker(self, name, timeout=3.0):
        """name None: closed (the panel gone from the tree once it has slid away, which is when
        the pages have moved back down too: no settling needed after it)."""
        if name is None:
            return self.wait(lambda s: s.picker() is None, "the picker panel to close", timeout)
        return self.wait(lambda s: s.picker() == name, f"the picker of {name!r} to be open", timeout)

    def settle(self, seconds=0.3, still=True):
        """Lets animations (page slide 250 ms, panel 200 ms) finish; checks the app lives. Waits
        `seconds`, then (unless `still` is false: the monkey's quick pauses) until the window is
        at rest (`wait_still`): a fixed pause alone was a race on a loaded machine, where a slide
        can end after it, and the next click then hit a control where it was mid-slide."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.check_alive()
            time.sleep(0.05)
        self.check_alive()
        if still:
            self.wait_still()

    # Whose extents move while a page slides or the input panel opens, resizes or closes.
    MOVING_ROLES = frozenset({"push button", "toggle button", "check box", "text", "slider", "list item",
                              "spin button"})

    def wait_still(self, timeout=5.0, interval=0.05):
        """Waits until the window is at rest: the extents of its controls and of the input panel,
        read again and again (one tree walk, then only their extents, which is quick), the same
        twice in a row at least `interval` apart. A read is answered from the app's main loop,
        which also runs its frame clock, so a slide or a panel in progress moves something between
        two reads. Returns a new snapshot; fails when the window still moves after `timeout`
        seconds."""
        Atspi, _GLib = atspi()
        deadline = time.monotonic() + timeout
        nodes = [n for n in self.snap().nodes
                 if n.role in self.MOVING_ROLES or (n.role == "panel" and n.name == "Input toolbar")]

        def read():
            self.check_alive()
            out = []
            for node in nodes:
                try:
                    r = node.acc.get_extents(Atspi.CoordType.WINDOW)
                    out.append((r.x, r.y, r.width, r.height))
                except Exception as error:  # noqa: BLE001 - a node gone meanwhile
                    if re.search(r"timed out|timeout|noreply|no reply|did not receive a reply", str(error), re.I):
                        raise Hung(f"the app did not answer over AT-SPI ({error})")
                    out.append(None)
            return out
        last = read()
        while True:
            time.sleep(interval)
            now = read()
            if now == last:
                return self.snap()
            if time.monotonic() > deadline:
                moved = [f"{n.label} {a} -> {b}" for n, a, b in zip(nodes, last, now) if a != b][:3]
                raise Failure(f"the window did not come to rest within {timeout:g} s; moving: " + "; ".join(moved))
            last = now

    def screen_point(self, x, y):
        return self.host.origin[0] + x, self.host.origin[1] + y

    def covering_panel(self, snap):
        """Extents of the open input panel (it covers the chrome below it), or None."""
        name = snap.picker()
        if not name:
            return None
        for node in snap.nodes:
            if node.role == "panel" and node.name == name and any(
                    n.role == "panel" and n.name == "Input toolbar" and n.inside("panel", name) for n in snap.nodes):
                return node.extents()
        return None

    def locate(self, role=None, name=None, match=None, within=None, outside=None, timeout=3.0, enabled=None):
        """Waits for an on-screen node; returns (snapshot, node)."""
        found = {}

        def look(snap):
            for node in snap.find_all(role, name, match, within, enabled):
                if outside is not None and node.inside(*outside):
                    continue
                found["node"] = node
                return True
            return False
        what = f"{role or 'any'} {name or match or ''!r}".strip() + (f" inside {within}" if within else "")
        snap = self.wait(look, f"{what} on screen", timeout)
        return snap, found["node"]

    def click_node(self, snap, node, repeat=1, covered_ok=False, button=1, dx=0, dy=0):
        x, y = node.center()
        x, y = x + dx, y + dy
        panel = self.covering_panel(snap)
        if panel and not covered_ok and not node.inside("panel", snap.picker()):
            px, py, pw, ph = panel
            if px <= x < px + pw and py <= y < py + ph:
                raise Failure(f"{node.label} is under the open picker panel: a person cannot click it")
        sx, sy = self.screen_point(x, y)
        self.input.click(sx, sy, button=button, repeat=repeat, note=f" ({node.label})")

    def click(self, role=None, name=None, match=None, within=None, outside=None, repeat=1, covered_ok=False,
              timeout=3.0):
        snap, node = self.locate(role, name, match, within, outside, timeout)
        self.click_node(snap, node, repeat=repeat, covered_ok=covered_ok)
        return node

    def click_at(self, x, y, repeat=1, note=""):
        sx, sy = self.screen_point(x, y)
        self.input.click(sx, sy, repeat=repeat, note=note)

    def key(self, *names):
        self.input.key(*names)

    def type(self, text):
        self.input.type(text)

    def drag(self, x1, y1, x2, y2, steps=10, step_ms=25, note=""):
        a = self.screen_point(x1, y1)
        b = self.screen_point(x2, y2)
        self.input.drag(a[0], a[1], b[0], b[1], steps=steps, step_ms=step_ms, note=note)

    # ---- verdicts
    def expect(self, condition, message):
        """A soft check: the case goes on, and fails at its end."""
        if not condition:
            self.problems.append(message)
        return condition

    def note(self, message):
        self.notes.append(message)

    # ---- the end of a case
    def completed_exit(self):
        """True when the program already ended by itself as the case meant (the C host quits
        when its session completes)."""
        return self.expect_exit and self.host is not None and not self.host.alive() and self.host.kind != "app"

    def finish(self):
        """Quits the program the way a user does and checks what it leaves: `quire run` quits
        on Ctrl+Q (exit 0) and its recording must replay headlessly; the C host prints the
        session's state on SIGTERM and exits 0."""
        host = self.host
        if host is None or self.finished:
            return
        self.finished = True
        self.expect_exit = True
        seen = None
        if host.alive():
            self.settle(0.4)
            seen = self.screen_state()
        if host.kind == "app":
            if host.alive():
                self.close_extra_windows()
                self.refresh_window()
                host.focus_window()
                self.input.key("ctrl+q")
                deadline = time.monotonic() + 10
                while host.alive() and time.monotonic() < deadline:
                    time.sleep(0.05)
                if host.alive():
                    frames = []
                    try:
                        frames = [n.label for n in self.snap().nodes if len(n.ancestors) == 1]
                    except Failure:
                        pass
                    raise Hung(f"the app did not quit within 10 s of Ctrl+Q; its windows: {', '.join(frames)}")
            status = host.status()
            if status != 0:
                raise Crashed(f"the app {describe_status(status)} on quitting")
            self.check_recording(seen)
        else:
            if host.alive():
                host.proc.send_signal(signal.SIGTERM)
                try:
                    host.proc.wait(10)
                except subprocess.TimeoutExpired:
                    raise Hung("the C host did not quit within 10 s of SIGTERM")
            status = host.status()
            if status != 0:
                raise Crashed(f"the C host {describe_status(status)} on SIGTERM")
            out = host.stdout_text().strip().splitlines()
            try:
                state = json.loads(out[-1]) if out else None
            except json.JSONDecodeError:
                state = None
            if not isinstance(state, dict):
                raise Failure(f"the C host printed no state on SIGTERM: {out[-1:] if out else 'nothing'}")
            self.final_state = state

    def screen_state(self):
        """What the window shows now, read over AT-SPI: the indicator, the open picker and the
        texts of the current page's entries (by field id)."""
        snap = self.snap()
        if snap.main_window():
            return None
        labels = {}
        for page in self.flow["pages"]:
            for field in page.get("fields", []):
                label = field.get("label")
                if isinstance(label, dict):
                    label = label.get("en") or next(iter(label.values()))
                labels[label] = field["id"]
        texts = {}
        for node in snap.find_all("text"):
            if node.name in labels and node.inside(None, "Pages"):
                texts[labels[node.name]] = node.text() or ""
        picker = snap.picker()
        return {"page": snap.page(), "picker": labels.get(picker, picker), "texts": texts}

    def compare_with_recording(self, seen, expect):
        """The window (read over AT-SPI just before quitting) against the state the recording
        ends with."""
        if not seen or not isinstance(expect, dict) or expect.get("completed"):
            return
        indicator = expect.get("indicator") or {}
        if seen["page"] and "current" in indicator and not indicator.get("hidden"):
            shown = (indicator["current"] + 1, indicator.get("count"))
            self.expect(tuple(seen["page"]) == shown,
                        f"the indicator read 'Page {seen['page'][0]} of {seen['page'][1]}' but the session ended on "
                        f"page {shown[0]} of {shown[1]}")
        field = (expect.get("input") or {}).get("field")
        self.expect(seen["picker"] == field,
                    f"the window shows the input panel of {seen['picker']!r} but the session's input is {field!r}")
        values = expect.get("values") or {}
        for key, text in seen["texts"].items():
            value = values.get(key)
            if isinstance(value, str) or value is None:
                self.expect(text == (value or ""), f"the entry of {key} shows {text!r} but the session holds {value!r}")

    def check_recording(self, seen=None, path=None):
        """`quire test --plain --quiet` on the recording (`path`, else the case's) must pass."""
        path = path or self.recording
        if not os.path.exists(path):
            raise Failure("no recording was written (--record)")
        result = subprocess.run([self.suite.quire, "test", "--plain", "--quiet", path],
                                capture_output=True, text=True, timeout=120, cwd=ROOT)
        if result.returncode != 0:
            lines = (result.stdout + result.stderr).strip().splitlines()
            raise Failure(f"the recording {os.path.relpath(path, ROOT)} does not replay headlessly to the same "
                          f"state (quire test exit {result.returncode}):\n" + "\n".join(lines[-25:]))
        with open(path, encoding="utf-8") as f:
            script = json.load(f)
        steps = script.get("steps", [])
        if steps and "expect" in steps[-1]:
            self.compare_with_recording(seen, steps[-1]["expect"])
        events = [s for s in steps if not any(k.startswith("expect") for k in s)]
        self.replayed.append(len(events))


class Suite:
    def __init__(self, options):
        self.options = options
        self.desktop = None
        self.quire = None
        self.embed_bin = None
        self.embed_libdir = None
        self.embed_missing = ""
        self.results = []
        self.out = options.out

    def say(self, line=""):
        print(line, flush=True)

    def prepare(self):
        binary = os.path.abspath(self.options.quire)
        if not os.access(binary, os.X_OK):
            raise SetupError(f"no quire binary at {binary} (build it: swift build; or set QUIRE_BIN)")
        # A copy of our own: a rebuild during the run does not swap the binary under a case.
        self.bin_dir = os.path.join(self.out, "bin")
        os.makedirs(self.bin_dir, exist_ok=True)
        self.quire = os.path.join(self.bin_dir, "quire")
        shutil.copy2(binary, self.quire)
        embed = self.options.embed_bin
        if embed and os.access(embed, os.X_OK):
            libdir = None
            stage = os.path.join(ROOT, ".build", "stage")
            for dirpath, _, files in os.walk(stage):
                if "libquire.so.0" in files:
                    libdir = dirpath
                    break
            self.embed_bin = os.path.abspath(embed)
            self.embed_libdir = os.environ.get("QUIRE_EMBED_LIBDIR", libdir or "")
        else:
            self.embed_missing = (f"no C host at {embed} (scripts/test-embedding builds it; "
                                  "or set QUIRE_EMBED_BIN)")

    def selected(self):
        chosen = []
        for c in CASES:
            if self.options.only:
                if not any(fnmatch.fnmatch(c.name, pattern) or pattern == c.name or c.name.startswith(pattern + "/")
                           for pattern in self.options.only):
                    continue
            chosen.append(c)
        return chosen

    def run(self):
        cases = self.selected()
        if not cases:
            self.say("no case matches --only " + " ".join(self.options.only))
            return 2
        self.prepare()
        started = time.monotonic()
        self.desktop = Desktop(screen="1920x1080x24", verbose=self.options.verbose).start()
        self.say(f"# real-input: {len(cases)} cases, seed {self.options.seed}, monkey events {self.options.events}, "
                 f"display {self.desktop.display}, quire {self.options.quire}")
        self.say(f"# artifacts (logs, recordings, screenshots of failures): {os.path.relpath(self.out, ROOT)}/")
        passed = failed = skipped = 0
        self.counts = (0, 0)
        for number, c in enumerate(cases, 1):
            ok, seconds, lines, skip = self.run_case(c)
            if skip is not None:
                skipped += 1
                self.say(f"ok {number} - {c.name} ({seconds:.1f} s) # SKIP {skip}")
            elif ok:
                passed += 1
                self.say(f"ok {number} - {c.name} ({seconds:.1f} s)")
            else:
                failed += 1
                self.say(f"not ok {number} - {c.name} ({seconds:.1f} s)")
            self.counts = (passed + skipped, failed)
            for line in lines:
                for sub in str(line).splitlines() or [""]:
                    self.say(f"  # {sub}")
            if not self.desktop.alive():
                self.say("  # the X server died; starting a new desktop")
                self.desktop.stop()
                self.desktop = Desktop(screen="1920x1080x24", verbose=self.options.verbose).start()
        total = time.monotonic() - started
        self.say(f"1..{len(cases)}")
        self.say(f"# total {total:.1f} s" + (f", {skipped} skipped" if skipped else ""))
        self.say(f"{passed + skipped} passed, {failed} failed")
        return 1 if failed else 0

    def run_case(self, c):
        folder = os.path.join(self.out, c.name.replace("/", "-"))
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        t = T(self, c, folder)
        lines = []
        ok = True
        skip = None
        started = time.monotonic()

        def on_alarm(signum, frame):
            raise CaseTimeout()
        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, c.timeout)
        error = None
        try:
            try:
                c.fn(t)
                if t.host is not None and not t.completed_exit():
                    t.finish()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except Skip as s:
            skip = str(s)
        except CaseTimeout:
            error = f"timed out after {c.timeout} s (a hang, or the case is too slow)"
            if t.host is not None and t.host.alive():
                error += "; the program is still running"
            elif t.host is not None:
                error += f"; the program {describe_status(t.host.status())}"
        except Crashed as e:
            error = f"CRASH: {e}"
        except Hung as e:
            error = f"HANG: {e}"
        except Failure as e:
            error = str(e)
            if t.host is not None and not t.host.alive() and not t.expect_exit:
                error += f"\n(and the program {describe_status(t.host.status())})"
        except Exception as e:  # noqa: BLE001 - a bug in the case itself
            error = "error in the case: " + "".join(traceback.format_exception_only(type(e), e)).strip()
            lines.append(traceback.format_exc().strip().splitlines()[-3])
        finally:
            signal.signal(signal.SIGALRM, previous)
        if error is None and t.problems:
            error = "expectations failed"
        if error is not None or t.problems:
            ok = False
            lines.insert(0, error)
            lines.extend(f"expected: {p}" for p in t.problems)
            lines.append("last events: " + (" | ".join(t.input.last(10)) or "none")
                         + f" (all: {os.path.relpath(os.path.join(folder, 'events.txt'), ROOT)})")
            shot = os.path.join(folder, "failure.png")
            subprocess.run(["import", "-silent", "-window", "root", shot], env=self.desktop.env,
                           capture_output=True, timeout=20)
            if os.path.exists(shot):
                lines.append(f"screenshot: {os.path.relpath(shot, ROOT)}")
            if t.host is not None:
                tail = t.host.stderr_tail()
                if tail:
                    lines.append("stderr:")
                    lines.extend("  " + line for line in tail)
        if t.host is not None:
            warnings = t.host.warnings()
            if warnings:
                lines.append(f"{len(warnings)} GTK/GLib warning lines on stderr, first: {warnings[0][:200]}")
            t.host.kill()
        if skip is None:
            lines.extend(t.notes)
            if len(t.replayed) == 1:
                lines.append(f"recording: {t.replayed[0]} events replayed headlessly to the same state")
            elif t.replayed:
                lines.append(f"recordings: {len(t.replayed)}, {sum(t.replayed)} events in all, each replayed "
                             "headlessly to the same state")
            lines.append(f"events sent: {t.input.count}")
        seconds = time.monotonic() - started
        return ok, seconds, lines, skip


def main(argv=None):
    parser = argparse.ArgumentParser(description="The real-input suite (see Tests/RealInput/README.md).")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("QUIRE_REAL_INPUT_SEED", "20240518")),
                        help="seed of every random choice (monkey, random clicks); printed at the start")
    parser.add_argument("--events", type=int, default=int(os.environ.get("QUIRE_REAL_INPUT_EVENTS", "2000")),
                        help="real input events in the monkey run (default 2000)")
    parser.add_argument("--delay", type=float, default=0.005, help="seconds between monkey events (default 0.005)")
    parser.add_argument("--only", action="append", default=[], metavar="CASE",
                        help="run only this case (a name, a prefix such as click, or a glob); repeatable")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--quire", default=os.environ.get("QUIRE_BIN", os.path.join(ROOT, ".build/debug/quire")))
    parser.add_argument("--embed-bin", default=os.environ.get(
        "QUIRE_EMBED_BIN", os.path.join(ROOT, ".build/embedding/examples/quire-gtk-walkthrough")))
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "real-input"))
    parser.add_argument("--verbose", action="store_true")
    options = parser.parse_args(argv)
    options.out = os.path.abspath(options.out)
    options.only = [p for item in options.only for p in item.split(",") if p]
    import cases  # noqa: F401 - registers the cases
    import app_cases  # noqa: F401 - the app/* cases (issue 20's chrome)
    import size_cases  # noqa: F401 - the size/* cases
    import window_cases  # noqa: F401 - keys/* and size/wide-panel-covers-the-bar (issue 33's window fixes)
    import ime_cases  # noqa: F401 - the ime/* case (issue 33: an input method composing Japanese)
    import orca_cases  # noqa: F401 - the orca/* cases (issue 36: what Orca says, in English and Japanese)
    if options.list:
        for c in CASES:
            print(f"{c.name}  ({c.host}, {c.timeout} s)")
        return 0
    os.makedirs(options.out, exist_ok=True)
    suite = Suite(options)

    def on_signal(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        return suite.run()
    except SetupError as e:
        print(f"real-input: {e}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    except KeyboardInterrupt:
        print("real-input: interrupted", file=sys.stderr)
        passed, failed = getattr(suite, "counts", (0, 0))
        print(f"{passed} passed, {failed + 1} failed", flush=True)
        return 130
    finally:
        if suite.desktop is not None:
            suite.desktop.stop()

