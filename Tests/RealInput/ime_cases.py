"""ime/*: Japanese typed through an input method, as a person with IBus and Anthy types it (issue
33: the app took the Return that commits the composition, and the composed text was lost).

ime/anthy  A control first: the same keys against a plain GtkEntry (ime-entry.c, built here with
           `cc $(pkg-config --cflags --libs gtk4)`) must compose and commit 日本語; when they do
           not, the case fails saying "setup broken" — IBus, Anthy or ibus-gtk4 is at fault, not
           the app. Then `quire run` on the demo, the Name field of "About you" clicked, and:
           - Ctrl+J (Anthy on: hiragana), `nihongo` (the pre-edit にほんご), Space (日本語),
             Return: the entry holds 日本語 (AT-SPI), focus is still on it, its panel still open,
             still page 2 — the Return was the input method's;
           - `nihongo` then Escape: the pre-edit is gone (the entry looks as before, pixel for
             pixel), the text is unchanged, focus and panel stay — the Escape was the input
             method's;
           - `desu` then Return: the pre-edit です is committed as it stands (日本語です);
           - Return with nothing composed is the session's again: focus moves on to Feed language.
           The recording holds each commit as one `edit` (日本語 at 0, です at 3), no Escape and
           one Return (the last), and replays headlessly (`quire test`) to userName 日本語です.

How IBus runs here (see README.md, "Input methods"): for each program a fresh `ibus-daemon --xim
--panel=disable`, a child of the suite (the daemon exits when its parent does), with XDG folders
and a HOME of its own and the suite's python first on PATH (ibus-engine-anthy runs `python3`,
which must import gi); then `ibus engine anthy`. The program gets GTK_IM_MODULE=ibus and
IBUS_ADDRESS. A fresh daemon per program because Anthy's on/off state outlives the program: Ctrl+J
toggles it, so the second program of one daemon would switch hiragana off.

The pre-edit is not in the accessible text (GTK 4.8 exposes the entry's text only), so the case
waits for it the way a person does: it watches the entry's pixels until they change and hold
still (`import -window root -crop`), and after Escape until they are back to what they were.
"""

import glob
import hashlib
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time

from cases import DEMO, goto
from driver import Failure, Host
from session import stop_pid
from suite import Skip, case

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "ime-entry.c")
IBUS_MARK = "QUIRE_REAL_INPUT_IBUS"
PACKAGES = "ibus ibus-anthy ibus-gtk4"


class SetupBroken(Failure):
    """The input method, not the app: IBus, Anthy, ibus-gtk4 or the control entry."""

    def __init__(self, message):
        super().__init__(f"setup broken: {message}")


def in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def missing_packages():
    """What is missing to run IBus with Anthy for GTK 4, by the files the packages install."""
    missing = []
    if not shutil.which("ibus-daemon") or not shutil.which("ibus"):
        missing.append("ibus-daemon and ibus (ibus)")
    if not glob.glob("/usr/share/ibus/component/anthy.xml"):
        missing.append("the Anthy engine (ibus-anthy)")
    if not (glob.glob("/usr/lib/*/gtk-4.0/*/immodules/libim-ibus.so")
            or glob.glob("/usr/lib/gtk-4.0/*/immodules/libim-ibus.so")
            or glob.glob("/usr/lib64/gtk-4.0/*/immodules/libim-ibus.so")):
        missing.append("GTK 4's IBus input method module (ibus-gtk4)")
    if not shutil.which("cc") or not shutil.which("pkg-config") \
            or subprocess.run(["pkg-config", "--exists", "gtk4"]).returncode != 0:
        missing.append("cc and GTK 4's headers for the control entry (gcc, libgtk-4-dev)")
    return missing


