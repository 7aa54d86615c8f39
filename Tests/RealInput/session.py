"""The desktop the real-input suite runs apps on: a private Xvfb display, a private D-Bus session
bus and the accessibility (AT-SPI) bus, each started here and ended here by PID.

Every process started here (and everything those start: the a11y bus's dbus-daemon, the
at-spi2-registryd it activates and which ends up re-parented to PID 1, the apps) carries
QUIRE_REAL_INPUT_RUN=<run id> in its environment; `Desktop.stop` ends the known PIDs and then
sweeps /proc for anything else carrying the mark, so no Xvfb or bus daemon outlives a run, even
after a crash or Ctrl+C of the suite.
"""

import os
import select
import signal
import subprocess
import tempfile
import time

MARK = "QUIRE_REAL_INPUT_RUN"
LAUNCHER_PATHS = ["/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher"]


class SetupError(Exception):
    pass


def stop_pid(pid, grace=3.0):
    """SIGTERM, then SIGKILL after `grace` seconds; reaps it if it is our child."""
    if not pid:
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        except ChildProcessError:
            # not our child: poll its existence
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def marked_pids(run_id):
    """PIDs whose environment holds MARK=run_id."""
    want = f"{MARK}={run_id}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if want in f.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


class Desktop:
    """Xvfb + session bus + a11y bus. `env` is what every app (and xdotool, import) gets."""

    def __init__(self, screen="1280x800x24", verbose=False):
        self.screen = screen
        self.verbose = verbose
        self.run_id = f"{os.getpid()}-{int(time.time() * 1000)}"
        self.dir = tempfile.mkdtemp(prefix="quire-real-input.")
        self.xvfb = None
        self.bus_pid = None
        self.launcher = None
        self.display = None
        self.env = None
        self.a11y_address = None

    def log(self, message):
        if self.verbose:
            print(f"# desktop: {message}", flush=True)

    def base_env(self):
        env = {k: v for k, v in os.environ.items()
               if k not in ("GTK_A11Y", "NO_AT_BRIDGE", "WAYLAND_DISPLAY", "DISPLAY", "GTK_MODULES",
                            "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "G_DEBUG")}
        env[MARK] = self.run_id
        return env

    def start(self):
        runtime = os.path.join(self.dir, "run")
        os.mkdir(runtime, 0o700)
        env = self.base_env()
        env["XDG_RUNTIME_DIR"] = runtime
        # Xvfb picks a free display itself and writes its number to the pipe once it accepts clients.
        read_end, write_end = os.pipe()
        xvfb_log = open(os.path.join(self.dir, "xvfb.log"), "wb")
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", self.screen, "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_end,), stdin=subprocess.DEVNULL, stdout=xvfb_log, stderr=subprocess.STDOUT,
            env=env, start_new_session=True)
        os.close(write_end)
        data = b""
        deadline = time.monotonic() + 15
        while b"\n" not in data and time.monotonic() < deadline:
            ready, _, _ = select.select([read_end], [], [], 0.2)
            if ready:
                chunk = os.read(read_end, 64)
                if not chunk:
                    break
                data += chunk
            if self.xvfb.poll() is not None:
                break
        os.close(read_end)
        if not data.strip().isdigit():
            raise SetupError("Xvfb did not start: " + self.tail("xvfb.log"))
        self.display = ":" + data.strip().decode()
        env["DISPLAY"] = self.display
        self.log(f"Xvfb {self.display} pid {self.xvfb.pid}")

        # A private session bus (GTK applications register their name on it).
        out = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                             env=env, capture_output=True, text=True, timeout=15)
        lines = out.stdout.split()
        if out.returncode != 0 or len(lines) < 2:
            raise SetupError(f"dbus-daemon --session failed: {out.stderr.strip()}")
        env["DBUS_SESSION_BUS_ADDRESS"] = lines[0]
        self.bus_pid = int(lines[1])
        self.log(f"session bus {lines[0]} pid {self.bus_pid}")
        # What the bus starts on demand (the portals; ibus-portal, which ibus-daemon asks for in
        # the ime/* case) gets XDG folders in this scratch folder, not the user's home: it runs
        # with the bus's environment, not the app's.
        services = os.path.join(self.dir, "services")
        pairs = []
        for key in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
            folder = os.path.join(services, key[4:-5].lower())
            os.makedirs(folder, exist_ok=True)
            pairs += [key, folder]
        update = subprocess.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.UpdateActivationEnvironment", "dict:string:string:" + ",".join(pairs)],
            env=env, capture_output=True, text=True, timeout=10)
        if update.returncode != 0:
            raise SetupError(f"the session bus refused UpdateActivationEnvironment: {update.stderr.strip()}")

        # The accessibility bus, started now (not activated on first use), owned by our launcher.
        launcher = next((p for p in LAUNCHER_PATHS if os.access(p, os.X_OK)), None)
        if launcher is None:
            raise SetupError("at-spi-bus-launcher not found (apt-get install at-spi2-core)")
        a11y_log = open(os.path.join(self.dir, "a11y.log"), "wb")
        self.launcher = subprocess.Popen([launcher, "--launch-immediately"], env=env, stdin=subprocess.DEVNULL,
                                         stdout=a11y_log, stderr=subprocess.STDOUT, start_new_session=True)
        address = None
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and self.launcher.poll() is None:
            owner = subprocess.run(
                ["dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
                 "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:org.a11y.Bus"],
                env=env, capture_output=True, text=True, timeout=10)
            if "true" in owner.stdout:
                reply = subprocess.run(
                    ["dbus-send", "--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus",
                     "org.a11y.Bus.GetAddress"], env=env, capture_output=True, text=True, timeout=10)
                address = reply.stdout.strip()
                if address:
                    break
            time.sleep(0.05)
        if not address:
            raise SetupError("the accessibility bus did not come up: " + self.tail("a11y.log"))
        # GTK 4.8 reads AT_SPI_BUS_ADDRESS first; setting it makes the apps and this process use
        # the same bus whatever the launcher does with the X root window.
        env["AT_SPI_BUS_ADDRESS"] = address
        self.a11y_address = address
        self.log(f"a11y bus {address}")
        self.env = env
        # This process reads the tree over the same buses (Atspi is imported after this).
        for key in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "XDG_RUNTIME_DIR"):
            os.environ[key] = env[key]
        os.environ.pop("GTK_A11Y", None)
        return self

    def app_env(self, xdg_root, extra=None):
        """The environment of one app: this desktop's, GTK's cairo renderer, and XDG folders of
        its own under xdg_root (nothing saved leaks from one case to the next)."""
        env = dict(self.env)
        for sub in ("config", "data", "state", "cache"):
            os.makedirs(os.path.join(xdg_root, sub), exist_ok=True)
        os.makedirs(os.path.join(xdg_root, "config", "gtk-4.0"), exist_ok=True)
        with open(os.path.join(xdg_root, "config", "gtk-4.0", "settings.ini"), "w") as f:
            f.write("[Settings]\ngtk-cursor-blink = false\n")
        env.update({
            "XDG_CONFIG_HOME": os.path.join(xdg_root, "config"),
            "XDG_DATA_HOME": os.path.join(xdg_root, "data"),
            "XDG_STATE_HOME": os.path.join(xdg_root, "state"),
            "XDG_CACHE_HOME": os.path.join(xdg_root, "cache"),
            "GSETTINGS_BACKEND": "memory",
            "GDK_BACKEND": "x11",
            "GSK_RENDERER": "cairo",
            "GDK_DEBUG": "gl-disable",
            # GTK's own input method, whatever is installed: with ibus-gtk4 present GTK 4 picks
            # IBus by default (and falls back to this one when no daemon answers). Only ime/*
            # asks for "ibus". ("simple" is no name GTK 4 knows: it would mean the default.)
            "GTK_IM_MODULE": "gtk-im-context-simple",
        })
        # A Swift crash prints its message at once; the backtracer would then spend seconds
        # symbolicating. Set SWIFT_BACKTRACE yourself to get the backtrace.
        env.setdefault("SWIFT_BACKTRACE", "enable=no")
        if extra:
            env.update(extra)
        return env

    def tail(self, name, lines=5):
        try:
            with open(os.path.join(self.dir, name), errors="replace") as f:
                return " | ".join(f.read().splitlines()[-lines:])
        except OSError:
            return ""

    def alive(self):
        return self.xvfb is not None and self.xvfb.poll() is None

    def stop(self):
        if self.launcher is not None:
            stop_pid(self.launcher.pid)
            self.launcher = None
        if self.bus_pid:
            stop_pid(self.bus_pid)
            self.bus_pid = None
        if self.xvfb is not None:
            stop_pid(self.xvfb.pid)
            self.xvfb = None
        left = marked_pids(self.run_id)
        for pid in left:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        if left:
            time.sleep(0.3)
            for pid in marked_pids(self.run_id):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        subprocess.run(["rm", "-rf", self.dir])
