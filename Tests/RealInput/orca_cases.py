"""orca/*: what the screen reader Orca 43 actually says of the demo walked by keyboard (issue 36),
in English and in Japanese. Orca runs on the suite's desktop (its Xvfb, session bus and
accessibility bus) with its own preferences folder, speech-dispatcher's silent output module and
a line-buffered debug log (`orca.py`); what it says is the log's `SPEECH OUTPUT` lines.

The walk, with keys only (XTest): Tab and Shift+Tab (Orca may miss the window's first activation
on GTK 4.8, so the case gives it a focus change to start from), Alt+Right to page 2, Up Up to the
Name entry and Tab past it empty (its error revealed where focus no longer is), Escape out of the
choice list, Alt+Right refused on the empty name, "Ada" typed, Alt+Right to page 3, Up Up to Focus
time and Space (the duration picker opens on its hours wheel), Up, Right, Up, Return, Alt+Right
twice, Return on Finish. Heard, in order: every page's arrival ("About you, page 2 of 5") with its
body after it ("Tell us what to call you."), the
revealed error ("Name: Required"), the refusal's error ("Name: Required" again), the wheels' names
("Focus time, hours", "Focus time, min") and a value on opening and on every turn, "Finished"; and
no line naming a GType (`Gtk[A-Z]`). The texts are the core's announcements (CONTRACT §6.4), the
wheels' names and values the core's presentation. The whole transcript is kept in the case's
folder (`.build/real-input/orca-en/transcript.txt`, `orca-ja/`), with Orca's debug log.

`orca/timer-ends`: a focus timer saved paused at 2.5 s left (as `app/timer-ends` does), the
walkthrough cancelled, Resume pressed with Space: when it runs out Orca says "Time's up" and then
presents Reset, where keyboard focus went (Start is disabled at zero).

Without orca or speech-dispatcher the cases are skipped on a desk and fail in CI (`CI=true`).
"""

import os
import re
import time

from driver import Failure
from orca import Orca, missing
from suite import Skip, case

DEMO = "data/flows/focus-onboarding.json"
GTYPE = re.compile(r"Gtk[A-Z]")
KEY_ECHO = re.compile(r"^(\S+|left \w+|right \w+) $")  # Orca's key echo ("tab ", "left alt ")

TEXTS = {
    "en": {
        "pages": ["About you, page 2 of 5", "Your focus time, page 3 of 5", "Break reminder, page 4 of 5",
                  "All set, page 5 of 5"],
        # Each page's body, said after its arrival (the reminder page has none).
        "bodies": ["Tell us what to call you.", "How long is one focus session?", None,
                   "You can change the focus time and the reminder time any time in Preferences."],
        "name_error": "Name: Required",
        "hours": "Focus time, hours",
        "minutes": "Focus time, min",
        "finished": "Finished",
    },
    "ja": {
        "pages": ["あなたについて、5ページ中2ページ目", "集中する時間、5ページ中3ページ目",
                  "休憩のリマインダー、5ページ中4ページ目", "準備完了、5ページ中5ページ目"],
        "bodies": ["お名前を教えてください。", "1回の集中時間はどれくらいですか", None,
                   "集中時間とリマインドまでの時間は、いつでも設定で変更できます。"],
        "name_error": "名前: 入力してください",
        "hours": "集中時間, 時間",
        "minutes": "集中時間, 分",
        "finished": "完了しました",
    },
}


def in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


class Listener:
    """Orca's speech, read as the case goes: `hear` waits for a line containing a text among those
    spoken since the last `hear` (or `skip`)."""

    def __init__(self, t, orca):
        self.t = t
        self.orca = orca
        self.seen = 0
        self.steps = []  # (what was done, the lines spoken after it) for the transcript

    def lines(self):
        return [line for line in self.orca.spoken() if not KEY_ECHO.match(line)]

    def after(self, what, settle=0.6, speech=True):
        """Lines spoken after `what` (a step): waits for a first line (at most 4 s; Orca on a loaded
        machine can take a second or more) unless `speech` is false, then until speech has stopped
        for `settle` seconds (at most 6 s in all)."""
        start = time.monotonic()
        count = len(self.lines())
        first = count
        quiet_since = start
        while time.monotonic() < start + 6:
            time.sleep(0.1)
            self.t.check_alive()
            now = len(self.lines())
            if now != count:
                count, quiet_since = now, time.monotonic()
            elif time.monotonic() - quiet_since >= settle and (count > first or not speech
                                                              or time.monotonic() - start >= 4):
                break
        fresh = self.lines()[self.seen:]
        self.seen += len(fresh)
        self.steps.append((what, fresh))
        return fresh

    def do(self, what, *keys, typed=None, settle=0.6, speech=True):
        for key in keys:
            self.t.key(key)
        if typed:
            self.t.type(typed)
        return self.after(what, settle, speech)

    def expect(self, heard, text, moment):
        self.t.expect(any(text in line for line in heard),
                      f"{moment}: Orca did not say {text!r}; it said {heard}")

    def transcript(self):
        out = []
        for what, lines in self.steps:
            out.append(f"[{what}]")
            out.extend(f"  {line}" for line in lines)
        return "\n".join(out) + "\n"


def start_orca(t):
    """Orca on the suite's desktop (a skip, or a failure in CI, without the packages)."""
    if missing():
        message = (f"setup broken: missing {', '.join(missing())} "
                   "(scripts/setup installs orca and speech-dispatcher)")
        if in_ci():
            raise Failure(message)
        raise Skip(message)
    orca = Orca(t.desktop.env, os.path.join(t.folder, "orca"))
    try:
        orca.start()
    except RuntimeError as error:
        orca.stop()
        raise Failure(f"setup broken: {error}")
    return orca