class InputMethod:
    """One ibus-daemon with the Anthy engine, for one program. Everything it starts carries
    IBUS_MARK=<id> (and the suite's run mark): `stop` ends the daemon, then whatever else has the
    mark (ibus-x11 re-parents itself to PID 1)."""

    def __init__(self, t, name):
        self.t = t
        self.name = name
        self.dir = os.path.join(t.desktop.dir, "ibus", os.path.basename(t.folder) + "-" + name)
        self.log_path = os.path.join(t.folder, f"ibus-{name}.txt")
        self.mark = f"{t.desktop.run_id}-{name}-{time.monotonic_ns()}"
        self.proc = None
        self.address = None
        self.env = None

    def ibus(self, *args, timeout=10):
        return subprocess.run(["ibus", *args], env=self.env, capture_output=True, text=True, timeout=timeout)

    def start(self, timeout=20.0):
        env = dict(self.t.desktop.env)
        folders = {}
        for sub in ("config", "cache", "home"):
            folders[sub] = os.path.join(self.dir, sub)
            os.makedirs(folders[sub], exist_ok=True)
        env.update({
            "XDG_CONFIG_HOME": folders["config"],
            "XDG_CACHE_HOME": folders["cache"],
            "HOME": folders["home"],
            "GSETTINGS_BACKEND": "memory",
            # ibus-engine-anthy is `exec python3 …/main.py`: the first python3 on PATH must import
            # gi and IBus (a pyenv shim cannot); the suite runs on such a python.
            "PATH": os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
            IBUS_MARK: self.mark,
        })
        self.env = env
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(["ibus-daemon", "--xim", "--panel=disable", "--verbose"], env=env,
                                     stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        bus = os.path.join(folders["config"], "ibus", "bus")
        while self.address is None:
            if self.proc.poll() is not None:
                raise SetupBroken(f"ibus-daemon exited with status {self.proc.returncode}: {self.tail()}")
            for path in glob.glob(os.path.join(bus, "*")):
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        for line in f:
                            if line.startswith("IBUS_ADDRESS="):
                                self.address = line.strip().split("=", 1)[1]
                except OSError:
                    pass
            if self.address is None:
                if time.monotonic() > deadline:
                    raise SetupBroken(f"ibus-daemon wrote no address in {timeout:g} s: {self.tail()}")
                time.sleep(0.05)
        env["IBUS_ADDRESS"] = self.address
        engines = ""
        while "anthy" not in engines.split():
            engines = self.ibus("list-engine", "--name-only").stdout
            if "anthy" in engines.split():
                break
            if time.monotonic() > deadline:
                raise SetupBroken(f"IBus lists no anthy engine ({PACKAGES}): {engines.split()[:8]} {self.tail()}")
            time.sleep(0.1)
        # `ibus engine anthy` exits 1 even when it worked: the engine's layout is "default", so
        # there is no setxkbmap to run, which the tool counts as a failure. Ask back instead.
        asked = 0.0
        while True:
            if time.monotonic() - asked > 1.0:
                self.ibus("engine", "anthy")
                asked = time.monotonic()
            current = self.ibus("engine").stdout.strip()
            if current == "anthy":
                break
            if time.monotonic() > deadline:
                raise SetupBroken(f"`ibus engine anthy` did not take (the engine is {current!r}): {self.tail()}")
            time.sleep(0.05)
        return self

    def embed_preedit(self, embed, timeout=10.0):
        """IBus's "embed pre-edit text" (EmbedPreeditText): off, the pre-edit is drawn outside the
        entry (in IBus's own window; with no panel, nowhere) and GtkText reports none."""
        code = ("import sys, gi; gi.require_version('IBus', '1.0'); from gi.repository import IBus, GLib; "
                "bus = IBus.Bus(); bus.set_ibus_property('EmbedPreeditText', GLib.Variant('b', sys.argv[1] == '1')); "
                "print(bus.get_ibus_property('EmbedPreeditText').get_boolean())")
        done = subprocess.run([sys.executable, "-c", code, "1" if embed else "0"], env=self.env,
                              capture_output=True, text=True, timeout=timeout)
        if done.stdout.strip() != str(bool(embed)):
            raise SetupBroken(f"cannot set IBus's EmbedPreeditText to {embed}: {done.stdout.strip()} {done.stderr.strip()[-300:]}")

    def app_env(self):
        """What a GTK program needs to use this daemon."""
        return {"GTK_IM_MODULE": "ibus", "IBUS_ADDRESS": self.address}

    def tail(self, lines=4):
        try:
            with open(self.log_path, errors="replace") as f:
                # (not the lines every start prints: Anthy relinking its dictionaries, the
                # address file not there yet, ibus-portal, which finds no daemon of its own)
                text = [line for line in f.read().splitlines()
                        if line.strip() and not line.startswith("Removing imported_words")
                        and "Failed to unlink" not in line and "portal is not running" not in line]
            return " | ".join(text[-lines:])
        except OSError:
            return ""

    def stop(self):
        if self.proc is not None:
            stop_pid(self.proc.pid)
            self.proc = None
        want = f"{IBUS_MARK}={self.mark}".encode()
        for _round in range(2):
            left = []
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry}/environ", "rb") as f:
                        if want in f.read().split(b"\0"):
                            left.append(int(entry))
                except OSError:
                    continue
            for pid in left:
                try:
                    os.kill(pid, signal.SIGTERM if _round == 0 else signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if not left:
                break
            time.sleep(0.3)


class AnthyHome:
    """libanthy keeps its lock and learning files in ~/.anthy of the passwd entry, whatever HOME
    says. When the case made that folder, it goes again at the end."""

    def __init__(self):
        try:
            self.path = os.path.join(pwd.getpwuid(os.getuid()).pw_dir, ".anthy")
        except KeyError:
            self.path = None
        self.existed = self.path is None or os.path.lexists(self.path)

    def clean(self):
        if not self.existed and os.path.isdir(self.path):
            shutil.rmtree(self.path, ignore_errors=True)


def build_fixture(t):
    """ime-entry.c compiled once per source version into the suite's bin folder."""
    with open(FIXTURE, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:12]
    binary = os.path.join(t.suite.bin_dir, f"ime-entry-{digest}")
    if os.access(binary, os.X_OK):
        return binary
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "gtk4"], capture_output=True, text=True, timeout=30)
    if flags.returncode != 0:
        raise SetupBroken(f"pkg-config gtk4: {flags.stderr.strip()}")
    built = subprocess.run(["cc", "-O1", "-o", binary + ".tmp", FIXTURE, *flags.stdout.split()],
                           capture_output=True, text=True, timeout=120)
    if built.returncode != 0:
        raise SetupBroken(f"cannot build the control entry ({os.path.basename(FIXTURE)}): {built.stderr.strip()[-400:]}")
    os.replace(binary + ".tmp", binary)
    return binary


