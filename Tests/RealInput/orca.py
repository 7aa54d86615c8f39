"""Orca 43 as a listener: a screen reader started on the suite's private desktop whose speech is
read from its debug log (`SPEECH OUTPUT: '…'` lines), with speech-dispatcher's silent output module
(no sound device: espeak-ng would block Orca's event loop on the first utterance).

- `/usr/bin/orca` opens its debug file block-buffered, so the lines would arrive late or only at
  exit: `orca_copy` writes a copy whose debug file is line-buffered (`buffering=1`) and which does
  not refuse to start when another Orca of this user runs elsewhere on the machine (it looks for
  any process named `orca`; ours is alone on its own private accessibility bus).
- Orca gets a preferences folder of its own (`-u`), and an `XDG_CONFIG_HOME` whose
  speech-dispatcher/ holds `speechd.conf` and `modules/silent.conf` (every utterance appended to
  `$SPOKEN_LOG`), and its own `XDG_RUNTIME_DIR`, so the speech-dispatcher it spawns is its own.
"""

import os
import re
import shutil
import signal
import subprocess
import time

ORCA = "/usr/bin/orca"

SPEECHD_CONF = """# A speech-dispatcher that speaks nowhere: every utterance is appended to $SPOKEN_LOG.
LogLevel 3
DefaultVolume 100
AddModule "silent" "sd_generic" "silent.conf"
DefaultModule silent
LanguageDefaultModule "en" "silent"
LanguageDefaultModule "ja" "silent"
"""

SILENT_CONF = """GenericExecuteSynth "echo \\'$DATA\\' >> \\"${SPOKEN_LOG:-/dev/null}\\""
GenericPunctNone ""
GenericPunctSome "--punct=\\"()<>[]{}\\""
GenericPunctMost "--punct=\\"()[]{};:\\""
GenericPunctAll "--punct"
AddVoice "en" "MALE1" "en"
AddVoice "ja" "MALE1" "ja"
DefaultVoice "en"
"""

# "SPEECH OUTPUT: 'Name text.'{'established': False}": the text, then the voice's settings.
SPEECH = re.compile(r"SPEECH OUTPUT: '(.*)'\s*(?:\{.*\})?$", re.M)


def missing():
    """What is missing to listen with Orca (a list of Debian packages), empty when nothing is."""
    out = []
    if not os.access(ORCA, os.X_OK):
        out.append("orca")
    if not (shutil.which("speech-dispatcher") or os.path.exists("/usr/bin/speech-dispatcher")):
        out.append("speech-dispatcher")
    if not os.path.exists("/usr/lib/speech-dispatcher-modules/sd_generic"):
        out.append("speech-dispatcher (sd_generic)")
    return out


def orca_copy(folder):
    """A copy of /usr/bin/orca with a line-buffered debug file and no machine-wide check for
    other Orcas; returns its path."""
    with open(ORCA, encoding="utf-8") as f:
        source = f.read()
    patched = source.replace("open(args.debug_file, 'w')", "open(args.debug_file, 'w', buffering=1)")
    patched = patched.replace("    if otherOrcas():\n", "    if False:\n")
    if patched.count("buffering=1") != 1 or "if False:" not in patched:
        raise RuntimeError(f"{ORCA} is not the Orca 43 this helper knows how to copy")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "orca-line-buffered")
    with open(path, "w", encoding="utf-8") as f:
        f.write(patched)
    os.chmod(path, 0o755)
    return path


class Orca:
    """One Orca on a desktop (`env`: DISPLAY, the session bus, AT_SPI_BUS_ADDRESS), its files in
    `folder`: orca-debug.txt (the debug log), spoken.txt (what speech-dispatcher was handed)."""

    def __init__(self, env, folder):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.log_path = os.path.join(folder, "orca-debug.txt")
        self.spoken_path = os.path.join(folder, "spoken.txt")
        config = os.path.join(folder, "config")
        os.makedirs(os.path.join(config, "speech-dispatcher", "modules"), exist_ok=True)
        with open(os.path.join(config, "speech-dispatcher", "speechd.conf"), "w") as f:
            f.write(SPEECHD_CONF)
        with open(os.path.join(config, "speech-dispatcher", "modules", "silent.conf"), "w") as f:
            f.write(SILENT_CONF)
        runtime = os.path.join(folder, "run")
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        self.prefs = os.path.join(folder, "prefs")
        os.makedirs(self.prefs, exist_ok=True)
        self.env = dict(env)
        self.env.update({"XDG_CONFIG_HOME": config, "XDG_RUNTIME_DIR": runtime,
                         "XDG_DATA_HOME": os.path.join(folder, "data"),
                         "XDG_CACHE_HOME": os.path.join(folder, "cache"),
                         "SPOKEN_LOG": self.spoken_path, "GSETTINGS_BACKEND": "memory",
                         "HOME": folder})
        self.env.pop("GTK_A11Y", None)
        self.process = None
        self.read_at = 0

    def start(self, timeout=20):
        program = orca_copy(os.path.join(self.folder, "bin"))
        self.stderr = open(os.path.join(self.folder, "orca-stderr.txt"), "wb")
        self.process = subprocess.Popen(
            ["/usr/bin/python3", program, "-u", self.prefs, "--debug-file", self.log_path],
            env=self.env, stdin=subprocess.DEVNULL, stdout=self.stderr, stderr=subprocess.STDOUT,
            start_new_session=True)
        # Ready: Orca has loaded its settings and listens for events.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"orca exited with {self.process.returncode}: {self.tail()}")
            if "Orca is running" in self.text() or "ORCA: Starting" in self.text() or \
                    "SPEECH OUTPUT: 'Screen reader on.'" in self.text():
                return self
            time.sleep(0.1)
        raise RuntimeError("orca did not start within %g s: %s" % (timeout, self.tail()))

    def text(self):
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def tail(self):
        try:
            with open(os.path.join(self.folder, "orca-stderr.txt"), errors="replace") as f:
                return " | ".join(f.read().splitlines()[-5:])
        except OSError:
            return ""

    def spoken(self):
        """Every SPEECH OUTPUT line so far, in order."""
        return SPEECH.findall(self.text())

    def new(self):
        """The lines spoken since the last call."""
        lines = self.spoken()
        fresh = lines[self.read_at:]
        self.read_at = len(lines)
        return fresh

    def stop(self):
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
        self.process = None