def prime(t, listen, said, heard=()):
    """Tab then Shift+Tab (at most 3 times) until Orca has shown it follows the window: it said
    something containing `said`, or presented the window's frame (it then tracks focus already, and
    a Tab and Shift+Tab back to the same control may say nothing: its focus did not change)."""
    heard = list(heard)
    for attempt in range(3):
        if any(said in line or line.endswith(" frame.") for line in heard):
            return
        heard += listen.do("Tab, Shift+Tab" + (f" (again, {attempt + 1})" if attempt else ""), "Tab", "shift+Tab",
                           speech=False)
    t.expect(any(said in line or line.endswith(" frame.") for line in heard),
             f"Orca follows neither the window nor its focus at the start: {heard}")


def keep(t, listen, spoken):
    """Asserts no GType name was said; writes the transcript into the case's folder."""
    named = sorted({line for line in spoken if GTYPE.search(line)})
    t.expect(not named, f"Orca said GType names: {named}")
    path = os.path.join(t.folder, "transcript.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(listen.transcript())
    t.note(f"Orca said {len(spoken)} lines (key echo aside); transcript: {os.path.relpath(path)}")


def walk(t, locale):
    texts = TEXTS[locale]
    orca = start_orca(t)
    try:
        t.start(DEMO, locale=locale)
        listen = Listener(t, orca)
        heard = listen.after("start", settle=0.8)
        # Orca may have missed the window's activation (or the app's first events, while it was
        # registering it): focus changes it cannot miss, back to Next, until it follows them.
        prime(t, listen, "push button", heard)

        heard = listen.do("Alt+Right: page 2", "alt+Right", settle=0.8)
        listen.expect(heard, texts["pages"][0], "page 2 reached")
        listen.expect(heard, texts["bodies"][0], "page 2's body read on arrival")
        heard = listen.do("Up, Up: the Name entry", "Up", "Up")
        t.expect(any(line.startswith(texts["name_error"].split(":")[0]) for line in heard),
                 f"Up Up did not land on the Name entry: {heard}")
        heard = listen.do("Tab past the empty name", "Tab")
        listen.expect(heard, texts["name_error"], "Tab left the required name empty (an error revealed out of focus)")
        listen.do("Escape: the choice list closed", "Escape")
        heard = listen.do("Alt+Right refused", "alt+Right")
        listen.expect(heard, texts["name_error"], "Alt+Right refused for the empty name")
        listen.do("Ada typed", typed="Ada", settle=0.3, speech=False)
        heard = listen.do("Alt+Right: page 3", "alt+Right", settle=0.8)
        listen.expect(heard, texts["pages"][1], "page 3 reached")
        listen.expect(heard, texts["bodies"][1], "page 3's body read on arrival")

        listen.do("Up, Up: Focus time", "Up", "Up")
        heard = listen.do("Space: the duration picker", "space", settle=0.8)
        listen.expect(heard, texts["hours"], "the picker opened on the hours wheel")
        t.expect(len(heard) >= 2, f"the hours wheel's value was not said with its name: {heard}")
        before = heard[-1] if heard else None
        heard = listen.do("Up: hours turned", "Up")
        t.expect(heard and heard[-1] != before, f"the hours wheel's turn was not said: {heard}")
        heard = listen.do("Right: the minutes wheel", "Right")
        listen.expect(heard, texts["minutes"], "Right moved to the minutes wheel")
        before = heard[-1] if heard else None
        heard = listen.do("Down: minutes turned", "Down")
        t.expect(heard and heard[-1] != before, f"the minutes wheel's turn was not said: {heard}")
        listen.do("Return: the picker closed", "Return")

        heard = listen.do("Alt+Right: page 4", "alt+Right", settle=0.8)
        listen.expect(heard, texts["pages"][2], "page 4 reached")
        heard = listen.do("Alt+Right: page 5", "alt+Right", settle=0.8)
        listen.expect(heard, texts["pages"][3], "page 5 reached")
        listen.expect(heard, texts["bodies"][3], "page 5's body read on arrival")
        heard = listen.do("Return on Finish", "Return", settle=0.8)
        listen.expect(heard, texts["finished"], "the walkthrough finished")
        t.completed = True

        keep(t, listen, listen.lines())
    finally:
        orca.stop()


@case("orca/en", timeout=60)
def orca_en(t):
    walk(t, "en")


@case("orca/ja", timeout=60)
def orca_ja(t):
    walk(t, "ja")


@case("orca/timer-ends", timeout=45)
def orca_timer_ends(t):
    from app_cases import to_main_window, write_timer
    write_timer(t, 2500)
    orca = start_orca(t)
    try:
        t.start(DEMO)
        listen = Listener(t, orca)
        to_main_window(t)
        t.wait(lambda s: s.focused() is not None and s.focused().name == "Resume", "keyboard focus on Resume")
        heard = listen.after("Cancel clicked: the main window", settle=0.8)
        prime(t, listen, "Resume", heard)
        listen.do("Space: Resume", "space", settle=0.3, speech=False)
        deadline = time.monotonic() + 8
        heard = []
        while time.monotonic() < deadline and not any("Time's up" in line for line in heard):
            heard += listen.after("the timer runs out", settle=0.5, speech=False)
        listen.expect(heard, "Time's up", "the timer ran out")
        t.expect(any(line.startswith("Reset") for line in heard),
                 f"Orca did not present Reset, where focus went when Start was disabled: {heard}")
        keep(t, listen, listen.lines())
    finally:
        orca.stop()