# ------------------------------------------------------------------------------- the control

def control(t, binary):
    """The issue's keys against a plain GtkEntry: it must print the pre-edit にほんご, then 日本語,
    commit 日本語 on Return without activating the entry, and drop a pre-edit on Escape."""
    ime = InputMethod(t, "control").start()
    folder = os.path.join(t.folder, "control")
    os.makedirs(folder, exist_ok=True)
    xdg = os.path.join(t.desktop.dir, "xdg", os.path.basename(t.folder) + "-control")
    host = Host("control", [binary], t.desktop.app_env(xdg, ime.app_env()), folder)
    try:
        host.start()
        deadline = time.monotonic() + 15
        while not ("ready " in host.stdout_text().splitlines() and host.find_window()):
            if not host.alive():
                raise SetupBroken(f"the control entry exited with status {host.status()}: {host.stderr_tail(4)}")
            if time.monotonic() > deadline:
                raise SetupBroken("the control entry showed no window in 15 s")
            time.sleep(0.05)
        host.window = host.find_window()[0]
        host.focus_window()

        def lines():
            return host.stdout_text().splitlines()

        def wait_line(want, start, what, timeout=4.0):
            deadline = time.monotonic() + timeout
            while True:
                got = lines()[start:]
                if want in got:
                    return start + got.index(want) + 1
                if not host.alive():
                    raise SetupBroken(f"the control entry exited with status {host.status()} waiting for {what}")
                if time.monotonic() > deadline:
                    raise SetupBroken(f"a plain GtkEntry did not show {what} within {timeout:g} s of the keys; it "
                                      f"printed {got[-8:]} (ibus: {ime.tail(3)})")
                time.sleep(0.05)

        start = len(lines())
        t.key("ctrl+j")
        t.type("nihongo")
        seen = wait_line("preedit にほんご", start, "the pre-edit にほんご after Ctrl+J, nihongo")
        t.key("space")
        seen = wait_line("preedit 日本語", seen, "the conversion 日本語 after Space")
        t.key("Return")
        wait_line("entry-changed 日本語", seen, "the commit 日本語 after Return")
        done = wait_line("preedit ", seen, "the pre-edit ending after Return")
        t.type("nihongo")
        seen = wait_line("preedit にほんご", done, "the pre-edit にほんご the second time")
        t.key("Escape")
        wait_line("preedit ", seen, "the pre-edit dropped on Escape")
        time.sleep(0.2)  # anything the Escape did besides
        after = lines()[start:]
        if any(line.startswith("activate") for line in after):
            raise SetupBroken(f"Return reached a plain GtkEntry's activate while the input method composed: {after}")
        changed = [line for line in after if line.startswith("entry-changed")]
        if changed != ["entry-changed 日本語"]:
            raise SetupBroken(f"a plain GtkEntry's text went {changed}, not just to 日本語")
        t.note(f"control: a plain GtkEntry composed and committed 日本語 and dropped a pre-edit on Escape "
               f"({len(after)} lines)")
    finally:
        host.kill()
        ime.stop()


# ------------------------------------------------------------------------ the app, by pixels

def entry_image(t, node):
    """The entry's pixels on the screen now (PPM bytes)."""
    x, y, w, h = node.extents()
    sx, sy = t.screen_point(x, y)
    shot = subprocess.run(["import", "-silent", "-window", "root", "-crop", f"{w}x{h}+{int(sx)}+{int(sy)}",
                           "+repage", "ppm:-"], env=t.desktop.env, capture_output=True, timeout=10)
    if shot.returncode != 0 or not shot.stdout:
        raise Failure(f"could not take the entry's picture: {shot.stderr.decode(errors='replace').strip()}")
    return shot.stdout


def wait_drawn(t, node, before, what, timeout=4.0, still=0.3):
    """Waits until the entry looks different from `before` and has held still for `still`
    seconds: the input method's pre-edit drawn, all the keys typed taken (IBus handles keys one
    at a time, out of the app's process). Returns that picture."""
    deadline = time.monotonic() + timeout
    last = None
    since = None
    while True:
        t.check_alive()
        now = entry_image(t, node)
        if now != last:
            last, since = now, time.monotonic()
        elif now != before and time.monotonic() - since >= still:
            return now
        if time.monotonic() > deadline:
            changed = "changed but never held still" if now != before else "did not change"
            raise Failure(f"waited {timeout:g} s for {what}: the entry's pixels {changed}; entry text "
                          f"{(node_text(t) or '')!r}")
        time.sleep(0.1)


def wait_restored(t, node, image, what, timeout=4.0):
    deadline = time.monotonic() + timeout
    while True:
        t.check_alive()
        if entry_image(t, node) == image:
            return
        if time.monotonic() > deadline:
            raise Failure(f"waited {timeout:g} s for {what}: the entry does not look as it did before; entry text "
                          f"{(node_text(t) or '')!r}")
        time.sleep(0.1)


def name_entry(t, snap=None):
    snap = snap or t.snap()
    node = snap.find("text", "Name")
    if node is None:
        raise Failure(f"the Name entry is not on screen: {t.summary(snap)}")
    return node


def node_text(t):
    try:
        return name_entry(t).text()
    except Failure:
        return None


def expect_kept(t, moment, text):
    """After a key the input method should have had: the text, focus on the Name entry, its
    panel open, page 2. Waits 0.5 s first, so a key the session took has shown its effect."""
    t.settle(0.5)
    snap = t.snap()
    entry = snap.find("text", "Name")
    shown = entry.text() if entry is not None else None
    focus = snap.focused()
    t.expect(shown == text, f"{moment}: the entry shows {shown!r}, not {text!r}")
    t.expect(focus is not None and focus.role == "text" and focus.name == "Name",
             f"{moment}: keyboard focus went to {focus.label if focus else 'nothing'}, not the Name entry "
             "(the session took a key the input method should have had)")
    t.expect(snap.picker() == "Name", f"{moment}: the Name field's panel is {'closed' if not snap.picker() else 'replaced by ' + repr(snap.picker())}")
    t.expect(t.page(snap) == 2, f"{moment}: on page {t.page(snap)}, not 2")


def expect_committed(t, entry, text, why):
    """Waits for the Name entry to hold `text` after Return; else a failure saying where the
    keys went instead (the entry's text, keyboard focus, the open panel, the page)."""
    try:
        t.wait(lambda s: (s.find("text", "Name") or entry).text() == text, f"{text} committed", timeout=3)
    except Failure:
        snap = t.snap()
        focus = snap.focused()
        raise Failure(f"Return did not commit {text} {why}: the entry shows {node_text(t)!r}, focus on "
                      f"{focus.label if focus else 'nothing'}, panel {snap.picker()!r}, page {t.page(snap)}")


def recorded_events(path):
    with open(path, encoding="utf-8") as f:
        script = json.load(f)
    steps = script.get("steps", [])
    events = [s for s in steps if isinstance(s, dict) and not any(k.startswith("expect") for k in s)]
    final = steps[-1].get("expect") if steps and isinstance(steps[-1], dict) else None
    return events, final


@case("ime/anthy", timeout=60)
def anthy(t):
    with_anthy(t, run_anthy)


def with_anthy(t, run):
    """Runs `run(t)` with IBus and Anthy there (setup broken otherwise: a failure in CI, a skip
    on a desk) and libanthy's home folder cleaned up after."""
    missing = missing_packages()
    if missing:
        message = f"setup broken: missing {', '.join(missing)} (scripts/setup installs {PACKAGES})"
        if in_ci():
            raise Failure(message)
        raise Skip(message)
    anthy_home = AnthyHome()
    try:
        run(t)
    finally:
        anthy_home.clean()


@case("ime/anthy-own-window", timeout=60)
def anthy_own_window(t):
    """The same keys with IBus's "embed pre-edit text" off: the entry is never told that the input
    method composes, so only keys that reach the entry before the session can be right."""
    with_anthy(t, run_anthy_own_window)


def run_anthy_own_window(t):
    ime = InputMethod(t, "app").start()
    try:
        ime.embed_preedit(False)
        t.start(DEMO, extra_env=ime.app_env())
        goto(t, 2)
        snap, entry = t.locate("text", "Name")
        t.click_node(snap, entry)
        t.wait_picker("Name")
        t.settle(0.4)
        t.key("ctrl+j")
        t.type("nihongo")
        # Nothing on screen says the input method has it (its pre-edit is not in the entry):
        # a short settle for IBus to take each key, then the checks.
        t.settle(0.6)
        t.expect(not node_text(t), f"the entry took {node_text(t)!r} itself: the input method did not compose")
        t.key("space")
        t.settle(0.6)
        t.key("Return")
        expect_committed(t, entry, "日本語", "with the pre-edit out of the entry")
        expect_kept(t, "after Ctrl+J, nihongo, Space, Return (pre-edit out of the entry)", "日本語")
        t.type("nihongo")
        t.settle(0.6)
        t.key("Escape")
        t.settle(0.6)
        expect_kept(t, "after nihongo, Escape (pre-edit out of the entry)", "日本語")
        t.key("Return")
        t.wait(lambda s: s.picker() == "Feed language",
               "Return with nothing composed to move on to Feed language (the session's Return)", timeout=3)
        t.finish()
    finally:
        ime.stop()
    events, final = recorded_events(t.recording)
    edits = [e["edit"] for e in events if "edit" in e]
    t.expect(edits == [{"range": [0, 0], "text": "日本語"}], f"the recording's edits are {edits}, not one commit of 日本語")
    values = (final or {}).get("values") or {}
    t.expect(values.get("userName") == "日本語", f"the recording ends with userName {values.get('userName')!r}, not '日本語'")
    t.note(f"recorded: {len(events)} events, edits {[e['text'] for e in edits]}")


def run_anthy(t):
    control(t, build_fixture(t))

    ime = InputMethod(t, "app").start()
    try:
        t.start(DEMO, extra_env=ime.app_env())
        goto(t, 2)
        snap, entry = t.locate("text", "Name")
        t.click_node(snap, entry)
        t.wait_picker("Name")
        t.settle(0.4)  # the panel's slide, the focus ring's fade
        entry = name_entry(t)
        t.expect((entry.text() or "") == "", f"the Name entry starts with {entry.text()!r}")

        # 1. The keys: Ctrl+J, nihongo, Space, Return.
        blank = entry_image(t, entry)
        t.key("ctrl+j")
        t.type("nihongo")
        kana = wait_drawn(t, entry, blank, "the pre-edit にほんご after Ctrl+J, nihongo")
        text = node_text(t)
        if text:
            raise Failure(f"the input method did not compose: the entry took {text!r} itself "
                          "(the control composed: is the app's IM context IBus's?)")
        t.key("space")
        wait_drawn(t, entry, kana, "the conversion 日本語 after Space")
        t.expect(not node_text(t), f"while converting, the entry's text is already {node_text(t)!r}")
        t.key("Return")
        expect_committed(t, entry, "日本語", "(issue 33)")
        expect_kept(t, "after Ctrl+J, nihongo, Space, Return", "日本語")

        # 2. Escape cancels the composition: the pre-edit goes, the text and focus stay.
        entry = name_entry(t)
        committed = entry_image(t, entry)
        t.type("nihongo")
        wait_drawn(t, entry, committed, "the pre-edit にほんご after 日本語")
        t.key("Escape")
        wait_restored(t, entry, committed, "Escape to drop the pre-edit")
        expect_kept(t, "after nihongo, Escape", "日本語")

        # 3. Return commits the pre-edit as it stands, unconverted.
        entry = name_entry(t)
        before = entry_image(t, entry)
        t.type("desu")
        wait_drawn(t, entry, before, "the pre-edit です")
        t.key("Return")
        try:
            t.wait(lambda s: (s.find("text", "Name") or entry).text() == "日本語です", "です committed", timeout=3)
        except Failure:
            raise Failure(f"Return did not commit the pre-edit です: the entry shows {node_text(t)!r}")
        expect_kept(t, "after desu, Return", "日本語です")

        # 4. Nothing composed: Return is the session's again (the field's Return key: next field).
        t.key("Return")
        t.wait(lambda s: s.picker() == "Feed language",
               "Return with nothing composed to move on to Feed language (the session's Return)", timeout=3)
        t.finish()
    finally:
        ime.stop()

    events, final = recorded_events(t.recording)
    edits = [e["edit"] for e in events if "edit" in e]
    want = [{"range": [0, 0], "text": "日本語"}, {"range": [3, 3], "text": "です"}]
    t.expect(edits == want, f"the recording's edits are {edits}, not one per commit: {want}")
    keys = [(i, e["key"]) for i, e in enumerate(events) if "key" in e]
    last_edit = max((i for i, e in enumerate(events) if "edit" in e), default=-1)
    t.expect([k for _i, k in keys] == ["Return"] and keys[0][0] > last_edit,
             f"the recording holds the keys {keys} (event index, key); only the last Return, after the "
             f"commits, is the session's (edits end at event {last_edit})")
    values = (final or {}).get("values") or {}
    t.expect(values.get("userName") == "日本語です",
             f"the recording ends with userName {values.get('userName')!r}, not '日本語です'")
    t.note(f"recorded: {len(events)} events, edits {[e['text'] for e in edits]}, keys {[k for _i, k in keys]}")
